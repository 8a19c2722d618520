python -m lcanalysis.experiments data --only colours --rounds 20000
