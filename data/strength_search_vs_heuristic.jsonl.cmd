lcanalysis tournament search heuristic --deals 1000 --out data/strength_search_vs_heuristic.jsonl --csv data/strength_search_vs_heuristic.csv
