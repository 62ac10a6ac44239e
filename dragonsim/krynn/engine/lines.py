"""A battle line's rules: hits, rallies, barricades, tactic tokens and shaking.

Rules on one line held in scalars ``(r, sh, br, bs, tac)`` (ready, shaken, barricades under
ready / shaken units, tactic tokens): branch-free, so the fight's random outcomes cost no
mispredicted branches and its state stays in registers. The array forms wrap them."""

from __future__ import annotations

import sys

import numpy as np

from ... import _kernels
from ..._kernels import game_fn, guard_caches
from . import heroes, state
from .heroes import apply_hits_heroes
from .state import (
    ALLIANCE,
    BR,
    BS,
    HP_NEVER,
    O_BARRICADE_ORDER,
    O_HERO_POLICY,
    O_HEROES,
    READY_FIRST,
    TAC,
    R,
    S,
    units,
)


@game_fn(inline="always")
def hit_line(r, sh, br, bs, tac, hits, pol, bo):
    """Apply ``hits`` to one line without heroes (see :func:`apply_hits_heroes` for the rules)
    in closed form; ``pol`` 1 ready units first, else shaken units first; ``bo`` 1 barricades
    under ready units first, else those under shaken units."""
    h0 = hits
    if bo:  # (the same for every call of a run: a branch always predicted)
        x = min(hits, br)
        br -= x
        hits -= x
        x = min(hits, bs)
        bs -= x
        hits -= x
    else:
        x = min(hits, bs)
        bs -= x
        hits -= x
        x = min(hits, br)
        br -= x
        hits -= x
    # ready units first
    x = min(hits, r)
    r1 = r - x
    s1 = sh + x
    s1 -= min(hits - x, s1)
    # shaken units first; each further ready unit: shaken, then removed
    x = min(hits, sh)
    s2 = sh - x
    h2 = hits - x
    k = min(h2 // 2, r)
    r2 = r - k
    h2 -= 2 * k
    z = np.int64(h2 > 0) & np.int64(r2 > 0)
    r2 -= z
    s2 += z
    rf = pol == READY_FIRST
    r = r1 if rf else r2
    sh = s1 if rf else s2
    # "If all the units on a line are removed, any tactic tokens on that line are also removed."
    if h0 > 0 and r + sh == 0:
        tac = 0
    return r, sh, br, bs, tac


@game_fn(inline="always")
def rally_line(r, sh, br, bs, k):
    """Refresh up to ``k`` shaken units (those on barricades first); returns ``(r, sh, br, bs)``."""
    k = min(k, sh)
    mb = min(k, bs)
    return r + k, sh - k, br + mb, bs - mb


@game_fn(inline="always")
def barricade_line(r, sh, br, bs, k):
    """Add up to ``k`` barricades, at most 1 per unit (ready units first); returns
    ``(br, bs)``."""
    a = min(k, r - br)
    return br + a, bs + min(k - a, sh - bs)


@game_fn(inline="always")
def shake_line(r, sh, br, k):
    """Shake up to ``k`` ready units not on barricades; returns ``(r, sh)``."""
    k = max(0, min(k, r - br))
    return r - k, sh + k


@game_fn(inline="always")
def apply_hits(u, t, s, l, hits, opts, stress, g):
    """Apply ``hits`` to line ``l`` of side ``s`` on tile ``t`` (see :func:`apply_hits_heroes`
    for the rules). Without heroes able to absorb, in closed form (no per-hit loop)."""
    if hits <= 0:
        return
    if opts[O_HEROES] > 0 and opts[O_HERO_POLICY] != HP_NEVER and s == ALLIANCE:
        apply_hits_heroes(u, t, s, l, hits, opts, stress, g)
        return
    r, sh, br, bs, tac = hit_line(
        u[t, s, l, R],
        u[t, s, l, S],
        u[t, s, l, BR],
        u[t, s, l, BS],
        u[t, s, l, TAC],
        hits,
        opts[s],
        opts[O_BARRICADE_ORDER],
    )
    u[t, s, l, R] = r
    u[t, s, l, S] = sh
    u[t, s, l, BR] = br
    u[t, s, l, BS] = bs
    u[t, s, l, TAC] = tac


@game_fn
def rally(u, t, s, l, k):
    """Refresh up to ``k`` shaken units of a line (those on barricades first)."""
    r, sh, br, bs = rally_line(u[t, s, l, R], u[t, s, l, S], u[t, s, l, BR], u[t, s, l, BS], k)
    u[t, s, l, R] = r
    u[t, s, l, S] = sh
    u[t, s, l, BR] = br
    u[t, s, l, BS] = bs


@game_fn
def add_barricades(u, t, s, l, k):
    """Add up to ``k`` barricades, at most 1 per unit (ready units first)."""
    br, bs = barricade_line(u[t, s, l, R], u[t, s, l, S], u[t, s, l, BR], u[t, s, l, BS], k)
    u[t, s, l, BR] = br
    u[t, s, l, BS] = bs


@game_fn
def add_tactics(u, t, s, l, k):
    """Add ``k`` tactic tokens ("can't be added to a battle line with no units")."""
    if units(u, t, s, l) > 0:
        u[t, s, l, TAC] += k


@game_fn
def shake_units(u, t, s, l, k):
    """Shake up to ``k`` ready units; "Any card or power that would directly Shake a unit on a
    barricade has no effect on the barricade or the unit"."""
    r, sh = shake_line(u[t, s, l, R], u[t, s, l, S], u[t, s, l, BR], k)
    u[t, s, l, R] = r
    u[t, s, l, S] = sh


# numba caches a function only against its own file: flush this module's caches when a file it
# compiles in changes
guard_caches(sys.modules[__name__], [heroes, state, _kernels])
