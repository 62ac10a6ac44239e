"""Warriors of Krynn public API and command line: results, reproducibility, overrides, errors."""

import json

import numpy as np
import pytest

from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.krynn import engine as K
from dragonsim.krynn.api import Tile, battle, battlefield, parse_lines, sweep
from dragonsim.krynn.api.common import run_tables
from dragonsim.krynn.data import assumed, default_rules, load_rules
from dragonsim.runner import run_blocks

ALLIANCE = "foot=3,missile=2,mounted=2"
ARMY = "foot=5,missile=3,mounted=2"


def test_battle_result_presents_itself():
    r = battle(alliance=ALLIANCE, army=ARMY, n=20_000, progress=False)
    assert r.n == 20_000
    assert r.p_alliance_controls.k + r.p_army_controls.k + r.p_undecided.k == r.n
    d = r.to_dict()
    for key in (
        "n",
        "p_alliance_controls",
        "ci_p_alliance_controls",
        "p_army_controls",
        "ci_p_army_controls",
        "mean_turns",
        "ci_mean_turns",
        "seconds",
        "manifest",
    ):
        assert key in d
    assert "Alliance controls the tile" in r.summary()
    f = r.to_frame()
    assert list(f["controls"]) == ["alliance", "army", "undecided"]
    assert r.turns_histogram().sum() == r.p_alliance_controls.k + r.p_army_controls.k
    assert r.dice_per_game > 0


def test_result_does_not_depend_on_threads_or_blocks():
    """Per-game streams: identical counters for 1 or 2 threads and for any block split."""
    a = battle(alliance=ALLIANCE, army=ARMY, n=5000, progress=False, threads=1)
    b = battle(alliance=ALLIANCE, army=ARMY, n=5000, progress=False, threads=2)
    assert np.array_equal(a.counters, b.counters)
    u, cmd, tab = Tile(alliance=ALLIANCE, army=ARMY).arrays()
    _, _, tables = run_tables(
        default_rules(), heroes=0, hero_policy=None, tier=None, max_turns=100, battle_type=0.0
    )
    args = (K.Setup(u[None], cmd[None], tab[None], np.ones(1, np.int64)), tables)
    whole = K.battle_kernel(0, 5000, 1, *args)
    parts = K.battle_kernel(0, 1234, 1, *args) + K.battle_kernel(1234, 5000, 1, *args)
    assert np.array_equal(whole, parts)
    assert np.array_equal(whole, a.counters)
    blocks = run_blocks(K.battle_kernel, 5000, 1, args, progress=False, min_block=700)
    assert np.array_equal(blocks.counters, whole)


def test_more_barricades_help_the_alliance():
    """Common random numbers: the same seed for each barricade count."""
    s = sweep(
        "barricades.foot",
        [0, 3],
        alliance="foot=3,missile=2",
        army="foot=4,missile=2",
        n=20_000,
        progress=False,
    )
    f = s.to_frame()
    assert f["p_alliance_controls"].iloc[1] > f["p_alliance_controls"].iloc[0]
    assert "barricades.foot" in s.summary()


def test_heroes_take_stress_and_help():
    base = battle(alliance="foot=3,missile=2", army="foot=3,missile=3", n=20_000, progress=False)
    hero = battle(
        alliance="foot=3,missile=2",
        army="foot=3,missile=3",
        n=20_000,
        progress=False,
        heroes=2,
        hero_policy="removals",
    )
    assert base.mean_stress[0] == 0
    assert hero.mean_stress[0] > 0
    assert hero.stress_histogram().sum() == hero.n
    assert base.p_hero_at_max_stress.k == 0 < hero.p_hero_at_max_stress.k
    assert hero.p_alliance_controls.rate > base.p_alliance_controls.rate


def test_battlefield_outcomes_add_up():
    tiles = [
        Tile(alliance=ALLIANCE, army=ARMY),
        Tile(alliance=ALLIANCE, army="foot=2"),
        Tile(alliance="foot=2", army=ARMY),
    ]
    r = battlefield(tiles, control_limit=2, n=5000, progress=False)
    ks = [r.rate(k).k for k in ("win", "hold", "loss", "unfinished")]
    assert sum(ks) == r.n
    assert r.rate("loss_by_limit").k <= r.rate("loss").k
    assert len(r.to_frame()) == 6 and "p_win" in r.to_dict()


