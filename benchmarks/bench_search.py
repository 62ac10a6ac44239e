"""Benchmark of the look-ahead bot ``search`` (issue: bots worth trusting). Not a test: prints
numbers measured in one run on this machine.

    python benchmarks/bench_search.py [-n 600]

For a short (Reaper-Skyblazer), a middling (Tankerous-Zippinchill) and a long matchup
(Lectronist mirror), both dragons played by ``search``: games/s on all cores and on one
thread, the hunter's games/s on the same pairing and the ratio, and the time a 12-dragon round
robin at 1,000 games a pair would take at the mean rate (the issue's target: at least 200
games/s on 2 cores, a round robin in under 15 minutes).
"""

from __future__ import annotations

import argparse
import time

import numba

from dragonsim.errors import parse_count
from dragonsim.lords import api

PAIRS = [("Reaper", "Skyblazer"), ("Tankerous", "Zippinchill"), ("Lectronist", "Lectronist")]


def rate(a: str, b: str, policy: str, n: int, threads: int) -> tuple[float, float]:
    """(games per second, mean turns) of ``n`` games, compile excluded (a warm-up first)."""
    api.duel(a, b, n=4, policy=policy, threads=threads, progress=False)
    t = time.perf_counter()
    r = api.duel(a, b, n=n, seed=2, policy=policy, threads=threads, progress=False)
    return n / (time.perf_counter() - t), r.mean_turns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=parse_count, default=600, help="search games per pairing")
    args = ap.parse_args()
    cores = numba.config.NUMBA_NUM_THREADS
    print(f"search vs search, {args.n:,} games a pairing, {cores} cores")
    print(
        f"  {'pairing':<24} {'turns':>6} {'all cores':>10} {'1 thread':>9} "
        f"{'hunter':>9} {'ratio':>7}"
    )
    rates = []
    for a, b in PAIRS:
        s_all, turns = rate(a, b, "search", args.n, cores)
        s_one, _ = rate(a, b, "search", max(args.n // 3, 50), 1)
        h_all, _ = rate(a, b, "hunter", 100 * args.n, cores)
        rates.append(s_all)
        print(
            f"  {a + '-' + b:<24} {turns:6.1f} {s_all:10.0f} {s_one:9.0f} {h_all:9.0f} "
            f"{h_all / s_all:6.0f}x"
        )
    mean = len(rates) / sum(1 / r for r in rates)  # harmonic: the rate of equal game counts
    print(f"  mean rate (harmonic) {mean:.0f} games/s on {cores} cores")
    print(f"  a 12-dragon round robin, 1,000 games a pair: about {66_000 / mean / 60:.1f} min")


if __name__ == "__main__":
    main()
