"""What hunter-5's speed is worth, and what it costs. Not a test: prints numbers.

    python benchmarks/speed_skill.py [-n 3000] [--seed 11]

hunter-5 is hunter-4 recording, after the first turn, the fastest speed the rules allow it
(``SKILL_SPEED``, :func:`dragonsim.lords.bots.speeds.plan_speed_skilled`); hunter-4 cruises
at 9 and slows to 7 within 4 hexes of the nearest enemy. For each preset this plays hunter-5
against hunter-4 in the 12 mirror pairings (the same dragon on both sides), ``n`` games with
hunter-5 in each seat, and prints hunter-5's pooled share (wins plus half the draws) with a
95% interval, its share per dragon and its speed gains above 3 a game; then the same with
the gain capped at 3 (the planning table's ``W_GAIN_MAX``: the wings' acceleration allowance,
p.16, left unused) where the allowance is in force; then the cost per game of a hunter-5
mirror against a hunter-4 one (Reaper against Skyblazer, one thread, best of 3 interleaved
rounds) as a ratio measured in this run.
"""

from __future__ import annotations

import argparse
import math
import time

from mirrors import NO_RECORDS, kernel_args, mirrors

from dragonsim.lords import engine as E
from dragonsim.lords.bots import plan as BP
from dragonsim.lords.game import state as S

PRESETS = ("basic", "advanced", "advanced+optional")


def released(n: int, seed: int, rules: str, gain_max=None) -> str:
    """hunter-5's pooled share against hunter-4 over the 12 mirror pairings."""
    weights = None if gain_max is None else {BP.W_GAIN_MAX: gain_max}
    m = mirrors(n, seed, rules, weights, count=S.C_SPEED_GAIN)
    half = 1.96 * math.sqrt(m.share * (1 - m.share) / m.games)
    return (
        f"hunter-5 {100 * m.share:6.2f}% +- {100 * half:.2f}, gains above 3 a game "
        f"{m.count / m.games:.2f}\n      " + ", ".join(m.per)
    )


def cost_ratio(rules: str, rounds: int = 3, n: int = 10_000) -> str:
    best = {}
    for _ in range(rounds):
        for pol in ("hunter@4", "hunter@5"):
            args = kernel_args("Reaper", "Skyblazer", (pol, pol), rules)
            E.duel_kernel(0, 100, 1, *args, NO_RECORDS)
            t = time.perf_counter()
            E.duel_kernel(0, n, 5, *args, NO_RECORDS)
            best[pol] = max(best.get(pol, 0.0), n / (time.perf_counter() - t))
    r = best["hunter@4"] / best["hunter@5"]
    return f"cost per game, hunter-5 / hunter-4: {r:.2f}x ({best['hunter@5']:,.0f} games/s)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=3000, help="games per pairing and seat")
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    print(f"hunter-5 against hunter-4, 12 mirror pairings x 2 seats x {a.n} games, seed {a.seed}")
    for rules in PRESETS:
        print(f"{rules}:\n  as released   {released(a.n, a.seed, rules)}", flush=True)
        if rules == "advanced+optional":
            print(f"  gain <= 3     {released(a.n, a.seed, rules, gain_max=3)}", flush=True)
        print(f"  {cost_ratio(rules)}", flush=True)


if __name__ == "__main__":
    main()
