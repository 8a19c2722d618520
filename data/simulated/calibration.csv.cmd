python -m lcanalysis.studies.calibration --no-streams --no-hand-model --rounds 200 --every 8 --out data/simulated/calibration.csv
