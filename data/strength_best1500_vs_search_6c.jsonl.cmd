lcanalysis tournament best search --colors 6 --deals 1000 --workers 2 --out data/strength_best1500_vs_search_6c.jsonl --csv data/strength_best1500_vs_search_6c.csv > data/strength_best1500_vs_search_6c.txt
python -m lcanalysis.studies.paired_strength data/strength_best1500_vs_search_6c.jsonl data/strength_best_streams_vs_search_6c.jsonl --opponent search >> data/strength_best1500_vs_search_6c.txt
