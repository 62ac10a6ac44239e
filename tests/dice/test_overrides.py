"""Every assumed Dragon Dice rule has an override that reaches its kernel, and both readings of
every sentence that reads two ways are implemented (Dragon Dice Dragon Rules (09/13/96)).

For each rule of ``registry("dice")`` with provenance ``assumed``, :data:`MOVES` names another
legal value and a small seeded run that it must move; a rule listed nowhere fails
:func:`test_every_assumed_rule_has_a_scenario_that_moves`. Where exact odds exist
(:mod:`dragonsim.dice.odds`), the Monte Carlo of both readings must match them within a
tolerance from the counts (binomial tests at alpha = 1e-6, means within 5 standard errors).
"""

import json
import math

import numpy as np
import pytest

from dragonsim.cli import main
from dragonsim.dice import attack, duel, melee
from dragonsim.dice import data as D
from dragonsim.dice import kernel as K
from dragonsim.dice.api import Options
from dragonsim.dice.odds import exact_attack, exact_game
from dragonsim.rules import dice_rules, registry, rows_of
from dragonsim.stats import binomial_consistent

N = 3000
KIN_ARMY = "goblin-thug:2,red-dragonkin-uncommon:3"


def _cat():
    """A promotion chain r1 -> r2 -> r3 of strong melee dice (slays a dragon often)."""
    c = D.Catalog()
    for name, h, up in (("r1", 1, "r2"), ("r2", 2, "r3"), ("r3", 3, None)):
        c.units[name] = D.make_unit(
            name,
            race="chain",
            health=h,
            faces=["ID", "Melee 4", "Melee 4", "Melee 4", "Save 1", f"Melee {h}"],
            promotes_to=up,
        )
    # melee and missile dice promoting to s2 -> s3 (two dragons slain by one roll)
    c.units["s3"] = D.make_unit("s3", race="pair", health=3, faces=["Melee 1"] * 6)
    c.units["s2"] = D.make_unit(
        "s2", race="pair", health=2, faces=["Melee 1"] * 6, promotes_to="s3"
    )
    for name, kind in (("sw", "Melee"), ("bw", "Missile")):
        c.units[name] = D.make_unit(
            name, race="pair", health=1, faces=[f"{kind} 3"] * 6, promotes_to="s2"
        )
    return c


CAT = _cat()


def _attack(dragon, army, turns=1, **kw):
    return attack(dragon, army, n=N, seed=11, turns=turns, catalog=CAT, progress=False, **kw)


def _duel(spec, **kw):
    return duel(spec, n=N, seed=11, turns=6, progress=False, **kw)


def _melee(**kw):
    return melee("goblin-horde", "goblin-thug:5", n=N, seed=11, progress=False, **kw)


#: assumed rule -> (another legal value, a run that the value moves)
MOVES = {
    "id_split": ("save-first", lambda **o: _attack("red-wyrm", "goblin-horde", **o)),
    "casualty_policy": ("largest", lambda **o: _attack("red-wyrm", "goblin-warband", **o)),
    "partial_damage": ("round-up", lambda **o: _attack("red-wyrm", "goblin-warband", **o)),
    "damage_carries": (True, lambda **o: _attack("red-wyrm", "goblin-horde", 4, **o)),
    "promotion_supply": (
        "dead-area",
        lambda **o: _attack("red-wyrm", "goblin-warband", 3, **o),
    ),
    # two dragons slain by one roll: one round of promotions or one each
    "promotion_rounds": ("once", lambda **o: _attack("red-wyrm:2", "sw:4,bw:4", **o)),
    # r2 listed first: a treasure before the slaying promotes r2 -> r3, after it again
    "promotion_order": ("treasure-then-slaying", lambda **o: _attack("red-wyrm", "r2:1,r1:3", **o)),
    # a treasure promotes r2 -> r3 (army order) or r1 -> r2 (cheapest first): later attacks
    # meet another army
    "treasure_promotes": (
        "casualty-order",
        lambda **o: _attack("red-wyrm", "r2:1,r1:1", 4, **o),
    ),
    "frost_halving": ("per-unit", lambda **o: _attack("green-wyrm", "goblin-horde", **o)),
    "kin_not_rolled": ("all", lambda **o: _attack("black-wyrm", KIN_ARMY, **o)),
    "kin_in_dragon_attack": ("saves-only", lambda **o: _attack("black-wyrm", KIN_ARMY, **o)),
    "kin_removed_counts_as_lost": (
        False,
        lambda **o: _attack("red-wyrm", "goblin-thug:2,blue-dragonkin-common:2", 3, **o),
    ),
    # kin-first: in the casualty order the gold dragonkin come first
    "stone_same_colour_kin": (
        "casualty-order",
        lambda **o: _attack(
            "gold-wyrm", "goblin-thug:4,gold-dragonkin-common:2", policy="kin-first", **o
        ),
    ),
    "stone_targeting": (
        "best-savers-first",
        lambda **o: _attack("gold-wyrm", "goblin-warband", **o),
    ),
    "dvd_targeting": ("first-listed", lambda **o: _duel("red-wyrm,blue-drake,green-wyrm", **o)),
    "breath_negation_rounds": (0, lambda **o: _duel("red-wyrm,blue-drake", **o)),
    "melee_counter_attack": (False, lambda **o: _melee(**o)),
}

