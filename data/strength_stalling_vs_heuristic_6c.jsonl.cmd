lcanalysis tournament stalling heuristic --colors 6 --deals 1000 --workers 1 --out data/strength_stalling_vs_heuristic_6c.jsonl --csv data/strength_stalling_vs_heuristic_6c.csv
