python -m lcanalysis.studies.calibration --endgame-cards 3 --no-streams --schedule two-stage --hand-model --rounds 200 --every 8 --out data/simulated/calibration_hand_model.csv --no-progress
