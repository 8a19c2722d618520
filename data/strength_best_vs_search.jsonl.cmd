lcanalysis tournament best search --deals 200 --workers 2 --out data/strength_best_vs_search.jsonl --csv data/strength_best_vs_search.csv
