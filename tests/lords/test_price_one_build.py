"""One build's fair design-point cost from a stored band fit (``dragonsim.lords.price``,
``python -m dragonsim price``; the Cost Table, rulebook p.26, and "dragons of equivalent point
values equally matched", Advanced Scenarios, "Using Your Own Dragons").

The fit comes from a price study on a synthetic win model (planted option strengths and a
planted Heavy-with-Large interaction, so the held-out designs choose body x wings terms): the
build's cost must be the fit's own arithmetic, its interval the delta method on the stored
covariance, and the stored fit must be found by budget, rules hash and bot, or refused in one
line naming the command that makes it.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from synthetic import COSTS, LAM, planted_prices, synthetic_games_kernel, synthetic_kernel

from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.lords.analysis import buildprice as B
from dragonsim.lords.analysis import designs as D
from dragonsim.lords.analysis import fieldscore as F
from dragonsim.lords.analysis.pricing import prices
from dragonsim.lords.game.sheets import sheet
from dragonsim.rules import game_rules

HEAVY = D.OPTIONS.index(("body", "Heavy"))
LARGE = D.OPTIONS.index(("wings", "Large"))
REFS = "body=Very Light,wings=Tiny,breath=Cold,claws=Blunt"


def _beta():
    ref = np.array([COSTS[s][0] for s, _ in D.OPTIONS], dtype=float)
    return LAM * (planted_prices() - ref)


@pytest.fixture(scope="module")
def study():
    """A price study on the synthetic model with a planted body x wings interaction."""
    r = prices(
        15, designs=300, n=20, seed=2, kernel=synthetic_kernel(_beta(), terms=[(HEAVY, LARGE, 0.8)])
    )
    assert r.terms == ["body x wings"]
    return r


def _index(build: str) -> list[int]:
    s = sheet(build)
    return [s.body_i, s.wings_i, s.breath_i, s.claws_i, s.rider_i]


def _fair_of(study, slot, option) -> float:
    df = study.to_frame()
    return float(df[(df.slot == slot) & (df.option == option)].fair.iloc[0])


# ------------------------------------------------------------------------ the arithmetic
def test_the_all_reference_build_costs_exactly_the_references(study):
    """Every slot at its reference (its cheapest option): strength 0, so the fair cost is the
    references' printed costs, 1 + 1 + 1 + 1 + 0 = 4 DP, with no uncertainty."""
    c = B.build_cost(study.fit, _index(REFS))
    assert c["fair"] == 4.0 and c["se"] == 0.0 and c["strength"] == 0.0
    assert all(o["reference"] and o["fair"] == o["lo"] == o["hi"] for o in c["options"])


@pytest.mark.parametrize(
    "slot, option",
    [("breath", "Magma"), ("claws", "Sharp"), ("rider", "Archer"), ("breath", "Lightning")],
)
def test_one_option_off_the_references_costs_it_plus_the_other_references(study, slot, option):
    """A build one option away from the references, the option in no pair term: the other
    references' printed costs plus that option's fair price in the study's table (its
    coefficient at the exchange rate: no term averages into it)."""
    build = ",".join(
        f"{s}={option if s == slot else o}" for s, o in (p.split("=") for p in REFS.split(","))
    )
    if slot == "rider":
        build += f",rider={option}"
    c = B.build_cost(study.fit, _index(build))
    others = 4.0 - COSTS[slot][0]
    assert c["fair"] == pytest.approx(others + _fair_of(study, slot, option), abs=1e-12)
    assert not c["terms"]


def test_a_pair_term_the_build_holds_counts_in_full_and_splits_half_to_each(study):
    """Heavy with Large: both coefficients and their pair term, at the exchange rate; the
    options' contributions (Shapley: half the term each) add up to the fair cost."""
    fit = study.fit
    col = {c: k for k, c in enumerate(fit["columns"])}
    coef = np.array(fit["coef"])
    lam = float(np.array(fit["lam_row"]) @ coef)
    c = B.build_cost(fit, _index("body=Heavy,wings=Large,breath=Cold,claws=Blunt"))
    s = coef[col["body=Heavy"]] + coef[col["wings=Large"]] + coef[col["body=Heavy x wings=Large"]]
    assert c["fair"] == pytest.approx(4.0 + s / lam, abs=1e-12)
    assert [(t["a"], t["b"]) for t in c["terms"]] == [("body=Heavy", "wings=Large")]
    assert sum(o["fair"] for o in c["options"]) == pytest.approx(c["fair"], abs=1e-12)
    heavy = next(o for o in c["options"] if o["option"] == "Heavy")
    half = coef[col["body=Heavy"]] + coef[col["body=Heavy x wings=Large"]] / 2
    assert heavy["fair"] == pytest.approx(1.0 + half / lam, abs=1e-12)


