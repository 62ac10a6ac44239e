"""The scripted "bot": every decision read from a script (:mod:`dragonsim.lords.views.script`).

A scripted game hands the game loop its decisions in place of the policy stream (``Work.pst``
holds more than one cell: the ``SD_*`` header, a turn counter per dragon and one ``SR_*`` row
per turn and dragon), and each dispatcher of :mod:`.dispatch` asks the function here before
any bot. Each checks the rules before it answers, as the engine's own checks would: the speed
within the dragon's limits (p.7), a move that ends where the script says at exactly that
speed and stays on the board (pp. 8-9), an engagement the rules allow (p.9), a breath target
in arc and range that neither breather nor target is engaged (p.10), a side of the corner the
line runs through (p.11). The first decision that breaks a rule is kept in the header (its
code, turn, dragon and details) and answered with something legal so the game can finish;
the caller then names it (one line, :class:`~dragonsim.errors.UserError`).
"""

from __future__ import annotations

import sys

import numpy as np

from ... import _kernels
from ..._kernels import game_fn, guard_caches, inner_fn
from ..game import hexes, mechanics, movetables, state, tables
from ..game.hexes import rotate
from ..game.mechanics import (
    bank_fits,
    can_engage,
    ground_fits,
    is_enemy,
    may_cast_at,
    may_shoot_at,
    move_fits_exact,
    move_row,
    occupant,
    rider_target_number,
    spell_target_number,
    standing,
    stuck_on_ground,
    target_number,
)
from ..game.movetables import BK_LL, PK_F_END, PK_RQ, PK_RR
from ..game.state import (
    F_ALIVE,
    F_ALT,
    F_ENG,
    F_F,
    F_MAGIC,
    F_MR,
    F_Q,
    F_R,
    F_RIDER,
    F_TAC_USED,
    F_TEAM,
    F_TURNED,
    N_SR,
    N_TACTICS,
    RIDER_WIZARD,
    SD_COUNT,
    SD_DRAGONS,
    SD_ENGAGE,
    SD_ERR_A,
    SD_ERR_B,
    SD_ERR_C,
    SD_ERR_DRAGON,
    SD_ERR_TURN,
    SD_ERROR,
    SD_LANDING,
    SD_NO_MOVE,
    SD_OCCUPIED,
    SD_OFF_BOARD,
    SD_OK,
    SD_RIDER,
    SD_ROWS,
    SD_SIDE,
    SD_SPEED,
    SD_SPELL,
    SD_SPELL_ARG,
    SD_SPELL_TARGET,
    SD_TACTIC,
    SD_TACTIC_USED,
    SD_TARGET,
    SD_TURNS,
    SD_UNREACHABLE,
    SD_WHY_ARC,
    SD_WHY_ENGAGED,
    SD_WHY_GONE,
    SD_WHY_NO_RIDER,
    SD_WHY_REACH,
    SD_WHY_SELF,
    SD_WHY_TARGET_ENGAGED,
    SPELL_BOLT,
    SPELL_DISTORT,
    SPELL_FIREBALL,
    SPELL_HEAL,
    SPELL_SPIN,
    SR_ALT,
    SR_DROP,
    SR_EARLY,
    SR_ENGAGE,
    SR_F,
    SR_FACING,
    SR_GIVEN,
    SR_LAND,
    SR_MODE,
    SR_PATH,
    SR_Q,
    SR_R,
    SR_RIDER,
    SR_SIDE,
    SR_SPEED,
    SR_SPELL,
    SR_SPELL_ARG,
    SR_SPELL_TARGET,
    SR_TACTIC,
    SR_TARGET,
    SR_TURN,
    SR_TURN_MODE,
    SR_TURN_RESET,
    SRT_ONLY,
    SRT_TABLE,
    SW_ENEMY,
    SW_ENGAGED,
    SW_GONE,
    SW_NO_WIZARD,
    SW_POINTS,
    SW_REACH,
)
from ..game.tables import (
    S_ALTITUDE_LEVELS,
    S_BASE_TO_HIT,
    S_TACTIC_USES,
    SX_RANGE_STEPS,
    SX_SPIN_HEXSIDES,
)


@game_fn
def _get(pst, k):
    return np.int64(pst[k])


