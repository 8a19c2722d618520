lcanalysis tournament search heuristic greedy random --deals 50 --out data/round_robin_4agents.jsonl --csv data/round_robin_4agents.csv > data/round_robin_4agents.txt
