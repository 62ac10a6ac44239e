"""The army mode: one or more dragons of one colour attack an army at the start of each of
the army owner's turns until the dragons are gone (slain or flown away), the army is
destroyed, or ``turns`` attacks have happened.

:func:`army_kernel` (``kernel(start, stop, seed, dragons, army, opts, shape) -> int64
counters``, see :mod:`dragonsim.runner`) runs chunks of games in ``prange``; each chunk owns one
row of a 2-D counter array and its own work arrays (:func:`_setup`, allocated once per
chunk, never per game). Game ``g`` draws dragon dice from the stream ``(seed, g, P_DRAGON)``
and army dice from ``(seed, g, P_ARMY)``, so a result does not depend on threads or chunking
and a bigger army meets the same dragon rolls (common random numbers). The games are
played in :func:`_play`, the phases of :mod:`~dragonsim.dice.kernel.phases` in order; the
counting is here.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit, prange

from ... import _kernels, random
from ..._kernels import chunk_bounds, game_fn, guard_caches, inner_fn, n_chunks
from ...random import below_s, steps_between, stream_seed
from .. import data
from ..data import BLUE, D_BREATH, D_TREASURE, D_WING, GREEN
from . import layout, phases, response
from .layout import (
    C_ALL_SLAIN,
    C_ANY_SLAIN,
    C_DESTROYED,
    C_DESTROYED_BY_BREATH,
    C_DICE_ARMY,
    C_DICE_DRAGON,
    C_FLEW,
    C_GAMES,
    C_LOST,
    C_LOST_SQ,
    C_PROMO,
    C_PROMO_ANY,
    C_PROMO_SQ,
    C_SLAIN_SUM,
    C_TIMEOUT,
    C_TURNS,
    C_TURNS_SQ,
    NHEAD,
    O_CARRY,
    O_CLAW,
    O_DHEALTH,
    O_DSAVES,
    O_FLAME,
    O_FROST_PER_UNIT,
    O_ID_SPLIT,
    O_JAWS,
    O_KIN_LOST,
    O_KIN_MELEE,
    O_KIN_NONE_ROLLED,
    O_PROMO_ONCE,
    O_PROMO_UNLIMITED,
    O_ROUND_UP,
    O_STONE,
    O_TAIL,
    O_TREASURE_FIRST,
    P_ARMY,
    P_DRAGON,
)
from .phases import (
    ArmyWork,
    AttackRules,
    _breath,
    _carry_on_first,
    _damage,
    _fly_away,
    _non_kin_left,
    _not_rolled,
    _pack_dragon_faces,
    _promotions,
    _remove_kin,
    _responders,
    _roll_dragons,
    _roll_lone,
    _slay_lone,
    _slay_two,
)
from .response import _halved_words, _response_words, _roll_response, _use_of_roll

_U0 = np.uint64(0)
_U12 = np.uint64(12)


# -- the chunk's setup


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _setup(dragons, army, opts, shape):
    """One chunk's work arrays and rules: ``(ArmyWork, AttackRules)`` (:mod:`.phases`). The
    army's arrays are private copies: reference counts of arrays shared by threads bounce
    between cores. Only compiled code calls it: no wrappers (boxing the records is a large
    part of compiling it)."""
    nt = army.health.shape[0]
    k = dragons.faces.shape[0]
    colour = dragons.colour
    words = np.zeros((nt, 6), np.int64)
    aux = np.zeros((nt, 6), np.int64)
    blk = _response_words(army.fk, army.fc, army.health, army.kin, opts[O_KIN_MELEE], words, aux)
    half = np.zeros((nt, 6), np.int64)  # words under frost per unit
    _halved_words(words, half)
    skip = np.zeros(nt, np.int64)
    _not_rolled(army.kin, colour, opts[O_KIN_NONE_ROLLED], skip)
    resp = np.zeros(nt, np.uint64)
    nr = _responders(skip, resp)
    ft = np.zeros((k, 12), np.int64)
    _pack_dragon_faces(dragons.faces.copy(), opts[O_CLAW], opts[O_JAWS], ft)
    units = 0  # units in the army: promotions trade units, so never more alive at once
    for t in range(nt):
        units += army.count0[t]
    z = np.zeros
    w = ArmyWork(
        army.health.copy(),
        army.kin.copy(),
        army.promo.copy(),
        army.count0.copy(),
        army.dua0.copy(),
        army.kill_order.astype(np.uint64),
        army.gold_order.astype(np.uint64),
        army.treasure_order.astype(np.uint64),
        z(nt, np.int64),
        z(nt, np.int64),
        z(nt, np.int64),
        skip,
        resp,
        words,
        aux,
        half,
        ft,
        z(k, np.int64),
        z(k, np.int64),
        z(k, np.int64),
        z(k, np.int64),
        z(8 * (shape.turns + 1), np.int64),
        z(64, np.int64),
    )
    lay_army = NHEAD + shape.hcap + 1
    r = AttackRules(
        colour,
        opts[O_TAIL],
        opts[O_FLAME],
        opts[O_STONE],
        opts[O_ROUND_UP],
        opts[O_PROMO_UNLIMITED],
        opts[O_DHEALTH],
        opts[O_DSAVES],
        opts[O_KIN_LOST],
        opts[O_CARRY] != 0,
        opts[O_ID_SPLIT] == 1,
        opts[O_PROMO_ONCE] != 0,
        opts[O_TREASURE_FIRST] != 0,
        opts[O_FROST_PER_UNIT] != 0,
        colour != BLUE and colour != GREEN,
        blk,
        units <= blk,
        nr,
        _non_kin_left(army.count0, army.kin),
        shape.turns,
        shape.hcap,
        lay_army,
        lay_army + shape.turns + 1,
        lay_army + 2 * (shape.turns + 1),
    )
    return w, r


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
    first slain at the last attack played. A game counts as flown away only when the army is
    still there (:data:`~.layout.C_FLEW`): a wing on the attack that destroys the army ends the
    game as the army destroyed."""
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
                    row[C_FLEW] += fw * (1 - de) * m
                    row[C_TIMEOUT] += (1 - sl) * (1 - fw) * (1 - de) * m
                    row[C_TURNS] += pl * m
                    row[C_TURNS_SQ] += pl * pl * m
                    row[lay_slain + pl] += sl * m
                    row[lay_army + pl] += de * m
                    row[lay_drag + pl] += (sl | fw) * m