def test_the_interval_is_the_delta_method_on_the_stored_covariance(study):
    """The standard error is sqrt(g' V g) with g the gradient of s / lam at the stored
    coefficients and V the stored (clustered) covariance: checked against central
    differences, and the 95% interval is +-1.96 of it."""
    fit = study.fit
    build = "body=Heavy,wings=Large,breath=Magma,claws=Dull,rider=Archer"
    c = B.build_cost(fit, _index(build))
    coef = np.array(fit["coef"])
    cov = np.array(fit["cov"])

    def fair(b):
        return B.build_cost({**fit, "coef": list(b)}, _index(build))["fair"]

    h = 1e-6
    grad = np.array(
        [(fair(coef + h * e) - fair(coef - h * e)) / (2 * h) for e in np.eye(len(coef))]
    )
    assert c["se"] == pytest.approx(math.sqrt(grad @ cov @ grad), rel=1e-5)
    assert c["hi"] - c["fair"] == pytest.approx(1.959963984540054 * c["se"], rel=1e-12)
    assert c["lo"] < c["fair"] < c["hi"]


def test_an_option_no_design_of_the_band_held_is_refused(study):
    fit = {**study.fit, "free": [f for f in study.fit["free"] if f != "rider=Wizard"]}
    with pytest.raises(UserError, match="never held rider=Wizard"):
        B.build_cost(fit, _index("body=Light,wings=Small,breath=Cold,claws=Blunt,rider=Wizard"))


# ------------------------------------------------------------------------ the stored fits
def test_a_saved_fit_reads_back_exactly(study, tmp_path):
    path = tmp_path / "fit.json"
    study.save_fit(path)
    assert B.load_fit(path) == json.loads(json.dumps(study.fit))


def test_the_fit_is_found_by_budget_rules_hash_and_bot(study, tmp_path):
    """Two fits in a folder, the shipped rules' and an advanced one: each request finds its
    own; none for 12 DP, and the line says which prices command makes it, where."""
    basic = game_rules("lords")
    adv = game_rules("lords", preset="advanced")
    B.save_fit(study.fit, tmp_path / "prices-15-fit.json")
    B.save_fit({**study.fit, "rules_hash": adv.hash, "seed": 99}, tmp_path / "b-fit.json")
    fit, where = B.find_fit(15, basic, "hunter-5", tmp_path)
    assert fit["seed"] == 2 and where.endswith("prices-15-fit.json")
    assert B.find_fit(15, adv, "hunter-5", tmp_path)[0]["seed"] == 99
    with pytest.raises(UserError) as e:
        B.find_fit(12, adv, "hunter-5", tmp_path)
    msg = str(e.value)
    assert f"no stored price fit for 12 DP under rules hash {adv.hash} with bot hunter-5" in msg
    assert "python -m dragonsim prices --budget 12 --rules advanced --save-fit " in msg
    assert "\n" not in msg and "prices-12-advanced-fit.json" in msg
    with pytest.raises(UserError, match="--policy hunter-4 --save-fit"):
        B.find_fit(15, basic, "hunter-4", tmp_path)
    own = game_rules("lords", {"altitude_mod": [0, 1, 1, 2, 2]})
    with pytest.raises(UserError) as e:
        B.find_fit(15, own, "hunter-5", tmp_path)
    assert f"--rules FILE --save-fit {tmp_path}/prices-15-{own.hash}-fit.json`" in str(e.value)


def test_a_given_fit_of_other_rules_or_another_bot_is_refused(study, tmp_path):
    path = tmp_path / "fit.json"
    B.save_fit(study.fit, path)
    with pytest.raises(UserError, match="was made under rules hash .* not the rules in force"):
        B.price("Slash", fit=str(path), rules="advanced", n=10, kernel=_no_game)
    with pytest.raises(UserError, match="was made with bot hunter-5, not hunter-4"):
        B.price("Slash", fit=str(path), policy="hunter@4", n=10, kernel=_no_game)
    with pytest.raises(UserError, match="is of the 15 DP band, not 12 DP"):
        B.price("Slash", fit=str(path), budget=12, n=10, kernel=_no_game)


