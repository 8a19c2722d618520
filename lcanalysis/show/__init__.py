"""Pictures and interaction: SVG and text drawings (``render``), the hint as a player reads it
(``hint``), the articles' figures (``figures``), the notebooks' explorers (``widgets``) and the
tutor's clickable board (``tutor``).
"""
