"""What moving early is worth to hunter-5. Not a test: prints numbers.

    python benchmarks/early_moves.py [-n 2000] [--seed 31] [--rules advanced]

"Moving Earlier in the Phase" (advanced rules, p.15): a dragon later in the initiative order
may announce that it moves now. The released hunter-5 never does (the planning table's
``W_EARLY`` is 0): the later mover sees more of the board, and only a dragon that has already
moved can be engaged (p.9), so moving early hands the enemy the engagement. This plays hunter-5
against hunter-4 (which never moves early either) in the 12 mirror pairings, ``n`` games from
each seat, with ``W_EARLY`` at 0 and at 1 (hunter-5 then moves early at every chance; hunter-4
does not read it) on the same seeds, and prints hunter-5's share both ways, the difference with
a 95% interval (unpaired, so conservative), and the early moves a game.
"""

from __future__ import annotations

import argparse
import math

from mirrors import mirrors

from dragonsim.lords.bots import plan as BP
from dragonsim.lords.game import state as S


def share(early: float, n: int, seed: int, rules: str) -> tuple[float, float, list[str]]:
    """hunter-5's share against hunter-4 over the mirrors, its early moves a game, by dragon."""
    m = mirrors(n, seed, rules, {BP.W_EARLY: early}, count=S.C_EARLY)
    return m.share, m.count / m.games, m.per


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=2000, help="games per pairing and seat")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--rules", default="advanced")
    a = ap.parse_args()
    base, _, per0 = share(0.0, a.n, a.seed, a.rules)
    early, moves, per1 = share(1.0, a.n, a.seed, a.rules)
    games = 24 * a.n
    half = 1.96 * math.sqrt(2 * base * (1 - base) / games)
    d = early - base
    head = f"12 mirrors x 2 seats x {a.n} games, {a.rules}, seed {a.seed}"
    print(f"hunter-5 against hunter-4, {head}")
    print(f"  never early (released)  {100 * base:6.2f}%   " + ", ".join(per0))
    print(f"  early at every chance   {100 * early:6.2f}%   " + ", ".join(per1))
    print(
        f"  difference {100 * d:+.2f} points [{100 * (d - half):+.2f}, {100 * (d + half):+.2f}], "
        f"{moves:.2f} early moves a game"
    )


if __name__ == "__main__":
    main()
