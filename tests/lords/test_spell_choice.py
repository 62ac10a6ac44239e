"""Which spell a Wizard casts (advanced rules, pp. 18, 24-25): hunter-5's Wizard weighs all 13.

The bot spell policy prices a spell by its effect this turn; the four whose effect comes next
turn (Lethargy, Quicken, Slow, Vigor, p.25) it never cast. A Wizard whose bot has
``SKILL_SPELLS`` (hunter-5) weighs them at the planning table's named values; other bots' Wizards
cast as before, to the bit. Legality under every bot: ``test_wizard_spells``.
"""

from __future__ import annotations

import numpy as np

from dragonsim.lords import engine as E
from dragonsim.lords.api import prepare
from dragonsim.lords.bots import plan as BP
from dragonsim.lords.game import state as S
from dragonsim.rules.lords import SPELLS

NO_RECORDS = np.zeros((0, S.N_REC), np.int64)
NEXT_TURN = [SPELLS.index(s) for s in ("Slow", "Lethargy", "Quicken", "Vigor")]


def _casts(pol, values=None, n=400, seed=5):
    prep = prepare("Slash", "Reaper", policies=(pol, pol), rules="advanced")
    args = list(prep["args"])
    if values is not None:
        args[5] = args[5].copy()
        args[5][BP.PLAN_WEIGHTS, BP.W_SLOW : BP.W_VIGOR + 1] = values
    c = E.duel_kernel(0, n, seed, *args, NO_RECORDS)
    return c, c[S.C_SPELLS : S.C_SPELLS + len(SPELLS)]


def test_hunter_5s_wizard_casts_quicken_and_vigor_hunter_4s_never():
    """At the released values Slash's Wizard under hunter-5 casts Quicken on its own dragon
    when nothing else is worth a point (Vigor, valued alike and weighed after it, when Quicken
    is worth nothing); under hunter-4 no next-turn spell is cast."""
    _, five = _casts("hunter@5")
    _, four = _casts("hunter@4")
    assert five[SPELLS.index("Quicken")] > 0
    _, vigor = _casts("hunter@5", (0.0, 0.0, 0.0, 2.0))
    assert vigor[SPELLS.index("Vigor")] > 0 and vigor[SPELLS.index("Quicken")] == 0
    assert four[NEXT_TURN].sum() == 0


def test_the_next_turn_values_reach_hunter_5s_wizard_only():
    """Slow valued above a Fireball (8 points) is cast at the enemy, in place of other spells;
    the same values leave hunter-4's games unchanged to the bit."""
    _, five = _casts("hunter@5", (8.0, 0.0, 0.0, 0.0))
    assert five[SPELLS.index("Slow")] > 0
    c4, _ = _casts("hunter@4", (8.0, 8.0, 8.0, 8.0))
    base4, _ = _casts("hunter@4")
    assert np.array_equal(c4, base4)
