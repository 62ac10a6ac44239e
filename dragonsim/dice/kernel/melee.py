"""Melee with dragonkin breath: army A makes one melee attack on army B, whose survivors
counter-attack when the rules say so; each dragonkin breath icon rolled applies its colour's
weaker effect to one unit of the other side at once.

:func:`melee_kernel` runs chunks of games in ``prange``; each chunk owns one row of the
counter array and one :class:`Side` per army (its dice and its scratch); game ``g`` rolls
from the stream ``(seed, g, P_ARMY)``.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from ... import _kernels, random
from ..._kernels import chunk_bounds, game_fn, guard_caches, n_chunks
from ...random import below, seed_stream
from .. import data
from ..data import BLACK, BLUE, F_BELLY, F_BREATH, F_ID, F_MELEE, F_SAVE, GREEN, RED
from . import layout
from .layout import (
    M_A_DESTROYED,
    M_A_LOST,
    M_A_LOST_SQ,
    M_A_MELEE,
    M_B_BURIED,
    M_B_DESTROYED,
    M_B_LOST,
    M_B_LOST_SQ,
    M_B_SAVES,
    M_BREATHS_A,
    M_BREATHS_B,
    M_GAMES,
    MHEAD,
    MO_BLACK_NEEDS_ID,
    MO_COUNTER,
    MO_KIN_LOST,
    P_ARMY,
)


class Side(NamedTuple):
    """One army in a melee: its dice (int64, as in :class:`~.layout.Army`) and one chunk's
    scratch (int64 [T], reset by every game)."""

    fk: np.ndarray  # [T, 6]: face kinds
    fc: np.ndarray  # [T, 6]: face counts
    health: np.ndarray
    kin: np.ndarray  # dragonkin colour, -1 for other units
    count0: np.ndarray  # units at the start
    order: np.ndarray  # casualty order
    alive: np.ndarray
    par: np.ndarray  # paralysed units (the first of a type)
    fr: np.ndarray  # frosted units (the first of a type)
    zero: np.ndarray  # all 0: no unit is busy for a killing breath


@njit(cache=True)
def _side(army):
    """A :class:`Side` for ``army`` (a :class:`~.layout.Army`), its scratch allocated."""
    t = army.health.shape[0]
    return Side(
        army.fk,
        army.fc,
        army.health,
        army.kin,
        army.count0,
        army.kill_order,
        np.zeros(t, np.int64),
        np.zeros(t, np.int64),
        np.zeros(t, np.int64),
        np.zeros(t, np.int64),
    )


@game_fn
def _first_alive(alive, order, busy):
    """First type in ``order`` with a unit not yet under an effect (``busy`` counts)."""
    for i in range(order.shape[0]):
        t = order[i]
        if alive[t] - busy[t] > 0:
            return t
    return -1


@game_fn
def _kin_breath(sa, colour, count, side, black_needs_id):
    """Apply ``count`` weaker (dragonkin) breaths of ``colour`` to ``side``.
    Returns ``(lost, buried)`` health-worth."""
    fk, fc, health, kin = side.fk, side.fc, side.health, side.kin
    order, alive, par, fr = side.order, side.alive, side.par, side.fr
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
        t = _first_alive(alive, order, side.zero)
        if t < 0:
            continue
        die = False
        bury = False
        if colour == RED:  # killed and buried
            die = True
            bury = True
        elif colour == BLACK:  # must roll its ID icon to avoid being killed and buried
            f = below(sa, 6)
            die = (fk[t, f] != F_ID) if black_needs_id != 0 else (fk[t, f] == F_ID)
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
def _melee_roll(sa, side, breaths):
    """One side's melee roll: melee results (ID counts as melee), frosted units halved,
    paralysed units not rolled; dragonkin breath icons counted per colour in ``breaths``."""
    fk, fc, health, kin = side.fk, side.fc, side.health, side.kin
    alive, par, fr = side.alive, side.par, side.fr
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
def _save_roll(sa, side):
    """One side's save roll: saves, ID as saves, dragonkin armor unless belly; frosted units
    halve their rolled results."""
    fk, fc, health, kin = side.fk, side.fc, side.health, side.kin
    alive, fr = side.alive, side.fr
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
def _take_damage(side, amount, kin_lost):
    """Kill whole units in casualty order while the damage covers them (units under an
    effect go first within a type); dragonkin alone are removed (counted in ``lost`` when
    ``kin_lost`` is 1). Returns ``(lost, destroyed)``."""
    alive, par, fr, health, kin, order = (
        side.alive,
        side.par,
        side.fr,
        side.health,
        side.kin,
        side.order,
    )
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
def _melee_attack(sa, att, dfd, breaths, mopts, row, slot):
    """``att`` rolls for melee (``slot``: where its breath icons are counted); dragonkin
    breaths act on ``dfd`` at once, then ``dfd`` rolls saves against the melee. Returns
    ``(melee, saves, dfd's health-worth lost, buried, dfd destroyed)``; saves are -1 when
    ``dfd`` was destroyed before it could roll them."""
    kin_lost = mopts[MO_KIN_LOST]
    mel = _melee_roll(sa, att, breaths)
    lost = 0
    buried = 0
    for c in range(5):
        if breaths[c] > 0:
            row[slot] += breaths[c]
            lo, bu = _kin_breath(sa, c, breaths[c], dfd, mopts[MO_BLACK_NEEDS_ID])
            lost += lo
            buried += bu
    lo, destroyed = _take_damage(dfd, 0, kin_lost)
    lost += lo
    sav = -1
    if not destroyed:
        sav = _save_roll(sa, dfd)
        lo, destroyed = _take_damage(dfd, mel - sav, kin_lost)
        lost += lo
    return mel, sav, lost, buried, destroyed


@game_fn
def _reset(side):
    for t in range(side.alive.shape[0]):
        side.alive[t] = side.count0[t]
        side.par[t] = 0
        side.fr[t] = 0


@game_fn
def _play_melee(sa, a, b, mopts, breaths, row, hcap):
    """One game: A's melee on B, then B's survivors' counter-attack when
    ``mopts[MO_COUNTER]``; counted into ``row``."""
    _reset(a)
    _reset(b)
    lost_a = 0
    des_a = False
    # the attacker rolls for melee; dragonkin breaths act on the defender at once
    mel, sav, lost_b, buried, des_b = _melee_attack(sa, a, b, breaths, mopts, row, M_BREATHS_A)
    row[M_A_MELEE] += mel
    row[M_B_BURIED] += buried
    if sav >= 0:
        row[M_B_SAVES] += sav
    if not des_b and mopts[MO_COUNTER] != 0:
        _m, _s, lost_a, _bu, des_a = _melee_attack(sa, b, a, breaths, mopts, row, M_BREATHS_B)
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
def melee_kernel(start, stop, seed, a, b, mopts, hcap):
    """Games ``start..stop-1`` of army A making one melee attack on army B (B's survivors
    counter-attack when ``mopts[MO_COUNTER]``), with dragonkin breath in melee.

    ``a``, ``b``: :class:`~.layout.Army` records (of each, the faces, health, dragonkin
    colour, counts and casualty order are read); ``mopts``: int64[NMOPT] (``MO_*``). Returns
    int64[MHEAD + hcap + 1]: counters (``M_*``) then a histogram of the defender's
    health-worth lost.
    """
    n = stop - start
    size = MHEAD + hcap + 1
    nch = n_chunks(n)
    rows = np.zeros((nch, size), np.int64)
    for c in prange(nch):
        lo, hi = chunk_bounds(start, n, c, nch)
        sa = np.zeros(1, np.uint64)
        side_a = _side(a)
        side_b = _side(b)
        breaths = np.zeros(5, np.int64)
        row = rows[c]
        for g in range(lo, hi):
            seed_stream(sa, seed, g, P_ARMY)
            _play_melee(sa, side_a, side_b, mopts, breaths, row, hcap)
    out = np.zeros(size, np.int64)
    for c in range(nch):
        for i in range(size):
            out[i] += rows[c, i]
    return out


guard_caches(sys.modules[__name__], [layout, random, _kernels, data])
