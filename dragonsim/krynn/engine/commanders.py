"""Commanders: the powers a ready commander activates in a battle."""

from __future__ import annotations

import sys

from ... import _kernels, random
from ..._kernels import game_fn, guard_caches
from . import dice, heroes, lines, state
from .dice import roll_battle
from .lines import add_barricades, add_tactics, apply_hits, rally, shake_units
from .state import ANY, G_DICE, H_BARRICADE, H_DICE, H_HITS, H_RALLY, H_SHAKE, H_TACTIC, O_CMD_WOE


@game_fn(inline="always")
def commander_power(u, t, s, fl, cmd_tab, die, opts, stress, g, st_d):
    """Activate the ready commander of side ``s`` on tile ``t`` (one hook of ``cmd_tab``; see
    data.Commander); ``fl`` is the fighting line, the target of a power "-> fighting"; a
    dice power rolls the battle die ``die`` from the stream ``st_d``. Inlined, at one call
    site of the battle: as an ordinary call it passed some seventy argument words (its
    arrays field by field), which cost a game with commanders 10% against inlining."""
    hook = cmd_tab[t, s, 0]
    amount = cmd_tab[t, s, 1]
    tl = cmd_tab[t, s, 2]
    if tl == ANY:
        tl = fl
    o = 1 - s
    if hook == H_HITS:
        apply_hits(u, t, o, tl, amount, opts, stress, g)
    elif hook == H_DICE:
        hits, woe = roll_battle(st_d, amount, die.hits, die.woe)
        g[G_DICE] += amount
        apply_hits(u, t, o, tl, hits, opts, stress, g)
        if opts[O_CMD_WOE] != 0:  # Woe hits the commander's own line (else ignored)
            apply_hits(u, t, s, tl, woe, opts, stress, g)
    elif hook == H_TACTIC:
        add_tactics(u, t, s, tl, amount)
    elif hook == H_BARRICADE:
        add_barricades(u, t, s, tl, amount)
    elif hook == H_RALLY:
        rally(u, t, s, tl, amount)
    elif hook == H_SHAKE:
        shake_units(u, t, o, tl, amount)


# numba caches a function only against its own file: flush this module's caches when a file it
# compiles in changes
guard_caches(sys.modules[__name__], [dice, heroes, lines, state, random, _kernels])
