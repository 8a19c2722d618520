python -m lcanalysis.studies.skill_and_luck draws --deals 250 --first-deal 1000 --out data/simulated/skill_and_luck_draws.csv
