python -m lcanalysis.studies.calibration --rounds 200 --every 8 --playout-policy plain --endgame-splits uniform --out data/simulated/calibration_plain_hint_today.csv --no-progress
