"""Every Dragon Lords rule is declared once, in ``dragonsim/rules/lords/``, as the book labels it.

A switch (a rule of play, true or false) carries its book label (advanced, or optional: "some
rules are labeled optional. This means that all players must agree to use them", p.15), its
page and its slot in the kernel's options; a reading (an assumed choice where the text is
ambiguous) carries the rule it reads and its slot. The options array's constants, the options
builder's keywords, every manifest's options and the presets are read from that one
declaration; these tests hold each of them to it.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from dragonsim.cli import main
from dragonsim.errors import RulesWarning
from dragonsim.lords.analysis.study import sensitivity, tournament
from dragonsim.lords.api import battle, duel, prepare
from dragonsim.lords.game import state as S
from dragonsim.lords.game.sheets import rule_switches
from dragonsim.rules import lords_rules, registry
from dragonsim.rules.core import Rule, RuleSet
from dragonsim.rules.lords import (
    ADVANCED,
    BASIC,
    DECLARED,
    KERNEL_SLOTS,
    OPTIONAL,
    OPTIONAL_TABLES,
    PRESETS,
    RUN_SLOTS,
    SLOT_RULES,
    SWITCHES,
    TABLES,
    derive,
)

REG = registry("lords")
#: the rules the book labels optional (pp. 15, 16, 19, 20, 22)
BOOK_OPTIONAL = {
    "lords.advanced.initiative",  # "These initiative rules are optional" (p.15)
    "lords.advanced.acceleration",  # "New Acceleration Allowances: This rule is optional" (p.16)
    "lords.advanced.turn_between",  # "Turning Between Move Phases: This rule is optional" (p.16)
    "lords.optional.critical_hits",  # "Critical Hits (optional)" (p.19)
    "lords.optional.fumbles",  # "Fumbles (optional)" (p.20)
    "lords.optional.multiple_hits",  # "Multiple Hits (optional)" (p.20)
    "lords.optional.tactics",  # "Tactics (optional)" (p.22)
}
#: string rules with choices that are read by the rules tables, not by an options slot
TABLE_READINGS = {"lords.self_damage_policy", "lords.rider_ground_attacker"}


def _opt_constants() -> dict[str, int]:
    return {k: v for k, v in vars(S).items() if k.startswith("OPT_") and isinstance(v, int)}


def test_every_options_slot_is_declared_once_in_the_registry():
    """The options array's constants are the registry's slots, one each, no index twice; a
    slot without its rule, or a rule without its slot, fails here."""
    consts = _opt_constants()
    assert sorted(consts.values()) == sorted(KERNEL_SLOTS.values())
    assert len(set(consts.values())) == len(consts)
    assert S.N_OPT == max(KERNEL_SLOTS.values()) + 1
    assert set(KERNEL_SLOTS) == set(RUN_SLOTS) | set(SLOT_RULES)
    for name, key in SLOT_RULES.items():
        assert REG[key].slot[0] == name
        const = "OPT_" + name.upper()
        assert consts[const] == KERNEL_SLOTS[name], const


def test_every_switch_and_reading_has_its_slot_label_and_page():
    """A true/false rule is a switch: label, page and slot; a rule of named values that the
    kernel reads is a reading of a switch, with its slot. Adding a rule without them fails."""
    for key, r in REG.items():
        if isinstance(r.value, bool):
            assert r.label in ("advanced", "optional") and r.page and r.slot, key
        elif isinstance(r.value, str) and r.choices and key not in TABLE_READINGS:
            assert r.slot is not None and r.reading_of in REG, key
            assert r.provenance == "assumed" and r.value == r.choices[0], key
            assert isinstance(REG[r.reading_of].value, bool), key


def test_presets_follow_the_book_labels():
    """p.15: "some rules are labeled optional. This means that all players must agree to use
    them": the labelled rules are in ``advanced+optional`` only; the Wizard and its spells
    (pp. 18, 24-25), which the book does not label optional, are in ``advanced``."""
    assert set(SWITCHES["optional"]) == BOOK_OPTIONAL
    assert PRESETS["basic"] == {}
    assert set(PRESETS["advanced"]) == set(SWITCHES["advanced"])
    assert "lords.advanced.wizard" in PRESETS["advanced"]
    assert set(PRESETS["advanced"]).isdisjoint(BOOK_OPTIONAL)
    assert set(PRESETS["advanced+optional"]) == set(SWITCHES["advanced"]) | BOOK_OPTIONAL
    assert all(v is True for p in PRESETS.values() for v in p.values())


def test_adding_a_rule_is_one_entry_in_one_registry(monkeypatch):
    """A new switch is one :class:`Rule` appended to one declaration list (its label, page and
    slot at the next free index): the presets by its label, the kernel's slots, the options
    array's length, the slot's rule, the preset table's rows, a rules set and the options a
    manifest records all follow from it, with nothing else edited."""
    free = max(KERNEL_SLOTS.values()) + 1
    new = Rule(
        "lords.optional.example",
        False,
        "printed",
        '"An example rule (optional)" (p.99)',
        "nowhere yet",
        label="optional",
        page="p.99",
        slot=("example", free),
    )
    # the one entry: appended to the optional rules' list, the other lists as declared
    t = derive([*BASIC, *ADVANCED, *OPTIONAL, new, *OPTIONAL_TABLES])
    assert derive(DECLARED) == TABLES

    assert t.switches["optional"] == SWITCHES["optional"] + ("lords.optional.example",)
    assert t.switches["advanced"] == SWITCHES["advanced"]
    assert t.presets["advanced+optional"]["lords.optional.example"] is True
    assert "lords.optional.example" not in t.presets["advanced"] and t.presets["basic"] == {}
    assert t.kernel_slots == {**KERNEL_SLOTS, "example": free}
    assert t.n_opt == free + 1
    assert t.slot_rules == {**SLOT_RULES, "example": "lords.optional.example"}
    row = t.preset_rows()[-1]
    assert row == {
        "key": "lords.optional.example",
        "page": "p.99",
        "label": "optional",
        "presets": ["advanced+optional"],
        "readings": [],
    }
    assert RuleSet(t.rules, {"lords.optional.example": True}).get("lords.optional.example")

    # the options array and what a manifest records of it are built from the tables alone
    monkeypatch.setattr(S, "_TABLES", t)
    o = S.default_options(example=True)
    assert len(o) == free + 1 and o[free] == 1 and o[:free].sum() == S.default_options().sum()
    assert S.options_of(o)["example"] is True
    assert S.options_of(S.default_options())["example"] is False

    # a second rule at a slot already taken is refused
    clash = Rule(
        "lords.optional.clash",
        False,
        "printed",
        "p.99",
        "",
        label="optional",
        page="p.99",
        slot=("clash", free),
    )
    with pytest.raises(ValueError, match="slot"):
        derive(DECLARED + [new, clash])
    with pytest.raises(ValueError, match="key"):
        derive(DECLARED + [DECLARED[0]])


def test_the_old_wizard_key_is_still_read():
    """``lords.optional.wizard`` of earlier rules files is read as ``lords.advanced.wizard``."""
    old = lords_rules({"optional.wizard": True})
    assert old.hash == lords_rules({"advanced.wizard": True}).hash


@pytest.mark.parametrize("key", sorted(SLOT_RULES.values()))
def test_each_rule_sets_its_own_slot_and_no_other(key):
    """Turning a switch on, or a reading to its other value, changes exactly its own slot of
    the options a duel's kernel gets."""
    r = REG[key]
    other = True if isinstance(r.value, bool) else r.choices[1]
    base = prepare("Skyblazer", "Tankerous")["options"]
    moved = prepare("Skyblazer", "Tankerous", rules={key: other})["options"]
    assert np.flatnonzero(base != moved).tolist() == [r.slot[1]]