@game_fn
def _row(pst, i):
    """Where dragon ``i``'s row for the turn being played starts (-1: past the script)."""
    t = _get(pst, SD_COUNT + i)
    if t < 1 or t > _get(pst, SD_TURNS):
        return np.int64(-1)
    return SD_ROWS + ((t - 1) * _get(pst, SD_DRAGONS) + i) * N_SR


@game_fn
def _error(pst, code, i, a, b, c):
    """Keep the first broken rule (code, turn, dragon, three details)."""
    if _get(pst, SD_ERROR) == SD_OK:
        pst[SD_ERROR] = np.uint64(code)
        pst[SD_ERR_TURN] = pst[SD_COUNT + i]
        pst[SD_ERR_DRAGON] = np.uint64(i)
        pst[SD_ERR_A] = np.uint64(a)
        pst[SD_ERR_B] = np.uint64(b)
        pst[SD_ERR_C] = np.uint64(c)


@game_fn
def script_speed(ds, i, lo, hi, pst):
    """The speed the script records for dragon ``i`` this turn (a new turn for it begins
    here: speeds are recorded once a turn, before anyone moves)."""
    pst[SD_COUNT + i] = np.uint64(_get(pst, SD_COUNT + i) + 1)
    k = _row(pst, i)
    if k < 0 or _get(pst, k + SR_GIVEN) == 0:
        _error(pst, SD_NO_MOVE, i, 0, 0, 0)
        return lo
    s = _get(pst, k + SR_SPEED)
    if s < lo or s > hi:
        _error(pst, SD_SPEED, i, s, lo, hi)
        return lo if s < lo else hi
    return s


@game_fn
def script_ground_speed(ds, i, lo, hi, pst):
    """What the script records for dragon ``i`` on the ground (advanced rules, p.17): 0
    ("ground", ``"speed": 0``) or a take-off speed ``lo..hi``; a dragon a zeroed tail or
    wing keeps on the ground may only record 0."""
    pst[SD_COUNT + i] = np.uint64(_get(pst, SD_COUNT + i) + 1)
    k = _row(pst, i)
    if k < 0 or _get(pst, k + SR_GIVEN) == 0:
        _error(pst, SD_NO_MOVE, i, 0, 0, 0)
        return np.int64(0)
    s = _get(pst, k + SR_SPEED)
    if s == 0:
        return s
    if stuck_on_ground(ds, i):
        hi = lo - 1
    if s < lo or s > hi:
        _error(pst, SD_SPEED, i, s, lo, hi)
        return np.int64(0)
    return s


@game_fn
def script_land(ds, i, pst):
    """Does the script land dragon ``i`` at the end of its move (``"land": true``, p.17)?"""
    k = _row(pst, i)
    return k >= 0 and _get(pst, k + SR_LAND) == 1


@game_fn
def script_landing_error(ds, i, alt, pst):
    """The script's landing for dragon ``i`` is not one the rules allow: its flight ends at
    altitude ``alt`` (a landing is from Very Low, p.17) or the hex ahead is off the board or
    taken."""
    _error(pst, SD_LANDING, i, alt, 0 if alt != 1 else 1, 0)


@game_fn
def script_ground_move(ds, i, reach, width, depth, pst):
    """The script's move on the ground for dragon ``i`` (p.17): ``(q, r, facing)`` within
    ``reach`` hexes, on the board and free, given as a path (``SR_PATH``) or on the map
    (``SR_END``; the altitude, if given, must be 0); it stays where it is after an error."""
    k = _row(pst, i)
    q0 = ds[i, F_Q]
    r0 = ds[i, F_R]
    f0 = ds[i, F_F]
    if k < 0 or _get(pst, k + SR_GIVEN) == 0:
        return q0, r0, f0
    if _get(pst, k + SR_MODE) == SR_PATH:
        dq, dr = rotate(_get(pst, k + SR_Q), _get(pst, k + SR_R), f0)
        q = q0 + dq
        r = r0 + dr
        f = (f0 + _get(pst, k + SR_F)) % 6
        a = _get(pst, k + SR_ALT)
    else:
        q = _get(pst, k + SR_Q)
        r = _get(pst, k + SR_R)
        f = _get(pst, k + SR_F)
        a = _get(pst, k + SR_ALT)
        a = np.int64(0) if a < 0 else a
    if a != 0:
        _error(pst, SD_UNREACHABLE, i, ds[i, F_MR], reach, a)
        return q0, r0, f0
    if not ground_fits(ds, i, q, r, reach, width, depth):
        j = occupant(ds, i, q, r)
        if j >= 0:
            _error(pst, SD_OCCUPIED, i, j, 0, 0)
        else:
            _error(pst, SD_UNREACHABLE, i, ds[i, F_MR], reach, 0)
        return q0, r0, f0
    return q, r, f


