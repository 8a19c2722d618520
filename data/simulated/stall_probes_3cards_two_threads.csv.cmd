python benchmarks/bench_stall_probes.py --deck 3 --positions 16 --workers 2 --out data/simulated/stall_probes_3cards_two_threads.csv
