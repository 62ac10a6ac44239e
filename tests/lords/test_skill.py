"""Balance across skill (dragonsim.lords.analysis.skill): the tournament, prices and best builds
under several bots side by side, and where the verdict changes with the bot. The rulebook's promise
under test is that "dragons of equivalent point values [are] equally matched" (Dragon Lords
rulebook, Advanced Scenarios, "Using Your Own Dragons"); these tests check the bookkeeping of
the comparison on a tiny run, not the promise."""

import json

import pytest

from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.lords.analysis.skill import _note, skill

BOTS = "random,hunter:4"
TINY = dict(
    bots=BOTS,
    n=40,
    dragons=["Reaper", "Skyblazer", "Tankerous"],
    field_dragons=["Reaper", "Tankerous"],
    price_designs=60,
    price_n=1,
    best_games=4_000,
    top=3,
)


def test_a_change_in_words():
    """Bots are listed weakest first: a pair balanced ("even?") under the first bots only is
    "balanced only for weak play"; under the last only, for strong play; a reversal names who
    wins more under which bots; agreement is no note."""
    labs = ["random-1", "hunter-4:4", "hunter-4"]
    assert _note(["even?", "A", "A"], labs, "R", "S") == "balanced only for weak play (random-1)"
    assert _note(["even?", "even?", "B"], labs, "R", "S").startswith("balanced only for weak")
    assert _note(["A", "A", "even?"], labs, "R", "S").startswith("balanced only for strong")
    assert _note(["A", "B", "B"], labs, "R", "S") == (
        "R wins more under random-1; S wins more under hunter-4:4, hunter-4"
    )
    assert _note(["B", "B", "B"], labs, "R", "S") == ""
    # balanced under the strongest, but the other two disagree: a reversal, said as one
    assert _note(["A", "B", "even?"], labs, "R", "S") == (
        "R wins more under random-1; S wins more under hunter-4:4; balanced under hunter-4"
    )


@pytest.fixture(scope="module")
def tiny():
    return skill(**TINY)


def test_skill_tables_are_each_bots_own_studies(tiny):
    """Each bot's column is that bot's own study: the pairs' shares are its round robin's
    (robustness), a dragon's win share is its points over its games there, the price table has
    every option once per bot with that bot's verdict, and a pair ``changes`` exactly when
    its verdicts differ."""
    labels = tiny.labels
    assert labels == ["random-1", "hunter-5:4"]
    rb = tiny.tournament
    p = tiny.pairs()
    assert len(p) == 3
    for b, lab in enumerate(labels):
        assert p[f"share {lab}"].tolist() == pytest.approx(rb.shares[b].tolist())
    assert (p["changes"] == (p[labels[0]] != p[labels[1]])).all()
    assert (p["changes"] == (p["note"] != "")).all()
    r = tiny.ratings()
    for lab, t in zip(labels, rb.tournaments, strict=True):
        mine = r[r.bot == lab].set_index("dragon")
        for i, d in enumerate(t.names):
            games = 40 * (len(t.names) - 1)
            assert mine.loc[d, "win_share"] == pytest.approx(t.wins[i].sum() / games)
            assert mine.loc[d, "share_lo"] <= mine.loc[d, "win_share"] <= mine.loc[d, "share_hi"]
    pt = tiny.price_table()
    assert len(pt) == 26 * len(labels)
    for lab in labels:
        own = {x["option"]: x["verdict"] for x in tiny.prices[lab].table}
        assert dict(zip(pt[pt.bot == lab].option, pt[pt.bot == lab].verdict, strict=True)) == own
    changed = set(tiny.price_changes().get("option", []))
    for opt, g in pt.groupby("option"):
        verdicts = set(g.verdict) - {"reference", "not in the band", "no price"}
        assert (opt in changed) == (len(verdicts) > 1)


def test_best_table_ranks_are_each_races_order(tiny):
    """A build's ``rank <bot>`` is its place by score in that bot's race, and each bot's
    listed builds are that race's survivors first, best score first."""
    b = tiny.best_table()
    for lab, res in tiny.best.items():
        f = res.to_frame()
        order = list(f.sort_values("score", ascending=False).design)
        mine = b[b.bot == lab]
        assert list(mine.design) == list(f.design[:3])
        for _, x in b.iterrows():
            assert x[f"rank {lab}"] == order.index(x.design) + 1


def test_skill_summary_json_and_figure(tiny, tmp_path):
    text = tiny.summary()
    assert "pairs whose verdict changes with the bot" in text
    assert "options whose verdict differs between bots" in text
    assert "each bot's top 3" in text
    fig = tiny.plot()
    assert len(fig.axes) == 3
    d = tiny.to_dict()
    assert d["bots"] == tiny.labels and len(d["tournament"]["pairs"]) == 3


@pytest.mark.parametrize(
    "kw, msg",
    [
        ({"bots": "random"}, "two or more different bots"),
        ({"bots": "random,random"}, "two or more different bots"),
        ({"what": "tournament,price"}, "unknown study"),
        ({"bots": "random,greedy"}, "greedy"),
    ],
)
def test_bad_skill_input_is_one_clear_error(kw, msg):
    with pytest.raises(UserError, match=msg):
        skill(**kw)


def test_skill_command(capsys, tmp_path):
    png = tmp_path / "skill.png"
    argv = ["skill", "--bots", BOTS, "--what", "tournament", "-n", "20", "--dragons",
            "Reaper,Tankerous", "--json", "--plot", str(png)]  # fmt: skip
    assert main(argv) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["what"] == ["tournament"] and d["prices"] is None and png.stat().st_size > 0
    assert main(["skill", "--bots", "random"]) == 2
    assert "two or more different bots" in capsys.readouterr().err
    assert main(["skill", "--plot", "x.jpg"]) == 2
