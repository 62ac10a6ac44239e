"""Numba kernels for Warriors of Krynn: battles on one tile, battlefields, conflicts.

Three tiers: small rule functions (:func:`~dragonsim._kernels.game_fn`: they allocate
nothing) that act on plain state arrays, a per-game function per mode, and one
``@njit(parallel=True)`` kernel per mode that runs chunks of games in ``prange`` (the chunks of
:func:`~dragonsim._kernels.n_chunks`; each owns one row of a 2-D counter array and its own
scratch, which every game resets before it plays) and returns the column sums. Randomness
comes only from :func:`dragonsim.random.seed_stream` streams of ``(seed, game, purpose)``:
battle dice, unit card draws and the battle's flow (battle type, skirmish die, flank choices)
each have their own purpose, so two configurations run with the same seed share their dice
(common random numbers), and the counters do not depend on how games are cut into chunks.

State of one tile ``t`` lives in ``u[t, side, line, field]`` (int64) with ``side`` 0 = Alliance,
1 = Dragon Army, ``line`` 0 Foot, 1 Missile, 2 Mounted and fields :data:`R` ready units,
:data:`S` shaken units, :data:`BR` / :data:`BS` barricades under ready / shaken units and
:data:`TAC` tactic tokens. Commanders: ``cmd[t, side]`` 0 none or removed, 1 ready, 2 shaken,
with their power in ``cmd_tab[t, side] = (hook, amount, target)``.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit, prange

from .. import _kernels, random
from .._kernels import chunk_bounds, game_fn, guard_caches, n_chunks
from ..random import (
    GOLDEN_GAMMA,
    below,
    game_key,
    mix64,
    next_u64,
    purpose_seed,
    run_key,
    seed_stream,
    uniform,
)

# unit state fields
R, S, BR, BS, TAC = 0, 1, 2, 3, 4
ALLIANCE, ARMY = 0, 1
ANY = 3
# unit card columns / kinds / effects (see data.py)
C_KIND, C_AMOUNT, C_TARGET, C_EFFECT, C_EAMOUNT = 0, 1, 2, 3, 4
KIND_DICE = 1
E_NONE, E_SHAKE_CMD, E_RALLY, E_TACTIC, E_BARRICADE, E_SHAKE = 0, 1, 2, 3, 4, 5
H_NONE, H_HITS, H_DICE, H_TACTIC, H_BARRICADE, H_RALLY, H_SHAKE = 0, 1, 2, 3, 4, 5, 6
# integer options (opts[...]): first the rules' (data.OPTION_ORDER, code 0 = the default
# reading), then the run's
O_ALLIANCE_HITS, O_ARMY_HITS, O_HERO_POLICY, O_MAX_STRESS, O_MUTUAL = 0, 1, 2, 3, 4
O_BARRICADE_ORDER, O_ANY_LINE, O_EMPTY_LINES, O_HERO_CHOICE, O_STRESS_RECOVERY = 5, 6, 7, 8, 9
O_CMD_LINE, O_CMD_WOE, O_FLANK_MOVE, O_ACTIVE_FLANK, O_LINE_CAP = 10, 11, 12, 13, 14
N_RULE_OPTS = 15
O_HEROES, O_MAX_TURNS, O_STRESS_BINS, O_CONTROL_LIMIT = 15, 16, 17, 18
N_OPTS = 19
# float options
F_P_ALL_OUT, F_P_ALL_OUT_CMD = 0, 1
# policies
READY_FIRST = 1
HP_NEVER, HP_REMOVALS, HP_ALL, HP_LAST = 0, 1, 2, 3
# stream purposes
P_DICE, P_CARDS, P_FLOW = 0, 11, 12
# per-game scratch counters g[...]
G_DICE, G_FIGHTS, G_STRESS, G_CARDS = 0, 1, 2, 3
N_G = 4

_MASK32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_GAMMA2 = np.uint64((2 * int(GOLDEN_GAMMA)) & 0xFFFFFFFFFFFFFFFF)


@game_fn(inline="always")
def seed_game(st_d, st_c, st_f, s0, game):
    """Point the three streams at ``(seed, game, P_DICE / P_CARDS / P_FLOW)``, exactly as
    :func:`dragonsim.random.seed_stream` does, sharing the mixes common to the three purposes
    (``s0 = run_key(seed)``, once per run)."""
    s = game_key(s0, game)
    st_d[0] = purpose_seed(s, P_DICE)
    st_c[0] = purpose_seed(s, P_CARDS)
    st_f[0] = purpose_seed(s, P_FLOW)


# --- dice and cards -----------------------------------------------------------------------------
@game_fn(inline="always")
def roll_battle(st, n, die_hits, die_woe):
    """Roll ``n`` battle dice (faces ``die_hits``/``die_woe``); returns ``(hits, woe)``.

    Two dice are cut from one 64-bit word (Lemire multiply-shift on each half; an odd die
    takes the high half of its own word). Pools of up to 3 dice (every unit card) are rolled
    without branches: both words are mixed, the state advances by the words used."""
    k = np.uint64(die_hits.shape[0])
    if n <= 3:
        s = st[0]
        x = mix64(s + GOLDEN_GAMMA)
        y = mix64(s + _GAMMA2)  # the next word, used only by a third die
        st[0] = s + GOLDEN_GAMMA * np.uint64((n + 1) >> 1)
        a = ((x >> _S32) * k) >> _S32
        b = ((x & _MASK32) * k) >> _S32
        c = ((y >> _S32) * k) >> _S32
        m1 = np.int64(n >= 1)
        m2 = np.int64(n >= 2)
        m3 = np.int64(n >= 3)
        hits = m1 * die_hits[a] + m2 * die_hits[b] + m3 * die_hits[c]
        woe = m1 * die_woe[a] + m2 * die_woe[b] + m3 * die_woe[c]
        return hits, woe
    hits = 0
    woe = 0
    while n >= 2:
        x = next_u64(st)
        a = ((x >> _S32) * k) >> _S32
        b = ((x & _MASK32) * k) >> _S32
        hits += die_hits[a] + die_hits[b]
        woe += die_woe[a] + die_woe[b]
        n -= 2
    if n == 1:
        a = below(st, die_hits.shape[0])
        hits += die_hits[a]
        woe += die_woe[a]
    return hits, woe


@game_fn(inline="always")
def draw_card(st, order, ptr, side, line, size):
    """Reveal the top card of a unit deck; returns the card's row in ``cards``.

    ``order[side, line, :ptr]`` is the discard pile, the rest the deck; drawing a uniformly
    random card of the deck is the same as revealing the top of a shuffled deck. Printed: "If
    that line's unit deck is empty, shuffle its discard pile to form a new unit deck first."
    """
    p = ptr[side, line]
    if p >= size:
        p = 0  # the discard pile becomes the deck
    j = p + below(st, size - p)
    c = order[side, line, j]
    order[side, line, j] = order[side, line, p]
    order[side, line, p] = c
    ptr[side, line] = p + 1  # revealed, then "put it in the corresponding discard pile"
    return c


# --- unit state helpers -------------------------------------------------------------------------
@game_fn(inline="always")
def units(u, t, s, l):
    """Units (ready or shaken) on line ``l`` of side ``s`` on tile ``t``."""
    return u[t, s, l, R] + u[t, s, l, S]


@game_fn(inline="always")
def side_ready(u, t, s):
    """Ready units of side ``s`` on tile ``t``."""
    return u[t, s, 0, R] + u[t, s, 1, R] + u[t, s, 2, R]


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


# Rules on one line held in scalars ``(r, sh, br, bs, tac)`` (ready, shaken, barricades under
# ready / shaken units, tactic tokens): branch-free, so the fight's random outcomes cost no
# mispredicted branches and its state stays in registers. The array forms below wrap them.
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


@game_fn
def fight_hits_heroes(u, t, dfd, target, hits, atk, line, woe, opts, stress, g):
    """A fight's hits, then its Woe, when heroes may absorb hits: an ordinary call, so the
    inlined fight carries one closed form for each line and no per-hit loop (compile time)."""
    apply_hits(u, t, dfd, target, hits, opts, stress, g)
    apply_hits(u, t, atk, line, woe, opts, stress, g)


# --- one fight, one battle ----------------------------------------------------------------------
@game_fn(inline="always")
def fight(
    u, t, line, cmd, order, ptr, cards, sizes, die_hits, die_woe, opts, stress, g, st_d, st_c
):
    """Resolve the fight between the two ``line`` lines of tile ``t`` (battle phase steps 1-3).

    Returns the attacking side, or -1 when neither line has units. The fight changes only
    the defending target line and the attacking line (and the defender's commander), held in
    scalars while it is resolved."""
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
    c = draw_card(st_c, order, ptr, atk, line, sizes[atk, line])
    g[G_CARDS] += 1
    g[G_FIGHTS] += 1
    kind = cards[atk, line, c, C_KIND]
    amount = cards[atk, line, c, C_AMOUNT]
    target = cards[atk, line, c, C_TARGET]
    anyl = choose_any(u, t, atk)
    anyl = line if opts[O_ANY_LINE] != 0 else anyl  # "facing": the line it fights
    target = anyl if target == ANY else target
    if kind == KIND_DICE:
        hits, woe = roll_battle(st_d, amount, die_hits, die_woe)
        g[G_DICE] += amount
    else:
        hits = amount
        woe = 0
    # "Once hits have been applied to the defending line, any hits from Woe results are
    # applied to the attacking line."
    if opts[O_HEROES] > 0 and opts[O_HERO_POLICY] != HP_NEVER:
        fight_hits_heroes(u, t, dfd, target, hits, atk, line, woe, opts, stress, g)
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


@game_fn
def commander_power(u, t, s, cmd_tab, fl, die_hits, die_woe, opts, stress, g, st_d):
    """Activate the ready commander of side ``s`` (one hook; see data.Commander)."""
    hook = cmd_tab[t, s, 0]
    amount = cmd_tab[t, s, 1]
    tl = cmd_tab[t, s, 2]
    if tl == ANY:
        tl = fl
    o = 1 - s
    if hook == H_HITS:
        apply_hits(u, t, o, tl, amount, opts, stress, g)
    elif hook == H_DICE:
        hits, woe = roll_battle(st_d, amount, die_hits, die_woe)
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


@game_fn(inline="always")
def control(u, t, opts):
    """Who controls tile ``t`` now: -1 nobody, 0 Alliance, 1 Dragon Army.

    Printed: "A tile becomes controlled by one side either when all the opposing side's units
    are removed from that tile or when all the opposing side's units on that tile are shaken."
    Both at once (not printed) goes by ``opts[O_MUTUAL]`` (0 Army, 1 Alliance, 2 nobody)."""
    ar = side_ready(u, t, ALLIANCE)
    dr = side_ready(u, t, ARMY)
    if ar > 0 and dr > 0:
        return -1
    if ar == 0 and dr == 0:
        m = opts[O_MUTUAL]
        return 1 if m == 0 else (0 if m == 1 else -1)
    return ALLIANCE if dr == 0 else ARMY


@game_fn(inline="always")
def take_control(u, t, w, cmd):
    """Printed: "When a tile becomes controlled, remove all commanders from that tile. Then
    remove all shaken units from the defeated side." """
    cmd[t, 0] = 0
    cmd[t, 1] = 0
    d = 1 - w
    for l in range(3):
        u[t, d, l, S] = 0
        u[t, d, l, BS] = 0
        if u[t, d, l, R] == 0:
            u[t, d, l, TAC] = 0


@game_fn(inline="always")
def battle(
    u,
    t,
    cmd,
    cmd_tab,
    order,
    ptr,
    cards,
    sizes,
    die_hits,
    die_woe,
    sk_line,
    sk_cmd,
    opts,
    fopts,
    stress,
    g,
    st_d,
    st_c,
    st_f,
):
    """One battle phase on tile ``t``; returns the side now controlling it (or -1).

    Skirmish ("1 battle line from each side fights", line and commander symbol from the
    skirmish die) with probability ``1 - fopts[F_P_ALL_OUT]``, else an all-out battle ("all 3
    lines fight in the following order: Foot, Missile, then Mounted"), whose commanders
    activate with probability ``fopts[F_P_ALL_OUT_CMD]`` (the event card decides)."""
    pa = fopts[F_P_ALL_OUT]
    if pa <= 0.0:
        allout = False
    elif pa >= 1.0:
        allout = True
    else:
        allout = uniform(st_f) < pa
    if allout:
        fl = opts[O_CMD_LINE]  # "the fighting line" of a commander power (Foot by default)
        pc = fopts[F_P_ALL_OUT_CMD]
        cflag = pc >= 1.0 or (pc > 0.0 and uniform(st_f) < pc)
    else:
        f = below(st_f, sk_line.shape[0])
        fl = sk_line[f]
        cflag = sk_cmd[f] != 0
    # (commanders tested first: without them the random flag costs no mispredicted branch)
    if (cmd[t, ARMY] == 1 or cmd[t, ALLIANCE] == 1) and cflag:
        # "If commanders on both sides are ready, activate the Dragon Army commander's powers
        # first."
        if cmd[t, ARMY] == 1:
            commander_power(u, t, ARMY, cmd_tab, fl, die_hits, die_woe, opts, stress, g, st_d)
        if cmd[t, ALLIANCE] == 1:
            commander_power(u, t, ALLIANCE, cmd_tab, fl, die_hits, die_woe, opts, stress, g, st_d)
    lo = 0 if allout else fl
    hi = 3 if allout else fl + 1
    for l in range(lo, hi):  # one call site keeps the inlined code small
        fight(
            u, t, l, cmd, order, ptr, cards, sizes, die_hits, die_woe, opts, stress, g, st_d, st_c
        )
    return control(u, t, opts)


@game_fn
def battle_step(
    u,
    t,
    cmd,
    cmd_tab,
    order,
    ptr,
    cards,
    sizes,
    die_hits,
    die_woe,
    sk_line,
    sk_cmd,
    opts,
    fopts,
    stress,
    g,
    st_d,
    st_c,
    st_f,
):
    """:func:`battle` as an ordinary (not inlined) call, for the battlefield kernel and tests:
    one compiled copy of the battle phase shared by its callers."""
    return battle(
        u,
        t,
        cmd,
        cmd_tab,
        order,
        ptr,
        cards,
        sizes,
        die_hits,
        die_woe,
        sk_line,
        sk_cmd,
        opts,
        fopts,
        stress,
        g,
        st_d,
        st_c,
        st_f,
    )


@game_fn(inline="always")
def recover(stress, k):
    """Between two battles each hero loses up to ``k`` stress (``opts[O_STRESS_RECOVERY]``;
    0, the default: heroes keep their stress)."""
    if k > 0:
        for h in range(stress.shape[0]):
            stress[h] = max(0, stress[h] - k)


@game_fn(inline="always")
def reset_game(u, u0, cmd, cmd0, order, ptr, stress, g):
    """Start a game: units and commanders from their starting arrays, full decks.

    Every deck row is reset in full (``order[s, l, i] = i`` for all ``i``, also past the
    deck's size, which no draw reads): one loop of the same stores for every deck, which the
    compiler vectorises."""
    nt = u.shape[0]
    for t in range(nt):
        for s in range(2):
            cmd[t, s] = cmd0[t, s]
            for l in range(3):
                for f in range(5):
                    u[t, s, l, f] = u0[t, s, l, f]
    for s in range(2):
        for l in range(3):
            ptr[s, l] = 0
            for i in range(order.shape[2]):
                order[s, l, i] = i
    for h in range(stress.shape[0]):
        stress[h] = 0
    for i in range(g.shape[0]):
        g[i] = 0


@njit(cache=True, inline="always")
def chunk_scratch(u0, cmd0, cmd_tab, cards, sizes):
    """A chunk's game state and its copies of the tables, all of shapes fixed in the compiled
    code (2 sides, 3 lines, 5 fields): indexing them takes constant strides, not the runtime
    strides of the arguments (about 3% faster). Returns ``(u, cmd, cmd_tab, cards, sizes,
    order, ptr, u0)``. (Plain loops: slice assignments cost more compile time.)"""
    nt = u0.shape[0]
    m = cards.shape[2]
    u = np.empty((nt, 2, 3, 5), np.int64)
    u0c = np.empty((nt, 2, 3, 5), np.int64)
    tab = np.empty((nt, 2, 3), np.int64)
    cl = np.empty((2, 3, m, 5), np.int64)
    sz = np.empty((2, 3), np.int64)
    for s in range(2):
        for l in range(3):
            sz[s, l] = sizes[s, l]
            for t in range(nt):
                tab[t, s, l] = cmd_tab[t, s, l]
                for f in range(5):
                    u0c[t, s, l, f] = u0[t, s, l, f]
            for i in range(m):
                for f in range(5):
                    cl[s, l, i, f] = cards[s, l, i, f]
    return (
        u,
        np.empty((nt, 2), np.int64),
        tab,
        cl,
        sz,
        np.zeros((2, 3, m), np.int64),
        np.zeros((2, 3), np.int64),
        u0c,
    )


# --- single tile ----------------------------------------------------------------------------
# battle counters
B_N, B_ALLIANCE, B_ARMY, B_NONE = 0, 1, 2, 3
B_TURNS_SUM, B_TURNS_SQ, B_STRESS_SUM, B_STRESS_SQ = 4, 5, 6, 7
B_DICE, B_FIGHTS, B_HERO_MAXED, B_PLAYED, B_CARDS = 8, 9, 10, 11, 12
B_UNITS = 16  # + (side*3+line)*2 + (0 ready, 1 shaken)
B_TOTAL = 28  # + side (total units left), B_TOTAL_SQ = 30 + side
B_HIST = 32


@game_fn(inline="always")
def battle_offsets(max_turns, stress_bins):
    turn = B_HIST  # turn histogram, [winner (0,1)][turn 0..max_turns]
    st = turn + 2 * (max_turns + 1)
    line = st + stress_bins  # end-state histogram [side][line][ready 0..6][shaken 0..6]
    return turn, st, line, line + 2 * 3 * 7 * 7


@game_fn(inline="always")
def play_tile(
    u,
    u0,
    cmd,
    cmd0,
    cmd_tab,
    order,
    ptr,
    cards,
    sizes,
    die_hits,
    die_woe,
    sk_line,
    sk_cmd,
    opts,
    fopts,
    stress,
    g,
    st_d,
    st_c,
    st_f,
):
    """One game on one battle tile: battles turn after turn until it is controlled.

    Returns ``(winner, turns)``; winner -1 when ``opts[O_MAX_TURNS]`` battles did not decide."""
    reset_game(u, u0, cmd, cmd0, order, ptr, stress, g)
    rec = opts[O_STRESS_RECOVERY]
    for turn in range(1, opts[O_MAX_TURNS] + 1):
        if rec > 0 and turn > 1:
            recover(stress, rec)
        w = battle(
            u,
            0,
            cmd,
            cmd_tab,
            order,
            ptr,
            cards,
            sizes,
            die_hits,
            die_woe,
            sk_line,
            sk_cmd,
            opts,
            fopts,
            stress,
            g,
            st_d,
            st_c,
            st_f,
        )
        if w >= 0:
            take_control(u, 0, w, cmd)
            return w, turn
    return -1, opts[O_MAX_TURNS]


@njit(cache=True, parallel=True)
def battle_kernel(
    start,
    stop,
    seed,
    u0,
    cmd0,
    cmd_tab,
    cards,
    sizes,
    die_hits,
    die_woe,
    sk_line,
    sk_cmd,
    opts,
    fopts,
):
    """Play games ``start..stop-1`` on one battle tile; returns int64 counters (they add).

    Parameters
    ----------
    u0 : int64[1, 2, 3, 5]
        Starting units (ready, shaken, barricades under ready/shaken, tactic tokens).
    cmd0 : int64[1, 2]
        Commanders (0 none, 1 ready, 2 shaken); ``cmd_tab`` int64[1, 2, 3] their hooks.
    cards, sizes : int64[2, 3, m, 5], int64[2, 3]
        Unit decks.
    die_hits, die_woe : int64[k]
        Battle die faces; ``sk_line``, ``sk_cmd`` int64[j] skirmish die faces.
    opts : int64[N_OPTS]; fopts : float64[2]
    """
    n = stop - start
    max_turns = opts[O_MAX_TURNS]
    bins = opts[O_STRESS_BINS]
    o_turn, o_st, o_line, ncount = battle_offsets(max_turns, bins)
    nchunks = n_chunks(n)
    out = np.zeros((nchunks, ncount), np.int64)
    s0 = run_key(seed)
    for ch in prange(nchunks):
        u, cmd, tab, cl, sz, order, ptr, u0c = chunk_scratch(u0, cmd0, cmd_tab, cards, sizes)
        stress = np.zeros(max(1, opts[O_HEROES]), np.int64)
        g = np.zeros(N_G, np.int64)
        st_d = np.zeros(1, np.uint64)
        st_c = np.zeros(1, np.uint64)
        st_f = np.zeros(1, np.uint64)
        row = out[ch]
        a, b = chunk_bounds(start, n, ch, nchunks)
        for game in range(a, b):
            seed_game(st_d, st_c, st_f, s0, game)
            w, turns = play_tile(
                u,
                u0c,
                cmd,
                cmd0,
                tab,
                order,
                ptr,
                cl,
                sz,
                die_hits,
                die_woe,
                sk_line,
                sk_cmd,
                opts,
                fopts,
                stress,
                g,
                st_d,
                st_c,
                st_f,
            )
            row[B_N] += 1
            row[B_PLAYED] += turns
            if w < 0:
                row[B_NONE] += 1
            else:
                row[B_ALLIANCE + w] += 1
                row[B_TURNS_SUM] += turns
                row[B_TURNS_SQ] += turns * turns
                row[o_turn + w * (max_turns + 1) + turns] += 1
            sg = g[G_STRESS]
            row[B_STRESS_SUM] += sg
            row[B_STRESS_SQ] += sg * sg
            row[o_st + min(sg, bins - 1)] += 1
            row[B_DICE] += g[G_DICE]
            row[B_FIGHTS] += g[G_FIGHTS]
            row[B_CARDS] += g[G_CARDS]
            for h in range(opts[O_HEROES]):
                if stress[h] >= opts[O_MAX_STRESS]:
                    row[B_HERO_MAXED] += 1
                    break
            for s in range(2):
                tot = 0
                for l in range(3):
                    r = u[0, s, l, R]
                    sh = u[0, s, l, S]
                    row[B_UNITS + (s * 3 + l) * 2] += r
                    row[B_UNITS + (s * 3 + l) * 2 + 1] += sh
                    row[o_line + ((s * 3 + l) * 7 + r) * 7 + sh] += 1
                    tot += r + sh
                row[B_TOTAL + s] += tot
                row[B_TOTAL + 2 + s] += tot * tot
    return out.sum(axis=0)


# --- battlefield ----------------------------------------------------------------------------
F_N, F_WIN, F_HOLD, F_LOSS, F_LOSS_LIMIT, F_UNFINISHED = 0, 1, 2, 3, 4, 5
F_TURNS_SUM, F_TURNS_SQ, F_DICE, F_STRESS_SUM, F_STRESS_SQ = 6, 7, 8, 9, 10
F_TILES = 16  # + 2*t + side: tile controlled by side at the end


@game_fn
def move_flank(u, t, w, ctl, flank, st_f, adjacent, cap):
    """Printed: "move that tile's flank token and 1 unit of each type from the victorious side
    to a neighboring battle tile". Assumed: the nearest uncontrolled tile on each side of ``t``
    in the row (``adjacent`` 0), or the next tile on each side, controlled or not
    (``adjacent`` 1); one of the two at random; ready units move first; a full line (``cap``
    units, printed 6) takes none."""
    nt = ctl.shape[0]
    left = -1
    for i in range(t - 1, -1, -1):
        if ctl[i] < 0 or adjacent:
            left = i
            break
    right = -1
    for i in range(t + 1, nt):
        if ctl[i] < 0 or adjacent:
            right = i
            break
    if left < 0 and right < 0:
        return
    if left >= 0 and right >= 0:
        dest = left if below(st_f, 2) == 0 else right
    else:
        dest = left if left >= 0 else right
    flank[dest] += flank[t]
    flank[t] = 0
    for l in range(3):
        if units(u, dest, w, l) >= cap:
            continue
        if u[t, w, l, R] > 0:
            u[t, w, l, R] -= 1
            u[t, w, l, BR] = min(u[t, w, l, BR], u[t, w, l, R])
            u[dest, w, l, R] += 1
        elif u[t, w, l, S] > 0:
            u[t, w, l, S] -= 1
            u[t, w, l, BS] = min(u[t, w, l, BS], u[t, w, l, S])
            u[dest, w, l, S] += 1


@game_fn(inline="always")
def play_field(
    u,
    u0,
    cmd,
    cmd0,
    cmd_tab,
    flank0,
    flank,
    ctl,
    order,
    ptr,
    cards,
    sizes,
    die_hits,
    die_woe,
    sk_line,
    sk_cmd,
    opts,
    fopts,
    stress,
    g,
    st_d,
    st_c,
    st_f,
):
    """One scenario on a row of battle tiles. Returns ``(outcome, turns)`` with outcome 0 win,
    1 hold, 2 loss (all tiles controlled), 3 loss (Dragon Army control limit), -1 unfinished.

    Inlined into the kernel's parallel loop, as :func:`play_tile` is: compiled as a function of
    its own, the inlined battle phase kept increfs and decrefs of its arrays (atomic) in every
    turn, which cost more than the battle."""
    reset_game(u, u0, cmd, cmd0, order, ptr, stress, g)
    nt = u.shape[0]
    flank[:] = flank0
    ctl[:] = -1
    limit = opts[O_CONTROL_LIMIT]
    rec = opts[O_STRESS_RECOVERY]
    for turn in range(1, opts[O_MAX_TURNS] + 1):
        if rec > 0 and turn > 1:
            recover(stress, rec)
        # active flank: an uncontrolled tile, chosen in proportion to its flank tokens (or,
        # by opts[O_ACTIVE_FLANK], each alike)
        tot = 0
        free = 0
        for i in range(nt):
            if ctl[i] < 0:
                tot += flank[i]
                free += 1
        if free == 0:
            break
        t = -1
        if tot > 0 and opts[O_ACTIVE_FLANK] == 0:
            x = below(st_f, tot)
            for i in range(nt):
                if ctl[i] < 0:
                    x -= flank[i]
                    if x < 0:
                        t = i
                        break
        else:
            x = below(st_f, free)
            for i in range(nt):
                if ctl[i] < 0:
                    if x == 0:
                        t = i
                        break
                    x -= 1
        # inlined (not battle_step): a call passing some twenty arrays costs more than the
        # battle itself
        w = battle(
            u,
            t,
            cmd,
            cmd_tab,
            order,
            ptr,
            cards,
            sizes,
            die_hits,
            die_woe,
            sk_line,
            sk_cmd,
            opts,
            fopts,
            stress,
            g,
            st_d,
            st_c,
            st_f,
        )
        if w < 0:
            continue
        take_control(u, t, w, cmd)
        ctl[t] = w
        move_flank(u, t, w, ctl, flank, st_f, opts[O_FLANK_MOVE], opts[O_LINE_CAP])
        na = 0
        nd = 0
        for i in range(nt):
            if ctl[i] == ALLIANCE:
                na += 1
            elif ctl[i] == ARMY:
                nd += 1
        if w == ARMY and limit > 0 and nd >= limit:
            return 3, turn
        if na + nd == nt:
            if na > nd:
                return 0, turn
            if na < nd:
                return 2, turn
            return 1, turn
    return -1, opts[O_MAX_TURNS]


@njit(cache=True, parallel=True)
def field_kernel(
    start,
    stop,
    seed,
    u0,
    cmd0,
    cmd_tab,
    flank0,
    cards,
    sizes,
    die_hits,
    die_woe,
    sk_line,
    sk_cmd,
    opts,
    fopts,
):
    """Play scenarios ``start..stop-1`` on ``T`` tiles (``u0`` int64[T, 2, 3, 5], ``flank0``
    int64[T] flank tokens); returns int64 counters: outcomes, turns, dice, stress, and per
    tile who controls it at the end."""
    n = stop - start
    nt = u0.shape[0]
    ncount = F_TILES + 2 * nt
    nchunks = n_chunks(n)
    out = np.zeros((nchunks, ncount), np.int64)
    s0 = run_key(seed)
    for ch in prange(nchunks):
        u, cmd, tab, cl, sz, order, ptr, u0c = chunk_scratch(u0, cmd0, cmd_tab, cards, sizes)
        flank = np.empty_like(flank0)
        ctl = np.empty(nt, np.int64)
        stress = np.zeros(max(1, opts[O_HEROES]), np.int64)
        g = np.zeros(N_G, np.int64)
        st_d = np.zeros(1, np.uint64)
        st_c = np.zeros(1, np.uint64)
        st_f = np.zeros(1, np.uint64)
        row = out[ch]
        a, b = chunk_bounds(start, n, ch, nchunks)
        for game in range(a, b):
            seed_game(st_d, st_c, st_f, s0, game)
            res, turns = play_field(
                u,
                u0c,
                cmd,
                cmd0,
                tab,
                flank0,
                flank,
                ctl,
                order,
                ptr,
                cl,
                sz,
                die_hits,
                die_woe,
                sk_line,
                sk_cmd,
                opts,
                fopts,
                stress,
                g,
                st_d,
                st_c,
                st_f,
            )
            row[F_N] += 1
            if res == 0:
                row[F_WIN] += 1
            elif res == 1:
                row[F_HOLD] += 1
            elif res >= 2:
                row[F_LOSS] += 1
                if res == 3:
                    row[F_LOSS_LIMIT] += 1
            else:
                row[F_UNFINISHED] += 1
            row[F_TURNS_SUM] += turns
            row[F_TURNS_SQ] += turns * turns
            row[F_DICE] += g[G_DICE]
            row[F_STRESS_SUM] += g[G_STRESS]
            row[F_STRESS_SQ] += g[G_STRESS] * g[G_STRESS]
            for i in range(nt):
                if ctl[i] >= 0:
                    row[F_TILES + 2 * i + ctl[i]] += 1
    return out.sum(axis=0)


# --- conflicts ------------------------------------------------------------------------------
K_N, K_SUCCESS, K_EXCEED, K_STRESS_SUM, K_STRESS_SQ = 0, 1, 2, 3, 4
K_ACTIONS, K_CARDS, K_ATTEMPTS = 5, 6, 7
K_HITS = 8  # + first attempt's hits (clipped to K_BINS - 1)
K_BINS = 64
K_WOE = K_HITS + K_BINS
K_COUNT = K_WOE + K_BINS


@game_fn
def play_conflict(difficulty, plan, actions, cards_in_hand, carry, die_hits, die_woe, st, res):
    """One conflict played by ``plan[a, c, p] = (actions, cards)`` for the next attempt with
    ``a`` actions and ``c`` cards left and a pool of ``p`` dice carried over (``(0, 0)``:
    stop; ``p`` is 0 unless ``carry``). With ``carry`` 0 (the default reading) each attempt
    rolls its actions + cards; with ``carry`` 1 the pool is kept: a retry rolls the last pool
    plus its actions + cards, less the 1 action that buys the retry. Printed: "You start with
    1 battle die ... spend any number of your remaining actions and discard any number of
    ability cards ... to add that many dice"; "If the hits equal or exceed the difficulty, you
    succeed"; "If you roll fewer hits, you fail, but you may spend 1 or more actions to try
    again"; "each Woe result causes the hero to take 1 stress". Fills ``res`` = (success,
    exceed, stress, actions used, cards used, attempts, first hits, first woe)."""
    a = actions
    c = cards_in_hand
    for i in range(res.shape[0]):
        res[i] = 0
    res[6] = -1
    pool = 0
    while a > 0:
        sa = plan[a, c, pool, 0]
        sc = plan[a, c, pool, 1]
        if sa <= 0:
            break
        n = sa + sc
        if carry != 0:
            n = pool + sa + sc - np.int64(pool > 0)
            pool = n
        hits, woe = roll_battle(st, n, die_hits, die_woe)
        if res[5] == 0:
            res[6] = hits
            res[7] = woe
        res[5] += 1
        res[2] += woe
        res[3] += sa
        res[4] += sc
        a -= sa
        c -= sc
        if hits >= difficulty:
            res[0] = 1
            if hits > difficulty:
                res[1] = 1
            break


@njit(cache=True, parallel=True)
def conflict_kernel(
    start, stop, seed, difficulty, plan, actions, cards_in_hand, carry, die_hits, die_woe
):
    """Play conflicts ``start..stop-1`` (``plan`` int64[a, c, p, 2], see
    :func:`play_conflict`); returns int64 counters (see ``K_*``)."""
    n = stop - start
    nchunks = n_chunks(n)
    out = np.zeros((nchunks, K_COUNT), np.int64)
    for ch in prange(nchunks):
        st = np.zeros(1, np.uint64)
        res = np.zeros(8, np.int64)
        row = out[ch]
        a, b = chunk_bounds(start, n, ch, nchunks)
        for game in range(a, b):
            seed_stream(st, seed, game, P_DICE)
            play_conflict(
                difficulty, plan, actions, cards_in_hand, carry, die_hits, die_woe, st, res
            )
            row[K_N] += 1
            row[K_SUCCESS] += res[0]
            row[K_EXCEED] += res[1]
            row[K_STRESS_SUM] += res[2]
            row[K_STRESS_SQ] += res[2] * res[2]
            row[K_ACTIONS] += res[3]
            row[K_CARDS] += res[4]
            row[K_ATTEMPTS] += res[5]
            if res[6] >= 0:
                row[K_HITS + min(res[6], K_BINS - 1)] += 1
                row[K_WOE + min(res[7], K_BINS - 1)] += 1
    return out.sum(axis=0)


# numba caches a function only against its own file: flush this module's caches when a file it
# compiles in changes
guard_caches(sys.modules[__name__], [random, _kernels])
