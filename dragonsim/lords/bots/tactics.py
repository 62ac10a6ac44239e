"""Close-combat tactics (optional rules, p.22): the bots' choice, and the equilibrium it draws.

"At the beginning of the combat, both players secretly choose their tactics ... and then
reveal their choices simultaneously. Cross reference these choices on the Tactics Result
Table ... The result is the adjustment to the attacker's modified close combat score" (p.22).
A secret simultaneous choice is a matrix game, and the close combat is zero-sum in the points
it moves, so the planning bots (and the look-ahead, whose every decision but its move is the
planner's) play its equilibrium:

* the payoff to the attacker of a pair (its tactic ``x``, the defender's ``y``) is
  ``P(win) * (D_a(x) - S(x)) - P(loss) * (D_d(y) - S(y))``: ``P`` exact from 2d6 against 2d6
  with both close-combat modifiers (maneuverability now, the Lancer's +2) and the table's
  adjustment added to the attacker's; ``D`` the expected tooth-and-claw damage of the winner
  (its claws' dice and plus, the Lancer's +4 when riders are in play, Lunge's +1d6: "an
  additional +1d6 points of damage"; 0 after a Defend win: "no damage is inflicted on either
  dragon") and ``S`` the winner's own expected 1d6 (0 after a Defend win). A draw moves no
  points. Left out: the damage a part can still take (points are not capped at what is
  left), the rider check that spares a body hit, crashes after the fight and the facings;
  keeping a tactic for later (the game is solved with the uses as they are);
* only the tactics with uses left are offered to each side ("You may only use each tactic
  five times during a game"), so the game is at most 6 x 6;
* :func:`solve_game` solves it exactly with a dense simplex (Bland's rule, no allocation:
  the tableau lives in ``Work.lp``); ``tests/lords/test_tactics.py`` holds it to
  ``scipy.optimize.linprog`` and :func:`dragonsim.lords.game.odds.tactics` (which uses
  ``linprog``) on many matrices;
* the dragon then draws its tactic from its own side's mixture, from the policy stream.

The random bots pick uniformly among the tactics with uses left (:func:`pick_tactic`).
"""

from __future__ import annotations

import sys

import numpy as np

from ... import _kernels
from ..._kernels import game_fn, guard_caches, inner_fn
from ..game import mechanics, state, tables
from ..game.mechanics import cc_modifier, draw_below
from ..game.state import F_CLAW, F_RIDER, F_TAC_USED, N_TACTICS, OPT_RIDERS, TAC_DEFEND, TAC_LUNGE
from ..game.tables import S_CC_SELF_DAMAGE_DICE, S_LANCER_DAMAGE, S_TACTIC_USES

#: the float64 scratch a tactic choice works in (``Work.lp``): the payoff matrix (6 x 6, row
#: major), the tableau (at most 7 rows of 13), its basis, the two mixtures, the row and
#: column tactics offered
LP_M = 0
LP_T = LP_M + N_TACTICS * N_TACTICS
LP_W = 2 * N_TACTICS + 1  # the widest tableau row: columns, slacks, right-hand side
LP_B = LP_T + (N_TACTICS + 1) * LP_W
LP_X = LP_B + N_TACTICS  # the row player's (attacker's) mixture, by tactic
LP_Y = LP_X + N_TACTICS  # the column player's (defender's)
LP_RI = LP_Y + N_TACTICS
LP_CI = LP_RI + N_TACTICS
LP_CELLS = LP_CI + N_TACTICS
#: pivots and reduced costs below this are zero
LP_EPS = 1e-12
#: 2d6 against 2d6: the number of the 1296 pairs of each difference, at index difference + 10
DIFF_COUNTS = np.array(
    [
        sum((6 - abs(a - 7)) * (6 - abs(a - k - 7)) for a in range(2, 13) if 2 <= a - k <= 12)
        for k in range(-10, 11)
    ],
    dtype=np.int64,
)


@game_fn
def cc_probs(d):
    """``(P(win), P(loss))`` of 2d6 + ``d`` against 2d6, ties a draw (p.13), exactly."""
    w = 0
    lo = 0
    for k in range(-10, 11):
        c = DIFF_COUNTS[k + 10]
        if k + d > 0:
            w += c
        elif k + d < 0:
            lo += c
    return w / 1296.0, lo / 1296.0


