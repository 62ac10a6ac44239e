"""One rules file for every command: ``--rules FILE`` with ``[lords]``, ``[dice]`` and ``[krynn]``
tables; each command reads its own game's table and the overrides reach the game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dragonsim.cli import main

ROOT = Path(__file__).resolve().parents[2]

HOUSE = """
[lords]
altitude_mod = [0, 1, 1, 2, 2]
"damage_allocation.7" = ["H", "B", "B", "B", "B", "B"]
"range_mod.Long" = 3
"close_combat_modifier.I" = 6
"""


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def house(tmp_path):
    p = tmp_path / "house.toml"
    p.write_text(HOUSE)
    return str(p)


def _json(capsys, *argv):
    rc, out, err = run(capsys, *argv, "--json")
    assert rc == 0, err
    return json.loads(out)


def test_docs_rules_file_example_works_on_duel(capsys, tmp_path):
    """The ``--rules house.toml`` example of the rules page (docs/rules.md): its TOML block, run
    on ``duel``, reaches the games (the counts move against the same seed without it) and the
    manifest says so."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(.*?)```", text, re.S)
    assert block, "docs/rules.md has no ```toml example"
    f = tmp_path / "house.toml"
    f.write_text(block.group(1))
    assert "--rules house.toml" in text
    argv = ("duel", "Reaper", "Skyblazer", "-n", "400", "--seed", "3", "--no-progress")
    plain = _json(capsys, *argv)
    ruled = _json(capsys, *argv, "--rules", str(f))
    assert ruled["manifest"]["rules_overrides"] and not plain["manifest"]["rules_overrides"]
    assert ruled["manifest"]["rules_hash"] != plain["manifest"]["rules_hash"]
    assert (ruled["wins_a"], ruled["mean_turns"]) != (plain["wins_a"], plain["mean_turns"])


@pytest.mark.parametrize(
    "argv",
    [
        ("battle", "basic-3", "-n", "60", "--no-progress"),
        ("tournament", "Reaper", "Skyblazer", "-n", "40"),
        (
            "sensitivity",
            "Reaper",
            "Skyblazer",
            "--rule",
            "auto_hit",
            "--values",
            "12;11",
            "-n",
            "60",
        ),
    ],
)
def test_lords_study_commands_take_the_rules_file(capsys, house, argv):
    """battle, tournament and sensitivity play under the file's [lords] table: the games'
    outcomes (not only the manifest's timings) move on the same seed."""

    def outcome(d):
        if "rows" in d:  # sensitivity: one row per value
            return [(r["value"], r["win_rate_a"]) for r in d["rows"]]
        if "matrix" in d:  # tournament
            return d["matrix"]
        return (d["wins"], d["draws"], d["mean_turns"])  # battle

    plain = _json(capsys, *argv)
    ruled = _json(capsys, *argv, "--rules", house)
    assert outcome(plain) != outcome(ruled)
    assert outcome(plain) == outcome(_json(capsys, *argv))  # the same seed repeats
    if isinstance(ruled, dict):
        assert ruled["manifest"].get("rules_overrides")


def test_odds_take_the_rules_file(capsys, house):
    """Range Key "Long ... +1" (p.10) overridden to +3 moves the target number by 2; the close
    combat modifiers by MR (p.13) overridden move the exact odds; "damage_allocation.7"
    moves the location odds."""
    b0 = _json(capsys, "odds", "breath", "Reaper", "Skyblazer", "--range", "5", "--area", "grey")
    b1 = _json(
        capsys,
        "odds",
        "breath",
        "Reaper",
        "Skyblazer",
        "--range",
        "5",
        "--area",
        "grey",
        "--rules",
        house,
    )
    assert b1["target_number"] == b0["target_number"] + 2
    c0 = _json(capsys, "odds", "close-combat", "Tankerous", "Zippinchill")
    c1 = _json(capsys, "odds", "close-combat", "Tankerous", "Zippinchill", "--rules", house)
    assert c1["win_a"] != c0["win_a"]
    l0 = _json(capsys, "odds", "location", "F")
    l1 = _json(capsys, "odds", "location", "F", "--rules", house)
    assert l1 != l0


def test_sheet_takes_the_rules_file(capsys, house):
    s0 = _json(capsys, "sheet", "Tankerous")
    s1 = _json(capsys, "sheet", "Tankerous", "--rules", house)
    assert s0["cc"] != s1["cc"]


