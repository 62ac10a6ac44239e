"""Numba kernels for Dragon Dice dragon attacks.

Two game modes, each one ``@njit(parallel=True)`` kernel at module top level
(``kernel(start, stop, seed, *arrays) -> int64 counters``, see :mod:`dragonsim.runner`):

* :func:`army_kernel`: one or more dragons of one colour attack an army at the start of each of
  the army owner's turns until the dragons are gone (slain or flown away), the army is
  destroyed, or ``turns`` attacks have happened.
* :func:`dvd_kernel`: two teams of dragons of different colours attack each other, round after
  round.

Games ``start..stop-1`` are split into chunks; ``prange`` runs the chunks, each owns one row of a
2-D counter array and its own work arrays (allocated once per chunk, never per game); game ``g``
draws dragon dice from ``seed_stream(.., seed, g, P_DRAGON)`` and army dice from
``seed_stream(.., seed, g, P_ARMY)``, so a result does not depend on threads or chunking and a
bigger army meets the same dragon rolls (common random numbers).

Every rule value and option is an argument (``opts``, an int64 array indexed by the ``O_*``
constants); the codes are those of :mod:`dragonsim.dice.data`.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit, prange

from .. import _kernels, random
from .._kernels import chunk_bounds, game_fn, guard_caches, n_chunks
from ..random import below, below_s, seed_stream, steps_between, stream_seed
from . import data
from .data import (  # the codes (numba freezes them as constants)
    BLACK,
    BLUE,
    D_BELLY,
    D_BREATH,
    D_CLAW,
    D_JAWS,
    D_TAIL,
    D_TREASURE,
    D_WING,
    F_BELLY,
    F_BREATH,
    F_ID,
    F_MELEE,
    F_MISSILE,
    F_SAVE,
    GREEN,
    RED,
)

_U0 = np.uint64(0)
_U6 = np.uint64(6)
_U12 = np.uint64(12)


# stream purposes
P_DRAGON = 10
P_ARMY = 11

# options (int64 array)
O_ID_SPLIT = 0  # 0 slay-first, 1 save-first
O_CARRY = 1  # 1: damage to a dragon carries over between attacks
O_PROMO_UNLIMITED = 2  # 1: a promotion target is always available in the dead unit area
O_CLAW = 3
O_JAWS = 4
O_TAIL = 5
O_DHEALTH = 6
O_DSAVES = 7
O_FLAME = 8
O_STONE = 9
O_NEGATE = 10  # dragon vs dragon: extra rounds a breath negates the target's saves
O_ROUND_UP = 11  # 1: damage left over that covers no whole unit still kills one more unit
O_PROMO_ONCE = 12  # 1: one round of slaying promotions per attack, however many dragons died
O_TREASURE_FIRST = 13  # 1: a treasure promotes before the slaying promotions (promotion_order)
O_FROST_PER_UNIT = 14  # 1: frost halves each unit's roll, not each result type's sum
O_KIN_NONE_ROLLED = 15  # 1: no dragonkin is rolled during a dragon attack (kin_not_rolled=all)
O_KIN_MELEE = 16  # 1: rolled dragonkin count their melee against a dragon (kin_in_dragon_attack)
O_KIN_LOST = 17  # 1: dragonkin removed with the last other unit count in the health lost
O_DVD_FOCUS = 18  # 1: a team targets an enemy whose saves a breath negated first (dvd_targeting)
NOPT = 19

# army-mode counters
C_GAMES = 0
C_ANY_SLAIN = 1  # games in which at least one dragon was slain
C_ALL_SLAIN = 2  # games in which every dragon was slain
C_SLAIN_SUM = 3  # dragons slain, summed over games
C_DESTROYED = 4  # army destroyed
C_FLEW = 5  # no dragon left at the end and at least one flew away
C_TIMEOUT = 6  # dragons and army both still there after `turns` attacks
C_LOST = 7  # health-worth of units lost (killed, buried, dragonkin removed)
C_LOST_SQ = 8
C_PROMO = 9  # promotions (slaying and treasure)
C_PROMO_SQ = 10
C_PROMO_ANY = 11
C_TURNS = 12  # attacks that happened
C_TURNS_SQ = 13
C_BURIED = 14  # health-worth buried (black and red breath)
C_DICE_DRAGON = 15  # dragon dice rolled
C_DICE_ARMY = 16  # unit dice rolled (response and breath rolls)
C_DESTROYED_BY_BREATH = 17  # attacks whose breath left no army to respond
NHEAD = 18


def army_layout(hcap: int, turns: int) -> dict[str, slice]:
    """Where each histogram lives in :func:`army_kernel`'s counter array."""
    a = NHEAD
    b = a + hcap + 1
    c = b + turns + 1
    d = c + turns + 1
    e = d + turns + 1
    return {
        "lost_hist": slice(a, b),
        "army_gone_at": slice(b, c),
        "dragons_gone_at": slice(c, d),
        "first_slain_at": slice(d, e),
    }


# a unit die's response, packed: five RB-bit fields per (type, face) word (see _response_words)
RB = 12
RMASK = (1 << RB) - 1
_RB1, _RB2, _RB3, _RB4 = RB, 2 * RB, 3 * RB, 4 * RB
#: largest face value the packed response holds (the API refuses bigger ones)
MAX_FACE_VALUE = RMASK


