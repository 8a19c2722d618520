python -m lcanalysis.studies.skill_and_luck review-luck --deals 200 --first-deal 2000 --time 0.1 --hand-model --out data/simulated/skill_and_luck_review_luck_model.csv