@pytest.mark.parametrize(
    "change, fragment",
    [
        ({"format": "x"}, "has format 'x'"),
        ({"cov": [[1.0]]}, "cov has shape (1, 1)"),
        ({"free": ["body=Plastic"]}, "unknown options body=Plastic"),
        ({"coef": "lots"}, "must be numbers"),
    ],
)
def test_a_broken_fit_file_is_refused_field_by_field(study, tmp_path, change, fragment):
    path = tmp_path / "fit.json"
    path.write_text(json.dumps({**study.fit, **change}))
    with pytest.raises(UserError, match="price fit") as e:
        B.load_fit(path)
    assert fragment in str(e.value)
    missing = {k: v for k, v in study.fit.items() if k != "lam_row"}
    path.write_text(json.dumps(missing))
    with pytest.raises(UserError, match="lacks lam_row"):
        B.load_fit(path)


def test_the_shipped_fits_are_found_for_the_shipped_presets():
    """``results/`` holds a 15 DP fit of the default bot for every preset, under the rules
    hash the preset has today (a change of the rules needs them made again)."""
    from dragonsim.lords.bots import policy_version
    from dragonsim.rules import PRESET_NAMES

    for preset in PRESET_NAMES:
        fit, where = B.find_fit(15, game_rules("lords", preset=preset), policy_version("hunter"))
        assert fit["band"] == [12, 18] and fit["designs"] == fit["legal_designs"] == 2611
        assert where.endswith("-fit.json")


# ------------------------------------------------------------------------ the whole answer
def _no_game(*a, **k):
    raise AssertionError("a game was played")


def test_price_reports_cost_verdict_options_and_score(study):
    """The API end to end (synthetic games): the verdict follows the interval, the options
    are listed with Holm's verdicts, the score comes from the gauntlet of the build alone."""
    build = "body=Heavy,wings=Large,breath=Magma,claws=Dull"
    r = B.price(build, fit=study.fit, n=40, kernel=synthetic_games_kernel(_beta()))
    assert r.cost == 15 and r.deviation == pytest.approx(r.fair - 15)
    inside = r.lo <= 15 <= r.hi
    assert (r.verdict.startswith("priced fairly")) == inside
    df = r.to_frame()
    assert list(df.option) == ["Heavy", "Large", "Magma", "Dull", "None"]
    assert set(df.verdict) <= {"reference", "fair?", "over-priced", "under-priced"}
    assert r.score["games"] == 12 * 2 * 40 and r.score["lo"] < r.score["score"] < r.score["hi"]
    text = r.summary()
    assert "Heavy" in text and "(given)" in text and "score against the 12" in text
    d = json.loads(json.dumps(r.to_dict()))
    assert d["manifest"]["command"] == "price" and d["manifest"]["build"] == build
    assert d["fit"]["rules_hash"] == game_rules("lords").hash and d["fit"]["policy"] == "hunter-5"


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["price", "Nobody"], "unknown dragon 'Nobody'"),
        (["price", "Slash", "--budget", "12"], "python -m dragonsim prices --budget 12 --save-fit"),
        (["price", "Slash", "--fit", "nofile.json"], "not found"),
        (["price", "Slash", "--fit", "{fit}", "--rules", "advanced"], "not the rules in force"),
        (["price", "Slash", "-n", "1"], "n must be 2.."),
        (["price", "Slash", "--policy", "chess"], "unknown policy 'chess'"),
    ],
)
def test_bad_input_exits_2_in_one_line_before_any_game(
    argv, fragment, study, tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(F, "play_pair_games", _no_game)
    monkeypatch.chdir(tmp_path)
    B.save_fit(study.fit, tmp_path / "fit.json")
    try:
        code = main([a.format(fit=tmp_path / "fit.json") for a in argv])
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and fragment in err[0], err


def test_the_command_prices_a_ready_made_from_the_shipped_fit(capsys):
    """On the engine, a few games: the shipped advanced fit is named with its rules hash and
    bot, and the JSON holds the cost, the options and the score."""
    assert main(["price", "Slash", "--rules", "advanced", "-n", "10", "--no-progress"]) == 0
    out = capsys.readouterr().out
    adv = game_rules("lords", preset="advanced")
    assert f"rules hash {adv.hash}, bot hunter-5" in out and "prices-15-advanced-fit.json" in out
    assert main(["price", "Slash", "-n", "10", "--json", "--no-progress"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["printed"] == 15 and len(d["options"]) == 5 and d["score"]["games"] == 240
