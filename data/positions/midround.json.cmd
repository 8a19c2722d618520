python -m lcanalysis.experiments data --only positions
