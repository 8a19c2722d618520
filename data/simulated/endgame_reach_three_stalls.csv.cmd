python benchmarks/bench_endgame_reach.py --decks 4 5 --positions 16 --no-bracket --out data/simulated/endgame_reach_three_stalls.csv
