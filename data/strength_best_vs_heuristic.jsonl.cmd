lcanalysis tournament best heuristic --deals 200 --workers 1 --out data/strength_best_vs_heuristic.jsonl --csv data/strength_best_vs_heuristic.csv > data/strength_best_vs_heuristic.txt
