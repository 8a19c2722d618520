python benchmarks/bench_endgame_trust.py --deck 4 --positions 16 --endgame-cards 4 --hint-time 10 --out data/simulated/endgame_trust_4cards_settled.csv
