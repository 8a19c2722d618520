lcanalysis tournament search heuristic --colors 6 --deals 300 --out data/strength_search_vs_heuristic_6c.jsonl --csv data/strength_search_vs_heuristic_6c.csv
