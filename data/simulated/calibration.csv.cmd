python -m lcanalysis.studies.calibration --no-streams --schedule two-stage --no-hand-model --rounds 200 --every 8 --out data/simulated/calibration.csv
