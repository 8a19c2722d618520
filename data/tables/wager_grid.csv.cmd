python -m lcanalysis.experiments data --only wager_grid
