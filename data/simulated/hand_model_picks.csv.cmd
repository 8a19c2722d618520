python -m lcanalysis.studies.hand_model picks data/simulated/calibration.csv data/simulated/calibration_hand_model.csv --worlds 1000 --out data/simulated/hand_model_picks.csv
