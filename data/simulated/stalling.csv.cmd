lcanalysis studies data --only stalling --positions 400
