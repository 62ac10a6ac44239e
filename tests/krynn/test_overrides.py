"""Every assumed Warriors of Krynn value has an override that reaches its kernel, and every
rule a ``rules`` listing shows is a key a rules file accepts.

For each rule (or table row) with provenance "assumed" in ``registry("krynn")``, a small seeded
run with the rule at another legal value must give different counters than the default
(common random numbers: the same seed, so any difference is the rule's). A rule that cannot
move its scenario is listed in ``CANNOT_MOVE`` with the reason; a rule in neither list fails.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from dragonsim.errors import UserError
from dragonsim.krynn.api import Tile, battle, battlefield, conflict
from dragonsim.krynn.data import KrynnRules, default_rules, load_rules
from dragonsim.rules import krynn_rules, registry, rows_of

N = 3000
BASE = dict(alliance="foot=5,missile=2,mounted=3", army="foot=4,missile=3,mounted=2")


def _battle(**kw):
    args = {**BASE, "n": N, "seed": 5, "progress": False, **kw}
    return battle(**args).counters


def _field(**kw):
    tiles = [
        Tile(alliance="foot=3,missile=1", army="foot=3,mounted=1", flank=3),
        Tile(alliance="foot=3,missile=1", army="foot=3,mounted=1", flank=1),
        Tile(alliance="foot=2,missile=1", army="foot=3,mounted=1", flank=1),
        Tile(alliance="foot=3,missile=1", army="foot=2,mounted=1", flank=1),
    ]
    return battlefield(tiles, n=N, seed=5, progress=False, **kw).counters


def _conflict(**kw):
    return conflict(3, actions=4, cards=2, n=N, seed=5, progress=False, **kw).counters


def _commander(name):
    def run(**kw):
        return _battle(alliance_commander=name, army_commander=name, **kw)

    return run


#: override key -> (another legal value, the run that must move; its fixed arguments say why
#: the rule matters there)
CASES = {
    # Battle Dice: the counts of each face
    "battle_die.blank": (3, _battle),
    "battle_die.single": (1, _battle),
    "battle_die.double": (2, _battle),
    "battle_die.woe": (2, _battle),
    "skirmish_die": (["foot"] * 6, _battle),
    # unit decks: one row each
    **{
        f"decks.{side}_{line}": (["Big: 4 dice -> foot", "Small: 1 hits -> missile"], _battle)
        for side in ("alliance", "army")
        for line in ("foot", "missile", "mounted")
    },
    # commanders, each in play on both sides (skirmishes: the commander symbol on half)
    "commanders.rally": ("hits 2 -> fighting", _commander("rally")),
    "commanders.fortify": ("hits 2 -> fighting", _commander("fortify")),
    "commanders.tactician": ("hits 2 -> fighting", _commander("tactician")),
    "commanders.volley": ("hits 2 -> fighting", _commander("volley")),
    "commanders.strike": ("rally 1 -> fighting", _commander("strike")),
    "commanders.terror": ("hits 2 -> fighting", _commander("terror")),
    "alliance_hits": ("ready-first", _battle),
    "army_hits": ("shaken-first", _battle),
    # barricades under ready and shaken units, and a commander that Shakes ready units not on
    # a barricade: spending those under ready units first exposes them
    "barricade_order": (
        "ready-first",
        lambda **kw: _battle(
            barricades="foot=3,missile=2",
            alliance_shaken="foot=1,missile=1",
            army_commander="terror",
            **kw,
        ),
    ),
    "any_line": ("facing", _battle),
    # the Mounted lines are both empty: a skirmish on Mounted reveals a card or not
    "empty_lines": (
        "army-reveals",
        lambda **kw: _battle(alliance="foot=3,missile=2", army="foot=3,missile=2", **kw),
    ),
    "hero_policy": ("all", lambda **kw: _battle(heroes=2, **kw)),
    # two heroes absorbing every hit: spread or concentrated stress (who reaches the maximum)
    "hero_choice": ("most-stressed", lambda **kw: _battle(heroes=2, hero_policy="all", **kw)),
    "stress_recovery": (2, lambda **kw: _battle(heroes=1, hero_policy="all", **kw)),
    "p_all_out_mixed": (0.9, lambda **kw: _battle(battle_type="mixed", **kw)),
    "p_all_out_commanders": (
        1.0,
        lambda **kw: _battle(battle_type="all-out", army_commander="strike", **kw),
    ),
    "commander_fighting_line": (
        "mounted",
        lambda **kw: _battle(
            battle_type="all-out", army_commander="strike", p_all_out_commanders=1.0, **kw
        ),
    ),
    "commander_dice_woe": ("own-line", lambda **kw: _battle(army_commander="volley", **kw)),
    "mutual_control": ("alliance", lambda **kw: _battle(battle_type="mixed", heroes=1, **kw)),
    "flank_move": ("adjacent", _field),
    "active_flank": ("uniform", _field),
    "conflict_retry": ("carry-over", _conflict),
}

#: assumed values that cannot move any scenario, with the reason (none today)
CANNOT_MOVE: dict[str, str] = {}


def _assumed_keys() -> set[str]:
    out = set()
    for rule in registry("krynn").values():
        name = rule.key.removeprefix("krynn.")
        for row in rule.assumed_rows():
            out.add(f"{name}.{row}" if row else name)
    return out


def test_every_assumed_value_has_an_override_case():
    """Every assumed value is in CASES (its override moves a run) or CANNOT_MOVE (why not);
    nothing else is listed."""
    assumed = _assumed_keys()
    listed = set(CASES) | set(CANNOT_MOVE)
    assert assumed - listed == set(), "assumed values without an override test"
    assert listed - assumed == set(), "override tests of values that are not assumed"
    for key, (value, _) in CASES.items():
        krynn_rules({key: value})  # each case's value is legal


@pytest.mark.parametrize("key", sorted(CASES))
def test_override_reaches_the_kernel(key):
    """The override changes the counters of a seeded run (the same seed as the default)."""
    value, run = CASES[key]
    base = run()
    moved = run(**{key: value})
    assert not np.array_equal(base, moved), f"{key} = {value!r} did not move its run"


def test_krynn_rules_keeps_no_defaults_of_its_own():
    """KrynnRules is a view of the rules data: every field is required and the default view
    is the one of krynn_rules()."""
    import dataclasses

    for f in dataclasses.fields(KrynnRules):
        assert f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    d = default_rules()
    assert d.ruleset.hash == krynn_rules().hash and d.overrides == {}
    for f in dataclasses.fields(KrynnRules):
        if f.name not in ("ruleset", "battle_die", "skirmish_die", "decks", "commanders"):
            assert getattr(d, f.name) == krynn_rules().get(f"krynn.{f.name}"), f.name


def test_printed_values_reach_the_kernel_too():
    """'Battle Dice': a Double Hit is 2 hits; a house rule of 3 reaches the battle kernel."""
    assert not np.array_equal(_battle(), _battle(**{"die_faces.double": [3, 0]}))
    res = battle(**BASE, n=N, seed=5, progress=False, heroes=2, hero_policy="all")
    assert res.manifest["max_stress"] == 4
    assert not np.array_equal(res.counters, _battle(heroes=2, hero_policy="all", tier="veteran")), (
        "the tier's maximum stress (5) reaches the kernel"
    )
    # 'Battle Tiles': "Each battle line has space for 6 units." (a house rule may lower it)
    with pytest.raises(UserError, match="foot must be between 0 and 4"):
        battle(alliance="foot=5", army="foot=2", n=10, progress=False, line_capacity=4)
    full = [Tile(alliance="foot=3,missile=1", army="foot=3,mounted=1")] * 3
    assert not np.array_equal(
        battlefield(full, n=N, seed=5, progress=False).counters,
        battlefield(full, n=N, seed=5, progress=False, line_capacity=3).counters,
    ), "a full line (3 units) takes no unit moving on control"


def _toml(v) -> str:
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(str(k))} = {_toml(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return json.dumps(v)


def test_every_listed_key_round_trips_through_a_rules_file(tmp_path):
    """The keys ``rows_of(krynn_rules())`` lists (what ``rules`` prints) are exactly the keys
    a ``[krynn]`` table accepts: each, written with its value, reads back to it."""
    rows = rows_of(krynn_rules())
    assert rows
    p = tmp_path / "all.toml"
    body = "".join(
        f"{json.dumps(r['key'].removeprefix('krynn.'))} = {_toml(r['value'])}\n" for r in rows
    )
    p.write_text("[krynn]\n" + body)
    rs = krynn_rules(file=p)
    for r in rows:
        assert rs.get(r["key"]) == r["value"], r["key"]
    assert KrynnRules.from_ruleset(rs).options_array().tolist() == (
        default_rules().options_array().tolist()
    )


def test_rules_file_krynn_table_changes_a_value(tmp_path):
    p = tmp_path / "house.toml"
    p.write_text(
        '[lords]\naltitude_mod = [0, 0, 1, 1, 2]\n[krynn]\nalliance_hits = "ready-first"\n'
        '"battle_die.woe" = 2\np_all_out_commanders = 1\n'
    )
    r = load_rules(p)
    assert r.alliance_hits == "ready-first" and r.p_all_out_commanders == 1.0
    assert [f.count for f in r.battle_die if f.name == "woe"] == [2]
    assert r.overrides == {
        "krynn.alliance_hits": "ready-first",
        "krynn.battle_die.woe": 2,
        "krynn.p_all_out_commanders": 1,
    }


@pytest.mark.parametrize(
    "body, match",
    [
        # a face count of 1,000,000,000 once grew a process to 17.7 GB
        ('"battle_die.woe" = 1000000000', r"krynn\.battle_die\.woe: 1000000000 is out of range"),
        # a die given only some of its faces
        ("battle_die = { woe = 2 }", r"krynn\.battle_die: table is missing row\(s\) blank"),
        ("battle_die = { blank = 0, single = 0, double = 0, woe = 0 }", "at least one face"),
        ('alliance_hits = "random"', r"krynn\.alliance_hits: 'random' is not allowed"),
        ("p_all_out_commanders = 1.5", r"1\.5 is out of range"),
        ('"decks.army_foot" = ["Horde: 3 dice"]', r"krynn\.decks\.army_foot.*not of the form"),
        ('"decks.army_foot" = ["0x Horde: 3 dice -> foot"]', "deck is empty"),
        ('"commanders.strike" = "hits 1 -> flank"', "target 'flank' is not one of"),
        ('"skirmish_die" = []', r"expected 1 to 12 entries"),
        ("conflict_retry = 3", "expected a name"),
    ],
)
def test_bad_values_are_one_line_errors_naming_the_key(tmp_path, body, match):
    p = tmp_path / "bad.toml"
    p.write_text("[krynn]\n" + body + "\n")
    with pytest.raises(UserError, match=match) as e:
        load_rules(p)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("command", ["battle", "sweep", "battlefield", "conflict", "assumed"])
def test_every_krynn_command_takes_rules(tmp_path, capsys, command):
    """``--rules FILE`` on every krynn command that simulates or computes; a bad value in the
    file is refused before any work, naming the key."""
    from dragonsim.cli import main

    bad = tmp_path / "bad.toml"
    bad.write_text('[krynn]\n"battle_die.woe" = 1000000000\n')
    args = {
        "battle": ["--alliance", "foot=2", "--army", "foot=2"],
        "sweep": ["--alliance", "foot=2", "--army", "foot=2", "--vary", "heroes"]
        + ["--values", "0,1"],
        "battlefield": ["--alliance", "foot=2", "--army", "foot=2"],
        "conflict": ["--difficulty", "3"],
        "assumed": [],
    }[command]
    run = [] if command == "assumed" else ["-n", "200", "--no-progress"]
    assert main(["krynn", command, *args, *run, "--rules", str(bad)]) == 2
    assert "krynn.battle_die.woe" in capsys.readouterr().err
    good = tmp_path / "good.toml"
    good.write_text('[krynn]\nconflict_retry = "carry-over"\nalliance_hits = "ready-first"\n')
    assert main(["krynn", command, *args, *run, "--rules", str(good)]) == 0
    if command == "assumed":
        assert "carry-over" in capsys.readouterr().out
