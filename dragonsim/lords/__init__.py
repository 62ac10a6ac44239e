"""Dragon Lords: hex-grid aerial dragon combat (rulebook: shared/seeds/000_*.txt).

Modules: ``sheets`` (components -> play sheet, design points, roster), ``hexes`` (geometry),
``odds`` (exact probabilities), ``engine`` (numba game kernel), ``policies`` (bots),
``api`` (``duel`` and friends).
"""