def test_default_options_refuses_a_slot_it_does_not_know():
    with pytest.raises(TypeError, match="no_such_rule"):
        S.default_options(no_such_rule=True)


def _rule_part(options: dict) -> dict:
    return {k: options[k] for k in SLOT_RULES}


@pytest.mark.slow
def test_every_command_names_the_same_rules_in_its_manifest():
    """The duel, battle, tournament and sensitivity manifests record the same rules for the
    same rules set: every slot, by name (the battle's once lacked the turning readings, the
    duel's the range modifier)."""
    rules = {**PRESETS["advanced+optional"], "lords.turn_between_180": "reset"}
    want = rule_switches(lords_rules(rules))
    d = duel("Reaper", "Skyblazer", n=10, progress=False, rules=rules).manifest["options"]
    b = battle(["Reaper", "Skyblazer", "Slash"], n=10, progress=False, rules=rules)
    t = tournament(["Reaper", "Skyblazer"], n=10, progress=False, rules=rules).manifest
    s = sensitivity(
        "Reaper", "Skyblazer", rule="altitude_mod", values=[[0, 1, 1, 2, 2]], n=10, rules=rules
    ).attrs["manifest"]
    assert want["turn_180_reset"] is True
    assert _rule_part(d) == _rule_part(b.manifest["options"]) == want
    assert _rule_part(t["options"]) == _rule_part(s["options"]) == want
    assert d["range_mod"] is True and b.manifest["options"]["range_mod"] is True


def test_the_analyses_name_the_rules_in_their_manifests(tmp_path):
    """prices, best, skill and the baseline record the rules they played, by slot, as the
    duel does."""
    from dragonsim.lords import best, prices
    from dragonsim.lords.analysis import baseline

    rules = {**PRESETS["advanced"], "lords.crash_stuck": "every-crash"}
    want = rule_switches(lords_rules(rules))
    assert want["crash_stuck_every"] is True
    p = prices(budget=12, n=1, designs=60, rules=rules, progress=False)
    assert _rule_part(p.manifest["options"]) == want
    r = best(budget=12, n0=1, rounds=1, rules=rules, progress=False)
    assert _rule_part(r.manifest["options"]) == want
    stored = baseline.write(tmp_path / "b.json", n=10, rules=rules)
    assert _rule_part(stored["manifest"]["options"]) == want