#: assumed rules that shape the catalog's unit dice rather than the kernels' options: another
#: legal value and a run it must move
CATALOG_MOVES = {
    # blue dragonkin are rolled against a red dragon ('will not battle dragons of their own
    # color' only): stronger melee faces slay it more often
    "dragonkin_faces": (
        ["Melee 3", "Melee 3", "Melee 3", "Belly", "Breath", "Melee 4"],
        lambda **o: _attack("red-wyrm", "goblin-thug:2,blue-dragonkin-uncommon:3", **o),
    ),
}

#: assumed rules no seeded run can move, and why (none today: every assumed rule has a
#: second reading the kernels implement)
CANNOT_MOVE: dict[str, str] = {}


def _assumed_names():
    return sorted(
        k.partition(".")[2] for k, r in registry("dice").items() if r.provenance == "assumed"
    )


def test_every_assumed_rule_has_a_scenario_that_moves():
    """A new assumed rule must come with a scenario here (or a stated reason it cannot)."""
    names = set(_assumed_names())
    listed = set(MOVES) | set(CATALOG_MOVES) | set(CANNOT_MOVE)
    assert names == listed, (
        f"assumed rules without a scenario: {sorted(names - listed)}; "
        f"listed but not assumed: {sorted(listed - names)}"
    )
    assert not set(MOVES) & set(CANNOT_MOVE)


@pytest.mark.parametrize("name", sorted(CATALOG_MOVES))
def test_overriding_an_assumed_unit_die_moves_a_seeded_run(name):
    """The shipped dragonkin dice are built from ``dice.dragonkin_faces`` under the rules in
    force (keyword, ``rules=`` or a rules file's ``[dice]`` table), so the override reaches the
    kernel and the exact odds alike."""
    alt, run = CATALOG_MOVES[name]
    assert alt != registry("dice")["dice." + name].value
    base = run()
    moved = run(**{name: alt})
    via_rules = run(rules=dice_rules({name: alt}))
    assert not np.array_equal(base.counters, moved.counters)
    assert np.array_equal(moved.counters, via_rules.counters)
    ex0 = exact_attack("red-wyrm", "goblin-thug:1,blue-dragonkin-common:1")
    ex1 = exact_attack("red-wyrm", "goblin-thug:1,blue-dragonkin-common:1", **{name: alt})
    assert ex0.dist != ex1.dist


@pytest.mark.parametrize("name", sorted(MOVES))
def test_overriding_an_assumed_rule_moves_a_seeded_run(name):
    alt, run = MOVES[name]
    rule = registry("dice")["dice." + name]
    assert alt != rule.value
    dice_rules({name: alt})  # a legal value of the rule
    base = run()
    moved = run(**{name: alt})
    assert base.options.to_dict()[_field(name)] == rule.value
    assert moved.options.to_dict()[_field(name)] == alt
    assert not np.array_equal(base.counters, moved.counters), name
    # the same override through a RuleSet (what a rules file's [dice] table gives)
    via_rules = run(rules=dice_rules({name: alt}))
    assert np.array_equal(via_rules.counters, moved.counters), name


def _field(name):
    return "policy" if name == "casualty_policy" else name


