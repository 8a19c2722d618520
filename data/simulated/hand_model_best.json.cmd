python -m lcanalysis.studies.hand_model train --agents best best --rounds 150 --every 2 --out data/simulated/hand_model_best.json
