"""One fight between two battle lines (battle phase steps 1-3)."""

from __future__ import annotations

import sys

import numpy as np

from ... import _kernels, random
from ..._kernels import game_fn, guard_caches
from . import dice, heroes, lines, state
from .dice import draw_card, roll_battle
from .lines import apply_hits, barricade_line, hit_line, rally_line, shake_line
from .state import (
    ALLIANCE,
    ANY,
    ARMY,
    BR,
    BS,
    C_AMOUNT,
    C_EAMOUNT,
    C_EFFECT,
    C_KIND,
    C_TARGET,
    E_BARRICADE,
    E_NONE,
    E_RALLY,
    E_SHAKE,
    E_SHAKE_CMD,
    E_TACTIC,
    G_CARDS,
    G_DICE,
    G_FIGHTS,
    HP_NEVER,
    KIND_DICE,
    O_ANY_LINE,
    O_BARRICADE_ORDER,
    O_EMPTY_LINES,
    O_HERO_POLICY,
    O_HEROES,
    TAC,
    R,
    S,
    units,
)


@game_fn(inline="always")
def choose_any(u, t, atk_side):
    """The line a hero picks for an "any line" card (assumed heuristic).

    Alliance attacking: the Dragon Army line with ready units needing the fewest hits to shake
    them all (barricades + ready units); if no line has a ready unit, the line with the most
    units. Army attacking: the Alliance line with units and the most barricades + ready units.
    Ties to Foot, then Missile, then Mounted. Without branches: each line gets a key whose
    smallest value wins and whose low 2 bits are the line."""
    d = 1 - atk_side
    best = 1 << 40
    for l in range(3):
        r = u[t, d, l, R]
        n = r + u[t, d, l, S]
        v = u[t, d, l, BR] + u[t, d, l, BS] + r
        if atk_side == ALLIANCE:
            key = (v << 2) if r > 0 else ((((1 << 20) - n) << 2) if n > 0 else (1 << 30))
        else:
            key = (((1 << 20) - v) << 2) if n > 0 else (1 << 30)
        best = min(best, key + l)
    return best & 3


@game_fn(inline="always")
def fight_hits_heroes(u, t, dfd, target, hits, line, woe, opts, stress, g):
    """A fight's hits on line ``target`` of the defender ``dfd``, then its Woe on the
    attacker's ``line``, when heroes may absorb hits. Inlined: only hits on an Alliance line
    call the per-hit loop (:func:`~.heroes.apply_hits_heroes`), the Dragon Army's take the
    closed form in place. As an ordinary call (main's choice, for compile time) every fight
    with heroes paid one call of some forty argument words, which from the chunk function
    (arguments it received itself, not constants) cost more than main's games did."""
    apply_hits(u, t, dfd, target, hits, opts, stress, g)
    apply_hits(u, t, 1 - dfd, line, woe, opts, stress, g)


