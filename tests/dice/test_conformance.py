"""Conformance: for any army, dragons, options and turn limit the kernel's counters are
consistent (games end, outcomes partition the games, survival curves fall, histograms add up)
and do not depend on how the games are split into blocks."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dragonsim.dice import attack, duel
from dragonsim.dice import data as D
from dragonsim.dice import kernel as K

UNITS = [u for u in D.units() if not u.startswith(("black", "blue", "gold", "green", "red"))]
KIN = [u for u in D.units() if "dragonkin" in u]
DRAGONS = list(D.dragons())

armies = st.builds(
    lambda regular, kin: {**regular, **kin},
    st.dictionaries(st.sampled_from(UNITS), st.integers(1, 6), min_size=1, max_size=3),
    st.dictionaries(st.sampled_from(KIN), st.integers(1, 2), max_size=2),
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    army=armies,
    dragon=st.sampled_from(DRAGONS),
    count=st.integers(1, 3),
    turns=st.integers(1, 6),
    id_split=st.sampled_from(D.ID_SPLITS),
    policy=st.sampled_from(D.POLICIES),
    supply=st.sampled_from(["unlimited", "dead-area"]),
    carries=st.booleans(),
    seed=st.integers(0, 2**31),
)
def test_army_counters_are_consistent(
    army, dragon, count, turns, id_split, policy, supply, carries, seed
):
    n = 400
    r = attack(
        f"{dragon}:{count}",
        army,
        n=n,
        seed=seed,
        turns=turns,
        id_split=id_split,
        policy=policy,
        promotion_supply=supply,
        damage_carries=carries,
        progress=False,
    )
    c = r.counters
    lay = K.army_layout(r.hcap, turns)
    assert c[K.C_GAMES] == n and r.lost_hist.sum() == n
    gone = c[lay["dragons_gone_at"]].sum()
    destroyed = c[lay["army_gone_at"]].sum()
    assert destroyed == c[K.C_DESTROYED]
    # every game ends: the dragons are gone, or the army, or the turn limit came
    both = n - c[K.C_TIMEOUT] - gone - destroyed
    assert both <= 0 and c[K.C_TIMEOUT] + max(gone, destroyed) <= n
    assert c[K.C_ALL_SLAIN] <= c[K.C_ANY_SLAIN] <= c[K.C_SLAIN_SUM] <= count * n
    assert c[K.C_FLEW] <= gone
    assert c[lay["first_slain_at"]].sum() == c[K.C_ANY_SLAIN]
    assert 1 * n <= c[K.C_TURNS] <= turns * n
    for curve in r.survival().values():
        assert np.all(np.diff(curve) <= 1e-12) and curve[0] == 1.0
    total_health = sum(D.units()[u].health * k for u, k in army.items())
    if c[K.C_PROMO] == 0:
        assert r.lost_hist[total_health + 1 :].sum() == 0


@settings(max_examples=10, deadline=None)
@given(
    dragons=st.lists(st.sampled_from(DRAGONS), min_size=2, max_size=6),
    turns=st.integers(1, 8),
    seed=st.integers(0, 2**31),
)
def test_dragon_fights_end_and_partition(dragons, turns, seed):
    if len({d.split("-")[0] for d in dragons}) < 2:
        dragons = dragons + ["red-wyrm" if not dragons[0].startswith("red") else "blue-wyrm"]
    n = 300
    r = duel(",".join(dragons), n=n, seed=seed, turns=turns, progress=False)
    c = r.counters
    wins = sum(int(c[K.VHEAD + K.VT * i + K.VT_WINS]) for i in range(len(r.teams)))
    assert wins + c[K.V_ALL_GONE] + c[K.V_TIMEOUT] == n
    assert c[K.VHEAD + K.VT * len(r.teams) :].sum() == n
