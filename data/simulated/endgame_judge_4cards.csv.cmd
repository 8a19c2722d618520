python benchmarks/bench_endgame_trust.py --deck 4 --positions 16 --endgame-cards 4 --hint-time 2 --out data/simulated/endgame_judge_4cards.csv