@inner_fn
def script_move(ds, i, speed, run, w):
    """The move-table entry and altitude change of the script's move for dragon ``i``:
    ``(entry, dalt)``. The script gives the end state, as a path's (``SR_PATH``: the offset,
    facing change and altitude change for a dragon facing E) or on the map (``SR_END``);
    the entry is one of speed ``speed``'s ("a number of movement points corresponding
    exactly to the speed you recorded", p.8) that ends there and has a path on the board.
    With banking (p.16) the altitude given is the one after the banks' drops: the entry's
    drop ``L`` is the script's (``SR_DROP``, a path's own) or, for an end (-1), the smallest
    that reaches it, and ``dalt`` is the climbs and dives (the altitude change plus ``L``).
    ``(-1, 0)`` after an error."""
    mv, scal, pst = run.mv, run.tb.scalars, w.pst
    mv_off, mv_h, mv_pk, mv_pe, mv_bk = mv.off, mv.h, mv.pk, mv.pe, mv.bk
    lv = scal[S_ALTITUDE_LEVELS]
    k = _row(pst, i)
    if k < 0 or _get(pst, k + SR_GIVEN) == 0:
        return np.int64(-1), np.int64(0)
    f0 = ds[i, F_F]
    if _get(pst, k + SR_MODE) == SR_PATH:
        dq, dr = rotate(_get(pst, k + SR_Q), _get(pst, k + SR_R), f0)
        fend = (f0 + _get(pst, k + SR_F)) % 6
        dalt = _get(pst, k + SR_ALT)
    else:
        dq = _get(pst, k + SR_Q) - ds[i, F_Q]
        dr = _get(pst, k + SR_R) - ds[i, F_R]
        fend = _get(pst, k + SR_F)
        a = _get(pst, k + SR_ALT)
        dalt = np.int64(0) if a < 0 else a - ds[i, F_ALT]  # -1: the altitude it flies at
    mr = move_row(ds, i)  # (the table row: the rating, and a turn carried, p.16)
    b = speed - dalt
    alt = ds[i, F_ALT] + dalt
    if b < 0 or b >= mv_off.shape[1] - 1 or alt < 1 or alt > lv:
        _error(pst, SD_UNREACHABLE, i, ds[i, F_MR], b, alt)
        return np.int64(-1), np.int64(0)
    found = False
    drop = _get(pst, k + SR_DROP)
    total = dalt
    for ll in range(5):
        if drop >= 0 and ll != drop:
            continue
        dalt = total + ll
        b2 = speed - dalt
        if b2 < 0 or b2 >= mv_off.shape[1] - 1:
            continue
        for p in range(mv_off[mr, b2], mv_off[mr, b2 + 1]):
            if (
                mv_pk[f0, p, PK_RQ] == dq
                and mv_pk[f0, p, PK_RR] == dr
                and mv_pk[f0, p, PK_F_END] == fend
            ):
                e = np.int64(mv_pe[p])
                if mv_bk[e, BK_LL] != ll:
                    continue
                if dalt > mv_h[e] or -dalt > mv_h[e]:
                    continue  # this path flies too few hexes for the altitude change
                if not bank_fits(ds, i, e, dalt, mv_bk):
                    continue  # its banks' drops would take it below Very Low
                found = True
                if move_fits_exact(ds, i, e, dalt, mv, scal):
                    return e, dalt
    if not found:
        _error(pst, SD_UNREACHABLE, i, ds[i, F_MR], b, alt)
        return np.int64(-1), np.int64(0)
    q = ds[i, F_Q] + dq
    r = ds[i, F_R] + dr
    j = occupant(ds, i, q, r)
    if j >= 0:
        _error(pst, SD_OCCUPIED, i, j, 0, 0)
        return np.int64(-1), np.int64(0)
    _error(pst, SD_OFF_BOARD, i, q, r, 0)
    return np.int64(-1), np.int64(0)


