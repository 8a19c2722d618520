python benchmarks/bench_stall_probes.py --deck 3 --positions 8 --out data/simulated/stall_probes_3cards.csv
