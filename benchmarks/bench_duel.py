"""Benchmark of the Dragon Lords duel kernel (issue 3 "Speed"). Not a test: prints numbers.

    python benchmarks/bench_duel.py [-n 1e6] [--python-n 30] [--skip-cold]

Prints, measured in one run on this machine:

* games/s of the default duel (Reaper vs Skyblazer, hunter bots, all cores);
* the same engine as plain Python (``NUMBA_DISABLE_JIT=1``, in a subprocess) on a smaller n,
  and the ratio;
* dice rolled per game and the time per game against a bare kernel that only rolls that many
  dice from the same per-game streams (the random-number floor);
* the hunter's versions against each other (hunter-2, hunter-3, hunter-4: time per game on
  one thread, rounds interleaved so the machine's noise falls on all alike; the target of
  issue 12 is hunter-4 at no less than 80% of hunter-2's games/s on the default duel), on the
  default duel and on a pairing with a 2-point-turn dragon (Reaper vs Fiercival), where
  hunter-4 scores twice the end states;
* scaling from 1 thread to all cores;
* cold start (an empty ``NUMBA_CACHE_DIR``: every kernel compiles; the target is at most
  20 s on the 2-core development machine) and warm start (cached) of the CLI on a small run,
  each in a subprocess. ``--cold-only`` prints just those two.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np
from numba import njit, prange

from dragonsim._kernels import chunk_bounds, n_chunks
from dragonsim.errors import parse_count
from dragonsim.lords import engine as E
from dragonsim.lords.api import _rules, prepare
from dragonsim.lords.game import state as S
from dragonsim.random import STREAM_GAME, STREAM_POLICY, STREAM_SETUP, d6, seed_stream


@njit(cache=True, parallel=True)
def dice_floor(start, stop, seed, dice_per_game, serial):
    """Roll ``dice_per_game`` d6 per game from the same per-game streams (3 seeded streams),
    chunked like the game kernel. With ``serial == 0`` the dice are summed (LLVM vectorises
    it: the absolute floor); otherwise every die feeds a serial dependency chain, as a game's
    dice feed its decisions. Returns a sum, so nothing is optimised away."""
    n = stop - start
    nchunks = n_chunks(n)
    out = np.zeros(nchunks, np.int64)
    for c in prange(nchunks):
        a, b = chunk_bounds(start, n, c, nchunks)
        st = np.zeros(1, np.uint64)
        st2 = np.zeros(1, np.uint64)
        st3 = np.zeros(1, np.uint64)
        s = 0
        for g in range(a, b):
            seed_stream(st, seed, g, STREAM_GAME)
            seed_stream(st2, seed, g, STREAM_POLICY)
            seed_stream(st3, seed, g, STREAM_SETUP)
            if serial == 0:
                for _ in range(dice_per_game):
                    s += d6(st)
            else:
                for _ in range(dice_per_game):
                    d = d6(st)
                    s = (s * 31 + d) if d != 6 else (s ^ (s >> 7)) + 1
        out[c] = s
    return out.sum()


def _games_per_second(args, n, threads, seed=1):
    numba.set_num_threads(threads)
    rec = np.zeros((0, S.N_REC), np.int64)
    E.duel_kernel(0, 256, seed, *args, rec)  # warm
    t0 = time.perf_counter()
    c = E.duel_kernel(0, n, seed, *args, rec)
    dt = time.perf_counter() - t0
    return n / dt, dt, c


_PLAIN = r"""
import json, sys, time
import numpy as np
from dragonsim.lords import engine as E
from dragonsim.lords.game import state as S
from dragonsim.lords.api import prepare
n = int(sys.argv[1])
prep = prepare("Reaper", "Skyblazer")
rec = np.zeros((0, S.N_REC), np.int64)
E.duel_kernel(0, 1, 1, *prep["args"], rec)
t0 = time.perf_counter()
c = E.duel_kernel(0, n, 1, *prep["args"], rec)
print(json.dumps({"seconds": time.perf_counter() - t0, "games": int(c[S.C_GAMES])}))
"""


def _cold_start() -> None:
    """The CLI's ``duel Reaper Skyblazer -n 1000`` in a subprocess on an empty numba cache
    (every kernel compiles), then again on the cache it left (warm)."""
    cmd = [
        sys.executable,
        "-m",
        "dragonsim",
        "duel",
        "Reaper",
        "Skyblazer",
        "-n",
        "1000",
        "--json",
        "--no-progress",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
        for label in ("cold start (empty NUMBA_CACHE_DIR, compiles)", "warm start (cached)"):
            t0 = time.perf_counter()
            subprocess.run(cmd, env=env, capture_output=True, check=True)
            print(f"{label}: CLI duel Reaper Skyblazer -n 1000 in {time.perf_counter() - t0:.1f} s")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", default="1e6", help="games for the main measurement (default 1e6)")
    ap.add_argument("--python-n", type=int, default=30, help="games for the plain-Python run")
    ap.add_argument("--skip-cold", action="store_true", help="skip the cold/warm start runs")
    ap.add_argument("--cold-only", action="store_true", help="only the cold/warm start runs")
    a = ap.parse_args(argv)
    if a.cold_only:
        _cold_start()
        return 0
    n = parse_count(a.n)
    allc = numba.config.NUMBA_NUM_THREADS
    print(f"machine: {os.cpu_count()} cpus, numba {numba.__version__}, threads {allc}")

    prep = prepare("Reaper", "Skyblazer")
    args = prep["args"]
    gps, dt, c = _games_per_second(args, n, allc)
    dice = c[S.C_DICE] / c[S.C_GAMES]
    print(
        f"default duel Reaper vs Skyblazer (hunter), {n:,} games on {allc} threads: "
        f"{dt:.2f} s = {gps:,.0f} games/s  (1e6 games: {1e6 / gps:.1f} s)"
    )
    print(f"  mean turns {c[S.C_TURNS] / c[S.C_GAMES]:.2f}, dice per game {dice:.1f}")

    # the rules presets: the same duel under basic, advanced and advanced+optional (the
    # optional criticals, fumbles and three-hit limit, pp. 19-20: issue 14 wants it at most
    # 2x basic per game), interleaved rounds, all threads; the default duel (no riders), a
    # duel of two shooting riders (pp. 15, 18) and one of the two Wizards (their spells,
    # pp. 24-25, cast by the spell bot under advanced+optional)
    m_p = max(1000, n // 5)
    for da, db in (("Reaper", "Skyblazer"), ("Ozonic", "Fiercival"), ("Slash", "Stalwyrm")):
        # advanced less banking (p.16): issue 13 wants banking at most 1.5x per game
        no_bank = {**_rules("advanced").overrides, "lords.advanced.banking": False}
        # advanced+optional less turning between move phases (p.16): its six-fold tables' cost
        no_turn = {**_rules("advanced+optional").overrides, "lords.advanced.turn_between": False}
        presets = {
            "basic": "basic",
            "advanced-no-bank": no_bank,
            "advanced": "advanced",
            "optional-no-turn": no_turn,
            "advanced+optional": "advanced+optional",
        }
        pargs = {k: prepare(da, db, rules=r)["args"] for k, r in presets.items()}
        per_game = {r: [] for r in pargs}
        for rnd in range(3):
            for r, pa in pargs.items():
                _, sec, cc = _games_per_second(pa, m_p, allc, seed=1 + rnd)
                per_game[r].append((sec / m_p * 1e6, cc[S.C_TURNS] / m_p))
        print(f"rules presets, {da} vs {db}, {m_p:,} games x 3 interleaved rounds (median):")
        base = sorted(us for us, _ in per_game["basic"])[1]
        for r, runs in per_game.items():
            us = sorted(u for u, _ in runs)[1]
            print(
                f"  {r:<17} {us:7.2f} us/game  ({runs[0][1]:.2f} turns/game, "
                f"{us / runs[0][1]:.2f} us/turn)  {us / base:5.2f}x basic"
            )

    # random-number floor: same number of dice, same per-game streams
    nd = int(round(dice))
    dice_floor(0, 256, 1, nd, 0)
    t0 = time.perf_counter()
    dice_floor(0, n, 1, nd, 0)
    fl = time.perf_counter() - t0
    print(
        f"random-number floor ({nd} d6 per game, 3 streams seeded, summed: LLVM vectorises "
        f"it): {fl:.3f} s -> a game costs {dt / fl:.1f}x its dice"
    )
    dice_floor(0, 256, 1, nd, 1)
    t0 = time.perf_counter()
    dice_floor(0, n, 1, nd, 1)
    fs = time.perf_counter() - t0
    print(
        f"random-number floor, each die used serially: {fs:.3f} s -> a game costs "
        f"{dt / fs:.1f}x its dice"
    )

    # where the time goes: the same engine with bots that do not plan (random) and with a
    # planner scoring a single end state per altitude change, per turn on one thread
    numba.set_num_threads(1)
    m = max(1000, n // 20)
    per_turn = {}
    for label, pols, ps in (
        ("hunter (16 + 8 end states scored per move)", ("hunter", "hunter"), 16),
        ("hunter scoring 1 + 1 end states", ("hunter", "hunter"), 1),
        ("random (no planning)", ("random", "random"), 16),
    ):
        pa = prepare("Reaper", "Skyblazer", policies=pols, plan_samples=ps)["args"]
        rec = np.zeros((0, S.N_REC), np.int64)
        E.duel_kernel(0, 64, 1, *pa, rec)
        t0 = time.perf_counter()
        cc = E.duel_kernel(0, m, 1, *pa, rec)
        sec = time.perf_counter() - t0
        per_turn[label] = (
            sec / cc[S.C_TURNS] * 1e6,
            cc[S.C_TURNS] / m,
            cc[S.C_DICE] / cc[S.C_TURNS],
        )
    print("per turn on one thread (both dragons):")
    for label, (us, turns, dpt) in per_turn.items():
        print(f"  {label:<44} {us:6.3f} us/turn  ({turns:6.1f} turns/game, {dpt:4.1f} dice/turn)")
    numba.set_num_threads(allc)

    # the hunter's versions, interleaved rounds on one thread
    numba.set_num_threads(1)
    from dragonsim.lords.bots import RELEASED

    versions = tuple(k for k in RELEASED if k.startswith("hunter@"))
    for a_, b_ in (("Reaper", "Skyblazer"), ("Reaper", "Fiercival")):
        vargs = {v: prepare(a_, b_, policies=(v, v))["args"] for v in versions}
        best = dict.fromkeys(versions, 0.0)
        rec = np.zeros((0, S.N_REC), np.int64)
        for v in versions:
            E.duel_kernel(0, 64, 1, *vargs[v], rec)
        for rnd in range(5):
            for v in versions:
                t0 = time.perf_counter()
                E.duel_kernel(0, m // 2, 1 + rnd, *vargs[v], rec)
                best[v] = max(best[v], (m // 2) / (time.perf_counter() - t0))
        print(f"hunter versions, {a_} vs {b_}, one thread (best of 5 interleaved rounds):")
        for v in versions:
            print(f"  {v:<10} {best[v]:9,.0f} games/s  {best[v] / best['hunter@2']:5.2f}x hunter-2")
    numba.set_num_threads(allc)

    # scaling
    g1, d1, _ = _games_per_second(args, max(1, n // 4), 1)
    gN, dN, _ = _games_per_second(args, max(1, n // 4), allc)
    print(
        f"scaling: 1 thread {g1:,.0f} games/s, {allc} threads {gN:,.0f} games/s -> {gN / g1:.2f}x"
    )
    numba.set_num_threads(allc)

    # plain Python
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run(
        [sys.executable, "-c", _PLAIN, str(a.python_n)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    pr = json.loads(out.stdout.strip().splitlines()[-1])
    py_gps = pr["games"] / pr["seconds"]
    print(
        f"plain Python (NUMBA_DISABLE_JIT=1), {pr['games']} games: {py_gps:,.1f} games/s "
        f"-> numba is {gps / py_gps:,.0f}x faster ({g1 / py_gps:,.0f}x on one thread)"
    )

    if not a.skip_cold:
        _cold_start()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
