"""Heroes on a battle tile: absorbing hits as stress, and recovering between battles."""

from __future__ import annotations

import sys

from ... import _kernels
from ..._kernels import game_fn, guard_caches
from . import state
from .state import (
    ALLIANCE,
    BR,
    BS,
    G_STRESS,
    HP_ALL,
    HP_LAST,
    HP_NEVER,
    HP_REMOVALS,
    O_ALLIANCE_HITS,
    O_ARMY_HITS,
    O_BARRICADE_ORDER,
    O_HERO_CHOICE,
    O_HERO_POLICY,
    O_HEROES,
    O_MAX_STRESS,
    READY_FIRST,
    TAC,
    R,
    S,
    side_ready,
    units,
)


@game_fn
def apply_hits_heroes(u, t, s, l, hits, opts, stress, g):
    """:func:`apply_hits` one hit at a time, for when heroes may absorb hits.

    Apply ``hits`` to line ``l`` of side ``s`` on tile ``t``.

    Printed: barricades first ("After a barricade has absorbed a hit, it is removed"); "A ready
    unit that takes 1 hit is shaken. A shaken unit that takes 1 hit is removed."; heroes may
    absorb a hit for 1 stress (Alliance only, by ``opts[O_HERO_POLICY]``, never beyond the
    maximum stress); "Apply hits to a line until the hits have all been applied or no units
    remain on that line." Which unit takes a hit is ``opts[O_ALLIANCE_HITS]`` /
    ``opts[O_ARMY_HITS]`` (0 shaken units first, 1 ready units first); which barricade
    absorbs first ``opts[O_BARRICADE_ORDER]`` (0 those under shaken units, 1 under ready
    units); which hero absorbs ``opts[O_HERO_CHOICE]`` (0 the least stressed, 1 the most
    stressed below the maximum).
    """
    pol = opts[O_ALLIANCE_HITS] if s == ALLIANCE else opts[O_ARMY_HITS]
    hp = opts[O_HERO_POLICY]
    nh = opts[O_HEROES] if s == ALLIANCE else 0
    mx = opts[O_MAX_STRESS]
    bo = opts[O_BARRICADE_ORDER]
    most = opts[O_HERO_CHOICE] != 0
    if hits <= 0:
        return
    while hits > 0:
        r = u[t, s, l, R]
        sh = u[t, s, l, S]
        if r + sh == 0:
            break
        if u[t, s, l, BR] + u[t, s, l, BS] > 0:
            if u[t, s, l, BS] > 0 and (bo == 0 or u[t, s, l, BR] == 0):
                u[t, s, l, BS] -= 1
            else:
                u[t, s, l, BR] -= 1
            hits -= 1
            continue
        removal = r == 0 or (pol != READY_FIRST and sh > 0)
        if nh > 0 and hp != HP_NEVER:
            want = hp == HP_ALL or (hp == HP_REMOVALS and removal)
            if hp == HP_LAST and not removal and side_ready(u, t, s) == 1:
                want = True
            if want:
                best = -1
                for h in range(nh):
                    if stress[h] < mx and (
                        best < 0 or (stress[h] > stress[best] if most else stress[h] < stress[best])
                    ):
                        best = h
                if best >= 0:
                    stress[best] += 1
                    g[G_STRESS] += 1
                    hits -= 1
                    continue
        if removal:
            u[t, s, l, S] = sh - 1
        else:
            u[t, s, l, R] = r - 1
            u[t, s, l, S] = sh + 1
        hits -= 1
    if units(u, t, s, l) == 0:
        # "If all the units on a line are removed, any tactic tokens on that line are also removed."
        u[t, s, l, TAC] = 0


@game_fn(inline="always")
def recover(stress, k):
    """Between two battles each hero loses up to ``k`` stress (``opts[O_STRESS_RECOVERY]``;
    0, the default: heroes keep their stress)."""
    if k > 0:
        for h in range(stress.shape[0]):
            stress[h] = max(0, stress[h] - k)


# numba caches a function only against its own file: flush this module's caches when a file it
# compiles in changes
guard_caches(sys.modules[__name__], [state, _kernels])
