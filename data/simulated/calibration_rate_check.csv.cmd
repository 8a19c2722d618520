python benchmarks/bench_playout_rate_values.py --positions 1000 --out data/simulated/calibration_rate_check.csv