@game_fn(inline="always")
def fight(gm, t, line, tb):
    """Resolve the fight between the two ``line`` lines of tile ``t`` (battle phase steps 1-3)
    of the game ``gm`` (:class:`~.state.Game`) under the rules ``tb``
    (:class:`~.state.Tables`).

    Returns the attacking side, or -1 when neither line has units. The fight changes only
    the defending target line and the attacking line (and the defender's commander), held in
    scalars while it is resolved."""
    u, cmd, stress, g = gm.u, gm.cmd, gm.stress, gm.g
    cards, opts = tb.cards, tb.opts
    a = units(u, t, ALLIANCE, line) + u[t, ALLIANCE, line, TAC]
    d = units(u, t, ARMY, line) + u[t, ARMY, line, TAC]
    # "Once the combat strength of a line is determined, remove any tactic tokens on that line."
    u[t, ALLIANCE, line, TAC] = 0
    u[t, ARMY, line, TAC] = 0
    # "The line with the greater total is the attacking line. If ... equal, the Dragon Army's"
    atk = np.int64(a <= d)
    if units(u, t, atk, line) == 0 and opts[O_EMPTY_LINES] == 0:
        return -1  # both lines empty: nothing fights (else the Dragon Army's line reveals)
    dfd = 1 - atk
    c = draw_card(gm.st_c, gm.order, gm.ptr, atk, line, tb.sizes[atk, line])
    g[G_CARDS] += 1
    g[G_FIGHTS] += 1
    kind = cards[atk, line, c, C_KIND]
    amount = cards[atk, line, c, C_AMOUNT]
    target = cards[atk, line, c, C_TARGET]
    anyl = choose_any(u, t, atk)
    anyl = line if opts[O_ANY_LINE] != 0 else anyl  # "facing": the line it fights
    target = anyl if target == ANY else target
    if kind == KIND_DICE:
        hits, woe = roll_battle(gm.st_d, amount, tb.die_hits, tb.die_woe)
        g[G_DICE] += amount
    else:
        hits = amount
        woe = 0
    # "Once hits have been applied to the defending line, any hits from Woe results are
    # applied to the attacking line."
    if opts[O_HEROES] > 0 and opts[O_HERO_POLICY] != HP_NEVER:
        fight_hits_heroes(u, t, dfd, target, hits, line, woe, opts, stress, g)
        dr, ds, dbr, dbs, dt = (
            u[t, dfd, target, R],
            u[t, dfd, target, S],
            u[t, dfd, target, BR],
            u[t, dfd, target, BS],
            u[t, dfd, target, TAC],
        )
        ar, as_, abr, abs_, at = (
            u[t, atk, line, R],
            u[t, atk, line, S],
            u[t, atk, line, BR],
            u[t, atk, line, BS],
            u[t, atk, line, TAC],
        )
    else:
        dr, ds, dbr, dbs, dt = hit_line(
            u[t, dfd, target, R],
            u[t, dfd, target, S],
            u[t, dfd, target, BR],
            u[t, dfd, target, BS],
            u[t, dfd, target, TAC],
            hits,
            opts[dfd],
            opts[O_BARRICADE_ORDER],
        )
        ar, as_, abr, abs_, at = (
            u[t, atk, line, R],
            u[t, atk, line, S],
            u[t, atk, line, BR],
            u[t, atk, line, BS],
            u[t, atk, line, TAC],
        )
        if woe > 0:  # (most rolls have no Woe: cheaper to skip than to apply 0 hits)
            ar, as_, abr, abs_, at = hit_line(
                ar, as_, abr, abs_, at, woe, opts[atk], opts[O_BARRICADE_ORDER]
            )
    # the card's effect, by masked amounts (an effect with amount 0 changes nothing); most
    # cards have none, and skipping them is 2-5% faster than the masked no-op
    eff = cards[atk, line, c, C_EFFECT]
    if eff != E_NONE:
        ek = cards[atk, line, c, C_EAMOUNT]
        ar, as_, abr, abs_ = rally_line(ar, as_, abr, abs_, ek * np.int64(eff == E_RALLY))
        if ar + as_ > 0:  # "Tactic tokens can't be added to a battle line with no units."
            at += ek * np.int64(eff == E_TACTIC)
        abr, abs_ = barricade_line(ar, as_, abr, abs_, ek * np.int64(eff == E_BARRICADE))
        dr, ds = shake_line(dr, ds, dbr, ek * np.int64(eff == E_SHAKE))
        cd = cmd[t, dfd]
        cmd[t, dfd] = 2 if (eff == E_SHAKE_CMD and cd == 1) else cd
    u[t, dfd, target, R] = dr
    u[t, dfd, target, S] = ds
    u[t, dfd, target, BR] = dbr
    u[t, dfd, target, BS] = dbs
    u[t, dfd, target, TAC] = dt
    u[t, atk, line, R] = ar
    u[t, atk, line, S] = as_
    u[t, atk, line, BR] = abr
    u[t, atk, line, BS] = abs_
    u[t, atk, line, TAC] = at
    return atk


# numba caches a function only against its own file: flush this module's caches when a file it
# compiles in changes
guard_caches(sys.modules[__name__], [dice, heroes, lines, state, random, _kernels])
