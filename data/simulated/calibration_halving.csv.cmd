python -m lcanalysis.studies.calibration --rounds 400 --every 8 --out data/simulated/calibration_halving.csv --no-progress
