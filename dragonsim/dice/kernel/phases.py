"""The phases of a dragon attack on an army ('Dragon Attack'), one job each: the dragons
roll, breath is resolved, the army's results slay dragons, the damage its saves did not stop
kills units, then slaying promotions, treasure and wing. Each reads the chunk's work arrays
and rules (:class:`ArmyWork`, :class:`AttackRules`, built once per chunk by
:mod:`~dragonsim.dice.kernel.army`) and allocates nothing (:func:`~dragonsim._kernels.game_fn`).

The phases that take the records are :func:`~dragonsim._kernels.inner_fn`: each compiles once,
on its own, and LLVM inlines it into the game (numba's ``inline="always"``, which retypes the
callee in every caller, is kept for a few scalar helpers).
"""

from __future__ import annotations

import sys
from typing import NamedTuple

import numpy as np

from ... import _kernels, random
from ..._kernels import game_fn, guard_caches, inner_fn
from ...random import below_s
from .. import data
from ..data import (  # the codes (numba freezes them as constants)
    BLACK,
    BLUE,
    D_BELLY,
    D_BREATH,
    D_CLAW,
    D_JAWS,
    D_TAIL,
    D_TREASURE,
    D_WING,
    GREEN,
    RED,
)
from . import layout, response
from .layout import C_BURIED
from .response import _covered

_U6 = np.uint64(6)
_U12 = np.uint64(12)


class ArmyWork(NamedTuple):
    """One chunk's private copies of the army and its scratch (int64 unless said)."""

    health: np.ndarray  # [T]
    kin: np.ndarray  # [T]
    promo: np.ndarray  # [T]
    count0: np.ndarray  # [T]
    dua0: np.ndarray  # [T]
    kill_u: np.ndarray  # uint64 [T]: the orders as unsigned indices (numba then skips the
    gold_u: np.ndarray  # uint64 [T]  negative-index wrap-around)
    treasure_u: np.ndarray  # uint64 [T]
    alive: np.ndarray  # [T]: units in play
    dead: np.ndarray  # [T]: units in the dead unit area
    snap: np.ndarray  # [T]: a promotion round's starting counts
    skip: np.ndarray  # [T]: 1 for the types not rolled during the attack
    resp: np.ndarray  # uint64 [T]: the types that respond (the first AttackRules.nr)
    words: np.ndarray  # [T, 6]: each face's packed response (response._response_words)
    aux: np.ndarray  # [T, 6]: bit 0 an ID face, bit 1 the face saves from gold breath
    half: np.ndarray  # [T, 6]: words under frost per unit
    ft: np.ndarray  # [k, 12]: each dragon's faces, damage << 3 | icon
    present: np.ndarray  # [k]: dragon still in the fight
    final: np.ndarray  # [k]: this attack's final icon, -1 if not in the fight
    carried: np.ndarray  # [k]: damage carried by each dragon
    th: np.ndarray  # [k]: what slaying each dragon takes this attack
    ends: np.ndarray  # [8 * (turns + 1)]: a lone dragon's games by how they ended
    ph: np.ndarray  # [64]: games by promotions made


class AttackRules(NamedTuple):
    """One chunk's rule values (from ``opts``) and what the setup worked out."""

    colour: int
    tail_d: int
    flame: int
    stone: int
    round_up: int
    unlimited: int
    dhealth: int
    dsaves: int
    kin_lost: int
    carry: bool
    save_first: bool
    promo_once: bool
    treasure_first: bool
    frost_unit: bool
    kills: bool  # a breath that can kill units (not blue, not green)
    blk: int  # most dice one packed sum holds
    one_sum: bool  # the whole response fits one packed sum
    nr: int  # types that respond
    nk0: int  # units other than dragonkin at the start
    turns: int
    hcap: int  # last bin of the health-lost histogram
    lay_army: int  # counter slots of the histograms (layout.army_layout)
    lay_drag: int
    lay_slain: int


# -- small rules, called
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


# -- the phases of an attack


