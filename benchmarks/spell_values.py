"""What the next-turn spells are worth to hunter-5's Wizard. Not a test: prints numbers.

    python benchmarks/spell_values.py [-n 1000] [--seed 21] [--rules advanced+optional]
        [--out results/spell-values.txt]

hunter-5's Wizard weighs Slow and Lethargy (on an enemy) and Quicken and Vigor (on its own
dragon) at named values in damage points (the planning table's ``W_SLOW`` .. ``W_VIGOR``;
the other spells by their effect this turn, :mod:`dragonsim.lords.bots.spells`). For each of
the four and each value of :data:`VALUES` (the other three at 0), this plays the 20 ready-made
pairings in which exactly one dragon carries a Wizard (Slash or Stalwyrm against each of the
other ten), hunter-5 on both sides, ``n`` games from each seat, and compares the Wizard side's
share (wins plus half the draws) with the same games at all four values 0 (common random
numbers: the same seeds): the difference with a 95% interval (unpaired, so conservative),
and how often a game the spell was cast. Then the released values once more.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from pathlib import Path

import numpy as np

from dragonsim.lords import engine as E
from dragonsim.lords.api import prepare
from dragonsim.lords.bots import plan as BP
from dragonsim.lords.game import state as S
from dragonsim.lords.game.sheets import roster
from dragonsim.rules.lords import SPELLS

NEXT_TURN = ("Slow", "Lethargy", "Quicken", "Vigor")  # W_SLOW .. W_VIGOR, in that order
VALUES = (2.0, 4.0, 8.0)
WIZARDS = ("Slash", "Stalwyrm")
NO_RECORDS = np.zeros((0, S.N_REC), np.int64)
ROOT = Path(__file__).resolve().parents[1]


def pairings() -> list[tuple[str, str]]:
    names = [s.name for s in roster()]
    return [
        (a, b)
        for a, b in itertools.combinations(names, 2)
        if (a in WIZARDS) != (b in WIZARDS)  # exactly one Wizard
    ]


def play(values, n: int, seed: int, rules: str) -> tuple[float, int, np.ndarray]:
    """The Wizard side's points, the games, and the spells cast (by spell) over the
    pairings, with the four next-turn values ``values``."""
    pts = 0.0
    games = 0
    casts = np.zeros(len(SPELLS))
    for a, b in pairings():
        wiz = 0 if a in WIZARDS else 1
        for seat, (x, y) in enumerate(((a, b), (b, a))):
            args = list(prepare(x, y, policies=("hunter", "hunter"), rules=rules)["args"])
            args[5] = args[5].copy()
            args[5][BP.PLAN_WEIGHTS, BP.W_SLOW : BP.W_VIGOR + 1] = values
            c = E.duel_kernel(0, n, seed + seat, *args, NO_RECORDS)
            side = wiz if seat == 0 else 1 - wiz
            pts += float(c[S.C_WIN + side]) + 0.5 * float(c[S.C_DRAWS])
            games += n
            casts += c[S.C_SPELLS : S.C_SPELLS + len(SPELLS)]
    return pts, games, casts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=1000, help="games per pairing and seat")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--rules", default="advanced+optional")
    ap.add_argument("--out", default=str(ROOT / "results" / "spell-values.txt"))
    a = ap.parse_args()
    t0 = time.perf_counter()
    base_pts, games, base_casts = play((0.0,) * 4, a.n, a.seed, a.rules)
    base = base_pts / games
    lines = [
        f"hunter-5's Wizard: the next-turn spells' values, {a.rules}, 20 pairings with one "
        f"Wizard x 2 seats x {a.n} games, seed {a.seed} (`python benchmarks/spell_values.py`)",
        f"  all four at 0: the Wizard side's share {100 * base:.2f}%; casts a game: "
        + ", ".join(f"{s} {c / games:.2f}" for s, c in zip(SPELLS, base_casts, strict=True) if c),
        "  spell           value  Wizard side's share - at 0 [95%]   cast a game",
    ]

    def row(label: str, values) -> str:
        pts, g, casts = play(values, a.n, a.seed, a.rules)
        d = pts / g - base
        half = 1.96 * math.sqrt(2 * base * (1 - base) / g)
        cast = sum(casts[SPELLS.index(s)] for s in NEXT_TURN) / g
        lo, hi = 100 * (d - half), 100 * (d + half)
        return f"  {label:<22}  {100 * d:+6.2f} [{lo:+6.2f}, {hi:+6.2f}]  {cast:10.2f}"

    for k, spell in enumerate(NEXT_TURN):
        for v in VALUES:
            values = [0.0] * 4
            values[k] = v
            lines.append(row(f"{spell:<14} {v:5.1f}", values))
            print(lines[-1], flush=True)
    released = tuple(float(x) for x in BP.HUNTER_5_NEXT_TURN_SPELLS)
    lines.append(row(f"released {released}", released))
    lines.append(f"  ({time.perf_counter() - t0:.0f} s)")
    print("\n".join(lines))
    Path(a.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
