"""Conformance of the Krynn kernels for any tile, options and policies (hypothesis): games end,
counters partition the games, histograms add up, and results do not depend on block splits."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dragonsim.krynn import engine as K
from dragonsim.krynn.api import battle, battlefield
from dragonsim.krynn.data import COMMANDERS

LINES = ("foot", "missile", "mounted")
counts = st.fixed_dictionaries({line: st.integers(0, 6) for line in LINES}).filter(
    lambda d: sum(d.values()) > 0
)


@st.composite
def tiles(draw):
    al = draw(counts)
    ar = draw(counts)
    bars = {k: draw(st.integers(0, v)) for k, v in al.items()}
    tacs = {k: draw(st.integers(0, 2)) if v else 0 for k, v in al.items()}
    return dict(
        alliance=al,
        army=ar,
        barricades=bars,
        tactics=tacs,
        alliance_commander=draw(st.sampled_from(sorted(COMMANDERS))),
        army_commander=draw(st.sampled_from(sorted(COMMANDERS))),
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tile=tiles(),
    kind=st.sampled_from(["skirmish", "all-out", "mixed"]),
    heroes=st.integers(0, 3),
    policy=st.sampled_from(["never", "removals", "all", "last"]),
    alliance_hits=st.sampled_from(["shaken-first", "ready-first"]),
    mutual=st.sampled_from(["army", "alliance", "none"]),
    seed=st.integers(0, 2**32),
)
def test_battle_counters_partition_the_games(
    tile, kind, heroes, policy, alliance_hits, mutual, seed
):
    n = 300
    r = battle(
        **tile,
        battle_type=kind,
        heroes=heroes,
        hero_policy=policy,
        max_turns=60,
        n=n,
        seed=seed,
        progress=False,
        alliance_hits=alliance_hits,
        mutual_control=mutual,
    )
    c = r.counters
    assert c.dtype == np.int64 and (c >= 0).all()
    assert c[K.B_N] == n == r.p_alliance_controls.k + r.p_army_controls.k + r.p_undecided.k
    assert r.turns_histogram().sum() == n - r.p_undecided.k
    assert r.stress_histogram().sum() == n
    assert c[K.B_STRESS_SUM] <= n * heroes * 4
    for side in ("alliance", "army"):
        for line in LINES:
            assert r.line_histogram(side, line).sum() == n
    # units are never created on a single tile
    assert c[K.B_TOTAL] <= n * sum(tile["alliance"].values())
    assert c[K.B_TOTAL + 1] <= n * sum(tile["army"].values())


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ts=st.lists(tiles(), min_size=1, max_size=4),
    limit=st.integers(0, 4),
    seed=st.integers(0, 2**32),
)
def test_battlefield_outcomes_partition_the_scenarios(ts, limit, seed):
    limit = min(limit, len(ts))
    tl = [
        {
            "alliance": t["alliance"],
            "army": t["army"],
            "alliance_barricades": t["barricades"],
            "alliance_tactics": t["tactics"],
            "alliance_commander": t["alliance_commander"],
            "army_commander": t["army_commander"],
        }
        for t in ts
    ]
    n = 200
    r = battlefield(tl, control_limit=limit, max_turns=80, n=n, seed=seed, progress=False)
    c = r.counters
    assert c[K.F_WIN] + c[K.F_HOLD] + c[K.F_LOSS] + c[K.F_UNFINISHED] == n
    assert c[K.F_LOSS_LIMIT] <= c[K.F_LOSS]
    if limit == 0:
        assert c[K.F_LOSS_LIMIT] == 0
    for i in range(len(ts)):
        assert c[K.F_TILES + 2 * i] + c[K.F_TILES + 2 * i + 1] <= n
