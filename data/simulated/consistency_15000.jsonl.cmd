python benchmarks/bench_schedules.py --positions 200 --reference 30 --schedules halving --refs data/simulated/consistency_15000.jsonl --playout-policy plain --out data/simulated/consistency_15000.csv
