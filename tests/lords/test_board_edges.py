"""Every legal end position reachable near the board edges (Dragon Lords rulebook, p.8).

The rules: "Your dragon has a number of movement points corresponding exactly to the speed you
recorded" (Movement Points, p.8); forward 1 point, "Fly Forward and Climb 2 Points", "Fly
Forward and Dive 0 Points", turns at the maneuver diagram's cost, "A dragon cannot turn more
than 180 degrees at once or turn twice in a row" (Turning, p.8); "No dragon can climb higher
than Very High altitude", "A dragon may not dive lower than Very Low altitude" (p.8); "A dragon
may not ever begin or end its move in the same hex as another dragon" (Sharing Hexes, p.8);
and the board (rule ``lords.board``, 33 x 24 hexes assumed): "A dragon that leaves the board is
out of the game". So an end state (hex, facing, altitude) is open to a dragon iff SOME legal
path to it stays on the board.

:func:`direct_ends` is a plain search of the rulebook's actions on the actual board, nothing
shared with the move tables; the exact check (``mechanics.move_fits_exact``, the tables'
alternative paths) must offer exactly its end states, where the stored path alone
(``mechanics.move_fits``, the check of every released bot) refuses some.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

from dragonsim.lords import bots as B
from dragonsim.lords import engine as E
from dragonsim.lords.game import hexes as hx
from dragonsim.lords.game import mechanics as M
from dragonsim.lords.game import movetables as MT
from dragonsim.lords.game import state as S
from dragonsim.lords.game import tables as T
from dragonsim.lords.game.tables import kernel_tables
from dragonsim.rules import lords_rules

TB = kernel_tables()
MRS = {"A": 0, "D": 3, "E": 4, "I": 8}  # A turns 60 degrees for free, I is the stiffest
MV = MT.move_tables(TB.turn_cost, mrs=MRS.values(), edges=True)
LEVELS = 5  # Very Low 1 .. Very High 5
SMALL_BOARD = {"lords.board": {"width": 9, "depth": 7}}

# forward, climb, dive: (altitude change, points); turns: (hexsides, maneuver-diagram column)
_FLY = ((0, 1), (1, 2), (-1, 0))
_TURNS = ((1, 1), (-1, 1), (2, 2), (-2, 2), (3, 3))


def _on_board(q, r, width, depth):
    col = q + (r - (r & 1)) // 2
    return 0 <= r < depth and 0 <= col < width


def direct_ends(start, speed, cost, width, depth, occupied=frozenset()):
    """Every ``(q, r, facing, altitude)`` a legal move from ``start`` (the same) spending
    exactly ``speed`` points ends in, every hex it enters on the board, its end hex not in
    ``occupied``: a depth-first walk over the rulebook's actions (free dives and free turns
    may follow the last point), each state visited once."""
    q0, r0, f0, a0 = start
    seen = set()
    ends = set()
    todo = [(q0, r0, f0, a0, False, speed)]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        q, r, f, a, turned, left = state
        if left == 0 and (q, r) not in occupied:
            ends.add((q, r, f, a))
        nq, nr = q + int(hx.DQ[f]), r + int(hx.DR[f])
        if _on_board(nq, nr, width, depth):
            for da, c in _FLY:
                if c <= left and 1 <= a + da <= LEVELS:
                    todo.append((nq, nr, f, a + da, False, left - c))
        if not turned:
            for k, col in _TURNS:
                c = int(cost[col])
                if c <= left:
                    todo.append((q, r, (f + k) % 6, a, True, left - c))
    return ends


def _dragons(start, mr, others=()):
    ds = np.zeros((1 + len(others), S.NF), np.int64)
    ds[:, S.F_ALIVE] = 1
    ds[0, [S.F_Q, S.F_R, S.F_F, S.F_ALT, S.F_MR]] = (*start, mr)
    for j, (q, r) in enumerate(others, start=1):
        ds[j, [S.F_Q, S.F_R, S.F_ALT]] = (q, r, 3)
    return ds


def board(width, depth):
    """The rules scalars with a ``width`` x ``depth`` board and the five altitude levels, for
    the board-edge checks (``mechanics.move_fits``)."""
    sc = TB.scalars.copy()
    sc[T.S_BOARD_WIDTH], sc[T.S_BOARD_DEPTH], sc[T.S_ALTITUDE_LEVELS] = width, depth, 5
    return sc


def offered(ds, speed, width, depth, exact):
    """The end states the board-edge check accepts for dragon 0 (every altitude change, every
    entry of its budget), exact or by the stored path alone."""
    mr, a0, f0 = int(ds[0, S.F_MR]), int(ds[0, S.F_ALT]), int(ds[0, S.F_F])
    q0, r0 = int(ds[0, S.F_Q]), int(ds[0, S.F_R])
    sc = board(width, depth)
    out = set()
    for dalt in range(1 - a0, LEVELS - a0 + 1):
        b = speed - dalt
        if not 0 <= b < MV.off.shape[1] - 1:
            continue
        for e in range(MV.off[mr, b], MV.off[mr, b + 1]):
            if exact:
                ok = M.move_fits_exact(ds, 0, e, dalt, MV, sc)
            else:
                ok = M.move_fits(ds, 0, e, dalt, MV, sc)
            if ok:
                f = (f0 + int(MV.f[e])) % 6
                out.add((q0 + int(MV.rq[e, f0]), r0 + int(MV.rr[e, f0]), f, a0 + dalt))
    return out


# edges and corners of the standard board, on even and odd rows (offset column, row)
EDGE_HEXES = [
    (0, 0),
    (32, 0),
    (0, 23),
    (32, 23),
    (1, 1),
    (31, 22),
    (16, 0),
    (15, 1),
    (16, 23),
    (0, 12),
    (0, 11),
    (32, 12),
    (31, 13),
    (2, 2),
]
SPEEDS = (15, 3, 9, 12, 6, 14, 1, 11, 15, 7, 13, 4, 10, 15)


@pytest.mark.slow
@pytest.mark.parametrize("mr", list(MRS))
def test_exact_check_offers_exactly_the_direct_search_at_edges_and_corners(mr):
    """At every edge hex above, every facing, speeds 1..15 (budgets with dives to 19) and
    every altitude in turn: the end states offered are exactly the direct search's; the
    stored path alone refuses some of them (the problem) and never offers one it lacks."""
    cost = TB.turn_cost[MRS[mr]]
    total = refused = 0
    for k, (col, row) in enumerate(EDGE_HEXES):
        q, r = hx.from_offset(col, row)
        for f in range(6):
            speed = SPEEDS[(k + f) % len(SPEEDS)]
            start = (q, r, f, 1 + (k + 2 * f) % LEVELS)
            ds = _dragons(start, MRS[mr])
            truth = direct_ends(start, speed, cost, 33, 24)
            assert offered(ds, speed, 33, 24, True) == truth, (col, row, f, speed)
            stored = offered(ds, speed, 33, 24, False)
            assert stored <= truth
            total += len(truth)
            refused += len(truth - stored)
    assert total > 0 and refused > 0


@pytest.mark.slow
@pytest.mark.parametrize("width,depth", [(5, 4), (6, 5), (2, 3)])
def test_exact_check_on_small_boards_where_opposite_edges_both_bind(width, depth):
    """A board narrower than a move (rule lords.board is a rules value: bounds 2..200): both
    rows and both columns bind at once. Every hex, every facing, speeds up to 15."""
    total = refused = 0
    for mr in ("A", "E", "I"):
        cost = TB.turn_cost[MRS[mr]]
        for col in range(width):
            for row in range(depth):
                q, r = hx.from_offset(col, row)
                for f in range(6):
                    speed = SPEEDS[(col + 3 * row + f) % len(SPEEDS)]
                    start = (q, r, f, 1 + (col + row + f) % LEVELS)
                    ds = _dragons(start, MRS[mr])
                    truth = direct_ends(start, speed, cost, width, depth)
                    assert offered(ds, speed, width, depth, True) == truth, (mr, col, row, f)
                    stored = offered(ds, speed, width, depth, False)
                    assert stored <= truth
                    total += len(truth)
                    refused += len(truth - stored)
    assert refused > 0


def test_exact_check_keeps_occupied_hexes_closed():
    """Sharing Hexes (p.8): an end state reached only by another path is still closed when a
    dragon is in its hex. Dragons crowd the corner hexes the stored paths miss most."""
    q, r = hx.from_offset(0, 0)
    start = (q, r, hx.NW, 3)
    cost = TB.turn_cost[MRS["E"]]
    free = direct_ends(start, 9, cost, 33, 24)
    stored = offered(_dragons(start, MRS["E"]), 9, 33, 24, False)
    extra = sorted({(eq, er) for eq, er, _, _ in free - stored})
    others = extra[::3][: S.MAXD - 1]
    assert others
    ds = _dragons(start, MRS["E"], others)
    truth = direct_ends(start, 9, cost, 33, 24, occupied=frozenset(others))
    assert truth < free
    assert offered(ds, 9, 33, 24, True) == truth


def test_alternatives_are_built_only_on_request_and_then_are_small():
    """Without ``edges`` no entry has an alternative (the released bots' tables); with it, a
    few records per entry (the memory the exact check costs), each a real box around the
    start (rows and columns within the budget)."""
    plain = MT.move_tables(TB.turn_cost, mrs=[4])
    assert plain.alt.shape[0] == 0 and not plain.alt_off.any()
    mv = MT.move_tables(TB.turn_cost, mrs=[4], edges=True)
    n = mv.f.shape[0]
    assert mv.alt_off.shape == (n + 1,) and mv.alt_off[-1] == mv.alt.shape[0]
    assert 0 < mv.alt.shape[0] < 10 * n
    e = np.repeat(np.arange(n), np.diff(mv.alt_off))
    b = np.searchsorted(mv.off[4], e, side="right") - 1
    box = mv.alt[:, MT.ALT_BOX : MT.ALT_BOX + 4].astype(np.int64)
    assert (box[:, 0] <= 0).all() and (box[:, 1] >= 0).all()
    assert (np.abs(box) <= b[:, None]).all()
    assert ((mv.alt[:, MT.ALT_H] >= 0) & (mv.alt[:, MT.ALT_H] <= 4)).all()


def test_released_bots_keep_the_stored_path_check():
    """A released bot's results never change (bots module, Versions): every bot released
    before the exact check checks the board edge by the stored path, exactly as when it was
    released; hunter-4, the first released with it, checks exactly, and so do the bots since
    (hunter-5, and search-2 whose candidates and rollouts are hunter-5's)."""
    assert len(B.EDGE_EXACT) == len(B.KINDS) == len(B.FAMILIES) == len(B.FAIR)
    assert len(B.WEIGHTED) == len(B.KINDS)
    exact = sorted(label for pid, label in B.RELEASED.values() if B.EDGE_EXACT[pid] == 1)
    assert exact == ["hunter-4", "hunter-5", "search-2"]
    assert not B.edge_exact(["hunter@2", "hunter@3", "brawler", "sniper@1", "random", "search@1"])
    assert B.edge_exact(["random", "hunter"])


def test_bots_with_the_flag_choose_end_states_only_other_paths_reach(tmp_path):
    """The wiring, end to end in plain Python (``NUMBA_DISABLE_JIT=1``, where a module's
    ``EDGE_EXACT`` can be remapped for the test): the random bot and the hunter, at edge and
    corner positions, choose only legal end states (the direct search's) with the flag on
    and off; with it on some of their choices are end states the stored paths miss, with it
    off none."""
    from dragonsim.lords.api import prepare
    from dragonsim.lords.bots import plan as BP
    from dragonsim.lords.game.tables import S_BOARD_DEPTH, S_BOARD_WIDTH, S_MAX_RANGE

    prep = prepare("Reaper", "Skyblazer")
    tb = prep["tables"]
    sc = tb.scalars
    assert (sc[S_BOARD_WIDTH], sc[S_BOARD_DEPTH]) == (33, 24)
    geo = BP.geometry_table(tb.arc, tb.range_mod, sc[S_MAX_RANGE], 33, 24)
    rng = np.random.default_rng(1)
    cases = []
    starts = []
    for k in range(60):
        col, row = EDGE_HEXES[k % len(EDGE_HEXES)]
        q, r = hx.from_offset(col, row)
        start = (q, r, int(rng.integers(6)), int(rng.integers(1, 6)))
        # the enemy (level with it, moved) up to 4 hexes along or in from the edge: the
        # hunter's best end states are then near the edge too
        ec = min(max(col + int(rng.integers(-4, 5)), 0), 32)
        er = min(max(row + int(rng.integers(-4, 5)), 0), 23)
        eq, er = hx.from_offset(ec, er)
        if (eq, er) == (q, r):
            continue
        ds = np.zeros((2, S.NF), np.int64)
        ds[:, S.F_ALIVE] = 1
        ds[:, S.F_ENG] = -1
        ds[1, S.F_TEAM] = 1
        ds[:, S.F_MOVED] = 1
        ds[0, [S.F_Q, S.F_R, S.F_F, S.F_ALT, S.F_MR]] = (*start, MRS["E"])
        ds[1, [S.F_Q, S.F_R, S.F_F, S.F_ALT, S.F_MR]] = (eq, er, int(rng.integers(6)), start[3], 4)
        speed = int(rng.integers(5, 13))
        for pid in (B.P_RANDOM, B.P_HUNTER_3):
            cases.append((pid, ds, speed, k))
            starts.append((start, speed, (eq, er)))
    path = tmp_path / "cases.pkl"
    code = (
        "import json, pickle, sys\n"
        "import numpy as np\n"
        "from dragonsim.lords import bots as B\nfrom dragonsim.lords.game import state as S\n"
        "from dragonsim.lords import engine as E\n"
        "from dragonsim.lords.bots import dispatch as BD, planner as BP, random as BR\n"
        "run, cases = pickle.loads(open(sys.argv[1], 'rb').read())\n"
        "out = {}\n"
        "for flag in (0, 1):\n"
        "    BP.EDGE_EXACT = BR.EDGE_EXACT = tuple(flag for _ in B.EDGE_EXACT)\n"
        "    got = []\n"
        "    for pid, ds, speed, seed in cases:\n"
        "        ds[0, S.F_SAMPLES] = 1 << 20\n"
        "        w = E.new_work()._replace(pst=np.array([seed], np.uint64))\n"
        "        e, dalt = BD.choose_move(pid, ds, 0, speed, run, w)\n"
        "        got.append([int(e), int(dalt)])\n"
        "    out[flag] = got\n"
        "print(json.dumps(out))\n"
    )
    mv = MT.move_tables(TB.turn_cost, mrs=[MRS["E"]], edges=True)
    dragons, scen, opt, _, _, plan = prep["args"]
    run = E.Inputs(dragons, scen, opt, tb, tb.range_mod, mv, plan, geo)
    path.write_bytes(pickle.dumps((run, cases)))
    res = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code, str(path)],
        env=dict(os.environ, NUMBA_DISABLE_JIT="1"),
        capture_output=True,
        text=True,
        check=True,
    )
    out = json.loads(res.stdout.strip().splitlines()[-1])
    only_other = {(flag, pid): 0 for flag in ("0", "1") for pid in (B.P_RANDOM, B.P_HUNTER_3)}
    for flag in ("0", "1"):
        for (pid, ds, speed, _), (start, _, enemy), (e, dalt) in zip(
            cases, starts, out[flag], strict=True
        ):
            assert e >= 0
            q0, r0, f0, a0 = start
            end = (q0 + int(mv.rq[e, f0]), r0 + int(mv.rr[e, f0]), (f0 + int(mv.f[e])) % 6)
            end = (*end, a0 + dalt)
            truth = direct_ends(start, speed, TB.turn_cost[MRS["E"]], 33, 24, {enemy})
            assert end in truth
            if not M.move_fits(ds, 0, e, dalt, mv, TB.scalars):
                only_other[flag, pid] += 1
    assert only_other["0", B.P_RANDOM] == only_other["0", B.P_HUNTER_3] == 0
    assert only_other["1", B.P_RANDOM] > 0 and only_other["1", B.P_HUNTER_3] > 0, only_other


