"""Balance studies: paired comparisons on common random numbers, sensitivity, tournaments."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.lords.analysis import study


def test_paired_statistics_by_hand():
    x = np.array([1, 1, 0, 0, 1, 0, 1, 0])
    y = np.array([1, 0, 0, 1, 1, 1, 1, 0])
    r = study.paired(x, y)
    assert r.difference == pytest.approx(1 / 8)
    assert r.discordant == (1, 2)
    d = y - x
    half = 1.959963984540054 * np.sqrt(d.var(ddof=1) / 8)
    assert r.ci == pytest.approx((1 / 8 - half, 1 / 8 + half))
    assert r.pvalue == pytest.approx(1.0)  # McNemar exact, 1 vs 2 discordant


def test_same_configuration_on_common_random_numbers_gives_identical_games():
    """DESIGN: "two configurations compared on the same game indices share their dice"; the
    same configuration twice must therefore give the same winner in every game."""
    a = study.outcomes("Reaper", "Skyblazer", n=3000, seed=4)
    b = study.outcomes("Reaper", "Skyblazer", n=3000, seed=4)
    assert np.array_equal(a, b) and set(np.unique(a)) <= {-1, 0, 1}
    r = study.compare("Reaper", "Skyblazer", n=3000, seed=4, alt={})
    assert r.difference == 0 and r.discordant == (0, 0)


def test_compare_detects_a_real_change_and_reports_the_pairing_gain():
    """Swapping Skyblazer for a second Reaper changes A's chances a lot; the paired interval
    excludes 0 and agrees with the two independent rates."""
    r = study.compare("Reaper", "Skyblazer", n=4000, seed=2, alt={"b": "Reaper"})
    assert r.ci[0] > 0 or r.ci[1] < 0
    assert r.difference == pytest.approx(r.alt.rate - r.base.rate)
    assert r.variance_reduction > 0
    with pytest.raises(UserError, match="unknown configuration key"):
        study.compare("Reaper", "Skyblazer", n=10, alt={"colour": "red"})


def test_sensitivity_default_row_is_exactly_zero_and_bad_values_refused():
    df = study.sensitivity(
        "Lectronist",
        "Kelvinight",
        rule="altitude_mod",
        values=[[0, 0, 1, 1, 2], [0, 2, 3, 3, 4]],
        n=2000,
    )
    base = df[df["is_default"]].iloc[0]
    assert base["difference"] == 0 and base["diff_low"] == 0
    assert len(df) == 2
    with pytest.raises(UserError, match="expected 5 entries"):
        study.sensitivity("Reaper", "Skyblazer", rule="altitude_mod", values=[[0, 1]], n=10)


def test_tournament_ratings_follow_the_win_matrix(capsys):
    t = study.tournament(["Reaper", "Skyblazer", "Zippinchill"], n=600, seed=3)
    m = t.matrix()
    assert t.wins.sum() == pytest.approx(3 * 600)  # every game counted once (draws halved)
    best = t.ratings["name"].iloc[0]
    assert all(m.loc[best, other] > 0.5 for other in t.names if other != best)
    assert abs(t.ratings["rating"].sum()) < 1e-6
    assert main(["tournament", "Reaper", "Skyblazer", "-n", "200", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in d["ratings"]} == {"Reaper", "Skyblazer"}
    assert main(["tournament", "Reaper", "Reaper", "-n", "10"]) == 2
    assert "two different dragons" in capsys.readouterr().err


def test_inline_designs_keep_the_tournament_tables_narrow():
    """A design's name is its options in full (``body=Heavy,wings=Large,...``, Cost Table p.26);
    the tables show its options alone and head the matrix columns by number, so no line grows
    with the longest name; ready-made names head their own columns."""
    long = "body=Very Heavy,wings=Huge,breath=Ice,claws=Razor Sharp"
    t = study.tournament(["Reaper", long], n=20, seed=3)
    text = t.summary() + "\n" + t.matrix_text()
    assert "Very Heavy/Huge/Ice/Razor Sharp" in text and long not in text
    assert "(1) Reaper" in text and "(2) Very Heavy/Huge/Ice/Razor Sharp" in text
    assert max(len(line) for line in text.splitlines()) <= 110
    plain = study.tournament(["Reaper", "Skyblazer"], n=20, seed=3).matrix_text()
    assert plain.splitlines()[1].split() == ["Reaper", "Skyblazer"]


def test_sensitivity_command(capsys):
    argv = [
        "sensitivity",
        "Reaper",
        "Skyblazer",
        "--rule",
        "altitude_mod",
        "--values",
        "[0,0,1,1,2];[0,1,1,2,2]",
        "-n",
        "500",
        "--json",
    ]
    assert main(argv) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [r["value"] for r in rows] == ["[0, 0, 1, 1, 2]", "[0, 1, 1, 2, 2]"]
    assert main(argv[:6] + ["[0,1]", "-n", "10"]) == 2
    assert "expected 5 entries" in capsys.readouterr().err
