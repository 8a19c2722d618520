python benchmarks/bench_stall_probes.py --deck 3 --positions 16 --out data/simulated/stall_probes_3cards.csv
