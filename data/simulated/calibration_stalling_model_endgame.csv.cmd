python -m lcanalysis.studies.calibration --agents stalling stalling --playout-policy stalling --rounds 200 --every 8 --out data/simulated/calibration_stalling_model_endgame.csv --no-progress
