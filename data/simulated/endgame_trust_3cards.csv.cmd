python benchmarks/bench_endgame_trust.py --deck 3 --positions 16 --hint-time 10 --out data/simulated/endgame_trust_3cards.csv
