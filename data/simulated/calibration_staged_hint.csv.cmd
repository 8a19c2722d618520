python -m lcanalysis.studies.calibration --rounds 200 --every 8 --endgame-splits uniform --out data/simulated/calibration_staged_hint.csv --no-progress