@game_fn
def script_turned(ds, i, table, pst):
    """The turn dragon ``i``'s scripted path leaves in its last hex (turning between move
    phases, p.16: "If a dragon ends its move by turning 60 deg or 120 deg in a hex, it may
    continue to turn in that hex"): the path's own, which may differ from the one the move
    table's stored path to the same end leaves (``table``, kept for a move given by its end).
    A path that is one turn continues the turn the dragon carries (``F_TURNED``), 180 degrees
    at most; a full 180 carries on as 3, or as none under reading ``reset``."""
    k = _row(pst, i)
    if k < 0:
        return table
    mode = _get(pst, k + SR_TURN_MODE)
    if mode == SRT_TABLE:
        return table
    v = _get(pst, k + SR_TURN)
    c = ds[i, F_TURNED]
    if mode == SRT_ONLY and c != 0:
        a = abs(c) + abs(v)
        v = 3 if a >= 3 else (a if c > 0 else -a)
    if v == 3 or v == -3:
        return np.int64(0) if _get(pst, k + SR_TURN_RESET) == 1 else np.int64(3)
    return v


@game_fn
def script_engage(ds, i, opt, pst):
    """The dragon ``i`` engages after its move when the script says so (-1: none); an
    engagement needs the dragon in front of it at the same altitude, not Very Low, that has
    moved and is not engaged (p.9, :func:`~dragonsim.lords.game.mechanics.can_engage`)."""
    k = _row(pst, i)
    if k < 0 or _get(pst, k + SR_ENGAGE) == 0:
        return np.int64(-1)
    for j in range(ds.shape[0]):
        if can_engage(ds, i, j, opt):
            return np.int64(j)
    _error(pst, SD_ENGAGE, i, 0, 0, 0)
    return np.int64(-1)


@game_fn
def script_early(ds, i, pst):
    """Does the script move dragon ``i`` earlier in the phase (``"early": true``, p.15)? It
    then announces at its first chance, before the first dragon due to move."""
    k = _row(pst, i)
    return k >= 0 and _get(pst, k + SR_EARLY) == 1


@inner_fn
def script_target(ds, i, run, w):
    """The breath target the script records for dragon ``i`` (-1: none): an enemy in play, in
    its arc of fire, within range and the neck bend, neither of the two engaged (p.10)."""
    tb, range_mod, pst = run.tb, run.range_mod, w.pst
    k = _row(pst, i)
    if k < 0:
        return np.int64(-1)
    t = _get(pst, k + SR_TARGET)
    if t < 0:
        return np.int64(-1)
    why = -1
    if t >= ds.shape[0] or t == i:
        why = SD_WHY_SELF
    elif not is_enemy(ds, i, t):
        why = SD_WHY_GONE
    elif ds[i, F_ENG] >= 0:
        why = SD_WHY_ENGAGED
    elif ds[t, F_ENG] >= 0:
        why = SD_WHY_TARGET_ENGAGED
    elif target_number(ds, i, t, standing(ds, i), tb, range_mod) < 0:
        why = SD_WHY_ARC
    if why >= 0:
        _error(pst, SD_TARGET, i, t, why, 0)
        return np.int64(-1)
    return t


@game_fn
def script_rider_target(ds, i, tb_base, alt_mod, rider_range, scal, opt, pst):
    """The target the script records for dragon ``i``'s rider (-1: none): an enemy in play
    within the rider's long range, not engaged with another dragon (p.18)."""
    k = _row(pst, i)
    if k < 0:
        return np.int64(-1)
    t = _get(pst, k + SR_RIDER)
    if t < 0:
        return np.int64(-1)
    why = -1
    if t >= ds.shape[0] or t == i:
        why = SD_WHY_SELF
    elif rider_range[ds[i, F_RIDER], 1] <= 0:
        why = SD_WHY_NO_RIDER
    elif not is_enemy(ds, i, t):
        why = SD_WHY_GONE
    elif not may_shoot_at(ds, i, t, opt):
        why = SD_WHY_TARGET_ENGAGED
    elif rider_target_number(ds, i, t, tb_base, alt_mod, rider_range, scal)[0] < 0:
        why = SD_WHY_REACH
    if why >= 0:
        _error(pst, SD_RIDER, i, t, why, 0)
        return np.int64(-1)
    return t


