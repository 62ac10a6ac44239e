"""Readable outputs: every number a designer sees says what it is, matrices
say which way they read, no NaN reaches the screen, overridden rules say so."""

from __future__ import annotations

import argparse
import json
import math

import pytest

from dragonsim.cli import main


def _run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def house(tmp_path):
    f = tmp_path / "house.toml"
    f.write_text(
        '[lords]\naltitude_mod = [0, 1, 1, 2, 2]\n[dice]\nid_split = "save-first"\n'
        "[krynn]\nmax_stress = 3\n"
    )
    return f


def test_tournament_matrix_says_how_it_reads_and_prints_a_dash_not_nan(capsys):
    rc, out, _ = _run(capsys, "tournament", "Zippinchill", "Kelvinight", "Reaper", "-n", "200")
    assert rc == 0
    assert "nan" not in out.lower()
    assert "P(row beats column)" in out and "log-odds" in out
    rows = [ln.split() for ln in out.splitlines() if ln.startswith("  Zippinchill   ")]
    matrix_row = rows[-1]  # the matrix's row (the ratings table lists it first)
    assert matrix_row[0] == "Zippinchill" and matrix_row[1] == "-"


def test_tournament_json_diagonal_is_null_and_pairs_add_to_one(capsys):
    rc, out, _ = _run(capsys, "tournament", "Zippinchill", "Reaper", "-n", "100", "--json")
    m = json.loads(out)["matrix"]
    assert rc == 0 and m["Reaper"]["Reaper"] is None
    assert math.isclose(m["Reaper"]["Zippinchill"] + m["Zippinchill"]["Reaper"], 1.0)


def test_tournament_help_shows_single_percent_signs(capsys):
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    out = capsys.readouterr().out
    assert "95% intervals" in out and "%%" not in out


def _parsers(parser, path=()):
    """Every (sub)command parser, with the words that reach it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def test_no_help_text_shows_a_doubled_percent_sign():
    """argparse formats % in argument help, not in a description: a description written
    with %% prints it doubled (robustness said "Holm ... 5%%"). Every command's help."""
    from dragonsim.cli import build_parser

    seen = 0
    for path, p in _parsers(build_parser()):
        text = p.format_help()
        assert "%%" not in text, " ".join(path)
        seen += 1
    assert seen > 30


def test_duel_summary_names_its_units_and_the_rules_in_force(capsys, house):
    argv = ["duel", "Reaper", "Reaper", "-n", "300", "--no-progress"]
    rc, out, _ = _run(capsys, *argv)
    assert rc == 0
    assert "engagements per game (a dragon moving in" in out
    assert "mean damage points" in out and "turns [" in out
    assert "(the shipped rules, no override)" in out
    rc, out, _ = _run(capsys, *argv, "--rules", str(house))
    assert rc == 0 and "1 override in force: lords.altitude_mod = [0, 1, 1, 2, 2]" in out


def test_battle_summary_is_a_table_with_sides_and_rules(capsys):
    rc, out, _ = _run(capsys, "battle", "basic-3", "-n", "200", "--no-progress")
    assert rc == 0
    assert "side 0: Zippinchill, Zippinchill" in out and "95% interval" in out
    assert "rules hash" in out and "counted as draws" in out


@pytest.mark.parametrize("game", ["lords", "dice", "krynn"])
def test_rules_file_values_are_labelled_override_with_the_shipped_value(capsys, house, game):
    key = {"lords": "lords.altitude_mod", "dice": "dice.id_split", "krynn": "krynn.max_stress"}
    rc, out, _ = _run(capsys, "rules", "--game", game, "--rules", str(house))
    line = next(ln for ln in out.splitlines() if ln.strip().startswith(key[game] + " "))
    assert rc == 0 and " override " in line and "(shipped: " in line
    assert "1 override in force" in out
    rc, out, _ = _run(capsys, "rules", "--game", game, "--rules", str(house), "--json")
    row = next(r for r in json.loads(out)["rules"] if r["key"] == key[game])
    assert row["provenance"] == "override" and row["default_provenance"] in (
        "assumed",
        "printed",
    )


def test_rules_assumed_keeps_an_overridden_assumed_value(capsys, house):
    rc, out, _ = _run(capsys, "rules", "--assumed", "--game", "dice", "--rules", str(house))
    assert rc == 0 and "dice.id_split" in out and "override" in out


def test_odds_location_has_a_header(capsys):
    rc, out, _ = _run(capsys, "odds", "location", "fr")
    first = out.splitlines()[0]
    assert rc == 0 and "direction FR" in first and "exact" in first
    assert "right wing" in out and "right_wing" not in out


def test_dice_exact_by_turn_prints_readable_names(capsys):
    argv = ["dice", "exact", "--dragon", "red-wyrm", "--army", "goblin-thug:2", "--turns", "2"]
    rc, out, _ = _run(capsys, *argv)
    assert rc == 0 and "p_dragon_slain" not in out and "p_still_fighting" not in out
    assert "dragon slain" in out and "still fighting" in out and "attack" in out
    rc, out, _ = _run(capsys, *argv, "--json")
    assert rc == 0 and "p_dragon_slain" in json.loads(out)  # JSON keeps its field names


def test_krynn_battlefield_outcomes_are_named(capsys):
    rc, out, _ = _run(
        capsys,
        *["krynn", "battlefield", "--tiles", "2", "--alliance", "foot=2", "--army", "foot=2"],
        *["-n", "500", "--no-progress", "--control-limit", "2"],
    )
    assert rc == 0 and "loss_by_limit" not in out
    assert "win (Alliance controls more tiles)" in out and "of which by the control limit" in out
    assert "unfinished after 200 turns" in out


def test_baseline_check_prints_json_on_request(capsys):
    rc, out, _ = _run(capsys, "baseline", "check", "-n", "300", "--json")
    d = json.loads(out)
    assert rc == (0 if d["ok"] else 1) and d["findings"]
    f = d["findings"][0]
    assert {"matchup", "baseline_rate", "current_rate", "pvalue", "changed"} <= set(f)


def test_sensitivity_says_what_its_columns_are(capsys):
    argv = ["sensitivity", "Reaper", "Skyblazer", "--rule", "altitude_mod"]
    rc, out, _ = _run(capsys, *argv, "--values", "[0,1,1,2,2]", "-n", "300")
    assert rc == 0 and "percentage points [95% interval]" in out and "rules hash" in out


@pytest.mark.parametrize(
    "argv, head",
    [
        (
            ["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-thug:3"],
            "Dragon Dice attack",
        ),
        (["dice", "duel", "--a", "red-wyrm", "--b", "blue-drake"], "Dragon Dice dragon fight"),
        (
            ["dice", "melee", "--attacker", "goblin-thug:3", "--defender", "dwarf-guard"],
            "Dragon Dice melee",
        ),
        (
            ["krynn", "battle", "--alliance", "foot=2", "--army", "foot=2"],
            "Warriors of Krynn battle",
        ),
    ],
)
def test_every_summary_names_its_game_and_the_rules_in_force(capsys, argv, head):
    rc, out, _ = _run(capsys, *argv, "-n", "500", "--no-progress")
    assert rc == 0 and out.startswith(head) and "rules hash" in out and "nan" not in out
