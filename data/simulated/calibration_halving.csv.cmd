python -m lcanalysis.studies.calibration --endgame-cards 3 --rounds 3938 --every 8 --playout-rate 6000 --playout-policy plain --out data/simulated/calibration_halving.csv --no-progress
