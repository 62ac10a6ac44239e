"""Fair prices that depend on the bot: the 15-DP prices under two hunters side by side.

    python benchmarks/prices_by_bot.py [--bots hunter@4,hunter@5] [--seed 1] [-n 1000]
        [--designs K] [--presets basic,advanced,advanced+optional]
        [--out results/prices-15-bots.txt]

    python benchmarks/prices_by_bot.py --bots hunter,reference --designs 120 -n 200 \
        --out results/prices-15-reference.txt

``--designs K`` prices a subsample of K designs drawn from the band (the same K for every bot:
the seed draws them), for a bot too slow for every design (the reference plays about a
hundredth as many games a second as the default).

For each preset (basic, advanced, advanced+optional) it runs ``prices --budget 15`` (every
legal design of the band, the same seed and games) under each bot, and prints every option's
printed cost and fair price with its 95% interval under each, marking ``MOVES`` where the
fair prices of the first and the last bot differ by more than 1 design point: a price that
moves with the bot measures the bot's play as much as the option. Then the claws question:
close combats a game over the 66 ready-made pairings (``-n`` games a pairing, the events
counters of :func:`dragonsim.lords.api.duel`) and the claws' fair prices, by bot.
"""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

from dragonsim.lords.analysis.pricing import prices
from dragonsim.lords.api import duel
from dragonsim.lords.bots import policy_version
from dragonsim.lords.game.sheets import roster

PRESETS = ("basic", "advanced", "advanced+optional")
ROOT = Path(__file__).resolve().parents[1]


def close_combats(bot: str, rules: str, n: int, seed: int) -> float:
    """Close combats a game over the 66 ready-made pairings."""
    names = [s.name for s in roster()]
    total = games = 0.0
    for a, b in itertools.combinations(names, 2):
        r = duel(a, b, n=n, seed=seed, policy=bot, rules=rules, progress=False)
        total += r.to_dict()["events"]["close_combats"] * r.n
        games += r.n
    return total / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="hunter@4,hunter@5")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-n", type=int, default=1000, help="games a pairing for close combats")
    ap.add_argument("--designs", type=int, default=None, help="a subsample of K designs")
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--out", default=str(ROOT / "results" / "prices-15-bots.txt"))
    a = ap.parse_args()
    bots = [b.strip() for b in a.bots.split(",")]
    labels = [policy_version(b) for b in bots]
    which = "every legal design" if a.designs is None else f"{a.designs} designs drawn from those"
    lines = [
        f"Fair design-point prices at 15 DP by bot ({', '.join(labels)}), seed {a.seed}: {which} "
        "costing 12..18 against the 12 ready-made dragons and two other designs, "
        "20 games from each seat (`python benchmarks/prices_by_bot.py"
        + (f" --bots {a.bots} --designs {a.designs} -n {a.n}`)" if a.designs else "`)"),
        f"MOVES: the fair prices under {labels[0]} and {labels[-1]} differ by more than 1 DP",
    ]
    for rules in [p.strip() for p in a.presets.split(",")]:
        t0 = time.perf_counter()
        res = [
            prices(15, seed=a.seed, policy=b, rules=rules, designs=a.designs, progress=False)
            for b in bots
        ]
        cc = [close_combats(b, rules, a.n, a.seed) for b in bots]
        first = len(lines)
        lines += ["", f"{rules} ({time.perf_counter() - t0:.0f} s)"]
        head = f"  {'slot':<6} {'option':<17} {'printed':>7}"
        for lab in labels:
            head += f"  {lab + ' fair [95%]':>24}"
        lines.append(head + "  moved")
        tables = [{(r["slot"], r["option"]): r for r in x.table} for x in res]
        for key, row in tables[0].items():
            text = f"  {key[0]:<6} {key[1]:<17} {row['printed']:>7}"
            for t in tables:
                r = t[key]
                text += f"  {r['fair']:7.1f} [{r['lo']:6.1f}, {r['hi']:6.1f}]"
            d = tables[-1][key]["fair"] - tables[0][key]["fair"]
            flag = f"{d:+5.1f}" + (" MOVES" if abs(d) > 1 else "")
            lines.append(f"{text}  {flag}")
        moved = [
            f"{k[1]} ({k[0]})"
            for k in tables[0]
            if abs(tables[-1][k]["fair"] - tables[0][k]["fair"]) > 1
        ]
        lines.append(f"  bot-sensitive options: {', '.join(moved) if moved else 'none'}")
        claws = [k for k in tables[0] if k[0] == "claws"]
        for lab, c, t in zip(labels, cc, tables, strict=True):
            cl = ", ".join(f"{k[1]} {t[k]['fair']:.1f} (printed {t[k]['printed']})" for k in claws)
            lines.append(
                f"  claws under {lab}: {c:.2f} close combats a game over the 66 ready-made "
                f"pairings; fair prices {cl}"
            )
        print("\n".join(lines[first:]), flush=True)
    Path(a.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
