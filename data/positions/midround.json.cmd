lcanalysis studies data --only positions
