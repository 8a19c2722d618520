python -m lcanalysis.experiments data --only stalling --positions 400
