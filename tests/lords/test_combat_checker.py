"""The independent combat checker (``tests/lords_reference.py`` :func:`check_events`) over
the event logs of many games of every bot: no illegal or mis-computed combat step, and every
planted error caught (a wrong location, a wrong damage, a to-hit that ignores the roll, a
skipped serious-damage effect, a close combat given to the wrong dragon)."""

from __future__ import annotations

import lords_reference as ref
import numpy as np
import pytest

from dragonsim.lords import engine as E
from dragonsim.lords.api import prepare
from dragonsim.lords.game import state as S

PAIRS = [("Reaper", "Skyblazer"), ("Tankerous", "Zippinchill"), ("Slash", "Ozonic")]
BOTS = [("random", "random"), ("hunter", "brawler"), ("hunter@2", "sniper"), ("brawler", "brawler")]


def _game(a, b, pols, seed, game, rules=None):
    prep = prepare(a, b, policies=pols, rules=rules)
    cnt, log = E.logged_game(game, seed, *prep["args"], 20000)
    return prep, cnt, log


@pytest.mark.parametrize("pols", BOTS, ids=lambda p: "-".join(p))
@pytest.mark.parametrize("a, b", PAIRS)
def test_every_combat_step_follows_the_rules(a, b, pols):
    """Breath target number (recomputed from tracked positions), to-hit, dice, location and
    damage (pp. 10-11), close combat (p.13) and the serious damage effects (p.12), replayed
    independently over 15 games a pairing, every bot; the damage the checker credits is the
    engine's."""
    kinds = set()
    for game in range(15):
        prep, cnt, log = _game(a, b, pols, 7, game)
        sheets = [prep["a"], prep["b"]]
        bad = ref.check_events(log, sheets, prep["tables"], cnt, rules=prep["rules"])
        assert bad == [], bad[:3]
        kinds |= set(int(k) for k in log[:, S.L_KIND])
    assert S.K_BREATH in kinds and S.K_EFFECT in kinds


def test_close_combat_with_riders_and_search_follows_the_rules():
    """The Lancer's bonus in force (switch lords.advanced.lancer) and the look-ahead bot, which
    engages: close combats happen and every one checks out."""
    seen = 0
    for game in range(6):
        prep, cnt, log = _game(
            "Tankerous",
            "Zippinchill",
            ("search", "brawler"),
            2,
            game,
            {"lords.advanced.lancer": True},
        )
        assert ref.check_events(log, [prep["a"], prep["b"]], prep["tables"], cnt) == []
        seen += int(np.sum(log[:, S.L_KIND] == S.K_CC))
    assert seen > 0


def _rows(log, kind, pred=lambda v: True):
    return [k for k in range(len(log)) if log[k, S.L_KIND] == kind and pred(log[k, S.L_A :])]


def test_the_checker_catches_planted_errors():
    """A checker that passes everything is a defect: each planted error is flagged."""
    prep, cnt, log = None, None, None
    for game in range(40):  # a game with a breath hit, a serious effect and a won close combat
        prep, cnt, log = _game("Tankerous", "Zippinchill", ("brawler", "brawler"), 4, game)
        won = _rows(log, S.K_CC, lambda v: v[0] >= 0)
        if won and _rows(log, S.K_EFFECT):
            break
    sheets = [prep["a"], prep["b"]]
    tb = prep["tables"]
    assert ref.check_events(log, sheets, tb) == []

    def planted(fn):
        bad = log.copy()
        fn(bad)
        return {v.kind for v in ref.check_events(bad, sheets, tb)}

    hit = _rows(log, S.K_BREATH, lambda v: v[2] == 1)[0]
    assert "location" in planted(
        lambda x: x.__setitem__((hit, S.L_A + 5), (x[hit, S.L_A + 5] + 1) % 5)
    )
    assert "damage" in planted(lambda x: x.__setitem__((hit, S.L_A + 7), x[hit, S.L_A + 7] + 1))
    assert "to-hit" in planted(lambda x: x.__setitem__((hit, S.L_A + 1), 2))  # a 2 always misses
    eff = _rows(log, S.K_EFFECT)[0]
    assert "effect" in planted(lambda x: x.__setitem__((eff, S.L_KIND), -1))  # skipped
    cc = _rows(log, S.K_CC, lambda v: v[0] >= 0)[0]
    other = log[cc, S.L_I] + log[cc, S.L_J] - log[cc, S.L_A]
    assert "close combat" in planted(lambda x: x.__setitem__((cc, S.L_A), other))
