lcanalysis studies data --only first_player_rounds --deals 20000
