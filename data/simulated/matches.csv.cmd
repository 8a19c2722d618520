lcanalysis studies data --only matches --matches 10000
