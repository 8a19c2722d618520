"""The questions behind the notebooks, the articles and ``data/``: each module a study with seeded
functions that return tables or estimates with their standard errors (docs/ARCHITECTURE.md lists them).
"""
