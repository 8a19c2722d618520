python -m lcanalysis.studies.hand_model score lcanalysis/data/hand_model.json data/simulated/hand_model_best.json --agents best best --rounds 150 --out data/simulated/hand_model_scores_best.json
