python -m lcanalysis.tables