@inner_fn
def _roll_lone(s_d1, v1, ft, tail_d, ahead):
    """The lone dragon rolls until a non-tail icon, its first die rolled one attack ahead:
    ``s_d1``, ``v1`` are the stream after that die and its packed face. Returns ``(stream
    state, the next attack's s_d1 and v1, final icon, damage)``; ``ahead``: is there a next
    attack (a tail rolls on in this one)."""
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
        if ahead:
            s_d1, i = below_s(s_d, _U12)
            v1 = ft[0, i]
    return s_d, s_d1, v1, v & 7, tails * tail_d + (v >> 3)


@inner_fn
def _roll_dragons(s_d, w, tail_d):
    """Each dragon present rolls until a non-tail icon (its final icon to ``w.final``, -1
    for one gone): ``(stream state, damage, breaths, treasures)``."""
    dmg = 0
    breaths = 0
    treasures = 0
    for j in range(w.present.shape[0]):
        w.final[j] = -1
        if w.present[j] == 0:
            continue
        tails = 0
        s_d, i = below_s(s_d, _U12)
        v = w.ft[j, i]
        while (v & 7) == D_TAIL:
            tails += 1
            s_d, i = below_s(s_d, _U12)
            v = w.ft[j, i]
        w.final[j] = v & 7
        dmg += tails * tail_d + (v >> 3)
        breaths += (v & 7) == D_BREATH
        treasures += (v & 7) == D_TREASURE
    return s_d, dmg, breaths, treasures


@inner_fn
def _breath(s_a, breaths, w, r, row):
    """Breath, resolved immediately (before the army responds), ``breaths`` times: black
    kills each unit that rolls no ID, red kills ``r.flame`` health-worth in casualty order
    (both buried), gold kills ``r.stone`` units chosen first unless each rolls a save, blue
    paralyses, green frosts. Returns ``(stream state, health-worth lost, paralysed,
    frost)``."""
    lost = 0
    paralysed = False
    frost = False
    for _b in range(breaths):
        if r.colour == BLACK:
            for t in range(w.alive.shape[0]):
                c = w.alive[t]
                if c == 0 or w.skip[t] != 0:
                    continue
                killed = 0
                for _u in range(c):
                    s_a, f = below_s(s_a, _U6)
                    killed += w.aux[t, f] & 1
                w.alive[t] = c - killed
                lost += killed * w.health[t]
                row[C_BURIED] += killed * w.health[t]
        elif r.colour == BLUE:
            paralysed = True
        elif r.colour == GREEN:
            frost = True
        elif r.colour == RED:  # flame: health-worth killed in casualty order, buried
            killed, _nk = _kill_in_order(
                w.alive, w.dead, w.health, w.kin, w.kill_u, r.flame, r.round_up, 0
            )
            lost += killed
            row[C_BURIED] += killed
        else:  # gold: targets chosen first, then each rolled individually
            remaining = r.stone
            for i in range(w.alive.shape[0]):
                t = w.gold_u[i]
                mt = w.alive[t]
                if mt > remaining:
                    mt = remaining
                if mt == 0:
                    continue
                remaining -= mt
                killed = mt
                if w.skip[t] == 0:  # (one not rolled during the attack is killed)
                    for _u in range(mt):
                        s_a, f = below_s(s_a, _U6)
                        killed -= (w.aux[t, f] >> 1) & 1
                w.alive[t] -= killed
                if w.kin[t] < 0:
                    w.dead[t] += killed
                lost += killed * w.health[t]
    return s_a, lost, paralysed, frost


