git checkout 3dea1c0 && python -m lcanalysis.studies.calibration --rounds 3938 --every 8 --out data/simulated/calibration_today.csv --no-progress
