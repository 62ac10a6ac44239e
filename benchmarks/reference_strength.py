"""Is the reference bot stronger than the default? Not a test: prints a table
(``results/reference.txt``).

    python benchmarks/reference_strength.py [-n 300] [--seed 31] [--out results/reference.txt]

For each preset the reference (``--policy reference``, search-2) plays the default bot
(hunter-5) in the 12 mirror pairings (the same ready-made dragon on both sides), ``n`` games
with the reference in each seat (``--policies reference,hunter`` and ``hunter,reference``),
and the table gives the reference's pooled share (wins plus half the draws) with a 95%
interval, one-sided p of "no stronger than the default" and its share per dragon; then the
rule actions a game in those games; then how many ``advanced+optional`` reference mirrors
(Reaper, both dragons search-2) it plays a second on all threads.
"""

from __future__ import annotations

import argparse
import math
import time

import dragonsim.lords as L
from dragonsim.lords.bots import policy_version
from dragonsim.lords.game.sheets import roster

PRESETS = ("basic", "advanced", "advanced+optional")
SHOWN = ("speed_gain_over_3", "landings", "take_offs", "crashes", "close_combats", "rider_shots")


def preset_row(rules: str, n: int, seed: int) -> list[str]:
    pts = 0.0
    games = 0
    per = []
    events: dict[str, float] = {}
    for s in roster():
        p = 0.0
        for seat, pols in enumerate((("reference", "hunter"), ("hunter", "reference"))):
            r = L.duel(s.name, s.name, n=n, seed=seed + seat, policies=pols, rules=rules)
            won = r.wins_a if seat == 0 else r.wins_b
            p += won + 0.5 * r.draws
            games += r.n
            for k, v in r.to_dict()["events"].items():
                events[k] = events.get(k, 0.0) + v * r.n
        pts += p
        per.append(f"{s.name[:5]} {100 * p / (2 * n):.0f}")
    share = pts / games
    se = math.sqrt(share * (1 - share) / games)
    z = (share - 0.5) / se if se > 0 else 0.0
    pval = 0.5 * math.erfc(z / math.sqrt(2))
    acts = ", ".join(f"{k} {events.get(k, 0.0) / games:.2f}" for k in SHOWN)
    return [
        f"{rules:<18} {100 * share:6.2f}% +- {100 * 1.96 * se:4.2f}  p = {pval:.1e}  "
        f"({games:,} games)",
        "    " + ", ".join(per),
        f"    a game (both dragons): {acts}",
    ]


def speed(n: int = 200) -> str:
    L.duel("Reaper", "Reaper", n=4, seed=1, policy="reference", rules="advanced+optional")
    t = time.perf_counter()
    L.duel("Reaper", "Reaper", n=n, seed=2, policy="reference", rules="advanced+optional")
    rate = n / (time.perf_counter() - t)
    return f"reference mirror (Reaper), advanced+optional, all threads: {rate:,.0f} games/s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=300, help="games a seat in each mirror")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--out", help="also write the table here")
    a = ap.parse_args()
    t0 = time.perf_counter()
    lines = [
        f"The reference ({policy_version('reference')}) against the default "
        f"({policy_version('hunter')}) in the 12 mirrors, both seats",
        f"python benchmarks/reference_strength.py -n {a.n} --seed {a.seed}",
        "",
        "rules              reference's share, 95%  one-sided p (share <= 50%)",
    ]
    print("\n".join(lines), flush=True)
    for rules in PRESETS:
        rows = preset_row(rules, a.n, a.seed)
        print("\n".join(rows), flush=True)
        lines += rows
    tail = ["", speed()]
    print("\n".join(tail))
    print(f"({time.perf_counter() - t0:.0f} s)")
    lines += tail
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
