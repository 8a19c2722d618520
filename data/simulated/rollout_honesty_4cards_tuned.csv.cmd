python benchmarks/bench_rollout_honesty.py --playouts plain stalling tuned --agents --out data/simulated/rollout_honesty_4cards_tuned.csv