def test_options_are_a_view_of_the_rules_with_no_defaults_of_their_own():
    """The kernels read what the rules say: every Options field is a rule, and the shipped
    Options are the registry's values (the old 'one-per-dragon-slain' / 'per-dragon'
    disagreement cannot come back)."""
    import dataclasses

    reg = registry("dice")
    for f in dataclasses.fields(Options):
        assert f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    d = Options.defaults().to_dict()
    for name, v in d.items():
        assert reg["dice." + ("casualty_policy" if name == "policy" else name)].value == v
    assert d["promotion_rounds"] == "per-dragon"
    assert [r for r in D.rule_values() if r["key"] == "dice.promotion_rounds"][0]["value"] == (
        "per-dragon"
    )


def test_rows_of_the_dice_rules_give_every_column():
    rows = rows_of(dice_rules())
    assert {r["key"] for r in rows} == set(registry("dice"))
    for r in rows:
        assert r["provenance"] in ("printed", "derived", "assumed")
        assert r["source"].startswith("Dragon Dice Dragon Rules (09/13/96)") or (
            r["provenance"] == "assumed" and r["source"]
        )
        assert r["used_in"]
        # no text points outside the repository: tests/core/test_docs.py scans every file


def test_rule_texts_cite_the_rulebook_by_section():
    """Texts stand alone: a printed or derived rule cites the rules by name and section."""
    sections = ("'Dragon Attack'", "'Action Icons'", "'Breath Weapons'", "'Dragon vs. Dragon'")
    sections += ("'Dragonkin Rules'", "'Dragon Rules: Basics'")
    for r in registry("dice").values():
        if r.provenance in ("printed", "derived"):
            assert "Dragon Dice Dragon Rules (09/13/96)" in r.source, r.key
            assert any(s in r.source for s in sections), r.key


# ---------------------------------------------------------------- two readings, exact odds
def _ci_contains(r, total_i, sq_i, exact, z=5.0):
    n = r.n
    mean = int(r.counters[total_i]) / n
    var = max(int(r.counters[sq_i]) / n - mean * mean, 1e-12)
    return abs(mean - float(exact)) <= z * math.sqrt(var / n) + 1e-12


def test_dragonkin_not_rolled_both_readings_exactly_and_in_the_kernel():
    """Dragonkin Rules, 'Basics': "During a dragon attack, the dragonkin are not rolled, and
    their saves do not apply." Reading 1 (default): only dragonkin of the dragon's colour;
    reading 2: all dragonkin. On goblin-thug:2 with three uncommon (red) dragonkin a black
    wyrm is slain with probability 0.21 under the first and 0.00 under the second, exactly
    and in the kernel."""
    one = exact_attack("black-wyrm", KIN_ARMY)
    two = exact_attack("black-wyrm", KIN_ARMY, kin_not_rolled="all")
    assert round(float(one.p_dragon_slain), 2) == 0.21
    assert two.p_dragon_slain == 0
    n = 20_000
    mc1 = attack("black-wyrm", KIN_ARMY, n=n, seed=3, progress=False)
    mc2 = attack("black-wyrm", KIN_ARMY, n=n, seed=3, progress=False, kin_not_rolled="all")
    assert binomial_consistent(int(mc1.counters[K.C_ANY_SLAIN]), n, float(one.p_dragon_slain))
    assert int(mc2.counters[K.C_ANY_SLAIN]) == 0
    # the unrolled dragonkin roll no dice: fewer unit dice per attack
    assert mc2.dice_per_attack[1] < mc1.dice_per_attack[1]
    for e, mc in ((one, mc1), (two, mc2)):
        assert binomial_consistent(int(mc.counters[K.C_DESTROYED]), n, float(e.p_army_destroyed))
        assert _ci_contains(mc, K.C_LOST, K.C_LOST_SQ, e.mean_health_lost)


