python benchmarks/bench_endgame_reach.py --decks 2 3 4 5 --positions 8 --no-bracket --out data/simulated/endgame_reach_trusted.csv
