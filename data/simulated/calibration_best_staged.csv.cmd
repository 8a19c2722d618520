python -m lcanalysis.studies.calibration --agents best best --playout-policy staged --rounds 200 --every 8 --endgame-splits uniform --out data/simulated/calibration_best_staged.csv --no-progress