@game_fn
def winner_gain(ds, i, tac, weapon, scal, opt):
    """Expected points dragon ``i`` moves when it wins a close combat with tactic ``tac``: the
    tooth-and-claw dice and plus (p.13), the Lancer's +4 (p.18), Lunge's +1d6, less its own
    1d6; nothing after a Defend win (p.22)."""
    if tac == TAC_DEFEND:
        return 0.0
    c = ds[i, F_CLAW]
    g = 3.5 * weapon[c, 0] + weapon[c, 1]
    if opt[OPT_RIDERS] == 1 and ds[i, F_RIDER] == 1:
        g += scal[S_LANCER_DAMAGE]
    if tac == TAC_LUNGE:
        g += 3.5
    return g - 3.5 * scal[S_CC_SELF_DAMAGE_DICE]


@game_fn
def tactic_payoff(ds, att, dfn, tactics, cc_by_mr, weapon, scal, opt, buf):
    """The attacker's payoff for every pair (attacker ``att``'s tactic, defender ``dfn``'s)
    into ``buf[LP_M:]`` (6 x 6, row major; see the module docstring)."""
    base = cc_modifier(ds, att, cc_by_mr, scal, opt) - cc_modifier(ds, dfn, cc_by_mr, scal, opt)
    for x in range(N_TACTICS):
        ga = winner_gain(ds, att, x, weapon, scal, opt)
        for y in range(N_TACTICS):
            pw, pl = cc_probs(base + tactics[x, y])
            gd = winner_gain(ds, dfn, y, weapon, scal, opt)
            buf[LP_M + N_TACTICS * x + y] = pw * ga - pl * gd


@game_fn
def _pivot(buf, nrows, width, lv, e):
    t = LP_T
    p = buf[t + lv * width + e]
    for c in range(width):
        buf[t + lv * width + c] /= p
    for r in range(nrows):
        if r == lv:
            continue
        f = buf[t + r * width + e]
        if f != 0.0:
            for c in range(width):
                buf[t + r * width + c] -= f * buf[t + lv * width + c]
    buf[LP_B + lv] = e


@game_fn
def solve_game(buf, nr, nc):
    """The value of the zero-sum game whose row player (maximising) has the tactics
    ``buf[LP_RI:LP_RI + nr]`` and the column player ``buf[LP_CI:LP_CI + nc]``, payoffs
    ``buf[LP_M + 6 * row + column]``; writes both optimal mixtures by tactic into
    ``buf[LP_X:]`` and ``buf[LP_Y:]`` (0 for a tactic not offered).

    The textbook reduction: shift every payoff to at least 1 (value ``v + s > 0``), then the
    column player's ``max sum(y)`` subject to ``B y <= 1``, ``y >= 0`` is a simplex started at
    its slack basis; at the optimum ``sum(y) = 1 / (v + s)``, the column mixture is ``y`` scaled
    to 1 and the row mixture the objective row's slack entries (the dual), scaled alike.
    Bland's rule (the lowest entering column, ties in the ratio test to the lowest basic
    variable) so a degenerate game cannot cycle."""
    lo = 0.0
    for r in range(nr):
        for c in range(nc):
            v = buf[LP_M + N_TACTICS * np.int64(buf[LP_RI + r]) + np.int64(buf[LP_CI + c])]
            if (r == 0 and c == 0) or v < lo:
                lo = v
    shift = 1.0 - lo
    width = nc + nr + 1
    t = LP_T
    for r in range(nr):
        ri = np.int64(buf[LP_RI + r])
        for c in range(nc):
            buf[t + r * width + c] = buf[LP_M + N_TACTICS * ri + np.int64(buf[LP_CI + c])] + shift
        for k in range(nr):
            buf[t + r * width + nc + k] = 1.0 if k == r else 0.0
        buf[t + r * width + width - 1] = 1.0
        buf[LP_B + r] = nc + r
    for c in range(width):
        buf[t + nr * width + c] = -1.0 if c < nc else 0.0
    for _ in range(10_000):
        e = -1
        for c in range(nc + nr):
            if buf[t + nr * width + c] < -LP_EPS:
                e = c
                break
        if e < 0:
            break
        lv = -1
        best = 0.0
        for r in range(nr):
            a = buf[t + r * width + e]
            if a > LP_EPS:
                q = buf[t + r * width + width - 1] / a
                if (
                    lv < 0
                    or q < best - LP_EPS
                    or (q <= best + LP_EPS and buf[LP_B + r] < buf[LP_B + lv])
                ):
                    lv = r
                    best = q
        if lv < 0:
            break  # unbounded: not with every payoff positive
        _pivot(buf, nr + 1, width, lv, e)
    z = buf[t + nr * width + width - 1]
    vb = 1.0 / z
    for k in range(N_TACTICS):
        buf[LP_X + k] = 0.0
        buf[LP_Y + k] = 0.0
    for r in range(nr):
        b = np.int64(buf[LP_B + r])
        if b < nc:
            buf[LP_Y + np.int64(buf[LP_CI + b])] = buf[t + r * width + width - 1] * vb
    for r in range(nr):
        buf[LP_X + np.int64(buf[LP_RI + r])] = buf[t + nr * width + nc + r] * vb
    return vb - shift


