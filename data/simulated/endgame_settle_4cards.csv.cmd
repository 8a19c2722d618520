python benchmarks/bench_endgame_settle.py --deck 4 --positions 16 --out data/simulated/endgame_settle_4cards.csv --min-stalls 1 --no-fill-every-turn
