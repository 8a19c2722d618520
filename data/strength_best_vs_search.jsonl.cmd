lcanalysis tournament best search --deals 1000 --workers 2 --allow-code-change --out data/strength_best_vs_search.jsonl --csv data/strength_best_vs_search.csv
