python -m lcanalysis.studies.consistency --positions 100 --reference 30 --workers 1 --schedule two-stage --playout-rate 6000 --playout-policy plain --out data/simulated/consistency_streams.csv
