python -m lcanalysis.studies.consistency --positions 200 --reference 30 --workers 2 --no-streams --schedule two-stage --playout-rate 6000 --playout-policy plain --out data/simulated/consistency.csv