# -- the games


@inner_fn
def _count_game(row, r, k, slain, flew, left, destroyed, played, first_slain):
    """Several dragons: how a game ended, into ``row`` (a lone dragon's games are counted by
    their end bin, :func:`_finish_chunk`)."""
    if first_slain > 0:
        row[r.lay_slain + first_slain] += 1
    if destroyed:
        row[r.lay_army + played] += 1
    if left == 0:
        row[r.lay_drag + played] += 1
    row[C_GAMES] += 1
    row[C_ANY_SLAIN] += slain > 0
    row[C_ALL_SLAIN] += slain == k
    row[C_SLAIN_SUM] += slain
    row[C_DESTROYED] += destroyed
    row[C_FLEW] += left == 0 and flew > 0 and not destroyed
    row[C_TIMEOUT] += left > 0 and not destroyed
    row[C_TURNS] += played
    row[C_TURNS_SQ] += played * played


@game_fn(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _play(lo, hi, seed, w, r, row, multi):
    """Games ``lo..hi-1`` of :func:`army_kernel` (one chunk, one thread) on the chunk's work
    ``w`` and rules ``r`` (:func:`_setup`), counted into ``row``: attack after attack ('Dragon
    Attack'), the dragons roll, breath is resolved, the army responds (melee or missile and ID
    on the dragons, saves against the damage), damage kills units, then slaying promotions,
    treasure and wing (the phases of :mod:`.phases`, which LLVM inlines here).

    ``multi`` is ``None`` for a lone dragon whose army's response fits one packed sum (every
    ``multi is None`` test is decided when numba compiles, see :func:`army_kernel`): its
    roll, the army's best use of its results and its carried damage are scalars, and a game
    is counted by its end bin (``w.ends``); an int otherwise. A game function (no reference
    counting: an array read through a record in a function with reference counts costs an
    atomic increment each time) apart from the parallel kernel, so the game compiles once,
    outside numba's parfor passes; the games are in its body, not a function of their own
    (each level of functions holding the game is optimized and compiled again)."""
    moved_d = np.uint64(0)  # how far the games' streams moved, summed (mod 2**64)
    moved_a = np.uint64(0)
    # Work a game needs before its first branch is done one game ahead, in straight-line
    # code: the next game's two stream seeds (s_dn, s_an) and, for a lone dragon, the face
    # its first die shows (vr, the stream after it s_dr; a tail rolls on in the game). The
    # CPU then keeps them when a branch of this game is mispredicted. Draws are not moved:
    # a stream only counts dice from where the game that uses them starts.
    s_dn = stream_seed(seed, lo, P_DRAGON)
    s_an = stream_seed(seed, lo, P_ARMY)
    s_dr = s_dn
    vr = 0
    if multi is None:
        s_dr, i = below_s(s_dn, _U12)
        vr = w.ft[0, i]
    k = w.present.shape[0]
    for g in range(lo, hi):
        s_d = s_dn
        s_a = s_an
        s_d1 = s_dr  # the lone dragon's next die: this game's first, then one attack ahead
        v1 = vr
        s_dn = stream_seed(seed, g + 1, P_DRAGON)
        s_an = stream_seed(seed, g + 1, P_ARMY)
        if multi is None:
            s_dr, i = below_s(s_dn, _U12)
            vr = w.ft[0, i]
        moved_d -= s_d  # dice rolled are counted from how far the streams moved
        moved_a -= s_a
        for t in range(w.alive.shape[0]):
            w.alive[t] = w.count0[t]
            w.dead[t] = w.dua0[t]
        if multi is not None:
            for j in range(k):
                w.present[j] = 1
                w.carried[j] = 0
        c0 = 0  # damage carried by a lone dragon
        lost = 0
        promos = 0
        slain = 0
        flew = 0
        destroyed = False
        played = 0
        first_slain = 0
        left = k
        nk = r.nk0  # units other than dragonkin left (recounted after a breath or promotion)
        recheck = r.nk0 == 0  # must the next attack count them again?
        nslain = 0
        fl = 0
        for turn in range(1, r.turns + 1):
            played = turn
            f0 = 0  # --- the dragons roll (each until a non-tail icon)
            if multi is None:
                s_d, s_d1, v1, f0, dmg = _roll_lone(s_d1, v1, w.ft, r.tail_d, turn < r.turns)
                breaths = 1 if f0 == D_BREATH else 0
                treasures = 1 if f0 == D_TREASURE else 0
            else:
                s_d, dmg, breaths, treasures = _roll_dragons(s_d, w, r.tail_d)
            paralysed = False  # --- breath, resolved before the army responds
            frost = False
            if breaths > 0:
                s_a, burnt, paralysed, frost = _breath(s_a, breaths, w, r, row)
                lost += burnt
                recheck = recheck or r.kills
            # units other than dragonkin left? (they were after the last attack's damage;
            # only a killing breath or a promotion since can change that)
            if recheck:
                nk = _non_kin_left(w.alive, w.kin)
                if nk == 0:
                    lost += _remove_kin(w.alive, w.kin, w.health) * r.kin_lost
                    destroyed = True
                    row[C_DESTROYED_BY_BREATH] += 1
            recheck = False
            nslain = 0  # --- the army responds
            sa1 = -1  # dragons slain this attack
            sa2 = -1
            if not destroyed:
                if multi is None:
                    packed = True
                else:
                    packed = r.one_sum
                s_a, mel, mis, sav, idr, armor, frost = _roll_response(s_a, frost, packed, w, r)
                mel, mis, id_att, pool = _use_of_roll(
                    mel, mis, sav, idr, armor, dmg, frost, paralysed, r.save_first
                )
                best = mel if mel > mis else mis
                if multi is None:  # the cheaper of melee and missile on the lone dragon
                    nslain, used = _slay_lone(best, id_att, r.dhealth, r.dsaves, c0, f0)
                else:
                    nslain, used, sa1, sa2 = _slay_two(w, r, mel, mis, id_att)
                if nslain == 0 and r.carry:  # on the first dragon present
                    if multi is None:
                        c0 += best
                    else:
                        _carry_on_first(w.present, w.carried, best)
                # the damage the saves did not stop kills whole units in casualty order
                killed_hw, nk = _damage(w, r.round_up, dmg - (pool - used), nk)
                lost += killed_hw
                if nk == 0:  # (units other than dragonkin were left before this damage)
                    lost += _remove_kin(w.alive, w.kin, w.health) * r.kin_lost
                    destroyed = True
            # --- after the attack: slaying, promotion, treasure, wing
            if nslain > 0 or treasures > 0:
                if multi is None:
                    count_only = r.unlimited != 0
                else:
                    count_only = False
                got, recheck = _promotions(w, r, nslain, treasures, destroyed, count_only)
                promos += got
            if multi is None:
                fl = 1 if f0 == D_WING and nslain == 0 else 0
                # the lone dragon gone ends the game: only the last attack can slay or fly,
                # so its nslain and fl are the game's (no totals live through the loop)
                if destroyed or nslain + fl > 0:
                    break
            else:
                fl = _fly_away(w, sa1, sa2)
                slain += nslain
                flew += fl
                left -= nslain + fl
                if nslain > 0 and first_slain == 0:
                    first_slain = turn
                if destroyed or left == 0:
                    break
        if multi is None:
            w.ends[((nslain * 2 + fl) * 2 + destroyed) * (r.turns + 1) + played] += 1
        else:
            _count_game(row, r, k, slain, flew, left, destroyed, played, first_slain)
        _count_losses(row, w.ph, lost, promos, r.hcap)
        moved_d += s_d
        moved_a += s_a
    _finish_chunk(row, w.ph, w.ends, moved_d, moved_a, r.hcap, r.turns, multi is None)


def army_kernel(start, stop, seed, dragons, army, opts, shape):
    """Play games ``start..stop-1`` of dragons (one colour) attacking an army.

    Parameters
    ----------
    dragons : layout.Dragons
        The dragons' dice faces (int64[k, 12], ``D_*``) and colour (``BLACK`` .. ``RED``).
    army : layout.Army
        The army's unit types as int64 arrays (faces, health, dragonkin colour, promotion
        target, starting counts and dead unit area, casualty / gold / treasure orders).
    opts : int64[NOPT]
        Rule values and options, indexed by ``O_*``.
    shape : layout.Shape
        Most attacks per game; last bin of the health-lost histogram.

    Returns
    -------
    int64[NHEAD + hcap + 1 + 3 * (turns + 1)]
        Counters that add (see ``C_*`` and :func:`~.layout.army_layout`).

    Notes
    -----
    A Python function that picks one of two builds of :func:`_army_kernel`: ``multi`` is
    ``None`` for one dragon and an army whose response fits one packed sum (numba then prunes
    the branches for several dragons and for summing in blocks, which frees registers in the
    game loop), an int otherwise (the general code, right for any number of dragons), so a
    run compiles only the build it needs.
    """
    nt = army.health.shape[0]
    blk = _response_words(
        army.fk,
        army.fc,
        army.health,
        army.kin,
        opts[O_KIN_MELEE],
        np.zeros((nt, 6), np.int64),
        np.zeros((nt, 6), np.int64),
    )
    multi = None if dragons.faces.shape[0] == 1 and int(np.sum(army.count0)) <= blk else 1
    return _army_kernel(start, stop, seed, dragons, army, opts, shape, multi)


@njit(cache=True, parallel=True)
def _army_kernel(start, stop, seed, dragons, army, opts, shape, multi):
    """:func:`army_kernel` for one dragon (``multi is None``) or several (an int)."""
    n = stop - start
    size = NHEAD + shape.hcap + 1 + 3 * (shape.turns + 1)
    nch = n_chunks(n)
    rows = np.zeros((nch, size), np.int64)
    for c in prange(nch):
        lo, hi = chunk_bounds(start, n, c, nch)
        row = np.zeros(size, np.int64)
        w, r = _setup(dragons, army, opts, shape)
        _play(lo, hi, seed, w, r, row, multi)
        for i in range(size):
            rows[c, i] = row[i]
    out = np.zeros(size, np.int64)
    for c in range(nch):
        for i in range(size):
            out[i] += rows[c, i]
    return out


guard_caches(sys.modules[__name__], [layout, phases, response, random, _kernels, data])
