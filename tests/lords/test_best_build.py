"""The best build at a budget (``dragonsim.lords.best``; the Cost Table, rulebook p.26).

A synthetic win model (``tests/synthetic.py``: planted option strengths, no engine) plants a
best design; the race must keep it and end with it on top. One small real run at 6 design
points checks the engine path (15 designs, every bound and round in the result).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from synthetic import LAM, planted_prices, synthetic_kernel

from dragonsim.errors import UserError
from dragonsim.lords.analysis import designs as D
from dragonsim.lords.analysis.race import best, hoeffding_radius


def _strengths():
    planted = planted_prices()
    ref = np.array([1.0] * 20 + [0.0] * 6)
    return LAM * (planted - ref)


def _design_strength(beta, d):
    x = D.option_matrix(np.array([d.index]))[0]
    return float(x @ beta)


def test_race_finds_the_planted_best():
    """Planted strengths give one best design at 15 DP; the race keeps it (the guarantee:
    it is eliminated with probability <= 5%) and it has the top score at the end. The
    runners-up within 0.02 log-odds may survive beside it; none far below does."""
    beta = _strengths()
    cands = D.legal_designs(15)
    s = np.array([_design_strength(beta, d) for d in cands])
    order = np.argsort(-s)
    assert s[order[0]] - s[order[1]] > 0.02  # a planted best, not a tie
    r = best(15, n0=16, rounds=8, seed=4, kernel=synthetic_kernel(beta), max_games=20_000_000)
    truth = cands[order[0]].label
    assert truth in r.survivors
    assert r.survivors[0] == truth
    df = r.to_frame()
    assert df.design[0] == truth
    # every eliminated design is truly worse than the best (no bound was wrong here)
    gone = df[~df.survivor]
    strength = {d.label: v for d, v in zip(cands, s, strict=True)}
    assert all(strength[g] < s[order[0]] for g in gone.design)
    assert len(r.survivors) < 20
    assert r.history[0]["designs"] == 433


def test_hoeffding_radius_covers_at_its_rate():
    """The bound's own promise on coin flips: a mean of N fair coins lies outside +-radius
    with probability <= alpha / (K R); with K R = 1 and alpha 0.2 (radius 0.0898 at N 200),
    2,000 runs of 200 flips miss in at most 0.2 of them (binomial tolerance at 1e-6)."""
    from dragonsim.stats import binomial_consistent

    rad = float(hoeffding_radius(200, 1, 1, alpha=0.2))
    rng = np.random.default_rng(5)
    means = rng.binomial(200, 0.5, size=2000) / 200
    miss = int(np.sum(np.abs(means - 0.5) > rad))
    assert miss <= 0.2 * 2000 or binomial_consistent(miss, 2000, 0.2)


def test_small_real_race(tmp_path):
    """The engine path at 6 DP (15 designs): rounds double, survivors thin, JSON and plot."""
    import matplotlib

    matplotlib.use("Agg")
    r = best(6, n0=4, rounds=3, seed=2, field_dragons=["Zippinchill", "Tankerous"])
    assert len(r.designs) == 15
    assert r.history[0]["games_per_design"] == 4 * 2 * 2
    assert all(
        b["designs"] == a["survivors"] for a, b in zip(r.history, r.history[1:], strict=False)
    )
    assert r.total_games == sum(h["designs"] * h["games_per_design"] for h in r.history)
    d = r.to_dict()
    assert d["manifest"]["command"] == "best"
    json.dumps(d, default=float)
    assert len(r.plot().axes) == 2
    assert "The best build at 6 DP" in r.summary()


@pytest.mark.parametrize(
    "kw, msg",
    [
        ({"budget": 3}, "no legal design costs exactly 3"),
        ({"n0": 0}, "n0 must be"),
        ({"rounds": 50}, "rounds must be"),
        ({"alpha": 1.5}, "alpha must be in"),
        ({"policy": "chess"}, "unknown policy"),
    ],
)
def test_bad_input(kw, msg):
    with pytest.raises(UserError, match=msg):
        best(**kw)


def test_checkpoint_resumes_the_race(tmp_path):
    """Each round is a checkpoint section: the same call again answers from the finished
    file with the same survivors and scores."""
    kw = dict(n0=4, rounds=4, seed=6, kernel=synthetic_kernel(_strengths()))
    ck = str(tmp_path / "race.ck")
    a = best(12, checkpoint=ck, **kw)
    b = best(12, checkpoint=ck, **kw)
    assert a.survivors == b.survivors and np.array_equal(a.points, b.points)
    assert a.history == b.history


def test_cli_best(tmp_path, capsys):
    """The command line: the summary names the survivors; --json carries the manifest."""
    from dragonsim.cli import main

    argv = ["best", "--budget", "6", "--n0", "2", "--rounds", "2", "--field", "Slash,Reaper"]
    assert main([*argv, "--no-progress", "--csv", str(tmp_path / "b.csv")]) == 0
    out = capsys.readouterr().out
    assert "builds the race could not separate from the top" in out
    assert main([*argv, "--no-progress", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["manifest"]["command"] == "best" and d["manifest"]["argv"][0] == "best"
    assert main(["best", "--budget", "6", "--field", "Nobody"]) == 2
    assert "unknown dragon 'Nobody'" in capsys.readouterr().err
