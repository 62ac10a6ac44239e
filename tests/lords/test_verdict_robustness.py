"""Verdict robustness: which balance verdicts survive a change of bot. One round robin per bot,
verdicts under Holm, and the pairs that flip."""

from __future__ import annotations

import numpy as np
import pytest

from dragonsim.errors import UserError
from dragonsim.lords.analysis import study
from dragonsim.lords.analysis.robustness import RobustnessResult, robustness


def _planted(shares, n=1000):
    names = ["A", "B", "C", "D"]
    pairs = [(0, 1), (0, 2), (0, 3)]
    return RobustnessResult(
        names,
        ["hunter", "search"],
        ["hunter-4", "search-1"],
        "hunter",
        n,
        1,
        np.array(shares, float),
        pairs,
    )


def test_a_flip_is_two_opposite_verdicts_and_a_move_a_verdict_against_even():
    """Planted shares, 1,000 games a pair: 0.60 vs 0.40 is a flip (both clear of 1/2 after
    Holm over six tests), 0.60 vs 0.51 a move (0.51 is not shown either way), 0.50 vs 0.52
    neither."""
    res = _planted([[0.60, 0.60, 0.50], [0.40, 0.51, 0.52]])
    v = res.verdicts()
    assert list(v["hunter-4"]) == ["A", "A", "even?"]
    assert list(v["search-1"]) == ["B", "even?", "even?"]
    assert list(v["flips"]) == [True, False, False]
    assert list(v["moves"]) == [False, True, False]
    by = res.by_bot().set_index("bot")
    assert by.loc["search-1", "reversed_vs_reference"] == 1
    assert by.loc["search-1", "max_abs_diff_points"] == pytest.approx(20.0)
    assert "flips between bots (one says A, another B): 1 of 3" in res.summary()


def test_within_2_points_counts_the_pairs_a_bot_sits_that_close_to_the_reference():
    """The default is measured against the reference pair by pair: differences of 0, 1.5 and
    2.5 points put two of three pairs within 2 points (the boundary counts as within)."""
    res = _planted([[0.500, 0.600, 0.400], [0.500, 0.615, 0.425]])
    by = res.by_bot().set_index("bot")
    assert by.loc["search-1", "within_2_points"] == 2
    assert by.loc["hunter-4", "within_2_points"] == 3
    assert "within 2" in res.summary()


def test_holm_needs_more_than_one_test_at_five_percent():
    """A share whose single test has p just under 5% is not a verdict in a family of six: at
    n = 1,000, 0.532 has z = 2.03 (p = 0.042) but Holm's first step needs p < 0.05 / 6."""
    res = _planted([[0.532, 0.50, 0.50], [0.50, 0.50, 0.50]])
    f = res.frame()
    row = f[(f["b"] == "B") & (f["bot"] == "hunter-4")].iloc[0]
    assert 0.04 < row["p"] < 0.05
    assert row["verdict"] == "even?"


def test_robustness_shares_are_the_round_robins_of_each_bot():
    """Each bot's shares are exactly its tournament's (same seed, same games), and the figure
    draws every pair."""
    dragons = ["Reaper", "Skyblazer", "Tankerous"]
    res = robustness(dragons, n=200, seed=3, bots=["hunter@2", "hunter"], reference="hunter")
    for b, bot in enumerate(["hunter@2", "hunter"]):
        t = study.tournament(dragons, n=200, seed=3, policy=bot)
        got = [t.wins[i, j] / 200 for i, j in res.pairs]
        np.testing.assert_allclose(res.shares[b], got)
    f = res.frame()
    assert len(f) == 2 * 3 and set(f["bot"]) == {"hunter-2", "hunter-5"}
    assert (f["lo"] <= f["share"]).all() and (f["share"] <= f["hi"]).all()
    fig = res.plot()
    assert len(fig.axes[0].get_yticklabels()) == 3


@pytest.mark.parametrize(
    "kw, msg",
    [
        (dict(bots=["hunter"]), "two or more different bots"),
        (dict(bots=["hunter", "hunter"]), "two or more different bots"),
        (dict(bots=["hunter", "nobot"]), "unknown policy 'nobot'"),
        (dict(bots=["hunter", "search"], reference="sniper"), "reference bot 'sniper'"),
    ],
)
def test_bad_bot_lists_are_user_errors(kw, msg):
    with pytest.raises(UserError, match=msg):
        robustness(["Reaper", "Skyblazer"], n=10, **kw)


def test_cli_robustness_refuses_a_plot_that_is_not_png(capsys):
    from dragonsim.cli import main

    assert main(["robustness", "Reaper", "Skyblazer", "-n", "10", "--plot", "x.pdf"]) == 2
    assert "must end in .png" in capsys.readouterr().err


def test_robustness_records_one_file_per_bot(tmp_path):
    """``records=``: every game's row, one file per bot beside the named one (each the bot's
    tournament records: every pair, both seats)."""
    from dragonsim.records import read_meta

    path = tmp_path / "games.csv"
    robustness(["Reaper", "Skyblazer"], n=20, seed=2, bots=["hunter@2", "hunter"], records=path)
    for slug, label in (("hunter-2", "hunter-2"), ("hunter", "hunter-5")):
        f = tmp_path / f"games.{slug}.csv"
        rows = f.read_text().splitlines()
        assert len(rows) == 1 + 20, f
        assert read_meta(f)["manifest"]["policy"] == label
