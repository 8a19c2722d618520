lcanalysis play --seed 11 --record data/records/play_seed11_you_vs_best.json  # interactive: a person played player 0 against best (the default agent); the turns are theirs
