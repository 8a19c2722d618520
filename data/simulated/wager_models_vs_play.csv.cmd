lcanalysis studies data --only wager_models --rounds 2000 --mc 2000
