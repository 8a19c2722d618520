lcanalysis studies data --only colours --rounds 20000
