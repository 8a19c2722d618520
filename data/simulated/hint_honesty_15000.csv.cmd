python benchmarks/bench_hint_honesty.py --positions 200 --refs data/simulated/consistency_15000.jsonl --playout-policy plain --out data/simulated/hint_honesty_15000.csv
