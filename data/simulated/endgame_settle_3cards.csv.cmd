python benchmarks/bench_endgame_settle.py --deck 3 --positions 16 --out data/simulated/endgame_settle_3cards.csv --min-stalls 1 --no-fill-every-turn
