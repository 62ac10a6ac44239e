"""Benchmark of the exact board-edge check (issue 12, item 3). Not a test: prints numbers.

    python benchmarks/bench_edges.py [--positions 200] [--calls 20000] [-n 20000]

Prints, measured in one run on this machine:

* the refused fraction: in random positions within 3 hexes of an edge of the standard board
  (any facing, MR, speed 1..15, altitude), the legal end states (a direct search of the
  rulebook's actions on the board, as in ``tests/lords/test_board_edges.py``) that the stored path's
  check refuses, and that the exact check refuses or wrongly offers;
* the memory and build time of the alternative paths per maneuverability rating;
* the cost of the move choice with ``EDGE_EXACT`` off and on, for the random bot and hunter-3,
  at positions within 3 hexes of an edge and at least 8 hexes from every edge (one compiled
  loop of ``choose_move`` calls), and the time per turn of a hunter-3 duel (Reaper vs
  Skyblazer, one thread) on the standard board and on a 9 x 7 board, flag off and on. Only
  hunter-4 has the flag (and its own weights), so a subprocess appends two benchmark-only
  ids (hunter-3 and random-1 with the flag) to the policy tuples before the bots are
  imported, on an empty numba cache (numba freezes the tuples when it compiles; a cached
  kernel would keep the old ones), and times both settings alternately, the best of 7, on
  the same tables.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from dragonsim.lords.game import hexes as hx
from dragonsim.lords.game import mechanics as M
from dragonsim.lords.game import movetables as MT
from dragonsim.lords.game import state as S
from dragonsim.lords.game.tables import kernel_tables

W, D, LEVELS = 33, 24, 5
#: the rules scalars of the standard board (W x D, LEVELS altitude levels)
SCALARS = kernel_tables().scalars


def _on_board(q, r):
    col = q + (r - (r & 1)) // 2
    return 0 <= r < D and 0 <= col < W


def direct_ends(start, speed, cost):
    """Every end state of a legal move on the board (the test's direct search)."""
    seen, ends, todo = set(), set(), [(*start, False, speed)]
    while todo:
        st = todo.pop()
        if st in seen:
            continue
        seen.add(st)
        q, r, f, a, turned, left = st
        if left == 0:
            ends.add((q, r, f, a))
        nq, nr = q + int(hx.DQ[f]), r + int(hx.DR[f])
        if _on_board(nq, nr):
            for da, c in ((0, 1), (1, 2), (-1, 0)):
                if c <= left and 1 <= a + da <= LEVELS:
                    todo.append((nq, nr, f, a + da, False, left - c))
        if not turned:
            for k, col in ((1, 1), (-1, 1), (2, 2), (-2, 2), (3, 3)):
                c = int(cost[col])
                if c <= left:
                    todo.append((q, r, (f + k) % 6, a, True, left - c))
    return ends


def edge_positions(rng, n):
    """``n`` (offset column, row, facing, altitude, MR, speed) within 3 hexes of an edge."""
    out = []
    while len(out) < n:
        col, row = int(rng.integers(W)), int(rng.integers(D))
        if min(col, row, W - 1 - col, D - 1 - row) > 3:
            continue
        out.append(
            (col, row, int(rng.integers(6)), int(rng.integers(1, 6)), int(rng.integers(9)))
            + (int(rng.integers(1, 16)),)
        )
    return out


def refused(positions, mv, cost_rows):
    total = before = after = wrong = 0
    ds = np.zeros((1, S.NF), np.int64)
    ds[0, S.F_ALIVE] = 1
    for col, row, f, a, mr, speed in positions:
        q, r = hx.from_offset(col, row)
        ds[0, [S.F_Q, S.F_R, S.F_F, S.F_ALT, S.F_MR]] = (q, r, f, a, mr)
        truth = direct_ends((q, r, f, a), speed, cost_rows[mr])
        got = {False: set(), True: set()}
        for dalt in range(1 - a, LEVELS - a + 1):
            b = speed - dalt
            if not 0 <= b < mv.off.shape[1] - 1:
                continue
            for e in range(mv.off[mr, b], mv.off[mr, b + 1]):
                end = (q + int(mv.rq[e, f]), r + int(mv.rr[e, f]), (f + int(mv.f[e])) % 6, a + dalt)
                if M.move_fits(ds, 0, e, dalt, mv, SCALARS):
                    got[False].add(end)
                if M.move_fits_exact(ds, 0, e, dalt, mv, SCALARS):
                    got[True].add(end)
        total += len(truth)
        before += len(truth - got[False])
        after += len(truth - got[True])
        wrong += len(got[True] - truth) + len(got[False] - truth)
    return total, before, after, wrong


_TIMED = r"""
import json, sys, time
import numpy as np
calls, n = int(sys.argv[1]), int(sys.argv[2])
from dragonsim.lords import bots as B
# benchmark-only ids after the released ones: hunter-3 and random-1 with the exact edge check
HUNTER_X, RANDOM_X = len(B.FAMILIES), len(B.FAMILIES) + 1
B.FAMILIES = B.FAMILIES + (B.FAMILY_PLANNER, B.FAMILY_RANDOM)
B.KINDS = B.KINDS + (B.P_HUNTER, B.P_RANDOM)
B.FAIR = B.FAIR + (1, 1)
B.EDGE_EXACT = B.EDGE_EXACT + (1, 1)
B.WEIGHTED = B.WEIGHTED + (0, 0)
import numba
from numba import njit
from dragonsim.lords import engine as E
from dragonsim.lords.game import hexes as hx, movetables as MT, state as S
from dragonsim.lords.api import prepare
from dragonsim.lords.bots import dispatch as BD, plan as BP
from dragonsim.lords.game.tables import S_MAX_RANGE, S_MR_STEPS_LOST
numba.set_num_threads(1)

@njit
def loop(pid, cases, reps, ds, run, w):
    acc = 0
    for rep in range(reps):
        for k in range(cases.shape[0]):
            ds[0, S.F_Q] = cases[k, 0]
            ds[0, S.F_R] = cases[k, 1]
            ds[0, S.F_F] = cases[k, 2]
            ds[0, S.F_ALT] = cases[k, 3]
            ds[1, S.F_Q] = cases[k, 5]
            ds[1, S.F_R] = cases[k, 6]
            w.pst[0] = rep * 7919 + k
            e, d = BD.choose_move(pid, ds, 0, cases[k, 4], run, w)
            acc += e + d
    return acc

def tables(p):
    tb = p["tables"]
    mrs = MT.needed_mrs(p["args"][0][:, S.D_MR], int(tb.scalars[S_MR_STEPS_LOST]))
    return MT.move_tables(tb.turn_cost, mrs=mrs, edges=True)

prep = prepare("Reaper", "Skyblazer")
tb, plan = prep["tables"], prep["args"][-1]
mv = tables(prep)
sc = tb.scalars
geo = BP.geometry_table(tb.arc, tb.range_mod, sc[S_MAX_RANGE], 33, 24)
ds = np.zeros((2, S.NF), np.int64)
ds[:, S.F_ALIVE] = 1; ds[:, S.F_ENG] = -1; ds[1, S.F_TEAM] = 1; ds[:, S.F_MOVED] = 1
ds[:, S.F_MR] = prep["args"][0][:, S.D_MR]
ds[1, S.F_ALT] = 3
ds[:, S.F_SAMPLES] = 16
run = E.Inputs(prep["args"][0], prep["args"][1], prep["args"][2], tb, tb.range_mod, mv, plan, geo)
rng = np.random.default_rng(5)
jobs = {}
for where in ("edge", "open"):
    cases = []
    while len(cases) < 64:
        col, row = int(rng.integers(33)), int(rng.integers(24))
        near = min(col, row, 32 - col, 23 - row)
        if (where == "edge") != (near <= 3) or (where == "open" and near < 8):
            continue
        q, r = hx.from_offset(col, row)
        ec = min(max(col + int(rng.integers(-5, 6)), 0), 32)
        er = min(max(row + int(rng.integers(-5, 6)), 0), 23)
        eq, er = hx.from_offset(ec, er)
        if (eq, er) == (q, r):
            continue
        cases.append((q, r, int(rng.integers(6)), int(rng.integers(1, 6)),
                      int(rng.integers(5, 13)), eq, er))
    cases = np.array(cases, np.int64)
    reps = max(1, calls // len(cases))
    for name, ids in (("random", (B.P_RANDOM, RANDOM_X)), ("hunter-3", (B.P_HUNTER_3, HUNTER_X))):
        for flag, pid in enumerate(ids):
            args = (pid, cases, reps, ds, run, E.new_work())
            loop(*args)
            jobs[(f"{name} {where} us/move", flag)] = (loop, args, reps * len(cases), 1e6)
rec = np.zeros((0, S.N_REC), np.int64)
for label, rules in (("33x24", None), ("9x7", {"lords.board": {"width": 9, "depth": 7}})):
    p = prepare("Reaper", "Skyblazer", rules=rules)
    dragons, scen, opt, tbl, _, pl = p["args"]
    mvp = tables(p)
    for flag, pid in enumerate((B.P_HUNTER_3, HUNTER_X)):
        d = dragons.copy()
        d[:, S.D_POLICY] = pid
        a = (0, n, 1, d, scen, opt, tbl, mvp, pl, rec)
        c = E.duel_kernel(*a)
        jobs[(f"hunter-3 duel {label} us/turn", flag)] = (E.duel_kernel, a, int(c[S.C_TURNS]), 1e6)
        jobs[(f"hunter-3 duel {label} left board", flag)] = int(c[S.C_LEFT_BOARD])
out = {}
for _ in range(7):  # flag off and on alternate, so both see the same load; the best of 7
    for key, job in jobs.items():
        if isinstance(job, int):
            out[key] = job
            continue
        fn, args, units, scale = job
        t0 = time.perf_counter()
        fn(*args)
        v = (time.perf_counter() - t0) / units * scale
        out[key] = min(out.get(key, 1e300), v)
print(json.dumps({f"{k}|{f}": v for (k, f), v in out.items()}))
"""


def timed(calls: int, n: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
        res = subprocess.run(
            [sys.executable, "-W", "ignore", "-c", _TIMED, str(calls), str(n)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    raw = json.loads(res.stdout.strip().splitlines()[-1])
    out: dict = {}
    for k, v in raw.items():
        name, flag = k.rsplit("|", 1)
        out.setdefault(name, {})[int(flag)] = v
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200, help="edge positions searched")
    ap.add_argument("--calls", type=int, default=20000, help="move choices timed per case")
    ap.add_argument("-n", type=int, default=20000, help="games per duel timing")
    ap.add_argument("--skip-speed", action="store_true", help="only the refused fraction")
    a = ap.parse_args(argv)
    tb = kernel_tables()
    t0 = time.perf_counter()
    mv = MT.move_tables(tb.turn_cost, edges=True)
    print(f"move tables with alternatives, all 9 MRs: {time.perf_counter() - t0:.1f} s")
    n = mv.f.shape[0]
    print(
        f"  {n:,} entries, {mv.alt.shape[0]:,} alternative records "
        f"({mv.alt.shape[0] / n:.2f} per entry; {mv.alt.nbytes / 2**20:.1f} MiB + offsets "
        f"{mv.alt_off.nbytes / 2**20:.1f} MiB; stored boxes {mv.box.nbytes / 2**20:.1f} MiB, "
        f"packed records {mv.pk.nbytes / 2**20:.1f} MiB)"
    )
    for mr in (0, 4, 8):
        row = np.ascontiguousarray(tb.turn_cost[mr], dtype=np.int64)
        part = MT._part(row, MT.MAX_BUDGET, None, mr, 0, None)  # (no bank, no turn carried)
        t0 = time.perf_counter()
        MT._alternatives(row, MT.MAX_BUDGET, part, 0, None)
        print(f"  MR {'ABCDEFGHI'[mr]}: alternatives built in {time.perf_counter() - t0:.2f} s")
    rng = np.random.default_rng(12)
    pos = edge_positions(rng, a.positions)
    t0 = time.perf_counter()
    total, before, after, wrong = refused(pos, mv, tb.turn_cost)
    print(
        f"{a.positions} positions within 3 hexes of an edge: {total:,} legal end states; "
        f"stored path refuses {before:,} ({before / total:.1%}), exact check refuses {after}, "
        f"wrongly offered {wrong} ({time.perf_counter() - t0:.0f} s)"
    )
    if a.skip_speed:
        return 0
    res = timed(a.calls, a.n)
    for k, v in res.items():
        off, on = v[0], v[1]
        rel = f"{(on / off - 1) * 100:+.1f}%" if off else ""
        print(f"{k:36s} flag off {off:9.3f}   on {on:9.3f}   {rel}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
