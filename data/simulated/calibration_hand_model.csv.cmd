python -m lcanalysis.studies.calibration --no-streams --schedule two-stage --hand-model --rounds 200 --every 8 --out data/simulated/calibration_hand_model.csv --no-progress
