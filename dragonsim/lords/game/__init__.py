"""The Dragon Lords game itself, below everything that plays it: the play sheets and their
design points (``sheets``), the rules in force as arrays (``tables``), the layouts of the
kernels' arrays (``state``), hex geometry (``hexes``), every legal move (``movetables``), the
rules mechanics a phase applies (``mechanics``) and exact probabilities (``odds``). Nothing here
imports the bots, the engine or the studies."""
