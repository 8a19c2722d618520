LC_SCREENSHOTS=data/screenshots python -m pytest tests/test_browser.py