def test_assumed_lists_every_assumed_value():
    rows = assumed()
    keys = {r["key"] for r in rows}
    assert {
        "krynn.battle_die.woe",
        "krynn.skirmish_die",
        "krynn.decks.army_foot",
        "krynn.alliance_hits",
        "krynn.hero_policy",
    } <= keys
    assert all(r["provenance"] in ("printed", "derived", "assumed") for r in rows)
    assert all(r["where_used"] and r["reason"] for r in rows)


def test_rules_file_overrides_assumed_values(tmp_path):
    p = tmp_path / "r.toml"
    p.write_text(
        "[krynn]\n"
        "battle_die = { blank = 0, single = 6, double = 0, woe = 0 }\n"
        'alliance_hits = "ready-first"\n'
    )
    r = load_rules(p)
    assert r.alliance_hits == "ready-first"
    assert r.overrides["krynn.alliance_hits"] == "ready-first"
    h, w = r.die_arrays()
    assert list(h) == [1] * 6 and list(w) == [0] * 6
    rows = {row["key"]: row["value"] for row in assumed(r)}
    assert [rows[f"krynn.battle_die.{k}"] for k in ("blank", "single", "double", "woe")] == [
        0,
        6,
        0,
        0,
    ]


def test_parse_lines():
    assert parse_lines("foot=3,mounted=1", "x") == {"foot": 3, "missile": 0, "mounted": 1}
    with pytest.raises(UserError, match="did you mean 'foot'"):
        parse_lines("fot=3", "--alliance")
    with pytest.raises(UserError, match="between 0 and 6"):
        parse_lines("foot=-1", "--alliance")
    with pytest.raises(UserError, match="LINE=COUNT"):
        parse_lines("foot3", "--alliance")


