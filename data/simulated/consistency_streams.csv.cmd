python -m lcanalysis.studies.consistency --positions 100 --reference 30 --workers 1 --out data/simulated/consistency_streams.csv
