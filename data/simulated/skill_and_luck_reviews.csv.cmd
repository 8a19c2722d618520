python -m lcanalysis.studies.skill_and_luck reviews --rounds 40 --time 0.1 --search-floor 0 --out data/simulated/skill_and_luck_reviews.csv
