lcanalysis studies wager-tables