@pytest.mark.parametrize(
    "argv, words",
    [
        (["krynn", "battle", "--alliance", "fot=3", "--army", "foot=2"], "unknown line"),
        (["krynn", "battle", "--alliance", "foot=3;missile", "--army", "foot=2"], "LINE=COUNT"),
        (["krynn", "battle", "--alliance", "foot=-2", "--army", "foot=2"], "between 0 and 6"),
        (
            ["krynn", "battle", "--alliance", "foot=3", "--army", "foot=2", "--battle", "siege"],
            "unknown battle type",
        ),
        (
            [
                "krynn",
                "battle",
                "--alliance",
                "foot=1",
                "--army",
                "foot=2",
                "--barricades",
                "foot=2",
            ],
            "barricades",
        ),
        (["krynn", "conflict", "--difficulty", "0", "--dice", "3"], "difficulty"),
        (["krynn", "conflict", "--difficulty", "25", "--dice", "3"], "difficulty"),
        (
            [
                "krynn",
                "sweep",
                "--alliance",
                "foot=1",
                "--army",
                "foot=2",
                "--vary",
                "dragons",
                "--values",
                "1,2",
            ],
            "sweep quantity",
        ),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(argv, words, capsys):
    assert main([*argv, "-n", "100", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_cli_battle_json(capsys):
    assert (
        main(
            [
                "krynn",
                "battle",
                "--alliance",
                ALLIANCE,
                "--army",
                ARMY,
                "--barricades",
                "foot=2",
                "--tactics",
                "missile=1",
                "--battle",
                "all-out",
                "-n",
                "2000",
                "--json",
                "--no-progress",
            ]
        )
        == 0
    )
    d = json.loads(capsys.readouterr().out)
    for key in (
        "n",
        "p_alliance_controls",
        "p_army_controls",
        "mean_turns",
        "ci_p_alliance_controls",
        "ci_p_army_controls",
        "ci_mean_turns",
        "seconds",
    ):
        assert key in d
    assert d["n"] == 2000 and d["tile"]["alliance_barricades"]["foot"] == 2


def test_cli_conflict_prints_exact_beside_simulated(capsys):
    assert (
        main(
            [
                "krynn",
                "conflict",
                "--difficulty",
                "3",
                "--dice",
                "3",
                "--mastered",
                "-n",
                "5000",
                "--no-progress",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "exact" in out and "simulated" in out and "mastered: 2" in out
    assert (
        main(
            [
                "krynn",
                "conflict",
                "--difficulty",
                "3",
                "--cards",
                "1",
                "-n",
                "2000",
                "--json",
                "--no-progress",
            ]
        )
        == 0
    )
    d = json.loads(capsys.readouterr().out)
    assert d["plan"] and 0 < d["exact_success"] < 1


def test_cli_sweep_battlefield_and_assumed(capsys):
    assert (
        main(
            [
                "krynn",
                "sweep",
                "--alliance",
                "foot=3",
                "--army",
                "foot=4",
                "--vary",
                "tactics.foot",
                "--values",
                "0..2",
                "-n",
                "2000",
                "--no-progress",
            ]
        )
        == 0
    )
    assert "tactics.foot=2" in capsys.readouterr().out
    assert (
        main(
            [
                "krynn",
                "battlefield",
                "--tiles",
                "3",
                "--alliance",
                ALLIANCE,
                "--army",
                ARMY,
                "--control-limit",
                "2",
                "-n",
                "1000",
                "--no-progress",
            ]
        )
        == 0
    )
    assert "of which by the control limit" in capsys.readouterr().out
    assert main(["krynn", "assumed"]) == 0
    assert "krynn.battle_die" in capsys.readouterr().out


def test_cli_battlefield_scenario_file(tmp_path, capsys):
    p = tmp_path / "s.toml"
    p.write_text(
        "control_limit = 2\n"
        '[[tile]]\nalliance = "foot=3,missile=2"\narmy = "foot=2"\nflank = 2\n'
        '[[tile]]\nalliance = "foot=2"\narmy = "foot=3,mounted=1"\n'
        'army_commander = "volley"\n'
    )
    assert (
        main(
            ["krynn", "battlefield", "--scenario", str(p), "-n", "1000", "--json", "--no-progress"]
        )
        == 0
    )
    d = json.loads(capsys.readouterr().out)
    assert d["control_limit"] == 2 and len(d["tiles"]) == 2
    bad = tmp_path / "b.toml"
    bad.write_text('[[tile]]\nalliance = "foot=3"\narmy = "foot=2"\ndragons = 1\n')
    assert main(["krynn", "battlefield", "--scenario", str(bad), "-n", "10"]) == 2
    assert "dragons" in capsys.readouterr().err


def test_battle_plot_shows_when_each_side_controls_the_tile():
    """One step line a side (the Alliance solid, the Dragon Army dashed): at each battle the
    share of games in which that side took the tile then, from the result's own histogram;
    the legend gives each side's share of games and the title the number of games."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    r = battle(alliance=ALLIANCE, army=ARMY, n=2000, progress=False)
    ax = r.plot()
    try:
        alliance, army = ax.get_lines()
        h = r.turns_histogram()
        assert alliance.get_linestyle() == "-" and army.get_linestyle() == "--"
        for s, line in enumerate((alliance, army)):
            n = len(line.get_ydata())
            assert np.allclose(line.get_ydata(), h[s, 1 : n + 1] / r.n)
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert legend[0].startswith("Alliance controls it") and legend[1].startswith("Dragon Army")
        assert f"{100 * r.p_alliance_controls.rate:.1f}% of games" in legend[0]
        assert "2,000 games" in ax.get_title()
    finally:
        plt.close("all")


def test_rules_file_replaces_a_unit_deck(tmp_path):
    p = tmp_path / "deck.toml"
    p.write_text('[krynn]\n"decks.army_foot" = ["3x Horde: 4 dice -> any, rally 1"]\n')
    r = load_rules(p)
    cards, sizes = r.deck_arrays()
    assert sizes[1, 0] == 3 and sizes[0, 0] == 6
    assert list(cards[1, 0, 0]) == [1, 4, 3, 2, 1]
    bad = tmp_path / "bad.toml"
    bad.write_text('[krynn]\n"decks.army_foot" = ["X: 1 magic -> foot"]\n')
    with pytest.raises(UserError, match="krynn.decks.army_foot.*not of the form"):
        load_rules(bad)
