python benchmarks/bench_two_stalls_trust.py --deck 4 --positions 16 --nodes 1200000000 --out data/simulated/two_stalls_trust_4cards.csv
