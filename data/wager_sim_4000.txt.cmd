lcanalysis studies wager-sim --rounds 4000 --snap-turn 4 20 > data/wager_sim_4000.txt
