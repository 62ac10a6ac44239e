"""Do the fair prices' intervals mean what they say? A coverage study: pairs of independent
price studies, each on its own draw of the band's designs and its own games, compared option
by option. Not a test: prints a table (``results/prices-coverage.txt``).

    python benchmarks/prices_coverage.py [--pairs 6] [--designs 400] [-n 10] [--rules basic]

Study ``2k - 1`` and study ``2k`` (seeds) draw ``--designs`` of the band's legal designs each
and play them (``prices``). For every priced option the difference of their fair prices over
its standard error, ``z = (fair_1 - fair_2) / sqrt(se_1**2 + se_2**2)``, is standard normal when
the standard errors are honest: about 95% of the ``|z|`` fall within 1.96 and the mean ``z**2`` is
about 1. The table gives that for the printed intervals (the games' noise and the model's
misfit, clustered by design) and for the games' noise alone, and how often one study's 95%
interval holds the other's estimate (about 83% when both are honest: the estimate is itself
noisy, so the target is 2 * Phi(1.96 / sqrt(2)) - 1, not 95%). Options are correlated within
a study (they share the exchange rate), so the rates over one pair of studies move together:
the interval on the coverage counts the pairs of studies, not the options.
"""

from __future__ import annotations

import argparse
import math
import time
from statistics import NormalDist

import numpy as np

from dragonsim.lords.analysis.pricing import prices


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=6, help="pairs of studies (default 6)")
    ap.add_argument("--designs", type=int, default=400, help="designs a study (default 400)")
    ap.add_argument("-n", type=int, default=10, help="games a pairing a seat (default 10)")
    ap.add_argument("--budget", type=int, default=15)
    ap.add_argument("--rules", default="basic")
    ap.add_argument("--out", default=None, help="also write the table to this file")
    args = ap.parse_args(argv)
    rules = None if args.rules == "basic" else args.rules
    t0 = time.perf_counter()
    z, zg, held = [], [], []
    per_pair = []
    for k in range(args.pairs):
        a, b = (
            prices(args.budget, designs=args.designs, n=args.n, seed=2 * k + s, rules=rules)
            for s in (1, 2)
        )
        ta, tb = a.to_frame(), b.to_frame()
        ok = (ta.verdict != "reference") & (tb.verdict != "reference") & ta.se.gt(0)
        ta, tb = ta[ok], tb[ok]
        d = (ta.fair - tb.fair).to_numpy()
        zk = d / np.hypot(ta.se, tb.se).to_numpy()
        z += list(zk)
        zg += list(d / np.hypot(ta.se_games, tb.se_games).to_numpy())
        held += list(((tb.fair >= ta.lo) & (tb.fair <= ta.hi)).to_numpy())
        per_pair.append(float(np.mean(np.abs(zk) <= 1.96)))
        print(f"  pair {k + 1}: terms {a.terms} / {b.terms}; within 1.96: {per_pair[-1]:.0%}")
    z, zg, held = np.array(z), np.array(zg), np.array(held)
    spread = np.std(per_pair, ddof=1) / math.sqrt(len(per_pair)) if len(per_pair) > 1 else math.nan
    target = 2 * NormalDist().cdf(1.96 / math.sqrt(2)) - 1
    lines = [
        f"Coverage of the fair prices' intervals: {args.pairs} pairs of independent studies at "
        f"{args.budget} DP ({args.rules}), {args.designs} designs drawn a study, {args.n} games "
        f"a pairing a seat; {len(z)} option comparisons; {time.perf_counter() - t0:.0f} s",
        "",
        f"  {'standard errors':<38} {'|z| <= 1.96':>12} {'mean z^2':>9}",
        f"  {'printed (games and misfit, clustered)':<38} {np.mean(np.abs(z) <= 1.96):>12.1%} "
        f"{np.mean(z**2):>9.2f}",
        f"  {'the games noise alone':<38} {np.mean(np.abs(zg) <= 1.96):>12.1%} "
        f"{np.mean(zg**2):>9.2f}",
        f"  (honest: 95% and 1; the printed rate +- {1.96 * spread:.1%} over the pairs of studies)",
        "",
        f"  one study's 95% interval holds the other's estimate: {np.mean(held):.1%} "
        f"(honest: {target:.1%}, both estimates noisy)",
        "",
        f"  python benchmarks/prices_coverage.py --pairs {args.pairs} --designs {args.designs} "
        f"-n {args.n} --budget {args.budget} --rules {args.rules}",
    ]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text + "\n")


if __name__ == "__main__":
    main()
