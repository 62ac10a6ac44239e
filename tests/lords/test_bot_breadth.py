"""Bots at several strengths: a planner's breadth per dragon (``hunter:32``, ``hunter:4``).

The breadth is how many end states a planner scores per move (the first N that fit at its
own altitude, half as many with an altitude change). It decides matchups, so a study can
ask whether its answer survives a stronger or weaker player on either side."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dragonsim import defaults
from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.lords import api
from dragonsim.lords.bots import (
    MAX_PLAN_SAMPLES,
    P_HUNTER,
    P_HUNTER_3,
    P_HUNTER_5,
    parse_policy,
    policy_id,
    policy_spec,
    policy_version,
)
from dragonsim.stats import wilson


def test_policy_spellings():
    assert parse_policy("hunter") == ("hunter", None)
    assert parse_policy(" Hunter:32 ") == ("hunter", 32)
    assert parse_policy("sniper:1") == ("sniper", 1)
    assert policy_spec("BRAWLER:8") == "brawler:8"
    assert policy_id("hunter:4") == P_HUNTER_5
    assert policy_id("hunter@3:4") == P_HUNTER_3
    assert policy_version("hunter") == "hunter-5"
    assert policy_version("hunter:32") == "hunter-5:32"


def test_released_versions_stay_selectable():
    """A released bot stays selectable by version; a plain name is the newest."""
    assert parse_policy("hunter@2") == ("hunter@2", None)
    assert parse_policy("Hunter-2:32") == ("hunter@2", 32)
    assert policy_spec("hunter-2") == "hunter@2"
    assert policy_id("hunter@2") == P_HUNTER
    assert policy_version("hunter@2:8") == "hunter-2:8"
    assert policy_version("brawler@1") == "brawler-1"
    assert policy_version("sniper") == "sniper-2"
    with pytest.raises(UserError, match="released: hunter@2, hunter@3, hunter@4, hunter@5"):
        parse_policy("hunter@1")


@pytest.mark.parametrize(
    "spec, needle",
    [
        ("random:4", "random does not plan"),
        ("hunter:0", f"1..{MAX_PLAN_SAMPLES}"),
        ("hunter:-3", f"1..{MAX_PLAN_SAMPLES}"),
        ("hunter:x", f"1..{MAX_PLAN_SAMPLES}"),
        ("hunter:2.5", f"1..{MAX_PLAN_SAMPLES}"),
        (f"hunter:{MAX_PLAN_SAMPLES + 1}", f"1..{MAX_PLAN_SAMPLES}"),
        ("hunter:", f"1..{MAX_PLAN_SAMPLES}"),
        ("huntr:8", "did you mean 'hunter'"),
    ],
)
def test_bad_breadth_is_a_user_error(spec, needle):
    with pytest.raises(UserError, match=needle.replace(".", r"\.")):
        parse_policy(spec)


def test_the_default_breadth_written_out_changes_nothing():
    """``hunter:16`` is the default hunter: the same games, counter for counter."""
    a = api.duel("Reaper", "Skyblazer", n=3000, seed=7, progress=False)
    b = api.duel(
        "Reaper",
        "Skyblazer",
        n=3000,
        seed=7,
        progress=False,
        policies=f"hunter:{defaults.PLAN_SAMPLES},hunter",
    )
    assert np.array_equal(a.counters, b.counters)
    assert b.policies == (f"hunter:{defaults.PLAN_SAMPLES}", "hunter")
    assert b.manifest["policies"] == [f"hunter-5:{defaults.PLAN_SAMPLES}", "hunter-5"]


def _decisive_share(res):
    """Dragon a's share of the games someone won, with its Wilson 95% interval."""
    return wilson(res.wins_a, res.wins_a + res.wins_b)


