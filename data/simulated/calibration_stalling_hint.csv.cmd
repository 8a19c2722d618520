python -m lcanalysis.studies.calibration --agents stalling stalling --playout-policy stalling --rounds 200 --every 8 --endgame-splits uniform --out data/simulated/calibration_stalling_hint.csv
