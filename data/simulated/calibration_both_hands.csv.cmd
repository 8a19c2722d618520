python -m lcanalysis.studies.calibration --endgame-cards 3 --no-streams --schedule two-stage --hands both --rounds 60 --every 8 --playout-rate 6000 --out data/simulated/calibration_both_hands.csv