@inner_fn
def _slay_two(w, r, mel, mis, id_att):
    """Several dragons: the army's best use of its melee and missile (each on one dragon)
    and ID, the most dragons slain, then the least ID: ``(slain, ID used, first slain,
    second slain)`` (-1: none)."""
    k = w.present.shape[0]
    for j in range(k):
        w.th[j] = r.dhealth - w.carried[j]
        if w.final[j] != D_BELLY:
            w.th[j] += r.dsaves
    nslain = 0
    used = 0
    sa1 = -1
    sa2 = -1
    for a in range(k):
        if w.present[a] == 0:
            continue
        na = w.th[a] - mel  # melee on a
        if na < 0:
            na = 0
        nm = w.th[a] - mis  # missile on a
        if nm < 0:
            nm = 0
        for need in (na, nm):  # melee first: a tie keeps it
            if need <= id_att and (nslain < 1 or (nslain == 1 and need < used)):
                nslain = 1
                used = need
                sa1 = a
                sa2 = -1
        for b in range(k):  # melee on a, missile on b
            if b == a or w.present[b] == 0:
                continue
            nb = w.th[b] - mis
            if nb < 0:
                nb = 0
            need = na + nb
            if need <= id_att and (nslain < 2 or (nslain == 2 and need < used)):
                nslain = 2
                used = need
                sa1 = a
                sa2 = b
    return nslain, used, sa1, sa2


@inner_fn
def _damage(w, round_up, rem, nk):
    """The damage the saves did not stop (``rem``) kills whole units in casualty order (with
    ``round_up`` a remainder kills one more); killed units other than dragonkin go to the dead
    unit area. Returns ``(health-worth killed, units other than dragonkin left)``."""
    nt = w.alive.shape[0]
    killed_hw = 0
    for i in range(nt):
        if rem <= 0:
            break
        t = w.kill_u[i]
        h = w.health[t]
        m = _covered(w.alive[t], h, rem)
        w.alive[t] -= m
        rem -= m * h
        killed_hw += m * h
        if w.kin[t] < 0:
            w.dead[t] += m
            nk -= m
    if round_up != 0 and rem > 0:
        for i in range(nt):
            t = w.kill_u[i]
            if w.alive[t] > 0:
                w.alive[t] -= 1
                killed_hw += w.health[t]
                if w.kin[t] < 0:
                    w.dead[t] += 1
                    nk -= 1
                break
    return killed_hw, nk


@inner_fn
def _promotions(w, r, nslain, treasures, destroyed, count_only):
    """After the attack: treasure first when ``r.treasure_first`` (promotion_order), then a
    round of slaying promotions per dragon slain (one with ``r.promo_once``), then treasure.
    ``count_only``: a lone dragon slain with an unlimited supply ends the game, so only the
    promotable units are counted. Returns ``(units promoted, whether the army changed)``."""
    promos = 0
    changed = False
    if r.treasure_first and not destroyed:
        for _t in range(treasures):  # each promotes the first unit in order that can be
            promos += _treasure_promotion(w.alive, w.dead, w.promo, w.treasure_u, r.unlimited)
        changed = promos != 0
    if nslain > 0 and not destroyed:
        rounds = 1 if r.promo_once else nslain  # each slaying its own promotions
        if count_only and treasures == 0:
            promos += _promotable(w.alive, w.promo)
            rounds = 0
        for _s in range(rounds):
            got, touched = _promotion_round(w.alive, w.dead, w.snap, w.promo, r.unlimited)
            promos += got
            changed = changed or touched
    if not (destroyed or r.treasure_first):
        got = 0
        for _t in range(treasures):
            got += _treasure_promotion(w.alive, w.dead, w.promo, w.treasure_u, r.unlimited)
        promos += got
        changed = changed or got != 0
    return promos, changed


@inner_fn
def _fly_away(w, sa1, sa2):
    """'Wing: ... the dragon flies away' (unless slain): the dragons slain this attack
    (``sa1``, ``sa2``; -1 none) and those that rolled a wing leave. Returns how many flew."""
    if sa1 >= 0:
        w.present[sa1] = 0
    if sa2 >= 0:
        w.present[sa2] = 0
    fl = 0
    for j in range(w.present.shape[0]):
        if w.final[j] == D_WING and j != sa1 and j != sa2:
            w.present[j] = 0
            fl += 1
    return fl


guard_caches(sys.modules[__name__], [layout, response, random, _kernels, data])
