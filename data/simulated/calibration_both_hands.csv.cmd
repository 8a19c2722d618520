python -m lcanalysis.studies.calibration --no-streams --hands both --rounds 60 --every 8 --out data/simulated/calibration_both_hands.csv
