python benchmarks/bench_endgame_levels.py --deck 4 --positions 16 --out data/simulated/endgame_levels_4cards.csv