@pytest.mark.parametrize(
    "dragon,army,kw",
    [
        # frost: the army's sum halved per result type, or each unit's roll on its own
        ("green-wyrm", "goblin-thug:4,goblin-pelter:3", {}),
        ("green-wyrm", "goblin-thug:4,goblin-pelter:3", {"frost_halving": "per-unit"}),
        # dragonkin of another colour: melee and saves, or saves only
        ("black-wyrm", KIN_ARMY, {"kin_in_dragon_attack": "saves-only"}),
        # dragonkin removed with the last other unit: counted as lost or not
        ("red-wyrm", "goblin-thug:2,blue-dragonkin-common:2", {}),
        (
            "red-wyrm",
            "goblin-thug:2,blue-dragonkin-common:2",
            {"kin_removed_counts_as_lost": False},
        ),
        # gold breath: same-colour dragonkin targeted last or in the casualty order; the
        # owner's targets in the casualty order or the best savers first
        ("gold-wyrm", "goblin-thug:3,gold-dragonkin-common:2", {"policy": "kin-first"}),
        (
            "gold-wyrm",
            "goblin-thug:3,gold-dragonkin-common:2",
            {"policy": "kin-first", "stone_same_colour_kin": "casualty-order"},
        ),
        ("gold-wyrm", "goblin-thug:3,goblin-pelter:3", {"stone_targeting": "best-savers-first"}),
        # treasure and slaying: which first, and which unit the treasure promotes
        ("red-wyrm", "r2:1,r1:3", {}),
        ("red-wyrm", "r2:1,r1:3", {"promotion_order": "treasure-then-slaying"}),
        ("red-wyrm", "r2:1,r1:3", {"treasure_promotes": "casualty-order"}),
        ("red-wyrm", "r2:1,r1:3", {"treasure_promotes": "last-casualty"}),
    ],
)
def test_both_readings_match_exact_odds(dragon, army, kw):
    """Each reading's Monte Carlo agrees with the exact enumeration of one attack."""
    n = 20_000
    e = exact_attack(dragon, army, catalog=CAT, **kw)
    mc = attack(dragon, army, n=n, seed=5, catalog=CAT, progress=False, **kw)
    assert binomial_consistent(int(mc.counters[K.C_ANY_SLAIN]), n, float(e.p_dragon_slain))
    assert binomial_consistent(int(mc.counters[K.C_DESTROYED]), n, float(e.p_army_destroyed))
    assert binomial_consistent(int(mc.counters[K.C_PROMO_ANY]), n, float(e.p_any_promotion))
    assert _ci_contains(mc, K.C_LOST, K.C_LOST_SQ, e.mean_health_lost)
    mean_promos = sum(k * p for k, p in e.promotions().items())
    assert _ci_contains(mc, K.C_PROMO, K.C_PROMO_SQ, mean_promos)


@pytest.mark.parametrize(
    "dragon,army,rule,alt",
    [
        ("green-wyrm", "goblin-thug:4,goblin-pelter:3", "frost_halving", "per-unit"),
        ("black-wyrm", KIN_ARMY, "kin_in_dragon_attack", "saves-only"),
        ("black-wyrm", KIN_ARMY, "kin_not_rolled", "all"),
        ("red-wyrm", "r2:1,r1:3", "promotion_order", "treasure-then-slaying"),
        (
            "red-wyrm",
            "goblin-thug:2,blue-dragonkin-common:2",
            "kin_removed_counts_as_lost",
            False,
        ),
    ],
)
def test_the_two_readings_differ_exactly(dragon, army, rule, alt):
    """Where a sentence reads two ways, the readings give different exact answers."""
    one = exact_attack(dragon, army, catalog=CAT)
    two = exact_attack(dragon, army, catalog=CAT, **{rule: alt})
    assert one.dist != two.dist


@pytest.mark.parametrize(
    "one,two", [("army-order", "casualty-order"), ("casualty-order", "last-casualty")]
)
def test_which_unit_a_treasure_promotes_exact_game(one, two):
    """Action Icons: 'Treasure: After the attack is resolved, one unit in the target army may
    be promoted.' Which unit changes the army the next attacks meet: exactly (a game of three
    attacks) and in the kernel, which matches the exact game for each choice. (r2 listed
    first: army-order and last-casualty promote r2 -> r3, casualty-order r1 -> r2.)"""
    army = "r2:1,r1:1"
    base = exact_game("red-wyrm", army, turns=3, catalog=CAT, treasure_promotes=one)
    alt = exact_game("red-wyrm", army, turns=3, catalog=CAT, treasure_promotes=two)
    assert base.lost != alt.lost
    n = 20_000
    for e, kw in ((base, {"treasure_promotes": one}), (alt, {"treasure_promotes": two})):
        mc = attack("red-wyrm", army, n=n, seed=8, turns=3, catalog=CAT, progress=False, **kw)
        assert binomial_consistent(int(mc.counters[K.C_ANY_SLAIN]), n, float(e.p_dragon_slain))
        assert binomial_consistent(int(mc.counters[K.C_DESTROYED]), n, float(e.p_army_destroyed))
        mean_lost = sum(h * p for h, p in e.lost.items())
        assert _ci_contains(mc, K.C_LOST, K.C_LOST_SQ, mean_lost)


