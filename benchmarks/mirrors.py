"""hunter-5 against hunter-4 in the 12 mirror pairings, with planning-table weights set: the loop
``speed_skill.py`` and ``early_moves.py`` share (imported by them, not run on its own)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dragonsim.lords import engine as E
from dragonsim.lords.api import prepare
from dragonsim.lords.bots import plan as BP
from dragonsim.lords.game import state as S
from dragonsim.lords.game.sheets import roster

NO_RECORDS = np.zeros((0, S.N_REC), np.int64)
SEATS = (("hunter@5", "hunter@4"), ("hunter@4", "hunter@5"))


class Mirrors(NamedTuple):
    share: float  # hunter-5's points (wins + draws / 2) over the games
    games: int
    per: list[str]  # "Drago 63.2" by dragon
    count: float  # the counter ``count`` of the engine summed over the games


def kernel_args(a, b, pols, rules, weights=None) -> list:
    """A duel's kernel arguments with ``weights`` ({``W_*`` index: value}) set in the
    planning table's weights row (a copy)."""
    args = list(prepare(a, b, policies=pols, rules=rules)["args"])
    if weights:
        args[5] = args[5].copy()
        for k, v in weights.items():
            args[5][BP.PLAN_WEIGHTS, k] = v
    return args


def mirrors(n: int, seed: int, rules: str, weights=None, count: int = S.C_GAMES) -> Mirrors:
    """hunter-5's pooled share against hunter-4 over the 12 mirrors, ``n`` games a seat."""
    pts = 0.0
    total = 0.0
    per = []
    for s in roster():
        p = 0.0
        for seat, pols in enumerate(SEATS):
            args = kernel_args(s.name, s.name, pols, rules, weights)
            c = E.duel_kernel(0, n, seed + seat, *args, NO_RECORDS)
            p += float(c[S.C_WIN + seat]) + 0.5 * float(c[S.C_DRAWS])
            total += float(c[count])
        pts += p
        per.append(f"{s.name[:5]} {100 * p / (2 * n):.1f}")
    games = 24 * n
    return Mirrors(pts / games, games, per, total)