@game_fn
def offer(ds, i, at, scal, buf):
    """Write dragon ``i``'s tactics with uses left into ``buf[at:]``; returns how many."""
    n = 0
    for k in range(N_TACTICS):
        if ds[i, F_TAC_USED + k] < scal[S_TACTIC_USES]:
            buf[at + n] = k
            n += 1
    return n


@game_fn
def equilibrium(ds, att, dfn, tactics, cc_by_mr, weapon, scal, opt, buf):
    """The tactics game of attacker ``att`` and defender ``dfn`` as they stand (their
    modifiers, claws, riders and uses left): its value to the attacker; the mixtures are in
    ``buf[LP_X:]`` (attacker's) and ``buf[LP_Y:]`` (defender's)."""
    tactic_payoff(ds, att, dfn, tactics, cc_by_mr, weapon, scal, opt, buf)
    nr = offer(ds, att, LP_RI, scal, buf)
    nc = offer(ds, dfn, LP_CI, scal, buf)
    return solve_game(buf, nr, nc)


@game_fn
def draw_mixture(buf, at, pst):
    """A tactic drawn from the mixture ``buf[at:at + 6]`` with the policy stream."""
    u = draw_below(pst, 1 << 30) / float(1 << 30)
    acc = 0.0
    last = -1
    for k in range(N_TACTICS):
        p = buf[at + k]
        if p > 0.0:
            acc += p
            last = k
            if u < acc:
                return np.int64(k)
    return np.int64(last)


@inner_fn
def plan_tactic(ds, i, j, attacker, run, w):
    """The planners' tactic for dragon ``i`` fighting ``j`` (``attacker``: ``i`` engaged): drawn
    from its side's equilibrium mixture (solved in the scratch ``w.lp``)."""
    opt, tb, buf, pst = run.opt, run.tb, w.lp, w.pst
    tactics, cc_by_mr, weapon, scal = tb.tactics, tb.cc_by_mr, tb.weapon, tb.scalars
    if attacker:
        equilibrium(ds, i, j, tactics, cc_by_mr, weapon, scal, opt, buf)
        return draw_mixture(buf, LP_X, pst)
    equilibrium(ds, j, i, tactics, cc_by_mr, weapon, scal, opt, buf)
    return draw_mixture(buf, LP_Y, pst)


@game_fn
def pick_tactic(ds, i, scal, pst):
    """The random bots' tactic: uniform over those with uses left."""
    n = 0
    for k in range(N_TACTICS):
        if ds[i, F_TAC_USED + k] < scal[S_TACTIC_USES]:
            n += 1
    m = draw_below(pst, n)
    for k in range(N_TACTICS):
        if ds[i, F_TAC_USED + k] < scal[S_TACTIC_USES]:
            if m == 0:
                return np.int64(k)
            m -= 1
    return np.int64(-1)


def solve_matrix(mat) -> tuple[float, np.ndarray, np.ndarray]:
    """:func:`solve_game` from Python: a payoff matrix of at most 6 x 6 (rows: the maximising
    player) -> ``(value, row mixture, column mixture)``."""
    m = np.asarray(mat, dtype=np.float64)
    nr, nc = m.shape
    if not (1 <= nr <= N_TACTICS and 1 <= nc <= N_TACTICS):
        raise ValueError(f"a game of at most {N_TACTICS} x {N_TACTICS}, got {nr} x {nc}")
    buf = np.zeros(LP_CELLS)
    full = np.zeros((N_TACTICS, N_TACTICS))
    full[:nr, :nc] = m
    buf[LP_M : LP_M + N_TACTICS * N_TACTICS] = full.ravel()
    buf[LP_RI : LP_RI + nr] = np.arange(nr)
    buf[LP_CI : LP_CI + nc] = np.arange(nc)
    v = _solve(buf, nr, nc)
    return float(v), buf[LP_X : LP_X + nr].copy(), buf[LP_Y : LP_Y + nc].copy()


@game_fn
def _solve(buf, nr, nc):
    return solve_game(buf, nr, nc)


guard_caches(sys.modules[__name__], [mechanics, state, tables, _kernels])