# ---------------------------------------------------------------- the rules file reaches
def _run(capsys, *argv):
    rc = main(list(argv))
    return rc, capsys.readouterr().out


def test_rules_file_dice_table_reaches_every_dice_command(tmp_path, capsys):
    """One rules file, its [dice] table read by every dice command that simulates or
    computes (and by `dice assumed`, which shows the values in force)."""
    f = tmp_path / "house.toml"
    f.write_text(
        '[lords]\naltitude_mod = [0, 0, 1, 1, 2]\n\n[dice]\nkin_not_rolled = "all"\n'
        "breath_negation_rounds = 0\nmelee_counter_attack = false\n"
    )
    attack_argv = ["dice", "attack", "--dragon", "black-wyrm", "--army", KIN_ARMY]
    rc, out = _run(capsys, *attack_argv, "-n", "4000", "--json")
    assert rc == 0 and json.loads(out)["p_dragon_slain"] > 0.15
    rc, out = _run(capsys, *attack_argv, "-n", "4000", "--json", "--rules", str(f))
    d = json.loads(out)
    assert rc == 0 and d["p_dragon_slain"] == 0.0 and d["options"]["kin_not_rolled"] == "all"
    rc, out = _run(capsys, "dice", "exact", "--dragon", "black-wyrm", "--army", KIN_ARMY, "--json")
    assert rc == 0 and json.loads(out)["p_dragon_slain"] > 0.2
    rc, out = _run(
        capsys,
        "dice",
        "exact",
        "--dragon",
        "black-wyrm",
        "--army",
        KIN_ARMY,
        "--rules",
        str(f),
        "--json",
    )
    assert rc == 0 and json.loads(out)["p_dragon_slain"] == 0.0
    rc, out = _run(
        capsys,
        "dice",
        "table",
        "--army",
        KIN_ARMY,
        "--dragons",
        "black-wyrm",
        "-n",
        "2000",
        "--rules",
        str(f),
        "--json",
    )
    assert rc == 0 and json.loads(out)["rows"][0]["p_dragon_slain"] == 0.0
    rc, out = _run(
        capsys,
        "dice",
        "sweep",
        "--army",
        KIN_ARMY,
        "--dragons",
        "black-wyrm",
        "-n",
        "500",
        "--max-copies",
        "1",
        "--rules",
        str(f),
        "--json",
    )
    assert rc == 0 and json.loads(out)["rows"][0]["p_slain"] == 0.0
    duel_argv = ["dice", "duel", "--a", "red-wyrm", "--b", "blue-drake", "--turns", "6"]
    rc, plain = _run(capsys, *duel_argv, "-n", "3000", "--json")
    rc2, filed = _run(capsys, *duel_argv, "-n", "3000", "--json", "--rules", str(f))
    assert rc == rc2 == 0 and json.loads(plain)["p_a_wins"] != json.loads(filed)["p_a_wins"]
    rc3, flagged = _run(
        capsys, *duel_argv, "-n", "3000", "--json", "--rules", str(f), "--negation-rounds", "2"
    )
    assert rc3 == 0 and json.loads(flagged)["p_a_wins"] == json.loads(plain)["p_a_wins"]
    melee_argv = ["dice", "melee", "--attacker", "goblin-horde", "--defender", "goblin-thug:5"]
    rc, out = _run(capsys, *melee_argv, "-n", "2000", "--json")
    assert rc == 0 and json.loads(out)["mean_attacker_health_lost"] > 0
    rc, out = _run(capsys, *melee_argv, "-n", "2000", "--json", "--rules", str(f))
    d = json.loads(out)
    assert rc == 0 and d["mean_attacker_health_lost"] == 0 and d["counter_attack"] is False
    rc, out = _run(capsys, "dice", "assumed", "--json", "--rules", str(f))
    vals = {r["key"]: r["value"] for r in json.loads(out)}
    assert rc == 0 and vals["dice.kin_not_rolled"] == "all"


def test_rules_file_refuses_bad_dice_values(tmp_path, capsys):
    f = tmp_path / "bad.toml"
    f.write_text('[dice]\nkin_not_rolled = "some"\n')
    rc = main(
        [
            "dice",
            "attack",
            "--dragon",
            "red-wyrm",
            "--army",
            "goblin-thug:2",
            "-n",
            "10",
            "--rules",
            str(f),
        ]
    )
    err = capsys.readouterr().err
    assert rc == 2 and "kin_not_rolled" in err and "dragon-colour" in err
