lcanalysis tournament search:stall=0.5,break_loops=1,hand_model=1,cap=25 search --deals 224 --workers 2 --allow-code-change --out data/screen_cap25_vs_search.jsonl --csv data/screen_cap25_vs_search.csv > data/screen_cap25_vs_search.txt
python -m lcanalysis.studies.paired_strength data/screen_cap25_vs_search.jsonl data/strength_best_vs_search.jsonl >> data/screen_cap25_vs_search.txt
