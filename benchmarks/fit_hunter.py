"""How hunter-4's weights were chosen (issue 12, item 5). Not a test: prints numbers.

    python benchmarks/fit_hunter.py reference [-n 2000] [--seed 2]   # search-1, ~30 min
    python benchmarks/fit_hunter.py fit [-n 4000] [--seed 11]        # the grid, ~2 min a row

``reference`` plays the 66 ready-made pairings under the look-ahead bot (``search``, one
thread) and adds each pair's points (wins plus half the draws) to
``results/search_reference.json``, run by run (the file keeps every run's seed and n, and a
rerun with a seed already there is refused). ``fit`` plays the same pairings under hunter-4
with each candidate weight vector of :data:`GRID` (the planning table's ``PLAN_WEIGHTS`` row,
:mod:`dragonsim.lords.bots.plan`) and prints how far its win shares sit from search-1's: the
mean and largest absolute difference in points of win share, and on how many pairs it is within
2 points. The released weights (``HUNTER_4_WEIGHTS``) are the row with the smallest mean that
is not a tie with a simpler one. The noise floor: with the reference at 3,000 games a pair and
the candidate at 4,000, two identical bots would differ by about 1 point on average and be
within 2 points on about 60 of the 66 pairs.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

import numpy as np

from dragonsim.lords import api
from dragonsim.lords.bots import plan as BP
from dragonsim.lords.game.sheets import roster

REFERENCE = Path(__file__).resolve().parents[1] / "results" / "search_reference.json"

#: candidate weights (W_OFF_MOVED, W_OFF_UNMOVED, W_DNG_MOVED, W_DNG_UNMOVED, W_EDGE, W_PULL,
#: W_ENGAGE, W_ENGAGE_BONUS); the first is hunter-3's constants
GRID = (
    (1.0, 1.0, 1.0, 0.6, 0.4, 0.05, 1.0, 0.0),
    (1.0, 1.0, 1.0, 0.6, 0.4, 0.05, 2.0, 0.0),
    (1.0, 1.0, 1.0, 0.6, 0.4, 0.05, 1.0, 5.0),
    (1.0, 1.0, 1.0, 0.6, 0.4, 0.05, 1.0, 10.0),
    (1.0, 1.0, 1.0, 0.6, 0.4, 0.05, 1.0, 15.0),
    (1.0, 1.0, 1.0, 0.6, 0.4, 0.05, 1.0, 20.0),
    (1.0, 1.0, 1.0, 0.6, 0.4, 0.05, 2.0, 5.0),
    (1.0, 0.5, 1.0, 0.6, 0.4, 0.05, 1.0, 0.0),
    (1.0, 1.0, 1.0, 1.0, 0.4, 0.05, 1.0, 0.0),
    (1.0, 1.0, 1.0, 0.6, 0.8, 0.05, 1.0, 0.0),
    (1.0, 0.25, 1.0, 0.6, 0.4, 0.05, 1.0, 10.0),
    (1.0, 0.5, 1.0, 0.6, 0.4, 0.05, 1.0, 7.5),
    (1.0, 0.5, 1.0, 0.6, 0.4, 0.05, 1.0, 10.0),
    (1.0, 0.5, 1.0, 0.6, 0.4, 0.05, 1.0, 15.0),
    (1.0, 0.5, 1.0, 0.6, 0.4, 0.05, 1.5, 10.0),
    (1.0, 0.5, 1.0, 0.4, 0.4, 0.05, 1.0, 10.0),
    (1.0, 0.5, 1.0, 0.8, 0.4, 0.05, 1.0, 10.0),
)


def pairs() -> list[tuple[str, str]]:
    return list(itertools.combinations([s.name for s in roster()], 2))


def _points(r) -> float:
    return r.wins_a + 0.5 * r.draws


def reference(n: int, seed: int) -> None:
    ref = json.loads(REFERENCE.read_text()) if REFERENCE.exists() else {"bot": "search-1"}
    runs = ref.setdefault("runs", [])
    if any(r["seed"] == seed for r in runs):
        raise SystemExit(f"seed {seed} is in {REFERENCE.name} already")
    run = {"seed": seed, "n": n, "points": {}}
    t0 = time.perf_counter()
    for a, b in pairs():
        r = api.duel(a, b, n=n, seed=seed, policy="search@1", threads=1, progress=False)
        run["points"][f"{a}|{b}"] = _points(r)
        print(f"{a} vs {b}: {_points(r) / n:.3f}", flush=True)
    runs.append(run)
    REFERENCE.write_text(json.dumps(ref, indent=1) + "\n")
    print(f"{len(run['points'])} pairs in {time.perf_counter() - t0:.0f} s -> {REFERENCE}")


def reference_shares() -> tuple[dict[str, float], int]:
    ref = json.loads(REFERENCE.read_text())
    pts: dict[str, float] = {}
    games = 0
    for run in ref["runs"]:
        games += run["n"]
        for k, v in run["points"].items():
            pts[k] = pts.get(k, 0.0) + v
    return {k: v / games for k, v in pts.items()}, games


def shares(weights, n: int, seed: int, policy: str = "hunter@4") -> dict[str, float]:
    BP.HUNTER_4_WEIGHTS = tuple(float(x) for x in weights)  # read by plan_table per run
    out = {}
    for a, b in pairs():
        r = api.duel(a, b, n=n, seed=seed, policy=policy, progress=False)
        out[f"{a}|{b}"] = _points(r) / r.n
    return out


def distance(sh: dict[str, float], ref: dict[str, float]) -> tuple[float, int, float]:
    d = np.array([sh[k] - ref[k] for k in ref])
    return (
        float(np.abs(d).mean() * 100),
        int((np.abs(d) <= 0.02).sum()),
        float(np.abs(d).max() * 100),
    )


def fit(n: int, seed: int) -> None:
    ref, games = reference_shares()
    released = BP.HUNTER_4_WEIGHTS
    print(f"reference: search-1, {games:,} games a pair; candidates: {n:,} games a pair")
    print(f"{'weights':<52} {'mean |d|':>9} {'within 2':>9} {'max |d|':>8}")
    for label, pol, w in [("hunter-3", "hunter@3", released)] + [
        (str(w), "hunter@4", w) for w in GRID
    ]:
        m, k, x = distance(shares(w, n, seed, pol), ref)
        mark = "  <- released" if pol == "hunter@4" and tuple(w) == tuple(released) else ""
        print(f"{label:<52} {m:9.2f} {k:6d}/66 {x:8.1f}{mark}", flush=True)
    BP.HUNTER_4_WEIGHTS = released


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("reference", "fit"))
    ap.add_argument("-n", type=int, default=None, help="games a pair")
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args(argv)
    if a.what == "reference":
        reference(a.n or 2000, a.seed or 2)
    else:
        fit(a.n or 4000, a.seed or 11)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
