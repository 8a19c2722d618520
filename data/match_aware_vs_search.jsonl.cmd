lcanalysis tournament match:time_ms=20 search:time_ms=20 --rounds 3 --deals 90 --workers 1 --out data/match_aware_vs_search.jsonl --csv data/match_aware_vs_search.csv > data/match_aware_vs_search.txt
python -m lcanalysis.studies.match_table data/match_aware_vs_search.csv >> data/match_aware_vs_search.txt
