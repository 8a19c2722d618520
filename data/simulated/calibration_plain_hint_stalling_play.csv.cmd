python -m lcanalysis.studies.calibration --agents stalling stalling --playout-policy plain --rounds 200 --every 8 --out data/simulated/calibration_plain_hint_stalling_play.csv
