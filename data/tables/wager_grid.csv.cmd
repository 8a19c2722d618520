lcanalysis studies data --only wager_grid
