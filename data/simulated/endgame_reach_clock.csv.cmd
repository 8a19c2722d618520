python benchmarks/bench_endgame_reach.py --decks 3 4 --positions 16 --clock --no-bracket --out data/simulated/endgame_reach_clock.csv
