"""The army's response to a dragon attack, as the kernels roll it: each unit die's faces
packed into one word of five fields (melee, missile, save, ID, dragonkin armor), so a die
costs one load and one add, summed in blocks small enough that no field overflows; then the
army's use of its results ('Dragon Attack': melee or missile and ID on the dragons, saves
against the damage).
"""

from __future__ import annotations

import sys

import numpy as np

from ... import _kernels, random
from ..._kernels import game_fn, guard_caches, inner_fn
from ...random import below_s
from .. import data
from ..data import F_BELLY, F_ID, F_MELEE, F_MISSILE, F_SAVE
from . import layout

_U6 = np.uint64(6)


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


@game_fn(inline="always")
def _covered(c, h, rem):
    """How many of ``c`` units of health ``h`` the damage ``rem`` kills (whole units only)."""
    m = c
    if h == 1:
        m = rem
    elif h > 1:
        m = rem // h
    return m if m < c else c


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


@inner_fn
def _roll_response(s_a, frost, packed, w, r):
    """The army's response roll: ``(stream state, melee, missile, save, ID, armor, frost)``.

    Under frost per unit each unit's roll is halved on its own (summed in blocks, and frost
    is then spent: ``frost`` comes back False); otherwise one packed sum when ``packed`` (the
    hottest loop: a function numba does not inline costs more than the dice), else blocks of
    at most ``r.blk`` dice. ``w``, ``r``: the chunk's work and rules (:mod:`.army`)."""
    if frost and r.frost_unit:
        s_a, mel, mis, sav, idr, armor = _roll_blocks(s_a, w.resp, r.nr, w.alive, w.half, r.blk)
        frost = False
    elif packed:
        acc = 0
        for i in range(r.nr):
            t = w.resp[i]
            for _u in range(w.alive[t]):
                s_a, f = below_s(s_a, _U6)
                acc += w.words[t, f]
        mel, mis, sav, idr, armor = _unpack(acc)
    else:
        s_a, mel, mis, sav, idr, armor = _roll_blocks(s_a, w.resp, r.nr, w.alive, w.words, r.blk)
    return s_a, mel, mis, sav, idr, armor, frost


guard_caches(sys.modules[__name__], [layout, random, _kernels, data])
