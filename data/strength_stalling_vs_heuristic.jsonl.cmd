lcanalysis tournament stalling heuristic --deals 3000 --workers 1 --out data/strength_stalling_vs_heuristic.jsonl --csv data/strength_stalling_vs_heuristic.csv
