lcanalysis tournament best search stalling heuristic greedy random --deals 50 --workers 1 --allow-code-change --out data/round_robin_6agents.jsonl --csv data/round_robin_6agents.csv
