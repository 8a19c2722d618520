python benchmarks/bench_rollout_honesty.py --playouts plain stalling --agents --out data/simulated/rollout_honesty_4cards_stalling.csv