def test_baseline_check_under_other_rules_says_the_baseline_is_another_game(capsys, house):
    """A baseline describes the rules it was written under; checking it under a house rule
    refuses to compare (exit 1) rather than flag every matchup."""
    rc, out, _ = run(capsys, "baseline", "check", "-n", "10", "--rules", house)
    assert rc == 1 and "rules changed" in out


def test_a_file_for_another_game_leaves_lords_alone(capsys, tmp_path):
    """Each command reads its own game's table: a [dice]-only file plays the default Lords."""
    f = tmp_path / "dice.toml"
    f.write_text("[dice]\n")
    argv = ("duel", "Reaper", "Skyblazer", "-n", "100", "--no-progress")
    assert _json(capsys, *argv, "--rules", str(f))["wins_a"] == _json(capsys, *argv)["wins_a"]


@pytest.mark.parametrize(
    "content, message",
    [
        ("[lordz]\nx = 1\n", "unknown table [lordz] (did you mean 'lords'?)"),
        ("[lords]\naltitude_mdo = [0, 1, 1, 2, 2]\n", "unknown rule 'lords.altitude_mdo'"),
        ("[lords]\nauto_hit = 99\n", "out of range"),
        ("lords = 3\n", "must be a table"),
        ("[lords\n", "is not valid TOML"),
        # the file is checked whole: a typo in another game's table stops a Lords command too
        ("[dice]\nid_splt = 1\n", "unknown rule 'dice.id_splt'"),
        ("[krynn]\nmax_strss = 1\n", "unknown rule 'krynn.max_strss'"),
    ],
)
def test_bad_rules_files_are_one_line_and_exit_2(capsys, tmp_path, content, message):
    f = tmp_path / "bad.toml"
    f.write_text(content)
    rc, out, err = run(capsys, "duel", "Reaper", "Skyblazer", "-n", "10", "--rules", str(f))
    assert rc == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_unreadable_rules_files_are_user_errors(capsys, tmp_path):
    """A directory, a non-UTF-8 file and an empty path are refused in one line."""
    bad = tmp_path / "latin1.toml"
    bad.write_bytes("[lords]\n# caf\xe9\n".encode("latin-1"))
    for path, message in (
        (str(tmp_path), "is a directory"),
        (str(bad), "not UTF-8"),
        ("", "empty path"),
    ):
        rc, _, err = run(capsys, "rules", "--rules", path)
        assert rc == 2 and message in err, err


def test_rules_lists_the_three_games_with_the_same_columns(capsys):
    """`rules` lists Dragon Lords, Dragon Dice and Warriors of Krynn alike: key, value,
    provenance, where used, why, and how to override it in a rules file."""
    d = _json(capsys, "rules")
    assert set(d["games"]) == {"lords", "dice", "krynn"}
    games = {r["game"] for r in d["rules"]}
    assert games == {"lords", "dice", "krynn"}
    for r in d["rules"]:
        assert {"key", "value", "provenance", "used_in", "source", "override"} <= set(r)
        assert r["override"].startswith(f"[{r['game']}] ")


def test_rules_assumed_covers_every_game(capsys):
    """Every assumed value is "listed by `python -m dragonsim rules --assumed`"."""
    from dragonsim.dice.data import assumed as dice_assumed
    from dragonsim.krynn.data import assumed as krynn_assumed

    rc, out, _ = run(capsys, "rules", "--assumed", "--json")
    keys = {r["key"] for r in json.loads(out)["rules"]}
    assert rc == 0
    assert {r["key"] for r in dice_assumed() if r["provenance"] == "assumed"} <= keys
    assert {r["key"] for r in krynn_assumed() if r["provenance"] == "assumed"} <= keys
    assert all(r["used_in"] and r["source"] for r in json.loads(out)["rules"])


def test_every_listed_key_is_accepted_by_a_rules_file(capsys, tmp_path):
    """What `rules` lists is exactly what a file accepts: each listed override line, written
    to a file, is taken as it is (the value in force stays the same)."""
    d = _json(capsys, "rules")
    from dragonsim.rules import game_rules

    by_game: dict[str, list[str]] = {}
    keys: dict[str, set[str]] = {}
    for r in d["rules"]:
        by_game.setdefault(r["game"], []).append(r["override"].split("] ", 1)[1])
        keys.setdefault(r["game"], set()).add(r["key"])
    for game, lines in by_game.items():
        f = tmp_path / f"{game}.toml"
        f.write_text(f"[{game}]\n" + "\n".join(lines) + "\n")
        rs = game_rules(game, file=f)
        assert set(rs.overrides) == keys[game], game  # every line was read as its key
        assert rs.hash == game_rules(game).hash, game  # ... with the value in force
