"""Dragon Lords (Grenadier, 1990s): hex-grid aerial dragon combat, the basic rules simulated.

Modules, in the order a game's data flows through them:

* ``sheets`` -- components -> play sheet, design points, the roster of ready-made dragons;
* ``tables`` -- the rules in force (:mod:`dragonsim.rules.lords`) -> plain arrays for kernels;
* ``state`` -- the layouts of every kernel array (dragon state rows, options, counters, logs);
* ``hexes`` -- hex-grid geometry; ``movetables`` -- every legal move, precomputed;
* ``mechanics`` -- the rules mechanics (to-hit number, engagement, moves, damage, close combat);
* ``bots`` -- the named, versioned bots (``bots.dispatch`` and one module per bot family);
* ``engine`` -- the game loop, one function per phase, and the numba kernels;
* ``api`` (``duel``, ``battle``, ...), ``study``, ``odds`` (exact probabilities), ``baseline``.
"""
