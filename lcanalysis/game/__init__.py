"""The game as objects and how it is written down: cards (``cards``), turns (``moves``), the
rules (``rules``), a full position (``position``) and one player's view of it (``view``), reading
and writing positions (``notation``, ``formats``), game records (``records``), matches (``match``)
and the built-in examples (``examples``). The front door (``lcanalysis``) names the public ones.
"""
