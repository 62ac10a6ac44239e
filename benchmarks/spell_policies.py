"""The Wizard dragons under the three spell policies (issue 14). Not a test: prints a table.

    python benchmarks/spell_policies.py [-n 2000] [--seed 1] [--csv results/spell_policies.csv]

Slash and Stalwyrm (the two ready-made dragons with a Wizard, pp. 30-35) against every
ready-made dragon without one, hunter bots, ``--rules advanced+optional`` (the Wizard's spells
on, ``lords.advanced.wizard``), under ``spells`` = bot, never and random on common seeds (the
same seed for the three policies of a pairing). The other Wizard is left out: a run's spell
policy is every Wizard's, so a Wizard-against-Wizard duel would change both sides at once.
Each cell is the Wizard dragon's win share (draws half) with its 95% Wilson interval of the
wins (draws counted half).
"""

from __future__ import annotations

import argparse
import csv
import time

from dragonsim.errors import parse_count
from dragonsim.lords.api import duel
from dragonsim.rules.lords import ROSTER
from dragonsim.stats import wilson

POLICIES = ("bot", "never", "random")
WIZARDS = ("Slash", "Stalwyrm")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", default="2000")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--csv", default=None)
    args = ap.parse_args()
    n = parse_count(args.n)
    foes = [d for d in ROSTER if ROSTER[d]["rider"] != "Wizard"]
    rows = []
    t0 = time.perf_counter()
    for w in WIZARDS:
        for k, foe in enumerate(foes):
            row = {"wizard": w, "opponent": foe}
            for pol in POLICIES:
                r = duel(
                    w,
                    foe,
                    n=n,
                    seed=args.seed + k,
                    progress=False,
                    rules="advanced+optional",
                    spells=pol,
                )
                share = (r.wins_a + r.draws / 2) / r.n
                lo, hi = wilson(round(r.wins_a + r.draws / 2), r.n)
                row[pol] = (share, lo, hi)
            rows.append(row)
    print(f"| Wizard | opponent | {' | '.join(POLICIES)} |")
    print("|---|---|" + "---|" * len(POLICIES))
    for row in rows:
        cells = [f"{row[p][0]:.3f} ({row[p][1]:.3f}-{row[p][2]:.3f})" for p in POLICIES]
        print(f"| {row['wizard']} | {row['opponent']} | {' | '.join(cells)} |")
    for w in WIZARDS:
        mine = [r for r in rows if r["wizard"] == w]
        means = [sum(r[p][0] for r in mine) / len(mine) for p in POLICIES]
        print(f"| {w} | mean of {len(mine)} | {' | '.join(f'{m:.3f}' for m in means)} |")
    print(f"\n{n:,} games a cell, seeds {args.seed}.., {time.perf_counter() - t0:.0f} s")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            wr = csv.writer(f)
            wr.writerow(["wizard", "opponent", *(f"{p}_{x}" for p in POLICIES for x in "slh")])
            for row in rows:
                wr.writerow(
                    [row["wizard"], row["opponent"], *(v for p in POLICIES for v in row[p])]
                )


if __name__ == "__main__":
    main()