@game_fn
def _response_words(fk, fc, health, kin, kin_melee, words, aux):
    """Fill ``words`` (int64[T, 6]) with what each face adds to the army's response, packed
    in five ``RB``-bit fields: melee, missile, save, ID, dragonkin armor (low to high), so a
    die costs one load and one add. Dragonkin melee counts when ``kin_melee`` is 1, their
    missile never ('not included in any rolls for missile'), their armor (= health) unless
    the face is a belly.
    ``aux`` (int64[T, 6]) gets bit 0 for an ID face (black breath) and bit 1 when the face
    saves the unit from gold breath. Returns how many dice one packed sum can hold with no
    field overflowing (at least 1: face values are at most ``MAX_FACE_VALUE``)."""
    top = 1
    for t in range(fk.shape[0]):
        isk = kin[t] >= 0
        h = health[t]
        for f in range(6):
            kd = fk[t, f]
            v = fc[t, f]
            mel = 0
            mis = 0
            sav = 0
            idr = 0
            arm = 0
            if kd == F_MELEE:
                if kin_melee != 0 or not isk:
                    mel = v
            elif kd == F_MISSILE and not isk:
                mis = v
            elif kd == F_SAVE:
                sav = v
            elif kd == F_ID:
                idr = v
            if isk and kd != F_BELLY:
                arm = h
            top = max(top, mel, mis, sav, idr, arm)
            words[t, f] = mel | (mis << _RB1) | (sav << _RB2) | (idr << _RB3) | (arm << _RB4)
            saved = kd == F_ID or (kd == F_SAVE and v > 0)
            if isk and kd != F_BELLY and h > 0:
                saved = True  # armored skin: automatic saves on its own save roll
            aux[t, f] = (1 if kd == F_ID else 0) | (2 if saved else 0)
    return max(1, RMASK // top)


@game_fn
def _halved_words(words, half):
    """``half`` (int64[T, 6]): each packed face of ``words`` with its melee, missile, save and
    ID halved (rounded down), the armor kept: a unit's own roll under frost per unit."""
    for t in range(words.shape[0]):
        for f in range(6):
            w = words[t, f]
            m = ((w & RMASK) >> 1) | (((w >> _RB1) & RMASK) >> 1) << _RB1
            m |= (((w >> _RB2) & RMASK) >> 1) << _RB2
            m |= (((w >> _RB3) & RMASK) >> 1) << _RB3
            half[t, f] = m | ((w >> _RB4) << _RB4)


@game_fn
def _roll_blocks(s_a, resp, nr, alive, words, blk):
    """The army's response with ``words``, summed in blocks of at most ``blk`` dice (no
    packed field overflows): ``(stream state, melee, missile, save, ID, armor)``."""
    mel = 0
    mis = 0
    sav = 0
    idr = 0
    armor = 0
    for r in range(nr):
        t = resp[r]
        c = alive[t]
        while c > 0:
            m = c if c < blk else blk
            c -= m
            acc = 0
            for _u in range(m):
                s_a, f = below_s(s_a, _U6)
                acc += words[t, f]
            mel += acc & RMASK
            mis += (acc >> _RB1) & RMASK
            sav += (acc >> _RB2) & RMASK
            idr += (acc >> _RB3) & RMASK
            armor += acc >> _RB4
    return s_a, mel, mis, sav, idr, armor


@game_fn
def _treasure_promotion(alive, dead, promo, order, unlimited):
    """Treasure: promote one unit, the first in ``order`` that can be (a unit to trade up to
    in the dead unit area, or ``unlimited``). Returns 1 when one was promoted, else 0."""
    for i in range(order.shape[0]):
        t = order[i]
        u = promo[t]
        if u >= 0 and alive[t] > 0 and (unlimited != 0 or dead[u] > 0):
            if unlimited == 0:
                dead[u] -= 1
            alive[t] -= 1
            alive[u] += 1
            dead[t] += 1
            return 1
    return 0


@game_fn
def _non_kin_left(alive, kin):
    s = 0
    for t in range(alive.shape[0]):
        if kin[t] < 0:
            s += alive[t]
    return s


@game_fn
def _remove_kin(alive, kin, health):
    lost = 0
    for t in range(alive.shape[0]):
        if kin[t] >= 0 and alive[t] > 0:
            lost += alive[t] * health[t]
            alive[t] = 0
    return lost


@game_fn(inline="always")
def _covered(c, h, rem):
    """How many of ``c`` units of health ``h`` the damage ``rem`` kills (whole units only)."""
    m = c
    if h == 1:
        m = rem
    elif h > 1:
        m = rem // h
    return m if m < c else c


# ---------------------------------------------------------------- army mode: one job each
# The per-chunk setup, the rare phases of an attack and the counting are functions of their
# own. What every attack runs (the lone dragon's roll with its die rolled ahead, the breath
# loops, the response sum, the damage) stays written out in _army_games: numba passes each
# array as seven words, and with those phases as functions the bench_dice cases ran 4-7%
# slower (1 thread, 2026-12); every helper below allocates nothing (game_fn).
@game_fn
def _not_rolled(kin, colour, none_rolled, skip):
    """``skip[t]`` = 1 for the types not rolled during this dragon attack ('During a dragon
    attack, the dragonkin are not rolled'): dragonkin of the dragons' colour, or every
    dragonkin when ``none_rolled`` (``kin_not_rolled = all``)."""
    for t in range(kin.shape[0]):
        skip[t] = 1 if kin[t] >= 0 and (kin[t] == colour or none_rolled != 0) else 0


@game_fn
def _responders(skip, resp):
    """The types that roll in the army's response (``resp``, the first ``nr``): all but the
    skipped ones. Returns ``nr``."""
    nr = 0
    for t in range(skip.shape[0]):
        if skip[t] == 0:
            resp[nr] = t
            nr += 1
    return nr


@game_fn
def _pack_dragon_faces(dfaces, claw, jaws, ft):
    """``ft[j, i]``: face ``i`` of dragon ``j`` packed as its damage << 3 | its icon."""
    for j in range(dfaces.shape[0]):
        for i in range(12):
            f = dfaces[j, i]
            d = claw if f == D_CLAW else (jaws if f == D_JAWS else 0)
            ft[j, i] = (d << 3) | f


# -- the rules, phase by phase


@game_fn
def _kill_in_order(alive, dead, health, kin, order, amount, round_up, to_dead):
    """Kill whole units in ``order`` while the amount left covers one (a unit dies only when
    it covers its health; with ``round_up`` a remainder kills one more). Killed units other
    than dragonkin go to the dead unit area when ``to_dead`` (buried ones do not). Returns
    ``(health-worth killed, units other than dragonkin killed)``."""
    rem = amount
    killed_hw = 0
    nk_killed = 0
    for i in range(order.shape[0]):
        if rem <= 0:
            break
        t = order[i]
        h = health[t]
        m = _covered(alive[t], h, rem)
        alive[t] -= m
        rem -= m * h
        killed_hw += m * h
        if kin[t] < 0:
            dead[t] += m * to_dead
            nk_killed += m
    if round_up != 0 and rem > 0:
        for i in range(order.shape[0]):
            t = order[i]
            if alive[t] > 0:
                alive[t] -= 1
                killed_hw += health[t]
                if kin[t] < 0:
                    dead[t] += to_dead
                    nk_killed += 1
                break
    return killed_hw, nk_killed


@game_fn(inline="always")
def _unpack(acc):
    """A packed response: ``(melee, missile, save, ID, armor)``."""
    return (
        acc & RMASK,
        (acc >> _RB1) & RMASK,
        (acc >> _RB2) & RMASK,
        (acc >> _RB3) & RMASK,
        acc >> _RB4,
    )


@game_fn(inline="always")
def _use_of_roll(mel, mis, sav, idr, armor, dmg, frost, paralysed, save_first):
    """The army's results after the breath: frost halves each result type (armor is not
    rolled), paralysis leaves only saves; the ID split (``save_first``: ID first covers the
    damage the saves leave). Returns ``(melee, missile, ID for the attack, all saves with
    every ID)``."""
    if frost:
        mel //= 2
        mis //= 2
        sav //= 2
        idr //= 2
    if paralysed:
        mel = 0
        mis = 0
    id_att = idr
    if save_first:
        need_save = dmg - sav - armor
        if need_save < 0:
            need_save = 0
        if need_save > idr:
            need_save = idr
        id_att = idr - need_save
    if paralysed:
        id_att = 0
    return mel, mis, id_att, sav + armor + idr


@game_fn(inline="always")
def _slay_lone(best, id_att, dhealth, dsaves, carried, final):
    """Does the army slay the lone dragon? Its better of melee and missile, plus as much ID
    as that needs: ``(slain 0/1, ID used)``."""
    used = dhealth - carried - best
    if final != D_BELLY:
        used += dsaves
    if used < 0:
        used = 0
    if used <= id_att:
        return 1, used
    return 0, 0


@game_fn
def _carry_on_first(present, carried, amount):
    """Damage that slew no dragon stays on the first dragon present (``damage_carries``)."""
    for j in range(present.shape[0]):
        if present[j] != 0:
            carried[j] += amount
            return


@game_fn
def _promotable(alive, promo):
    """Units of the types that can be promoted (a lone dragon slain, unlimited supply: the
    game ends, so only the count matters)."""
    n = 0
    for t in range(alive.shape[0]):
        if promo[t] >= 0:
            n += alive[t]
    return n


@game_fn
def _promotion_round(alive, dead, snap, promo, unlimited):
    """'If an army slays a dragon, it may promote as many units as possible ... All
    promotions occur simultaneously' (a unit promoted now is not promoted again now).
    Returns ``(units promoted, whether any type could be)``."""
    for t in range(alive.shape[0]):
        snap[t] = alive[t]
    promos = 0
    touched = False
    for t in range(alive.shape[0]):
        u = promo[t]
        m = snap[t]
        if u < 0 or m == 0:
            continue
        if unlimited == 0:
            if dead[u] < m:
                m = dead[u]
            dead[u] -= m
        alive[t] -= m
        alive[u] += m
        dead[t] += m
        promos += m
        touched = True
    return promos, touched


# -- counting


@game_fn
def _count_losses(row, ph, lost, promos, hcap):
    """Health-worth lost below ``hcap`` and promotions below ``len(ph)`` go to histograms
    (their sums and squares are added once per chunk, :func:`_finish_chunk`)."""
    if lost < hcap:
        row[NHEAD + lost] += 1
    else:
        row[NHEAD + hcap] += 1
        row[C_LOST] += lost
        row[C_LOST_SQ] += lost * lost
    if promos < ph.shape[0]:
        ph[promos] += 1
    else:
        row[C_PROMO] += promos
        row[C_PROMO_SQ] += promos * promos
        row[C_PROMO_ANY] += 1


@game_fn
def _finish_chunk(row, ph, ends, moved_d, moved_a, hcap, turns, lone):
    """Once per chunk: dice counted from how far the streams moved, the sums and squares of
    the histograms, and (``lone``) the lone dragon's games by how they ended: slain, flew and
    destroyed are 0 or 1, and the dragon gone (slain or flown) ends the game, so it was
    first slain at the last attack played."""
    lay_army = NHEAD + hcap + 1
    lay_drag = lay_army + turns + 1
    lay_slain = lay_drag + turns + 1
    row[C_DICE_DRAGON] += steps_between(_U0, moved_d)
    row[C_DICE_ARMY] += steps_between(_U0, moved_a)
    for i in range(hcap):
        row[C_LOST] += i * row[NHEAD + i]
        row[C_LOST_SQ] += i * i * row[NHEAD + i]
    for i in range(ph.shape[0]):
        row[C_PROMO] += i * ph[i]
        row[C_PROMO_SQ] += i * i * ph[i]
        row[C_PROMO_ANY] += ph[i] if i > 0 else 0
    if not lone:
        return
    for sl in range(2):
        for fw in range(2):
            for de in range(2):
                for pl in range(turns + 1):
                    m = ends[((sl * 2 + fw) * 2 + de) * (turns + 1) + pl]
                    row[C_GAMES] += m
                    row[C_ANY_SLAIN] += sl * m
                    row[C_ALL_SLAIN] += sl * m
                    row[C_SLAIN_SUM] += sl * m
                    row[C_DESTROYED] += de * m
                    row[C_FLEW] += fw * m
                    row[C_TIMEOUT] += (1 - sl) * (1 - fw) * (1 - de) * m
                    row[C_TURNS] += pl * m
                    row[C_TURNS_SQ] += pl * pl * m
                    row[lay_slain + pl] += sl * m
                    row[lay_army + pl] += de * m
                    row[lay_drag + pl] += (sl | fw) * m


@njit(cache=True)
def _army_games(
    lo,
    hi,
    seed,
    dfaces,
    colour,
    fk,
    fc,
    health,
    kin,
    promo,
    count0,
    dua0,
    kill_order,
    gold_order,
    treasure_order,
    opts,
    turns,
    hcap,
    row,
    multi,
):
    """Games ``lo..hi-1`` of :func:`army_kernel` (one chunk, one thread), counted into ``row``.

    The sequence of an attack ('Dragon Attack'), one marked block each: the dragons roll,
    breath is resolved, the army responds (its melee or missile and ID on the dragons, its
    saves against the damage), damage kills units, then slaying promotions, treasure and
    wing (the rare phases and the counting call the functions above). Game ``g`` draws
    dragon dice from the stream ``(seed, g, P_DRAGON)`` and unit dice from ``(seed, g,
    P_ARMY)``, held in local scalars. Each game counts in local
    scalars and adds them to ``row`` once. A plain function, not part of the parallel
    kernel, so the game code compiles once and outside numba's parfor passes. One dragon
    (the usual case) takes straight-line branches for what is per dragon: its roll, the
    army's best use of its results (the cheaper of two numbers) and its carried damage are
    scalars; ``multi`` is ``None`` then, and the response one packed sum (every ``multi is
    None`` test is decided when numba compiles, see :func:`army_kernel`), an int otherwise."""
    # private copies: reference counts of arrays shared by threads bounce between cores
    dfaces = dfaces.copy()
    health = health.copy()
    kin = kin.copy()
    promo = promo.copy()
    count0 = count0.copy()
    dua0 = dua0.copy()
    opts = opts.copy()
    nt = health.shape[0]
    k = dfaces.shape[0]
    alive = np.zeros(nt, np.int64)
    dead = np.zeros(nt, np.int64)
    snap = np.zeros(nt, np.int64)
    present = np.zeros(k, np.int64)
    final = np.zeros(k, np.int64)
    carried = np.zeros(k, np.int64)
    th = np.zeros(k, np.int64)
    words = np.zeros((nt, 6), np.int64)
    aux = np.zeros((nt, 6), np.int64)
    blk = _response_words(fk, fc, health, kin, opts[O_KIN_MELEE], words, aux)
    half = np.zeros((nt, 6), np.int64)  # words under frost per unit
    _halved_words(words, half)
    frost_unit = opts[O_FROST_PER_UNIT] != 0
    skip = np.zeros(nt, np.int64)
    _not_rolled(kin, colour, opts[O_KIN_NONE_ROLLED], skip)
    units = 0  # units in the army: promotions trade units, so never more alive at once
    for t in range(nt):
        units += count0[t]
    one_sum = units <= blk  # the whole response fits one packed sum
    resp = np.zeros(nt, np.uint64)
    nr = _responders(skip, resp)
    # orders as unsigned indices: numba then skips the negative-index wrap-around
    kill_u = kill_order.astype(np.uint64)
    gold_u = gold_order.astype(np.uint64)
    treasure_u = treasure_order.astype(np.uint64)
    ft = np.zeros((k, 12), np.int64)
    _pack_dragon_faces(dfaces, opts[O_CLAW], opts[O_JAWS], ft)
    tail_d = opts[O_TAIL]
    flame = opts[O_FLAME]
    stone = opts[O_STONE]
    round_up = opts[O_ROUND_UP]
    unlimited = opts[O_PROMO_UNLIMITED]
    dhealth = opts[O_DHEALTH]
    dsaves = opts[O_DSAVES]
    carry = opts[O_CARRY] != 0
    save_first = opts[O_ID_SPLIT] == 1
    promo_once = opts[O_PROMO_ONCE] != 0
    treasure_first = opts[O_TREASURE_FIRST] != 0
    kin_lost = opts[O_KIN_LOST]
    kills = colour != BLUE and colour != GREEN  # a breath that can kill units
    lay_army = NHEAD + hcap + 1
    lay_drag = lay_army + turns + 1
    lay_slain = lay_drag + turns + 1
    ends = np.zeros(8 * (turns + 1), np.int64)  # lone dragon: games by how they ended
    ph = np.zeros(64, np.int64)  # games by promotions made
    moved_d = np.uint64(0)  # how far the games' streams moved, summed (mod 2**64)
    moved_a = np.uint64(0)
    nk0 = _non_kin_left(count0, kin)  # units other than dragonkin at the start
    # Work a game needs before its first branch is done one game ahead, in straight-line
    # code: the next game's two stream seeds (s_dn, s_an) and, for a lone dragon, the face
    # its first die shows (vr, the stream after it s_dr; a tail rolls on in the game). They
    # then come before, not after, this game's branches: the CPU keeps them when one of
    # those is mispredicted (how a game ends is, about once a game), and the next game
    # starts from values already there instead of a chain of three hashes. Draws are not
    # moved: a stream only counts dice from where the game that uses them starts.
    s_dn = stream_seed(seed, lo, P_DRAGON)
    s_an = stream_seed(seed, lo, P_ARMY)
    s_dr = s_dn
    vr = 0
    if multi is None:
        s_dr, i = below_s(s_dn, _U12)
        vr = ft[0, i]
    for g in range(lo, hi):
        s_d = s_dn
        s_a = s_an
        s_d1 = s_dr  # the lone dragon's next die: this game's first, then one attack ahead
        v1 = vr
        s_dn = stream_seed(seed, g + 1, P_DRAGON)
        s_an = stream_seed(seed, g + 1, P_ARMY)
        if multi is None:
            s_dr, i = below_s(s_dn, _U12)
            vr = ft[0, i]
        for t in range(nt):
            alive[t] = count0[t]
            dead[t] = dua0[t]
        if multi is not None:
            for j in range(k):
                present[j] = 1
                carried[j] = 0
        c0 = 0  # damage carried by a lone dragon
        lost = 0
        promos = 0
        slain = 0
        flew = 0
        destroyed = False
        played = 0
        first_slain = 0
        left = k
        nk = nk0  # units other than dragonkin left (recounted after a breath or promotion)
        recheck = nk0 == 0  # must the next attack count them again?
        # dice rolled are counted from how far the streams moved; buried health-worth and
        # breaths that destroyed the army (rare) go to `row` at once: fewer values live
        # through the game loop, fewer spilled to the stack
        moved_d -= s_d
        moved_a -= s_a
        nslain = 0
        fl = 0
        for turn in range(1, turns + 1):
            played = turn
            # --- the dragons roll (each until a non-tail icon)
            f0 = 0
            if multi is None:
                tails = 0
                s_d = s_d1
                v = v1
                s_d1, i = below_s(s_d, _U12)
                v1 = ft[0, i]
                if (v & 7) == D_TAIL:
                    s_d = s_d1
                    v = v1
                    tails = 1
                    while (v & 7) == D_TAIL:
                        tails += 1
                        s_d, i = below_s(s_d, _U12)
                        v = ft[0, i]
                    if turn < turns:
                        s_d1, i = below_s(s_d, _U12)
                        v1 = ft[0, i]
                f0 = v & 7
                dmg = tails * tail_d + (v >> 3)
                breaths = 1 if f0 == D_BREATH else 0
                treasures = 1 if f0 == D_TREASURE else 0
            else:
                dmg = 0
                breaths = 0
                treasures = 0
                for j in range(k):
                    final[j] = -1
                    if present[j] == 0:
                        continue
                    tails = 0
                    s_d, i = below_s(s_d, _U12)
                    v = ft[j, i]
                    while (v & 7) == D_TAIL:
                        tails += 1
                        s_d, i = below_s(s_d, _U12)
                        v = ft[j, i]
                    final[j] = v & 7
                    dmg += tails * tail_d + (v >> 3)
                    breaths += (v & 7) == D_BREATH
                    treasures += (v & 7) == D_TREASURE
            # --- breath, resolved immediately (before the army responds)
            paralysed = False
            frost = False
            for _b in range(breaths):  # (written out here: a call passing every array
                # costs more than the rare breath, see _army_games)
                if colour == BLACK:
                    for t in range(nt):
                        c = alive[t]
                        if c == 0 or skip[t] != 0:
                            continue
                        killed = 0
                        for _u in range(c):
                            s_a, f = below_s(s_a, _U6)
                            killed += aux[t, f] & 1
                        alive[t] = c - killed
                        lost += killed * health[t]
                        row[C_BURIED] += killed * health[t]
                elif colour == BLUE:
                    paralysed = True
                elif colour == GREEN:
                    frost = True
                elif colour == RED:  # flame: health-worth killed in casualty order, buried
                    killed, _nk = _kill_in_order(
                        alive, dead, health, kin, kill_u, flame, round_up, 0
                    )
                    lost += killed
                    row[C_BURIED] += killed
                else:  # gold: targets chosen first, then each rolled individually
                    remaining = stone
                    for i in range(nt):
                        t = gold_u[i]
                        mt = alive[t]
                        if mt > remaining:
                            mt = remaining
                        if mt == 0:
                            continue
                        remaining -= mt
                        killed = mt
                        if skip[t] == 0:  # (one not rolled during the attack is killed)
                            for _u in range(mt):
                                s_a, f = below_s(s_a, _U6)
                                killed -= (aux[t, f] >> 1) & 1
                        alive[t] -= killed
                        if kin[t] < 0:
                            dead[t] += killed
                        lost += killed * health[t]
                recheck = recheck or kills
            # units other than dragonkin left? (they were after the last attack's damage;
            # only a killing breath or a promotion since can change that)
            if recheck:
                nk = _non_kin_left(alive, kin)
                if nk == 0:
                    lost += _remove_kin(alive, kin, health) * kin_lost
                    destroyed = True
                    row[C_DESTROYED_BY_BREATH] += 1
            recheck = False
            # --- the army responds
            nslain = 0
            sa1 = -1  # dragons slain this attack
            sa2 = -1
            if not destroyed:
                if frost and frost_unit:  # each unit's roll halved on its own (rare: blocks)
                    s_a, mel, mis, sav, idr, armor = _roll_blocks(s_a, resp, nr, alive, half, blk)
                    frost = False
                elif multi is None or one_sum:
                    # the hottest loop, kept in this body (as a function numba does not
                    # inline it, and the call costs more than the dice): one packed sum
                    acc = 0
                    for r in range(nr):
                        t = resp[r]
                        for _u in range(alive[t]):
                            s_a, f = below_s(s_a, _U6)
                            acc += words[t, f]
                    mel, mis, sav, idr, armor = _unpack(acc)
                else:
                    s_a, mel, mis, sav, idr, armor = _roll_blocks(s_a, resp, nr, alive, words, blk)
                mel, mis, id_att, pool = _use_of_roll(
                    mel, mis, sav, idr, armor, dmg, frost, paralysed, save_first
                )
                best = mel if mel > mis else mis
                if multi is None:  # the cheaper of melee and missile on the lone dragon
                    nslain, used = _slay_lone(best, id_att, dhealth, dsaves, c0, f0)
                    sa1 = 0 if nslain else -1
                else:
                    for j in range(k):
                        th[j] = dhealth - carried[j]
                        if final[j] != D_BELLY:
                            th[j] += dsaves
                    used = 0
                    for a in range(k):
                        if present[a] == 0:
                            continue
                        na = th[a] - mel  # melee on a
                        if na < 0:
                            na = 0
                        nm = th[a] - mis  # missile on a
                        if nm < 0:
                            nm = 0
                        for need in (na, nm):  # melee first: a tie keeps it
                            if need <= id_att and (nslain < 1 or (nslain == 1 and need < used)):
                                nslain = 1
                                used = need
                                sa1 = a
                                sa2 = -1
                        for b in range(k):  # melee on a, missile on b
                            if b == a or present[b] == 0:
                                continue
                            nb = th[b] - mis
                            if nb < 0:
                                nb = 0
                            need = na + nb
                            if need <= id_att and (nslain < 2 or (nslain == 2 and need < used)):
                                nslain = 2
                                used = need
                                sa1 = a
                                sa2 = b
                if nslain == 0 and carry:  # on the first dragon present
                    if multi is None:
                        c0 += best
                    else:
                        _carry_on_first(present, carried, best)
                # the damage the saves did not stop kills whole units in casualty order
                rem = dmg - (pool - used)
                killed_hw = 0
                for i in range(nt):
                    if rem <= 0:
                        break
                    t = kill_u[i]
                    h = health[t]
                    m = _covered(alive[t], h, rem)
                    alive[t] -= m
                    rem -= m * h
                    killed_hw += m * h
                    if kin[t] < 0:
                        dead[t] += m
                        nk -= m
                if round_up != 0 and rem > 0:
                    for i in range(nt):
                        t = kill_u[i]
                        if alive[t] > 0:
                            alive[t] -= 1
                            killed_hw += health[t]
                            if kin[t] < 0:
                                dead[t] += 1
                                nk -= 1
                            break
                lost += killed_hw
                # units other than dragonkin were left before this damage
                if nk == 0:
                    lost += _remove_kin(alive, kin, health) * kin_lost
                    destroyed = True
            # --- after the attack: slaying, promotion, treasure, wing
            fl = 0
            if treasure_first and not destroyed:  # promotion_order: the treasure first
                for _t in range(treasures):
                    got = _treasure_promotion(alive, dead, promo, treasure_u, unlimited)
                    promos += got
                    recheck = recheck or got != 0
            if nslain > 0:
                present[sa1] = 0
                if sa2 >= 0:
                    present[sa2] = 0
                if not destroyed:
                    rounds = 1 if promo_once else nslain  # each slaying its own promotions
                    if multi is None and unlimited != 0 and treasures == 0:
                        promos += _promotable(alive, promo)  # the game ends: count only
                        rounds = 0
                    for _s in range(rounds):
                        got, touched = _promotion_round(alive, dead, snap, promo, unlimited)
                        promos += got
                        recheck = recheck or touched
            for _t in range(0 if destroyed or treasure_first else treasures):
                # treasure: promote one unit (the first in the treasure order that can be)
                got = _treasure_promotion(alive, dead, promo, treasure_u, unlimited)
                promos += got
                recheck = recheck or got != 0
            if multi is None:
                fl = 1 if f0 == D_WING and nslain == 0 else 0
                # the lone dragon gone ends the game: only the last attack can slay or fly,
                # so its nslain and fl are the game's (no totals live through the loop)
                if destroyed or nslain + fl > 0:
                    break
            else:
                for j in range(k):  # 'Wing: ... the dragon flies away' (unless slain)
                    if final[j] == D_WING and j != sa1 and j != sa2:
                        present[j] = 0
                        fl += 1
                slain += nslain
                flew += fl
                left -= nslain + fl
                if nslain > 0 and first_slain == 0:
                    first_slain = turn
                if destroyed or left == 0:
                    break
        if multi is None:  # one count per game, turned into counters in _finish_chunk
            ends[((nslain * 2 + fl) * 2 + destroyed) * (turns + 1) + played] += 1
        else:
            if first_slain > 0:
                row[lay_slain + first_slain] += 1
            if destroyed:
                row[lay_army + played] += 1
            if left == 0:
                row[lay_drag + played] += 1
            row[C_GAMES] += 1
            row[C_ANY_SLAIN] += slain > 0
            row[C_ALL_SLAIN] += slain == k
            row[C_SLAIN_SUM] += slain
            row[C_DESTROYED] += destroyed
            row[C_FLEW] += left == 0 and flew > 0
            row[C_TIMEOUT] += left > 0 and not destroyed
            row[C_TURNS] += played
            row[C_TURNS_SQ] += played * played
        _count_losses(row, ph, lost, promos, hcap)
        moved_d += s_d
        moved_a += s_a
    _finish_chunk(row, ph, ends, moved_d, moved_a, hcap, turns, multi is None)


def army_kernel(
    start,
    stop,
    seed,
    dfaces,
    colour,
    fk,
    fc,
    health,
    kin,
    promo,
    count0,
    dua0,
    kill_order,
    gold_order,
    treasure_order,
    opts,
    turns,
    hcap,
):
    """Play games ``start..stop-1`` of dragons (one colour) attacking an army.

    Parameters
    ----------
    dfaces : int64[k, 12]
        Icons of each dragon's die (``D_*``).
    colour : int
        The dragons' colour (``BLACK`` .. ``RED``).
    fk, fc : int64[T, 6]
        Face kinds (``F_*``) and counts of each unit type's die (counts at most
        ``MAX_FACE_VALUE``).
    health, kin, promo, count0, dua0, kill_order, gold_order : int64[T]
        Health; dragonkin colour or -1; promotion target type or -1; starting counts;
        starting dead-unit-area counts; casualty order; gold-breath targeting order.
    opts : int64[NOPT]
        Rule values and options, indexed by ``O_*``.
    turns, hcap : int
        Most attacks per game; last bin of the health-lost histogram.

    Returns
    -------
    int64[NHEAD + hcap + 1 + 3 * (turns + 1)]
        Counters that add (see ``C_*`` and :func:`army_layout`).

    Notes
    -----
    A Python function that picks one of two builds of :func:`_army_kernel`: ``multi`` is
    ``None`` for one dragon and an army whose response fits one packed sum (numba then prunes
    the branches for several dragons and for summing in blocks, which frees registers in the
    game loop), an int otherwise (the general code, right for any number of dragons), so a
    run compiles only the build it needs.
    """
    nt = health.shape[0]
    blk = _response_words(
        fk,
        fc,
        health,
        kin,
        opts[O_KIN_MELEE],
        np.zeros((nt, 6), np.int64),
        np.zeros((nt, 6), np.int64),
    )
    multi = None if dfaces.shape[0] == 1 and int(np.sum(count0)) <= blk else 1
    return _army_kernel(
        start,
        stop,
        seed,
        dfaces,
        colour,
        fk,
        fc,
        health,
        kin,
        promo,
        count0,
        dua0,
        kill_order,
        gold_order,
        treasure_order,
        opts,
        turns,
        hcap,
        multi,
    )


@njit(cache=True, parallel=True)
def _army_kernel(
    start,
    stop,
    seed,
    dfaces,
    colour,
    fk,
    fc,
    health,
    kin,
    promo,
    count0,
    dua0,
    kill_order,
    gold_order,
    treasure_order,
    opts,
    turns,
    hcap,
    multi,
):
    """:func:`army_kernel` for one dragon (``multi is None``) or several (an int)."""
    n = stop - start
    size = NHEAD + hcap + 1 + 3 * (turns + 1)
    nch = n_chunks(n)
    rows = np.zeros((nch, size), np.int64)
    for c in prange(nch):
        lo, hi = chunk_bounds(start, n, c, nch)
        row = np.zeros(size, np.int64)
        _army_games(
            lo,
            hi,
            seed,
            dfaces,
            colour,
            fk,
            fc,
            health,
            kin,
            promo,
            count0,
            dua0,
            kill_order,
            gold_order,
            treasure_order,
            opts,
            turns,
            hcap,
            row,
            multi,
        )
        for i in range(size):
            rows[c, i] = row[i]
    out = np.zeros(size, np.int64)
    for c in range(nch):
        for i in range(size):
            out[i] += rows[c, i]
    return out


# ---------------------------------------------------------------- dragon vs dragon
V_GAMES = 0
V_ALL_GONE = 1  # no dragon left at all
V_TIMEOUT = 2  # two or more teams still there after `turns` rounds
V_ROUNDS = 3
V_ROUNDS_SQ = 4
V_MULTI_ANY_SLAIN = 5  # games in which dragons of two or more teams were slain
V_DICE = 6
VHEAD = 7
# per team i, at VHEAD + VT * i + ...
VT_WINS = 0  # only team i left
VT_SLAIN = 1  # team i's dragons slain, summed
VT_FLEW = 2  # team i's dragons flown away, summed
VT_ANY_SLAIN = 3  # games in which some dragon of team i was slain
VT = 4
# two teams (A = 0, B = 1)
V_A_WINS = VHEAD + VT_WINS
V_A_SLAIN = VHEAD + VT_SLAIN
V_A_FLEW = VHEAD + VT_FLEW
V_A_ANY_SLAIN = VHEAD + VT_ANY_SLAIN
V_B_WINS = VHEAD + VT + VT_WINS
V_B_SLAIN = VHEAD + VT + VT_SLAIN
V_B_FLEW = VHEAD + VT + VT_FLEW
V_B_ANY_SLAIN = VHEAD + VT + VT_ANY_SLAIN
V_BOTH_GONE = V_ALL_GONE
V_BOTH_ANY_SLAIN = V_MULTI_ANY_SLAIN


@game_fn(inline="always")
def _roll_past_tails(s, ft, j):
    """Dragon ``j``'s die on stream state ``s``, rolled again after every tail ("roll the
    dragon die again until something other than the tail is rolled"): ``(state, tails,
    packed face of the last roll)``, ``ft`` as in :func:`_duel_games`."""
    t = 0
    s, i = below_s(s, _U12)
    v = ft[j, i]
    while v & 1:
        t += 1
        s, i = below_s(s, _U12)
        v = ft[j, i]
    return s, t, v


def dvd_size(nteams: int, turns: int) -> int:
    """Length of :func:`dvd_kernel`'s counter array."""
    return VHEAD + VT * nteams + turns + 1


@njit(cache=True)
def _duel_games(
    lo,
    hi,
    seed,
    dfaces,
    side0,
    side1,
    dmg_of,
    tail_d,
    negate,
    dhealth,
    dsaves,
    carry,
    never,
    turns,
    lay_rounds,
    row,
):
    """:func:`_dvd_games` for one dragon against one (the usual case), in straight lines.

    Both dragons are in the fight at the start of every round (the game ends in the round
    one of them leaves), each targets the other, and dragon 0 rolls before dragon 1: the
    same dice in the same order as the general loop, so the counters are the same. A face
    is one packed word (damage << 8 | tail, breath, belly, wing bits), so a round's outcome
    is arithmetic, not branches on icons. A game ends with each dragon staying (0), slain
    (1) or flown (2): counted in a 3x3 table and a rounds histogram, turned into the
    counters once per chunk."""
    ft = np.zeros((2, 12), np.int64)
    for j in range(2):
        for i in range(12):
            f = dfaces[j, i]
            ft[j, i] = (
                (dmg_of[f] << 8)
                | (1 if f == D_TAIL else 0)
                | (2 if f == D_BREATH else 0)
                | (4 if f == D_BELLY else 0)
                | (8 if f == D_WING else 0)
            )
    oc = np.zeros(9, np.int64)  # games by outcome (dragon 0's + 3 * dragon 1's)
    rh = np.zeros(turns + 1, np.int64)  # games by rounds
    cm = -1 if carry else 0  # damage carries over: carried += taken & cm
    dice = 0
    for g in range(lo, hi):
        s = stream_seed(seed, g, P_DRAGON)
        neg0 = never  # the last round a breath negates dragon 0's saves
        neg1 = never
        c0 = 0  # damage carried by dragon 0
        c1 = 0
        rounds = 0
        out = 0
        for r in range(1, turns + 1):
            rounds = r
            s, t0, v0 = _roll_past_tails(s, ft, 0)
            s, t1, v1 = _roll_past_tails(s, ft, 1)
            dice += t0 + t1 + 2
            o0 = t0 * tail_d + (v0 >> 8)  # damage dragon 0 deals (to dragon 1)
            o1 = t1 * tail_d + (v1 >> 8)
            nb = r + negate
            m0 = -((v1 >> 1) & 1 & (neg0 < nb))  # all ones: dragon 1's breath negates 0's saves
            m1 = -((v0 >> 1) & 1 & (neg1 < nb))
            neg0 = (nb & m0) | (neg0 & ~m0)
            neg1 = (nb & m1) | (neg1 & ~m1)
            sv0 = dsaves & ~(-(((v0 >> 2) & 1) | (neg0 >= r)))
            sv1 = dsaves & ~(-(((v1 >> 2) & 1) | (neg1 >= r)))
            sl0 = np.int64(o1 + c0 >= dhealth + sv0)
            sl1 = np.int64(o0 + c1 >= dhealth + sv1)
            c0 += o1 & cm
            c1 += o0 & cm
            out = sl0 + ((v0 >> 2) & 2 & (sl0 - 1)) + 3 * (sl1 + ((v1 >> 2) & 2 & (sl1 - 1)))
            if out != 0:
                break
        rh[rounds] += 1
        oc[out] += 1
    games = 0
    rounds_sum = 0
    rounds_sq = 0
    for r in range(turns + 1):
        games += rh[r]
        rounds_sum += rh[r] * r
        rounds_sq += rh[r] * r * r
        row[lay_rounds + r] += rh[r]
    row[V_GAMES] += games
    row[V_ALL_GONE] += oc[4] + oc[5] + oc[7] + oc[8]
    row[V_TIMEOUT] += oc[0]
    row[V_ROUNDS] += rounds_sum
    row[V_ROUNDS_SQ] += rounds_sq
    row[V_DICE] += dice
    row[V_MULTI_ANY_SLAIN] += oc[4]
    slain0 = oc[1] + oc[4] + oc[7]
    slain1 = oc[3] + oc[4] + oc[5]
    row[VHEAD + VT * side0 + VT_WINS] += oc[3] + oc[6]
    row[VHEAD + VT * side0 + VT_SLAIN] += slain0
    row[VHEAD + VT * side0 + VT_FLEW] += oc[2] + oc[5] + oc[8]
    row[VHEAD + VT * side0 + VT_ANY_SLAIN] += slain0
    row[VHEAD + VT * side1 + VT_WINS] += oc[1] + oc[2]
    row[VHEAD + VT * side1 + VT_SLAIN] += slain1
    row[VHEAD + VT * side1 + VT_FLEW] += oc[6] + oc[7] + oc[8]
    row[VHEAD + VT * side1 + VT_ANY_SLAIN] += slain1


@njit(cache=True)
def _dvd_games(lo, hi, seed, dfaces, side, nteams, opts, turns, row):
    """Games ``lo..hi-1`` of :func:`dvd_kernel` (one chunk, one thread), counted into ``row``.

    Game ``g`` draws from the stream ``(seed, g, P_DRAGON)``, held in a local scalar. Teams
    still in the fight and teams that lost a dragon are bit masks, so nothing per team is
    reset per game or per round."""
    # private copies: reference counts of arrays shared by threads bounce between cores
    dfaces = dfaces.copy()
    side = side.copy()
    k = dfaces.shape[0]
    present = np.zeros(k, np.int64)
    fin = np.zeros(k, np.int64)  # this round's final icon, -1 if not in the fight
    dmg_out = np.zeros(k, np.int64)
    neg_until = np.zeros(k, np.int64)
    carried = np.zeros(k, np.int64)
    tgt = np.zeros(nteams, np.int64)
    dmg_of = np.zeros(8, np.int64)  # damage of a dragon's final icon
    dmg_of[D_CLAW] = opts[O_CLAW]
    dmg_of[D_JAWS] = opts[O_JAWS]
    tail_d = opts[O_TAIL]
    negate = opts[O_NEGATE]
    dhealth = opts[O_DHEALTH]
    dsaves = opts[O_DSAVES]
    carry = opts[O_CARRY] != 0
    focus = opts[O_DVD_FOCUS] != 0
    never = 1 - turns  # a neg_until that no round (1..turns) reaches (runtime value: no memset)
    lay_rounds = VHEAD + VT * nteams
    if k == 2 and nteams == 2 and side[0] != side[1]:
        _duel_games(
            lo,
            hi,
            seed,
            dfaces,
            side[0],
            side[1],
            dmg_of,
            tail_d,
            negate,
            dhealth,
            dsaves,
            carry,
            never,
            turns,
            lay_rounds,
            row,
        )
        return
    for g in range(lo, hi):
        s_d = stream_seed(seed, g, P_DRAGON)
        for j in range(k):
            present[j] = 1
            neg_until[j] = never
        if carry:
            for j in range(k):
                carried[j] = 0
        rounds = 0
        n_d = 0
        in_fight = 0  # bit mask of the teams with a dragon left
        slain_teams = 0  # bit mask of the teams that lost a dragon to damage
        last = -1  # a team with a dragon left
        for r in range(1, turns + 1):
            rounds = r
            # each team's owners choose one target among the other colours (a dragon whose
            # saves a breath negated first), then all dragons roll simultaneously
            for i in range(nteams):
                tg = -1
                for j in range(k):
                    if (
                        present[j] != 0
                        and side[j] != i
                        and (tg < 0 or (focus and neg_until[j] >= r and neg_until[tg] < r))
                    ):
                        tg = j
                tgt[i] = tg
            for j in range(k):
                if present[j] == 0:
                    fin[j] = -1
                    continue
                tails = 0
                while True:
                    s_d, i = below_s(s_d, _U12)
                    f = dfaces[j, i]
                    if f != D_TAIL:
                        break
                    tails += 1
                n_d += tails + 1
                fin[j] = f
                dmg_out[j] = tails * tail_d + dmg_of[f]
            # each dragon takes the damage of the dragons that targeted it (a breath negates
            # its saves this round and the next `negate`), then is slain or flies away
            in_fight = 0
            for j in range(k):
                if fin[j] < 0:
                    continue
                d = carried[j] if carry else 0
                taken = 0
                for a in range(k):
                    if fin[a] >= 0 and tgt[side[a]] == j:
                        taken += dmg_out[a]
                        if fin[a] == D_BREATH and neg_until[j] < r + negate:
                            neg_until[j] = r + negate
                saves = dsaves
                if fin[j] == D_BELLY or neg_until[j] >= r:
                    saves = 0
                if taken + d >= dhealth + saves:
                    present[j] = 0
                    row[VHEAD + VT * side[j] + VT_SLAIN] += 1
                    slain_teams |= 1 << side[j]
                else:
                    if carry:
                        carried[j] += taken
                    if fin[j] == D_WING:
                        present[j] = 0
                        row[VHEAD + VT * side[j] + VT_FLEW] += 1
                    else:
                        in_fight |= 1 << side[j]
                        last = side[j]
            if in_fight & (in_fight - 1) == 0:  # one team or none left
                break
        row[V_GAMES] += 1
        if in_fight == 0:
            row[V_ALL_GONE] += 1
        elif in_fight & (in_fight - 1) == 0:
            row[VHEAD + VT * last + VT_WINS] += 1
        else:
            row[V_TIMEOUT] += 1
        row[V_ROUNDS] += rounds
        row[V_ROUNDS_SQ] += rounds * rounds
        row[V_DICE] += n_d
        row[lay_rounds + rounds] += 1
        if slain_teams != 0:
            for i in range(nteams):
                row[VHEAD + VT * i + VT_ANY_SLAIN] += (slain_teams >> i) & 1
            if slain_teams & (slain_teams - 1) != 0:
                row[V_MULTI_ANY_SLAIN] += 1


@njit(cache=True, parallel=True)
def dvd_kernel(start, stop, seed, dfaces, side, nteams, opts, turns):
    """Play games ``start..stop-1`` of dragons of different colours fighting each other.

    Parameters
    ----------
    dfaces : int64[k, 12]
        Icons of each dragon's die.
    side : int64[k]
        Team of each dragon, ``0..nteams-1`` (a team is one colour; same colours team up).
    nteams : int
        Number of teams (2..5).
    opts : int64[NOPT]
        Rule values (``O_CLAW``, ``O_JAWS``, ``O_TAIL``, ``O_DHEALTH``, ``O_DSAVES``,
        ``O_NEGATE``, ``O_CARRY``).
    turns : int
        Most rounds per game.

    Returns
    -------
    int64[dvd_size(nteams, turns)]
        Counters (``V_*``), ``VT`` counters per team (``VT_*``), a histogram of rounds.
    """
    n = stop - start
    size = VHEAD + VT * nteams + turns + 1
    nch = n_chunks(n)
    rows = np.zeros((nch, size), np.int64)
    for c in prange(nch):
        lo, hi = chunk_bounds(start, n, c, nch)
        row = np.zeros(size, np.int64)
        _dvd_games(lo, hi, seed, dfaces, side, nteams, opts, turns, row)
        for i in range(size):
            rows[c, i] = row[i]
    out = np.zeros(size, np.int64)
    for c in range(nch):
        for i in range(size):
            out[i] += rows[c, i]
    return out


# ---------------------------------------------------------------- melee with dragonkin breath
# options of the melee kernel (int64 array)
MO_COUNTER = 0  # 1: the defender's survivors counter-attack (the normal melee sequence)
MO_BLACK_NEEDS_ID = 1  # printed: the targeted unit "must roll its ID icon to avoid being killed"
MO_KIN_LOST = 2  # 1: dragonkin removed with the last other unit count in the health lost
NMOPT = 3

# melee counters
M_GAMES = 0
M_B_LOST = 1  # defender health-worth lost
M_B_LOST_SQ = 2
M_A_LOST = 3  # attacker health-worth lost (counter-attack)
M_A_LOST_SQ = 4
M_B_DESTROYED = 5
M_A_DESTROYED = 6
M_BREATHS_A = 7  # dragonkin breath icons rolled by the attacker
M_BREATHS_B = 8
M_B_BURIED = 9
M_A_MELEE = 10  # attacker's melee results, summed
M_B_SAVES = 11  # defender's save results, summed
MHEAD = 12


@game_fn
def _first_alive(alive, order, busy):
    """First type in ``order`` with a unit not yet under an effect (``busy`` counts)."""
    for i in range(order.shape[0]):
        t = order[i]
        if alive[t] - busy[t] > 0:
            return t
    return -1


@game_fn
def _kin_breath(sa, colour, count, fk, fc, health, kin, order, alive, par, fr, zero, mopts):
    """Apply ``count`` weaker (dragonkin) breaths of ``colour`` to the target side.
    Returns ``(lost, buried)`` health-worth."""
    lost = 0
    buried = 0
    for _ in range(count):
        if colour == BLUE:
            t = _first_alive(alive, order, par)
            if t >= 0:
                par[t] += 1
            continue
        if colour == GREEN:
            t = _first_alive(alive, order, fr)
            if t >= 0:
                fr[t] += 1
            continue
        t = _first_alive(alive, order, zero)
        if t < 0:
            continue
        die = False
        bury = False
        if colour == RED:  # killed and buried
            die = True
            bury = True
        elif colour == BLACK:  # must roll its ID icon to avoid being killed and buried
            f = below(sa, 6)
            die = (fk[t, f] != F_ID) if mopts[MO_BLACK_NEEDS_ID] != 0 else (fk[t, f] == F_ID)
            bury = True
        else:  # gold: killed unless it rolls a save individually
            f = below(sa, 6)
            kd = fk[t, f]
            saved = kd == F_ID or (kd == F_SAVE and fc[t, f] > 0)
            if kin[t] >= 0 and kd != F_BELLY:
                saved = True
            die = not saved
        if die:
            alive[t] -= 1
            if par[t] > alive[t]:
                par[t] = alive[t]
            if fr[t] > alive[t]:
                fr[t] = alive[t]
            lost += health[t]
            if bury:
                buried += health[t]
    return lost, buried


@game_fn
def _melee_roll(sa, fk, fc, health, kin, alive, par, fr, breaths):
    """One side's melee roll: melee results (ID counts as melee), frosted units halved,
    paralysed units not rolled; dragonkin breath icons counted per colour in ``breaths``."""
    total = 0
    for c in range(5):
        breaths[c] = 0
    for t in range(alive.shape[0]):
        for u in range(alive[t]):
            if u < par[t]:
                continue  # can roll only for saves
            f = below(sa, 6)
            kd = fk[t, f]
            v = 0
            if kd == F_MELEE:
                v = fc[t, f]
            elif kd == F_ID:
                v = health[t]
            elif kd == F_BREATH and kin[t] >= 0:
                breaths[kin[t]] += fc[t, f]
            if u < fr[t]:
                v //= 2  # effects fall on the first units of a type
            total += v
    return total


@game_fn
def _save_roll(sa, fk, fc, health, kin, alive, fr):
    """One side's save roll: saves, ID as saves, dragonkin armor unless belly; frosted units
    halve their rolled results."""
    total = 0
    for t in range(alive.shape[0]):
        for u in range(alive[t]):
            f = below(sa, 6)
            kd = fk[t, f]
            v = 0
            if kd == F_SAVE:
                v = fc[t, f]
            elif kd == F_ID:
                v = health[t]
            if u < fr[t]:
                v //= 2
            if kin[t] >= 0 and kd != F_BELLY:
                v += health[t]
            total += v
    return total


@game_fn
def _take_damage(alive, par, fr, health, kin, order, amount, kin_lost):
    """Kill whole units in ``order`` while the damage covers them (units under an effect go
    first within a type); dragonkin alone are removed (counted in ``lost`` when ``kin_lost``
    is 1). Returns ``(lost, destroyed)``."""
    rem = amount
    lost = 0
    for i in range(order.shape[0]):
        t = order[i]
        killed = 0
        while alive[t] > 0 and health[t] <= rem:
            alive[t] -= 1
            rem -= health[t]
            lost += health[t]
            killed += 1
        par[t] = max(0, par[t] - killed)
        fr[t] = max(0, fr[t] - killed)
    regular = 0
    for t in range(alive.shape[0]):
        if kin[t] < 0:
            regular += alive[t]
    if regular == 0:
        for t in range(alive.shape[0]):
            if kin[t] >= 0:
                lost += alive[t] * health[t] * kin_lost
                alive[t] = 0
        return lost, True
    return lost, False


@game_fn
def _play_melee(
    sa,
    fka,
    fca,
    ha,
    kina,
    cnta,
    orda,
    fkb,
    fcb,
    hb,
    kinb,
    cntb,
    ordb,
    mopts,
    alive_a,
    par_a,
    fr_a,
    alive_b,
    par_b,
    fr_b,
    zero_a,
    zero_b,
    breaths,
    row,
    hcap,
):
    for t in range(alive_a.shape[0]):
        alive_a[t] = cnta[t]
        par_a[t] = 0
        fr_a[t] = 0
    for t in range(alive_b.shape[0]):
        alive_b[t] = cntb[t]
        par_b[t] = 0
        fr_b[t] = 0
    lost_a = 0
    lost_b = 0
    des_a = False
    des_b = False
    # the attacker rolls for melee; dragonkin breaths act on the defender at once
    mel = _melee_roll(sa, fka, fca, ha, kina, alive_a, par_a, fr_a, breaths)
    row[M_A_MELEE] += mel
    for c in range(5):
        if breaths[c] > 0:
            row[M_BREATHS_A] += breaths[c]
            lo, bu = _kin_breath(
                sa, c, breaths[c], fkb, fcb, hb, kinb, ordb, alive_b, par_b, fr_b, zero_b, mopts
            )
            lost_b += lo
            row[M_B_BURIED] += bu
    lo, des_b = _take_damage(alive_b, par_b, fr_b, hb, kinb, ordb, 0, mopts[MO_KIN_LOST])
    lost_b += lo
    if not des_b:
        sav = _save_roll(sa, fkb, fcb, hb, kinb, alive_b, fr_b)
        row[M_B_SAVES] += sav
        lo, des_b = _take_damage(
            alive_b, par_b, fr_b, hb, kinb, ordb, mel - sav, mopts[MO_KIN_LOST]
        )
        lost_b += lo
    if not des_b and mopts[MO_COUNTER] != 0:
        mel_b = _melee_roll(sa, fkb, fcb, hb, kinb, alive_b, par_b, fr_b, breaths)
        for c in range(5):
            if breaths[c] > 0:
                row[M_BREATHS_B] += breaths[c]
                lo, bu = _kin_breath(
                    sa, c, breaths[c], fka, fca, ha, kina, orda, alive_a, par_a, fr_a, zero_a, mopts
                )
                lost_a += lo
        lo, des_a = _take_damage(alive_a, par_a, fr_a, ha, kina, orda, 0, mopts[MO_KIN_LOST])
        lost_a += lo
        if not des_a:
            sav_a = _save_roll(sa, fka, fca, ha, kina, alive_a, fr_a)
            lo, des_a = _take_damage(
                alive_a, par_a, fr_a, ha, kina, orda, mel_b - sav_a, mopts[MO_KIN_LOST]
            )
            lost_a += lo
    row[M_GAMES] += 1
    row[M_B_LOST] += lost_b
    row[M_B_LOST_SQ] += lost_b * lost_b
    row[M_A_LOST] += lost_a
    row[M_A_LOST_SQ] += lost_a * lost_a
    if des_b:
        row[M_B_DESTROYED] += 1
    if des_a:
        row[M_A_DESTROYED] += 1
    row[MHEAD + (lost_b if lost_b < hcap else hcap)] += 1


@njit(cache=True, parallel=True)
def melee_kernel(
    start, stop, seed, fka, fca, ha, kina, cnta, orda, fkb, fcb, hb, kinb, cntb, ordb, mopts, hcap
):
    """Games ``start..stop-1`` of army A making one melee attack on army B (B's survivors
    counter-attack when ``mopts[MO_COUNTER]``), with dragonkin breath in melee.

    Arrays as in :func:`army_kernel` (per side: faces, health, dragonkin colour, counts,
    casualty order). Returns int64[MHEAD + hcap + 1]: counters (``M_*``) then a histogram of
    the defender's health-worth lost.
    """
    n = stop - start
    size = MHEAD + hcap + 1
    nch = n_chunks(n)
    rows = np.zeros((nch, size), np.int64)
    ta = ha.shape[0]
    tb = hb.shape[0]
    for c in prange(nch):
        lo, hi = chunk_bounds(start, n, c, nch)
        sa = np.zeros(1, np.uint64)
        alive_a = np.zeros(ta, np.int64)
        par_a = np.zeros(ta, np.int64)
        fr_a = np.zeros(ta, np.int64)
        zero_a = np.zeros(ta, np.int64)
        alive_b = np.zeros(tb, np.int64)
        par_b = np.zeros(tb, np.int64)
        fr_b = np.zeros(tb, np.int64)
        zero_b = np.zeros(tb, np.int64)
        breaths = np.zeros(5, np.int64)
        row = rows[c]
        for g in range(lo, hi):
            seed_stream(sa, seed, g, P_ARMY)
            _play_melee(
                sa,
                fka,
                fca,
                ha,
                kina,
                cnta,
                orda,
                fkb,
                fcb,
                hb,
                kinb,
                cntb,
                ordb,
                mopts,
                alive_a,
                par_a,
                fr_a,
                alive_b,
                par_b,
                fr_b,
                zero_a,
                zero_b,
                breaths,
                row,
                hcap,
            )
    out = np.zeros(size, np.int64)
    for c in range(nch):
        for i in range(size):
            out[i] += rows[c, i]
    return out


guard_caches(sys.modules[__name__], [random, _kernels, data])
