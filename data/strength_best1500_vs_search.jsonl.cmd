lcanalysis tournament best:time_ms=250 search --deals 1000 --workers 2 --out data/strength_best1500_vs_search.jsonl --csv data/strength_best1500_vs_search.csv > data/strength_best1500_vs_search.txt
python -m lcanalysis.studies.paired_strength data/strength_best1500_vs_search.jsonl data/strength_best_streams_vs_search.jsonl >> data/strength_best1500_vs_search.txt
