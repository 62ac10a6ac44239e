"""The dice command line, the sweep, the data tables and user data (TOML)."""

import json

import pytest

from dragonsim.cli import main
from dragonsim.dice import data as D
from dragonsim.dice import sweep
from dragonsim.errors import UserError


def _run(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_attack_json_has_rates_intervals_and_seconds(capsys):
    rc, out, _ = _run(
        capsys,
        "dice",
        "attack",
        "--dragon",
        "red-wyrm",
        "--army",
        "goblin-thug:6,goblin-pelter:4",
        "-n",
        "2e4",
        "--json",
    )
    assert rc == 0
    d = json.loads(out)
    for k in ("n", "p_dragon_slain", "p_army_destroyed", "mean_health_lost", "seconds"):
        assert k in d
    for k in ("ci_dragon_slain", "ci_army_destroyed", "ci_health_lost"):
        lo, hi = d[k]
        assert lo <= hi
    assert d["ci_dragon_slain"][0] <= d["p_dragon_slain"] <= d["ci_dragon_slain"][1]
    assert d["n"] == 20_000
    assert abs(sum(d["health_lost_distribution"]) - 1) < 1e-9
    assert d["manifest"]["seed"] == 1


def test_attack_text_with_turns_and_ready_made_army(capsys):
    rc, out, _ = _run(
        capsys,
        "dice",
        "attack",
        "--dragon",
        "black-drake",
        "--army",
        "goblin-horde",
        "-n",
        "5000",
        "--turns",
        "4",
        "--no-progress",
    )
    assert rc == 0 and "survival: share of games" in out and "dragon flew away" in out


def test_units_lists_shipped_units_and_armies(capsys):
    rc, out, _ = _run(capsys, "dice", "units")
    assert rc == 0
    for name in ("goblin-thug", "lava-elf-duelist", "red-dragonkin-rare", "goblin-horde"):
        assert name in out


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--dragon", "red-wyrn", "--army", "goblin-thug:3"], "did you mean 'red-wyrm'"),
        (["--dragon", "red-wyrm", "--army", "goblin-thugg:3"], "did you mean 'goblin-thug'"),
        (["--dragon", "red-wyrm", "--army", "goblin-thug:x"], "count after ':'"),
        (["--dragon", "red-wyrm", "--army", "goblin-thug:0"], ">= 1"),
        (["--dragon", "red-wyrm", "--army", "goblin-thug:-2"], ">= 1"),
        (["--dragon", "red-wyrm", "--army", "goblin-thug:2", "--turns", "0"], "--turns"),
        (["--dragon", "red-wyrm", "--army", "goblin-thug:2", "--turns", "x"], "--turns"),
        (["--dragon", "red-wyrm", "--army", "goblin-thug:2", "--policy", "random"], "policy"),
        (["--dragon", "red-wyrm", "--army", "goblin-thug:2", "--id-split", "x"], "id_split"),
        (["--dragon", "red-wyrm,blue-drake", "--army", "goblin-thug:2"], "attack each other"),
        (["--dragon", "red-wyrm", "--army", "red-dragonkin-common:2"], "solely of dragonkin"),
        (
            ["--dragon", "red-wyrm", "--army", "goblin-thug:2", "--army-file", "/nope.toml"],
            "not found",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, needle):
    rc, out, err = _run(capsys, "dice", "attack", *argv, "-n", "100")
    assert rc == 2
    assert needle in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bad_count_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        main(["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-thug:2", "-n", "0"])
    assert e.value.code == 2


def test_duel_command(capsys):
    rc, out, _ = _run(
        capsys,
        "dice",
        "duel",
        "--a",
        "red-wyrm:2",
        "--b",
        "blue-drake",
        "-n",
        "5000",
        "--turns",
        "5",
        "--json",
    )
    assert rc == 0
    d = json.loads(out)
    total = d["p_a_wins"] + d["p_b_wins"] + d["p_both_gone"] + d["p_still_fighting"]
    assert abs(total - 1) < 1e-9
    rc, _, err = _run(capsys, "dice", "duel", "--a", "red-wyrm", "--b", "red-drake", "-n", "9")
    assert rc == 2 and "same colour" in err


def test_exact_command(capsys):
    rc, out, _ = _run(
        capsys,
        "dice",
        "exact",
        "--dragon",
        "red-wyrm",
        "--army",
        "goblin-thug:2,goblin-pelter:1",
        "--json",
    )
    assert rc == 0 and json.loads(out)["exact"] is True
    rc, _, err = _run(capsys, "dice", "exact", "--dragon", "red-wyrm", "--army", "goblin-thug:40")
    assert rc == 2 and "at most" in err


def test_assumed_command_lists_every_assumed_value(capsys):
    rc, out, _ = _run(capsys, "dice", "assumed", "--json")
    rows = json.loads(out)
    assert rc == 0 and rows == D.assumed()
    keys = {r["key"] for r in rows}
    assert {
        "dice.id_split",
        "dice.casualty_policy",
        "dice.promotion_supply",
        "dice.damage_carries",
        "dice.dragonkin_faces",
    } <= keys
    assert all(r["provenance"] == "assumed" and r["source"] and r["override"] for r in rows)


def test_sweep_finds_the_smallest_size(capsys):
    """The sweep's answer m reaches p and m - 1 does not (on the same games)."""
    r = sweep("goblin-thug:1", dragons="red-wyrm,red-drake", p=0.5, n=4000, max_copies=40)
    for row in r.rows:
        assert row["copies"] is not None
        assert row["p_slain"] >= 0.5 > row["p_slain_one_less"]
    rc, out, _ = _run(
        capsys,
        "dice",
        "sweep",
        "--army",
        "goblin-thug:1",
        "--dragons",
        "green-wyrm",
        "-n",
        "2000",
        "--p",
        "0.3",
        "--json",
    )
    assert rc == 0 and json.loads(out)["rows"][0]["dragon"] == "green-wyrm"
    rc, _, err = _run(capsys, "dice", "sweep", "--p", "1.5", "-n", "100")
    assert rc == 2 and "probability" in err


def test_published_and_printed_data_have_provenance():
    """Dragon dice faces as published; every unit carries provenance and source."""
    wyrm = D.DRAGON_DICE["wyrm"].faces
    assert (
        wyrm.count("jaws"),
        wyrm.count("breath"),
        wyrm.count("claw"),
        wyrm.count("treasure"),
        wyrm.count("tail"),
        wyrm.count("belly"),
    ) == (1, 1, 4, 1, 3, 2)
    drake = D.DRAGON_DICE["drake"].faces
    assert (drake.count("wing"), drake.count("tail")) == (2, 2)
    for u in D.units().values():
        assert u.provenance in ("published", "assumed") and u.source
        assert len(u.faces) == 6
        assert (not u.is_kin) == any(k == "id" for k, _ in u.faces)
    assert D.units()["goblin-slingman"].faces[2] == ("missile", 3)
    from dragonsim.rules import PROVENANCES

    for r in D.rule_values():  # the registry's four provenances (derived: attack_timing, ...)
        assert r["provenance"] in PROVENANCES and r["source"] and r["used_in"]


def test_user_units_dragons_and_armies_from_toml(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text("""
[units.orc-brute]
race = "orcs"
health = 2
faces = ["ID", "Melee 3", "Melee 2", "Save 1", "Maneuver 2", "Missile 1"]

[units.orc-grunt]
race = "orcs"
health = 1
faces = ["ID", "Melee 1", "Melee 1", "Save 1", "Maneuver 1", "Missile 1"]

[dragons.big-red]
colour = "red"
faces = ["claw", "claw", "claw", "claw", "jaws", "breath", "tail", "tail", "tail",
         "belly", "belly", "treasure"]

[armies.orc-horde]
orc-brute = 2
orc-grunt = 4
""")
    cat = D.load_toml(f)
    assert cat.units["orc-grunt"].promotes_to == "orc-brute"
    from dragonsim.dice import attack

    r = attack("big-red", "orc-horde", catalog=cat, n=2000, progress=False)
    assert r.n == 2000 and r.army == {"orc-brute": 2, "orc-grunt": 4}
    bad = tmp_path / "bad.toml"
    bad.write_text('[units.x]\nrace = "a"\nhealth = 1\nfaces = ["ID", "Melee"]\n')
    with pytest.raises(UserError, match="6 faces"):
        D.load_toml(bad)
    bad.write_text('[dragons.x]\ncolour = "purple"\nfaces = ["claw"]\n')
    with pytest.raises(UserError, match="dragon colour"):
        D.load_toml(bad)


def test_python_units_and_dragons():
    u = D.make_unit("orc", race="orcs", health=1, faces=["ID", "melee 2"] + ["Save 1"] * 4)
    assert u.faces[1] == ("melee", 2)
    with pytest.raises(UserError, match="needs a count"):
        D.make_unit("orc", race="orcs", health=1, faces=["ID", "Melee"] + ["Save 1"] * 4)
    with pytest.raises(UserError, match="must not be a tail"):
        D.make_dragon("t", colour="red", faces=["tail"] * 12)


def test_dragons_required_per_25_health():
    """'You must bring 1 dragon to any battle, plus one additional dragon for each 25 health
    in your armies.'"""
    assert [D.dragons_required(h) for h in (0, 24, 25, 49, 50)] == [1, 1, 2, 2, 3]


def test_dragonkin_allowance_per_full_3_points():
    """'For every full 3 points of other units a player brings to a game, he is allowed (but
    not required) to bring one point of dragonkin.'"""
    assert [D.dragonkin_allowance(p) for p in (0, 2, 3, 5, 6, 30)] == [0, 0, 1, 1, 2, 10]
    with pytest.raises(UserError):
        D.dragonkin_allowance(-1)


def test_toml_options_override_assumed_values(tmp_path, capsys):
    """Assumed values are overridable from a file's [options]; command-line flags win."""
    f = tmp_path / "opts.toml"
    f.write_text(
        '[units.idol]\nrace = "t"\nhealth = 1\nfaces = ["ID", "ID", "ID", "ID", "ID",'
        ' "ID"]\n\n[dragons.clawer]\ncolour = "red"\nfaces = ["claw", "claw", "claw",'
        ' "claw", "claw", "claw", "claw", "claw", "claw", "claw", "claw", "claw"]\n\n'
        '[options]\nid_split = "save-first"\n'
    )
    base = [
        "dice",
        "attack",
        "--dragon",
        "clawer",
        "--army",
        "idol:10",
        "--army-file",
        str(f),
        "-n",
        "500",
        "--json",
    ]
    assert main(base) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["options"]["id_split"] == "save-first" and d["p_dragon_slain"] == 0.0
    assert main(base + ["--id-split", "slay-first"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["p_dragon_slain"] == 1.0
    f.write_text('[options]\nid_split = "sometimes"\n')
    assert (
        main(
            [
                "dice",
                "attack",
                "--dragon",
                "red-wyrm",
                "--army",
                "goblin-thug:3",
                "--army-file",
                str(f),
                "-n",
                "100",
            ]
        )
        == 2
    )
    assert "id_split" in capsys.readouterr().err


def test_duel_by_colour_command(capsys):
    rc, out, _ = _run(
        capsys,
        "dice",
        "duel",
        "--dragons",
        "red-wyrm,blue-drake,green-wyrm:2",
        "-n",
        "3000",
        "--turns",
        "10",
        "--json",
    )
    d = json.loads(out)
    assert rc == 0 and d["colours"] == ["red", "blue", "green"]
    total = (
        d["p_red_wins"]
        + d["p_blue_wins"]
        + d["p_green_wins"]
        + d["p_all_gone"]
        + d["p_still_fighting"]
    )
    assert abs(total - 1) < 1e-9
    rc, _, err = _run(capsys, "dice", "duel", "--dragons", "red-wyrm,red-drake", "-n", "9")
    assert rc == 2 and "at least two colours" in err


def test_dragon_table_every_dragon_same_games(capsys):
    """'wyrm or drake?': every dragon against one army on the same game indices; each row is
    exactly the attack() of that dragon with the same seed."""
    from dragonsim.dice import attack, dragon_table

    t = dragon_table("goblin-horde", n=3000, seed=5, turns=2)
    df = t.to_frame()
    assert list(df["dragon"]) == list(D.dragons())
    one = attack("gold-drake", "goblin-horde", n=3000, seed=5, turns=2, progress=False)
    row = df[df["dragon"] == "gold-drake"].iloc[0]
    assert row["p_dragon_slain"] == one.p_dragon_slain.rate
    assert row["mean_health_lost"] == one.health_lost[0]
    rc, out, _ = _run(
        capsys,
        "dice",
        "table",
        "--army",
        "goblin-thug:5",
        "--dragons",
        "red-wyrm,red-drake",
        "-n",
        "2000",
        "--json",
    )
    assert rc == 0 and [r["dragon"] for r in json.loads(out)["rows"]] == ["red-wyrm", "red-drake"]
