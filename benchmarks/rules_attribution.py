"""How much of the change from the basic to the advanced rules each advanced rule explains.

The 12 ready-made Dragon Lords dragons play a round robin (``tournament``) under the basic
rules, under each advanced switch alone and under the ``advanced`` preset, all on one seed:
the games are paired on common random numbers (game ``k`` of a pair draws the same streams in
every run), so each column's change from basic is the rule's own effect. Prints a markdown
table of win shares (draws half) with the correlation of win share with design-point cost.

    python benchmarks/rules_attribution.py -n 2000 --seed 13 [--policy hunter]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dragonsim.lords import tournament
from dragonsim.lords.sheets import sheet
from dragonsim.rules.lords import PRESETS, ROSTER


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", default="2000", help="games a pair (default 2000)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--policy", default="hunter")
    args = ap.parse_args()
    names = sorted(ROSTER, key=lambda d: (sheet(d).cost, d))
    cost = np.array([sheet(d).cost for d in names], float)
    switches = list(PRESETS["advanced"])
    runs = {"basic": None, **{k: {k: True} for k in switches}, "advanced": "advanced"}
    share = {}
    t0 = time.perf_counter()
    for label, rules in runs.items():
        r = tournament(names, n=args.n, seed=args.seed, policy=args.policy, rules=rules)
        games = r.wins + r.wins.T
        share[label] = r.wins.sum(axis=1) / games.sum(axis=1)
        print(f"  {label}: {time.perf_counter() - t0:.0f} s", flush=True)
    short = [k.removeprefix("lords.advanced.") for k in switches]
    print(f"\nround robin, {args.n} games a pair, seed {args.seed}, policy {args.policy}:\n")
    print("| dragon | DP | basic | " + " | ".join(f"+ {s}" for s in short) + " | advanced |")
    print("|---|---|---|" + "---|" * len(short) + "---|")
    for k, d in enumerate(names):
        b = share["basic"][k]
        cells = [f"{share[s][k] - b:+.3f}" for s in switches]
        print(
            f"| {d} | {cost[k]:.0f} | {b:.3f} | "
            + " | ".join(cells)
            + f" | {share['advanced'][k]:.3f} |"
        )
    corr = {lab: np.corrcoef(cost, v)[0, 1] for lab, v in share.items()}
    print(
        "\ncorrelation of win share with cost: "
        + ", ".join(f"{k.removeprefix('lords.advanced.')} {v:.2f}" for k, v in corr.items())
    )


if __name__ == "__main__":
    main()
