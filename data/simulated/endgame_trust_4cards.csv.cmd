python benchmarks/bench_endgame_trust.py --deck 4 --positions 16 --endgame-cards 4 --out data/simulated/endgame_trust_4cards.csv
