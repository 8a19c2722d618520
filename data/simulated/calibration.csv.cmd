python -m lcanalysis.studies.calibration --endgame-cards 3 --no-streams --schedule two-stage --no-hand-model --rounds 200 --every 8 --playout-rate 6000 --out data/simulated/calibration.csv
