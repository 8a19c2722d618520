python benchmarks/bench_schedules.py --positions 200 --reference 30 --schedules two-stage halving --refs data/simulated/schedule_consistency.jsonl --out data/simulated/schedule_consistency.csv
