lcanalysis tournament heuristic greedy --deals 1000 --out data/strength_heuristic_vs_greedy.jsonl --csv data/strength_heuristic_vs_greedy.csv
