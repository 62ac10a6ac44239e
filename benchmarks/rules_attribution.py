"""How much of the change from the basic to the advanced rules each advanced rule explains.

The 12 ready-made Dragon Lords dragons play a round robin (``tournament``) under the basic
rules, under each advanced switch alone and under the ``advanced`` preset, all on one seed:
the games are paired on common random numbers (game ``k`` of a pair draws the same streams in
every run), so each column's change from basic is the rule's own effect. Prints a markdown
table of win shares (draws half) with the correlation of win share with design-point cost.

    python benchmarks/rules_attribution.py -n 2000 --seed 13 [--policy hunter] \
        [--csv results/rules_attribution.csv] [--figure docs/figures/basic_vs_advanced.png] \
        [--ratings]

With ``--optional`` the same for the optional rules (pp. 16, 19-25): ``advanced``, each
optional switch alone on top of it (turning between move phases among them), and the
``advanced+optional`` preset (no figure). ``--ratings`` adds
the Bradley-Terry ratings of each run (:func:`~dragonsim.lords.tournament`'s) and each rule's
change to them.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dragonsim.lords import tournament
from dragonsim.lords.game.sheets import sheet
from dragonsim.rules.lords import PRESETS, ROSTER


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", default="2000", help="games a pair (default 2000)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--policy", default="hunter")
    ap.add_argument(
        "--optional",
        action="store_true",
        help="the optional rules instead: each on top of advanced, then advanced+optional",
    )
    ap.add_argument(
        "--ratings",
        action="store_true",
        help="also the Bradley-Terry ratings (log scale) and each rule's change to them",
    )
    ap.add_argument("--csv", help="write the win shares (one row per dragon) here")
    ap.add_argument("--figure", help="draw win share against cost, basic and advanced, here")
    args = ap.parse_args()
    names = sorted(ROSTER, key=lambda d: (sheet(d).cost, d))
    cost = np.array([sheet(d).cost for d in names], float)
    if args.optional:
        base, top = "advanced", "advanced+optional"
        adv = dict(PRESETS["advanced"])
        switches = [k for k in PRESETS[top] if k not in adv]
        runs = {base: base, **{k: {**adv, k: True} for k in switches}, top: top}
    else:
        base, top = "basic", "advanced"
        switches = list(PRESETS["advanced"])
        runs = {base: None, **{k: {k: True} for k in switches}, top: top}
    share, rating = {}, {}
    t0 = time.perf_counter()
    for label, rules in runs.items():
        r = tournament(names, n=args.n, seed=args.seed, policy=args.policy, rules=rules)
        games = r.wins + r.wins.T
        share[label] = r.wins.sum(axis=1) / games.sum(axis=1)
        rating[label] = r.ratings.set_index("name").loc[names]
        print(f"  {label}: {time.perf_counter() - t0:.0f} s", flush=True)
    short = [_short(k) for k in switches]
    print(f"\nround robin, {args.n} games a pair, seed {args.seed}, policy {args.policy}:\n")
    print(f"| dragon | DP | {base} | " + " | ".join(f"+ {s}" for s in short) + f" | {top} |")
    print("|---|---|---|" + "---|" * len(short) + "---|")
    for k, d in enumerate(names):
        b = share[base][k]
        cells = [f"{share[s][k] - b:+.3f}" for s in switches]
        print(
            f"| {d} | {cost[k]:.0f} | {b:.3f} | " + " | ".join(cells) + f" | {share[top][k]:.3f} |"
        )
    corr = {lab: np.corrcoef(cost, v)[0, 1] for lab, v in share.items()}
    print(
        "\ncorrelation of win share with cost: "
        + ", ".join(f"{_short(k)} {v:.2f}" for k, v in corr.items())
    )

    if args.ratings:
        print(
            "\nBradley-Terry ratings (log scale, centred; the base column with its 95% interval,"
            " then each run's change from it):\n"
        )
        print(f"| dragon | DP | {base} | " + " | ".join(f"+ {s}" for s in short) + f" | {top} |")
        print("|---|---|---|" + "---|" * len(short) + "---|")
        for k, d in enumerate(names):
            b = rating[base].loc[d]
            cells = [f"{rating[s].loc[d, 'rating'] - b['rating']:+.2f}" for s in [*switches, top]]
            print(
                f"| {d} | {cost[k]:.0f} | {b['rating']:+.2f} [{b['lo']:+.2f}, {b['hi']:+.2f}] | "
                + " | ".join(cells)
                + " |"
            )

    if args.csv:
        import pandas as pd

        df = pd.DataFrame({"dragon": names, "dp": cost.astype(int)})
        for lab, v in share.items():
            df[_short(lab)] = np.round(v, 4)
        df.to_csv(args.csv, index=False)
        print(f"wrote {args.csv}")
    if args.figure and not args.optional:
        figure(names, cost, share, corr, args)
        print(f"wrote {args.figure}")


def _short(key: str) -> str:
    """A switch's column name: ``lords.optional.tactics`` -> ``tactics``,
    ``lords.advanced.turn_between`` -> ``turn_between`` (the optional runs hold both)."""
    return key.removeprefix("lords.optional.").removeprefix("lords.advanced.")


def figure(names, cost, share, corr, args) -> None:
    """Win share against design-point cost: each dragon's basic share (open circle) and its
    advanced share (filled), joined by an arrow; a least-squares line for each."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from dragonsim.report import use_style

    use_style()
    fig, ax = plt.subplots(figsize=(8.5, 5.6))
    b, a = share["basic"], share["advanced"]
    jitter = {d: 0.0 for d in names}
    for x in set(cost):  # dragons of one cost side by side
        same = [d for k, d in enumerate(names) if cost[k] == x]
        for m, d in enumerate(same):
            jitter[d] = 0.22 * (m - (len(same) - 1) / 2)
    xs = np.array([cost[k] + jitter[d] for k, d in enumerate(names)])
    placed: list[tuple[float, float, float, float]] = []  # label boxes in data units
    for k, d in enumerate(names):
        ax.annotate(
            "",
            xy=(xs[k], a[k]),
            xytext=(xs[k], b[k]),
            arrowprops=dict(arrowstyle="->", color="0.55", lw=1.0, shrinkA=4, shrinkB=4),
        )
        # each name on the right of its dot, or on the left when that would cover another
        # name, dot or arrow (a name is about 0.11 design points a letter wide at this size)
        # (when both sides are taken, the name moves up or down a little, right or left)
        wide, high = 0.11 * len(d) + 0.1, 0.035
        left, dy = False, 0.0
        for up in (0.0, 0.035, -0.035, 0.07, -0.07):
            for side in (False, True):
                x0 = xs[k] - 0.1 - wide if side else xs[k] + 0.1
                y = a[k] + up
                box = (x0, x0 + wide, y - high / 2, y + high / 2)
                hit = any(
                    box[0] < p[1] and p[0] < box[1] and box[2] < p[3] and p[2] < box[3]
                    for p in placed
                ) or any(  # another dragon's dots or the arrow between them
                    box[0] < xs[m] < box[1]
                    and box[2] < max(a[m], b[m])
                    and min(a[m], b[m]) < box[3]
                    for m in range(len(names))
                    if m != k
                )
                if not hit:
                    left, dy = side, up
                    break
            else:
                continue
            break
        x0 = xs[k] - 0.1 - wide if left else xs[k] + 0.1
        placed.append((x0, x0 + wide, a[k] + dy - high / 2, a[k] + dy + high / 2))
        ax.annotate(
            d,
            (xs[k], a[k] + dy),
            xytext=(-5 if left else 5, 0),
            textcoords="offset points",
            fontsize=8,
            va="center",
            ha="right" if left else "left",
        )
    ax.scatter(xs, b, s=36, facecolors="white", edgecolors="C0", label="basic rules", zorder=3)
    ax.scatter(xs, a, s=36, color="C3", label="advanced rules (this release)", zorder=3)
    grid = np.linspace(cost.min() - 0.5, cost.max() + 0.5, 10)
    for lab, col in (("basic", "C0"), ("advanced", "C3")):
        k, c0 = np.polyfit(cost, share[lab], 1)
        ax.plot(
            grid,
            k * grid + c0,
            color=col,
            lw=1,
            ls="--",
            label=f"{lab}: {k:+.3f} a DP, correlation {corr[lab]:.2f}",
        )
    ax.axhline(0.5, color="0.8", lw=0.8, zorder=0)
    ax.set_xlabel("design points (Dragon Lords rulebook, pp. 30-35)")
    ax.set_ylabel("win share in the round robin (draws half)")
    ax.set_ylim(0, 1)
    ax.set_xlim(cost.min() - 1, cost.max() + 1.8)  # room for the names right of the dots
    ax.set_title(
        f"Ready-made dragons: basic against advanced rules\n"
        f"round robin, {args.n} games a pair, seed {args.seed}, {args.policy}; paired runs",
        fontsize=11,
    )
    ax.legend(loc="lower right", fontsize=8, frameon=False)
    fig.tight_layout()
    fig.savefig(args.figure, dpi=130)


if __name__ == "__main__":
    main()
