"""The Dragon Lords foundation commands: rules, sheet, roster, odds (and their bad input)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dragonsim.cli import main


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_sheet_json_has_the_documented_fields(capsys):
    rc, out, _ = run(
        capsys, "sheet", "body=Heavy,wings=Large,breath=Ice,claws=Sharp,rider=Archer", "--json"
    )
    d = json.loads(out)
    assert rc == 0
    for k in (
        "name",
        "body",
        "wings",
        "breath",
        "claws",
        "rider",
        "mr",
        "cc",
        "min_speed",
        "max_speed",
        "breath_damage",
        "claw_damage",
        "damage_points",
        "cost",
    ):
        assert k in d
    assert d["breath_damage"] == "3d6+2" and d["claw_damage"] == "3d6" and d["cost"] == 18
    assert set(d["damage_points"]) == {"head", "body", "tail", "left_wing", "right_wing"}


def test_sheet_text_and_roster(capsys):
    rc, out, _ = run(capsys, "sheet", "kelvinight")
    assert rc == 0 and "Maneuverability rating: D" in out
    rc, out, _ = run(capsys, "roster")
    assert rc == 0 and out.count("\n") == 13 and "Stalwyrm" in out


def test_rules_assumed_lists_every_assumed_value(capsys):
    from dragonsim.rules import lords_rules, rows_of

    rc, out, _ = run(capsys, "rules", "--assumed", "--game", "lords", "--json")
    assert rc == 0
    listed = {r["key"] for r in json.loads(out)["rules"]}
    expected = {r["key"] for r in rows_of(lords_rules()) if r["provenance"] == "assumed"}
    assert listed == expected and len(expected) > 20


def test_rules_shows_overrides_from_file(capsys, tmp_path):
    f = tmp_path / "r.toml"
    f.write_text("[lords]\naltitude_mod = [0, 1, 1, 2, 2]\n")
    rc, out, _ = run(capsys, "rules", "--game", "lords", "--rules", str(f))
    assert rc == 0 and "[0, 1, 1, 2, 2]" in out and "1 override in force" in out


def test_odds_close_combat_and_breath_json(capsys):
    rc, out, _ = run(capsys, "odds", "close-combat", "Tankerous", "Zippinchill", "--json")
    d = json.loads(out)
    assert rc == 0 and d["win_a"]["fraction"] == "5/1296"  # cc 1 vs 9: no rider acts
    assert (d["modifier_a"], d["modifier_b"], d["riders_in_play"]) == (1, 9, False)
    rc, out, _ = run(
        capsys, "odds", "breath", "Reaper", "Skyblazer", "--range", "5", "--area", "grey", "--json"
    )
    d = json.loads(out)
    assert d["target_number"] == 9 and d["p_hit"]["fraction"] == "5/18"


def test_odds_close_combat_follows_the_riders_rule(capsys, tmp_path):
    """Riders act in the advanced rules only (p.15): by default the Lancer's "+2 to the
    dragon's close combat roll" (p.18) does not count, and the output says so; with
    advanced.lancer = true from a rules file it does (Zippinchill 9 vs Tankerous 1 + 2)."""
    rc, out, _ = run(capsys, "odds", "close-combat", "Zippinchill", "Tankerous")
    assert rc == 0 and "Tankerous (cc 1)" in out and "riders do not act" in out
    assert "613/648" not in out
    f = tmp_path / "r.toml"
    f.write_text("[lords]\nadvanced.lancer = true\n")
    rc, out, _ = run(capsys, "odds", "close-combat", "Zippinchill", "Tankerous", "--rules", str(f))
    assert rc == 0 and "Tankerous (cc 1 + 2 Lancer)" in out and "613/648" in out


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["sheet", "Reapr"], "did you mean 'Reaper'"),
        (["sheet", "body=Heavy,wings=Large,breath=Acid,claws=Sharp"], "unknown breath weapon"),
        (
            [
                "sheet",
                "body=Heavy,wings=Large,breath=Ice,claws=Sharp,rider=Archer",
                "--budget",
                "12",
            ],
            "over the budget of 12",
        ),
        (["odds", "breath", "Reaper", "Skyblazer", "--range", "9"], "allowed 1..6"),
        (
            ["odds", "breath", "Reaper", "Skyblazer", "--range", "3", "--area", "pink"],
            "unknown arc area",
        ),
        (["odds", "close-combat", "Reaper"], "required"),
        (["rules", "--rules", "/nonexistent.toml"], "not found"),
    ],
)
def test_bad_input_one_line_exit_2(capsys, argv, needle):
    with pytest.raises(SystemExit) if needle == "required" else _nullcontext() as ctx:
        rc = main(argv)
    if ctx is not None and hasattr(ctx, "value"):
        rc = ctx.value.code
    err = capsys.readouterr().err
    assert rc == 2
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


class _nullcontext:
    def __enter__(self):
        return None

    def __exit__(self, *a):
        return False


def test_python_m_dragonsim_runs_as_a_process():
    p = subprocess.run(
        [sys.executable, "-m", "dragonsim", "sheet", "Nope"], capture_output=True, text=True
    )
    assert p.returncode == 2 and "Traceback" not in p.stderr and "allowed" in p.stderr