@pytest.mark.parametrize(
    "pol", ["random", "hunter@2", "hunter@3", "brawler@1", "brawler", "sniper"]
)
def test_released_bots_ignore_the_alternatives(pol):
    """A bot released before the exact check never changes: with the alternative paths in its tables
    (a game it shares with an exact bot) it plays every game exactly as without them. A
    small board (rule lords.board, 9 x 7) keeps the dragons near its edges."""
    from dragonsim.lords.api import prepare

    prep = prepare("Zippinchill", "Tankerous", policies=(pol, pol), rules=SMALL_BOARD)
    dragons, scen, opt, tb, mv, plan = prep["args"]
    assert mv.alt.shape[0] == 0
    mrs = MT.needed_mrs(dragons[:, S.D_MR], int(tb.scalars[T.S_MR_STEPS_LOST]))
    rich = MT.move_tables(tb.turn_cost, mrs=mrs, edges=True)
    assert rich.alt.shape[0] > 0
    rec = np.zeros((0, S.N_REC), np.int64)
    plain = E.duel_kernel(0, 400, 3, dragons, scen, opt, tb, mv, plan, rec)
    with_alt = E.duel_kernel(0, 400, 3, dragons, scen, opt, tb, rich, plan, rec)
    assert plain[S.C_GAMES] == 400
    assert (plain == with_alt).all()


def test_alternative_paths_are_the_same_without_the_compiler():
    """The plain-Python engine (NUMBA_DISABLE_JIT=1: the reference the speed benchmark compares
    with) builds the same alternative paths as the compiled one. The move records are int8;
    numba widens their arithmetic to int64 and plain NumPy does not, which once made the
    index of an end state wrap and the build fail (budget 12, rating I)."""
    import hashlib

    code = (
        "import hashlib\n"
        "from dragonsim.lords.game import movetables as M\n"
        "from dragonsim.lords.game.tables import kernel_tables\n"
        "from dragonsim.rules import lords_rules\n"
        "tb = kernel_tables(lords_rules())\n"
        "mv = M.move_tables(tb.turn_cost, max_budget=12, mrs=[8], edges=True)\n"
        "print(hashlib.sha1(mv.alt.tobytes() + mv.alt_off.tobytes()).hexdigest())\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    tb = kernel_tables(lords_rules())
    mv = MT.move_tables(tb.turn_cost, max_budget=12, mrs=[8], edges=True)
    want = hashlib.sha1(mv.alt.tobytes() + mv.alt_off.tobytes()).hexdigest()
    assert out.stdout.strip() == want
