lcanalysis tournament best heuristic --deals 200 --workers 2 --out data/strength_best1500_vs_heuristic.jsonl --csv data/strength_best1500_vs_heuristic.csv > data/strength_best1500_vs_heuristic.txt
