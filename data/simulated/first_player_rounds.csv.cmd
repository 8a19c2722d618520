python -m lcanalysis.experiments data --only first_player_rounds --deals 20000