@pytest.fixture(scope="module")
def riders_all():
    """Four dragons with a Lancer, a Wizard, a Crossbow Shooter and MR A, random bots and
    random spells, beside Tankerous against Zippinchill, brawlers, who engage at Tankerous's
    lowest speeds: every switch has something to change here."""

    def run(rules):
        free = battle(
            ["Tankerous", "Slash", "Ozonic", "Zippinchill"],
            n=120,
            seed=11,
            policy="random",
            spells="random",
            progress=False,
            rules=rules,
        ).counters
        brawl = duel(
            "Tankerous",
            "Zippinchill",
            n=200,
            seed=11,
            policy="brawler",
            progress=False,
            rules=rules,
        ).counters
        return np.concatenate([free, brawl])

    return run


@pytest.mark.parametrize("key", sorted(SWITCHES["advanced"] + SWITCHES["optional"]))
def test_each_switch_changes_the_games(key, riders_all):
    """A switch reaches the kernel: advanced+optional with it off plays other games than
    with it on (the same seed, so the difference is the switch's)."""
    on = riders_all("advanced+optional")
    off = riders_all({**PRESETS["advanced+optional"], key: False})
    assert not np.array_equal(on, off), f"{key} off did not change the games"


def test_fumbles_without_criticals_warn_quoting_the_book():
    """Allowed, with a warning: "If you use the rules for fumbles, you should also use the
    rules for critical hits" (p.20); fumbles with criticals, or criticals alone, say nothing."""
    with pytest.warns(RulesWarning, match="you should also use the rules for critical hits"):
        lords_rules({"optional.fumbles": True})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lords_rules({"optional.fumbles": True, "optional.critical_hits": True})
        lords_rules({"optional.critical_hits": True})


def test_the_command_line_prints_the_fumbles_warning_as_one_line(capsys, tmp_path):
    p = tmp_path / "r.toml"
    p.write_text('[lords]\n"optional.fumbles" = true\n')
    with warnings.catch_warnings():
        warnings.simplefilter("always")  # shown whether or not an earlier test showed it
        assert main(["odds", "close-combat", "Reaper", "Slash", "--rules", str(p)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("warning: fumbles are on without critical hits") and "p.20" in err
    assert len(err.strip().splitlines()) == 1


def test_rules_presets_prints_the_table(capsys):
    """``rules presets``: each switch with its page, label, presets and readings."""
    assert main(["rules", "presets", "--json"]) == 0
    rows = {r["key"]: r for r in json.loads(capsys.readouterr().out)["rules"]}
    for key in BOOK_OPTIONAL:
        assert rows[key]["label"] == "optional" and rows[key]["presets"] == ["advanced+optional"]
    assert rows["lords.advanced.wizard"]["presets"] == ["advanced", "advanced+optional"]
    assert [q["key"] for q in rows["lords.optional.multiple_hits"]["readings"]] == [
        "lords.hit_limit_order"
    ]
    assert main(["rules", "presets"]) == 0
    out = capsys.readouterr().out
    assert "lords.advanced.initiative      p.15" in out
    assert "reading lords.hit_limit_order: high-first (default); low-first" in out


def test_rules_assumed_lists_the_cut_off_rows(capsys):
    """Critical-hit row 12 and fumble rows 10-12 are cut off in the source: assumed."""
    assert main(["rules", "--game", "lords", "--assumed", "--json"]) == 0
    keys = {r["key"] for r in json.loads(capsys.readouterr().out)["rules"]}
    assert {"lords.critical_hits.12", "lords.fumbles.10", "lords.fumbles.12"} <= keys
    assert {"lords.hit_limit_order", "lords.initiative_tie", "lords.crash_stuck"} <= keys


def test_spells_are_cast_under_advanced(capsys):
    """The Wizard is in the advanced game: ``duel Slash Reaper --rules advanced --json``
    reports spells cast."""
    argv = ["duel", "Slash", "Reaper", "-n", "200", "--rules", "advanced", "--json"]
    assert main(argv) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["manifest"]["options"]["wizard"] is True
    assert sum(d["play"]["spells_cast"].values()) > 0


def test_sensitivity_of_a_reading_is_one_command(capsys):
    """``sensitivity A B --rule READING`` plays the reading's other values on common games:
    ``--rule lords.hit_limit_order`` alone compares high-first (in force) with low-first; a
    rule that is neither a switch nor a reading still needs ``--values``, in one line."""
    argv = ["sensitivity", "Slash", "Reaper", "-n", "200", "--json", "--rules"]
    rc = main([*argv, "advanced+optional", "--rule", "lords.hit_limit_order"])
    assert rc == 0
    d = json.loads(capsys.readouterr().out)
    assert [json.loads(r["value"]) for r in d["rows"]] == ["low-first"]
    assert main([*argv, "advanced", "--rule", "optional.tactics"]) == 0
    assert [json.loads(r["value"]) for r in json.loads(capsys.readouterr().out)["rows"]] == [True]
    assert main(["sensitivity", "Slash", "Reaper", "-n", "10", "--rule", "altitude_mod"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--values is needed for lords.altitude_mod" in err[0]