@game_fn
def script_side(ds, a, t, side1, side2, pst):
    """The side of the corner that ``a``'s breath at ``t`` comes in through, when the line
    runs through a corner ("the attacker chooses")."""
    k = _row(pst, a)
    s = -1 if k < 0 else _get(pst, k + SR_SIDE)
    if s != side1 and s != side2:
        _error(pst, SD_SIDE, a, side1, side2, s)
        return side1
    return s


@game_fn
def script_facing(ds, i, j, pst):
    """The facing close-combat winner ``i`` turns to ("may then turn to face any hexside",
    p.13); it keeps its facing when the script does not say."""
    k = _row(pst, i)
    f = -1 if k < 0 else _get(pst, k + SR_FACING)
    return ds[i, F_F] if f < 0 else f


@game_fn
def script_tactic(ds, i, scal, pst):
    """The close-combat tactic the script gives dragon ``i`` (``"tactic"``, optional rules,
    p.22): one with uses left ("You may only use each tactic five times during a game"); an
    error when none is given or it has none left (then its first tactic with uses left)."""
    k = _row(pst, i)
    t = np.int64(-1) if k < 0 else _get(pst, k + SR_TACTIC) - 1
    lim = scal[S_TACTIC_USES]
    if t < 0:
        _error(pst, SD_TACTIC, i, 0, 0, 0)
    elif ds[i, F_TAC_USED + t] >= lim:
        _error(pst, SD_TACTIC_USED, i, t, ds[i, F_TAC_USED + t], lim)
    else:
        return t
    for kk in range(N_TACTICS):
        if ds[i, F_TAC_USED + kk] < lim:
            return np.int64(kk)
    return np.int64(0)


@game_fn
def script_spell(ds, i, tb, opt, pst):
    """The spell the script records for dragon ``i``'s Wizard: ``(spell, target, argument)``,
    ``(-1, -1, 0)`` for none. A Wizard with the points for it ("If there aren't enough spell
    points, the spell cannot be cast", p.18), a target in play within the spell's long range
    that the rules allow (:func:`~dragonsim.lords.game.mechanics.may_cast_at`), and an argument
    the spell takes (Distort Range one step either way, Spin up to 120 deg, Heal a part)."""
    k = _row(pst, i)
    if k < 0:
        return np.int64(-1), np.int64(-1), np.int64(0)
    sp = _get(pst, k + SR_SPELL)
    if sp < 0:
        return np.int64(-1), np.int64(-1), np.int64(0)
    t = _get(pst, k + SR_SPELL_TARGET)
    arg = _get(pst, k + SR_SPELL_ARG)
    none = (np.int64(-1), np.int64(-1), np.int64(0))
    if ds[i, F_RIDER] != RIDER_WIZARD:
        _error(pst, SD_SPELL, i, sp, SW_NO_WIZARD, 0)
        return none
    if tb.spells[sp, 0] > ds[i, F_MAGIC]:
        _error(pst, SD_SPELL, i, sp, SW_POINTS, ds[i, F_MAGIC])
        return none
    why = -1
    if t < 0 or t >= ds.shape[0] or ds[t, F_ALIVE] == 0:
        why = SW_GONE
    elif (sp == SPELL_FIREBALL or sp == SPELL_BOLT) and (t == i or ds[t, F_TEAM] == ds[i, F_TEAM]):
        why = SW_ENEMY
    elif not may_cast_at(ds, i, t, sp, opt):
        why = SW_ENGAGED
    else:
        scal = tb.scalars
        tn, band = spell_target_number(
            ds, i, t, sp, scal[S_BASE_TO_HIT], tb.alt_mod, tb.spells, scal
        )
        if tn < 0:
            why = SW_REACH
    if why >= 0:
        _error(pst, SD_SPELL_TARGET, i, t, sp, why)
        return none
    ok = arg == 0
    if sp == SPELL_DISTORT:
        st = tb.spell_fx[SX_RANGE_STEPS]
        ok = arg == st or arg == -st
    elif sp == SPELL_SPIN:
        h = tb.spell_fx[SX_SPIN_HEXSIDES]
        ok = arg != 0 and -h <= arg <= h
    elif sp == SPELL_HEAL:
        ok = -1 <= arg <= 4
    if not ok:
        _error(pst, SD_SPELL_ARG, i, sp, arg, 0)
        return none
    return sp, t, arg


guard_caches(sys.modules[__name__], [hexes, mechanics, movetables, state, tables, _kernels])
