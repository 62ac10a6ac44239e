"""Fair design-point prices (``dragonsim.lords.prices``; the Cost Table, rulebook p.26).

The fit is checked on a synthetic win model whose option strengths are planted (no engine:
a fake pairs kernel draws each game from ``sigmoid(s_0 - s_1 + h)``), so the true fair
prices are known exactly; the engine's pairs kernel is checked against a plain duel; one
small real run checks the whole path (table, manifest, JSON, figure).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from synthetic import COSTS, LAM, SEAT, planted_prices, synthetic_kernel

from dragonsim.errors import UserError
from dragonsim.lords.analysis import designs as D
from dragonsim.lords.analysis.pricing import fair_prices, prices


def test_fair_prices_give_planted_prices_back_exactly():
    """The conversion alone: strengths lam * (planted - reference) give the planted prices
    and lam (module docstring, step 4)."""
    planted = planted_prices()
    ref = np.array([COSTS[s][0] for s, _ in D.OPTIONS], dtype=float)
    fair, lam = fair_prices(LAM * (planted - ref), COSTS, D.SLOTS[:4])
    assert lam == pytest.approx(LAM, rel=1e-12)
    np.testing.assert_allclose(fair, planted, atol=1e-12)


def test_legal_designs_433_at_15():
    """433 legal designs at exactly 15 DP (the Cost Table, p.26, with
    one point per step), every one pricing to 15 by design()."""
    from dragonsim.lords.game.sheets import design

    got = D.legal_designs(15)
    assert len(got) == 433
    assert len({d.index for d in got}) == 433
    assert all(design(**d.components()).cost == 15 for d in got[::37])


@pytest.fixture(scope="module")
def planted_run():
    planted = planted_prices()
    ref = np.array([COSTS[s][0] for s, _ in D.OPTIONS], dtype=float)
    beta = LAM * (planted - ref)
    r = prices(15, band=2, n=40, seed=3, kernel=synthetic_kernel(beta), bootstrap=200)
    return planted, r


def test_planted_prices_recovered(planted_run):
    """Every option's fair price lands within its interval's reach of the planted price
    (3.5 standard errors: a miss is a 1-in-2000 event per option) and every interval is
    within +-0.5 DP; the exchange rate comes back within its interval."""
    planted, r = planted_run
    df = r.to_frame()
    free = df[df.verdict != "reference"]
    err = free.fair.to_numpy() - planted[free.index.to_numpy()]
    se = (free.hi - free.lo).to_numpy() / (2 * 1.96)
    assert np.all(np.abs(err) <= 3.5 * se), (err, se)
    assert (free.hi - free.lo).max() / 2 <= 0.5
    assert r.lam_ci[0] <= LAM <= r.lam_ci[1] or abs(r.lam - LAM) < 3.5 * (
        (r.lam_ci[1] - r.lam_ci[0]) / 3.92
    )
    assert r.seat == pytest.approx(SEAT, abs=0.03)


def test_planted_verdicts(planted_run):
    """Options planted 1 DP or more off their printed price are called over- or under-priced
    the right way; none planted at its printed price is called either way."""
    planted, r = planted_run
    df = r.to_frame()
    for i, row in df.iterrows():
        d = planted[i] - row.printed
        if row.verdict == "reference":
            continue
        if abs(d) >= 1.0:
            assert row.verdict == ("under-priced" if d > 0 else "over-priced"), row.option
        if abs(d) < 1e-9:
            assert row.verdict == "fair?", row.option


def test_planted_additive_model_fits(planted_run):
    """On an additive truth the held-out designs are predicted as well as the dice allow:
    squared error over binomial variance near 1 (its sampling spread over ~250 designs is
    about 0.1), calibration slope's interval holding 1, no interaction cell significant
    beyond Holm's 5% (none is planted)."""
    _, r = planted_run
    c = r.calibration
    assert 0.7 < c["dispersion"] < 1.4
    assert c["slope_lo"] <= 1.0 <= c["slope_hi"]
    assert sum(x["significant"] for x in r.interactions) <= 1


def test_sampled_designs_widen_the_intervals():
    """Drawing 300 of the band's designs instead of playing all adds the design-sampling part
    (finite-population bootstrap): the intervals are wider, and still cover the truth."""
    planted = planted_prices()
    ref = np.array([COSTS[s][0] for s, _ in D.OPTIONS], dtype=float)
    r = prices(
        15,
        band=2,
        designs=300,
        n=40,
        seed=3,
        kernel=synthetic_kernel(LAM * (planted - ref)),
        bootstrap=60,
    )
    df = r.to_frame()
    free = df[df.verdict != "reference"]
    se = (free.hi - free.lo).to_numpy() / 3.92
    assert np.all(np.abs(free.fair.to_numpy() - planted[free.index.to_numpy()]) <= 3.5 * se)
    assert "300 of" in r.interval_method


