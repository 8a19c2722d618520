python -m lcanalysis.studies.policy_tune --out data/simulated/policy_tune.json
