python -m lcanalysis.studies.calibration --rounds 200 --every 8 --out data/simulated/calibration_heuristic_model_endgame.csv --no-progress
