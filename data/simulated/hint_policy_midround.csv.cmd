python benchmarks/bench_hint_policy.py --decks 5 7 9 11 13 15 20 25 30 --views 8 --trials 150 --workers 2 --out data/simulated/hint_policy_midround.csv
