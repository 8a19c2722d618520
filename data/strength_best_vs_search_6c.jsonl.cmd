lcanalysis tournament best search --colors 6 --deals 150 --workers 2 --out data/strength_best_vs_search_6c.jsonl --csv data/strength_best_vs_search_6c.csv