def test_pairs_kernel_equals_duel():
    """A pair's counters in a pairs run are a plain duel's of the same sheets, seed and games
    (the move tables for every rating change no game)."""
    from dragonsim.lords.api import duel
    from dragonsim.lords.game.sheets import sheet

    a, b = "body=Light,wings=Huge,breath=Ice,claws=Dull", "Slash"
    setup = D.pair_setup()
    counts, _ = D.play_pairs(
        [(sheet("Reaper"), sheet(b)), (sheet(a), sheet(b))], setup, n=300, seed=11
    )
    for (x, y), c in zip((("Reaper", b), (a, b)), counts, strict=True):
        r = duel(x, y, n=300, seed=11)
        assert list(c) == [r.wins_a, r.wins_b, r.draws]


def test_small_real_run(tmp_path):
    """The engine path end to end: 26 rows, the references at their printed cost, the
    manifest, JSON, and a figure with the two panels."""
    import matplotlib

    matplotlib.use("Agg")
    r = prices(12, band=1, designs=40, n=10, seed=2, bootstrap=20)
    df = r.to_frame()
    assert len(df) == 26 and set(df.slot) == set(D.SLOTS)
    refs = df[df.verdict == "reference"]
    assert list(refs.fair) == list(refs.printed.astype(float))
    d = r.to_dict()
    assert d["manifest"]["command"] == "prices" and d["manifest"]["budget"] == 12
    json.dumps(d, default=float)
    fig = r.plot()
    assert len(fig.axes) == 2
    assert r.games == 10 * (40 * 12 * 2 + 2 * 40)  # n per seat x (field pairings + cycles)
    assert "Fair design-point prices at 12 DP" in r.summary()


@pytest.mark.parametrize(
    "kw, msg",
    [
        ({"budget": 3}, "budget must be 4"),
        ({"band": -1}, "band must be"),
        ({"designs": 5}, "designs must be 10"),
        ({"holdout": 1.0}, "holdout must be a share"),
        ({"bootstrap": 1}, "bootstrap must be 20"),
        ({"policy": "chess"}, "unknown policy"),
        ({"field_dragons": ["Reaper"]}, "at least two dragons"),
    ],
)
def test_bad_input(kw, msg):
    with pytest.raises(UserError, match=msg):
        prices(**{"n": 1, **kw})


def test_budget_outside_the_bounds():
    with pytest.raises(UserError, match="no legal design costs"):
        prices(40, band=2, n=1)


def _planted_kernel():
    planted = planted_prices()
    ref = np.array([COSTS[s][0] for s, _ in D.OPTIONS], dtype=float)
    return synthetic_kernel(LAM * (planted - ref))


def test_checkpoint_and_dask_give_the_same_prices(tmp_path):
    """The games run through ``run_blocks``, so a checkpointed run, its
    resumption from the finished file and a Dask run (threaded scheduler) give the counts,
    and so the prices, of a plain run."""
    kw = dict(band=1, designs=60, n=8, seed=5, bootstrap=20, kernel=_planted_kernel())
    plain = prices(12, **kw).to_frame()
    ck = tmp_path / "prices.ck"
    first = prices(12, checkpoint=str(ck), **kw).to_frame()
    again = prices(12, checkpoint=str(ck), **kw).to_frame()
    assert plain.equals(first) and plain.equals(again)
    pytest.importorskip("dask")
    dask = prices(12, backend="dask", **kw).to_frame()
    assert plain.equals(dask)


def test_cli_prices(tmp_path, capsys):
    """The command line: one JSON object with the manifest and its argv, a CSV of the table,
    a PNG figure; a bad file name is one line and exit 2 before any game."""
    from dragonsim.cli import main

    png, csv = tmp_path / "p.png", tmp_path / "p.csv"
    argv = ["prices", "--budget", "6", "--band", "1", "--designs", "20", "-n", "2"]
    assert main([*argv, "--json", "--plot", str(png), "--csv", str(csv), "--no-progress"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["manifest"]["argv"][0] == "prices" and len(d["prices"]) == 26
    assert png.stat().st_size > 10_000 and csv.read_text().startswith("slot,option,printed")
    assert main([*argv, "--plot", "p.jpg"]) == 2
    assert "must end in .png" in capsys.readouterr().err


def test_riders_set_the_exchange_rate_only_when_they_act():
    """Under the basic rules riders do not act (no rider phase, p.7), so the rider slot is
    fitted but left out of lambda; with ``advanced.lancer = true`` it counts."""
    kw = dict(band=1, designs=40, n=2, seed=1, bootstrap=20, kernel=_planted_kernel())
    assert prices(12, **kw).acting == ["body", "wings", "breath", "claws"]
    assert prices(12, rules={"advanced.lancer": True}, **kw).acting == list(D.SLOTS)
