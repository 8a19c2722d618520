python benchmarks/bench_rollout_honesty.py --trials 100 --out data/simulated/rollout_honesty_4cards.csv
