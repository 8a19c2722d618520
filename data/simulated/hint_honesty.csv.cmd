python benchmarks/bench_hint_honesty.py --positions 200 --refs data/simulated/schedule_consistency.jsonl --playout-rate 6000 --playout-policy plain --out data/simulated/hint_honesty.csv
