"""Every duel report's first-mover advantage and game-length distribution.

Rulebook p.7, "1. Initiative": "Each player rolls 2d6 ... Players with lower numbers move
before players with higher ones." The kernel notes who moved first on turn 1 per game
(``R_FIRST``); the duel counts it outside the engine's counters."""

import numpy as np
import pandas as pd

from dragonsim.lords.api import duel
from dragonsim.lords.views.replay import replay
from dragonsim.stats import binomial_consistent


def test_first_mover_matches_the_replayed_initiative_and_the_records(tmp_path):
    path = tmp_path / "g.parquet"
    r = duel("Reaper", "Skyblazer", n=400, seed=5, records=str(path), progress=False)
    df = pd.read_parquet(path)
    # the per-game column is the dragon placed first in turn 1's initiative order (replay)
    for g in (0, 1, 7, 123):
        ev = replay("Reaper", "Skyblazer", seed=5, game=g).events
        first = [e for e in ev if e["event"] == "initiative" and e["turn"] == 1 and e["place"] == 0]
        assert len(first) == 1
        assert ["Reaper", "Skyblazer"].index(first[0]["dragon"]) == df["first_mover"][g]
    fm = r.first_mover
    a_first = df["first_mover"] == 0
    won_first = (df["winner_side"] == df["first_mover"]).sum()
    won_second = ((df["winner_side"] >= 0) & (df["winner_side"] != df["first_mover"])).sum()
    assert fm.a_first.k == a_first.sum()
    assert fm.first_wins.k == won_first and fm.second_wins.k == won_second
    assert fm.a_wins_when_first.k == ((df["winner_side"] == 0) & a_first).sum()
    assert fm.advantage == (won_first - won_second) / 400
    # the same counts without records, and the engine's counters untouched by either
    plain = duel("Reaper", "Skyblazer", n=400, seed=5, progress=False)
    assert plain.first_mover == fm and np.array_equal(plain.counters, r.counters)
    # game length: the percentiles of the turn histogram are those of the games' turns
    gl = r.game_length()
    t = np.sort(df["turns"].to_numpy())
    assert gl.median == t[int(np.ceil(0.5 * len(t))) - 1]
    assert gl.p10 == t[int(np.ceil(0.1 * len(t))) - 1]
    assert gl.p90 == t[int(np.ceil(0.9 * len(t))) - 1]
    assert gl.ci[0] < gl.mean == t.mean() < gl.ci[1]
    d = r.to_dict()
    assert d["first_mover"]["first_mover_wins"] == won_first
    assert d["game_length"]["median"] == gl.median
    text = r.summary()
    assert "first mover" in text and "10th-90th percentile" in text


def test_a_mirror_dragon_moves_first_half_the_time():
    """Both roll 2d6 and ties are rolled off (p.7): in a mirror match each dragon moves first
    on turn 1 with probability 1/2 (exact binomial test, alpha 1e-6)."""
    r = duel("Reaper", "Reaper", n=3000, seed=2, progress=False)
    assert binomial_consistent(r.first_mover.a_first.k, r.n, 0.5)
    lo, hi = r.first_mover.advantage_ci
    assert lo < r.first_mover.advantage < hi
