python -m lcanalysis.experiments data --only matches --matches 10000