@pytest.mark.parametrize(
    "pa, pb, a_stronger",
    [("hunter@4:128", "hunter@4:1", True), ("hunter@4:1", "hunter@4:128", False)],
)
def test_the_broader_planner_wins_the_mirror_match(pa, pb, a_stronger):
    """The same dragon on both sides (the rules give neither an edge): the side whose hunter
    scores more end states per move wins more of the decided games, whichever side it is
    on, so each dragon's breadth reaches its own decisions. (hunter-4 looks up the end
    states behind its enemy at any breadth, so the edge is modest: about 54% here; hunter-5,
    flying as fast as it may, gains nothing measurable from breadth in this mirror.)"""
    res = api.duel("Reaper", "Reaper", n=8000, seed=3, progress=False, policies=f"{pa},{pb}")
    lo, hi = _decisive_share(res)
    if a_stronger:
        assert lo > 0.5
    else:
        assert hi < 0.5


def test_battle_takes_a_breadth_per_dragon():
    res = api.battle(
        ["Reaper", "Reaper", "Reaper"],
        n=1500,
        seed=2,
        progress=False,
        policies="hunter@4:32,hunter@4:2,hunter@4:2",
    )
    assert res.policies == ["hunter@4:32", "hunter@4:2", "hunter@4:2"]
    assert res.manifest["policies"] == ["hunter-4:32", "hunter-4:2", "hunter-4:2"]
    wins = np.asarray(res.wins)
    assert wins[0] > wins[1] and wins[0] > wins[2]


def test_cli_duel_with_breadths(capsys):
    rc = main(
        [
            "duel",
            "Reaper",
            "Skyblazer",
            "-n",
            "500",
            "--policies",
            "hunter:24,hunter:4",
            "--json",
            "--no-progress",
        ]
    )
    d = json.loads(capsys.readouterr().out)
    assert rc == 0 and d["n"] == 500 and d["policies"] == ["hunter:24", "hunter:4"]
    # the breadths reach the games: the API's counts with them, not the default breadths'
    got = (d["wins_a"], d["wins_b"], d["draws"])
    same = api.duel("Reaper", "Skyblazer", n=500, policies="hunter:24,hunter:4", progress=False)
    default = api.duel("Reaper", "Skyblazer", n=500, policies="hunter,hunter", progress=False)
    assert got == (same.wins_a, same.wins_b, same.draws)
    assert got != (default.wins_a, default.wins_b, default.draws)


@pytest.mark.parametrize("pols", ["random:3,hunter", "hunter:0,hunter", "hunter:many,hunter"])
def test_cli_bad_breadth_one_line_exit_2(capsys, pols):
    rc = main(["duel", "Reaper", "Skyblazer", "-n", "100", "--policies", pols, "--no-progress"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "Traceback" not in err


def test_summary_says_when_the_verdict_rests_on_a_sampling_bot():
    """brawler and sniper plan from a sample alone, and their verdicts move with its size
    (docs/bots.md; notebooks/lords_balance.ipynb plots it): the table says so and how
    to check. Not for hunter-2 (stable within about 2 points) nor a chosen breadth."""
    r = api.duel("Reaper", "Skyblazer", n=200, seed=1, progress=False, policies="brawler,hunter")
    assert "check with --policy brawler:128" in r.summary()
    for pols in ("hunter,hunter", "sniper:32,random"):
        r = api.duel("Reaper", "Skyblazer", n=200, seed=1, progress=False, policies=pols)
        assert "check with --policy" not in r.summary()


def test_cli_help_defaults_are_the_engines():
    """The CLI states the default breadth and turn limit without importing the kernels for
    ``--help``: both read :mod:`dragonsim.defaults`, and a duel run with no flags plays them."""
    from dragonsim import defaults
    from dragonsim.cli import build_parser

    args = build_parser().parse_args(["duel", "Reaper", "Skyblazer"])
    assert args.turn_limit == defaults.TURN_LIMIT == defaults.TURN_LIMIT
    assert defaults.PLAN_SAMPLES == defaults.PLAN_SAMPLES
    assert defaults.TURN_LIMIT == defaults.TURN_LIMIT
