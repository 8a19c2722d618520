python -m lcanalysis.studies.calibration --agents best best --playout-policy staged --hands both --rounds 200 --every 8 --out data/simulated/calibration_best_both_hands.csv --no-progress
