python -m lcanalysis.studies.calibration --agents best best --playout-policy staged --rounds 200 --every 8 --out data/simulated/calibration_best_model_endgame.csv --no-progress
