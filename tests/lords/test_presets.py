"""Rules presets (``basic``, ``advanced``, ``advanced+optional``) and the rules the engine plays.

Dragon Lords rulebook, advanced rules (pp. 15-18): the "Maneuverability Effect on Initiative
Roll" (p.15), the "Advanced Acceleration Allowance" by wing size (p.16), the Lancer's "+2
to the dragon's close combat roll and +4 points of damage in close combat" (p.18), and the
riders' attacks and deaths (p.18; their own tests are ``tests/lords/test_riders.py``) and moving
earlier in the phase (p.15; ``tests/lords/test_move_early.py``). Each is a
switch of its own (``lords.advanced.*``); ``advanced`` turns on exactly these, ``basic`` none.
"""

from __future__ import annotations

import json
import re
import sys
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from numba import njit

from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.lords import engine as E
from dragonsim.lords.api import duel, prepare
from dragonsim.lords.engine.inputs import guard
from dragonsim.lords.game import mechanics as M
from dragonsim.lords.game import odds
from dragonsim.lords.game import state as S
from dragonsim.lords.game.sheets import close_combat_modifier, design, sheet
from dragonsim.random import STREAM_GAME, STREAM_POLICY, seed_stream
from dragonsim.rules import lords_rules, presets, registry
from dragonsim.rules.lords import OPTIONAL_TO_COME, TO_COME
from dragonsim.stats import binomial_consistent

#: the rules of the advanced sections the book does not label optional (pp. 15-18, 22, 24-25),
#: in ``advanced``: the riders with the Wizard's spells, moving early, the ground, banking
SWITCHES = {
    "lords.advanced.lancer": S.OPT_RIDERS,
    "lords.advanced.rider_attacks": S.OPT_RIDER_ATTACKS,
    "lords.advanced.rider_deaths": S.OPT_RIDER_DEATHS,
    "lords.advanced.wizard": S.OPT_WIZARD,
    "lords.advanced.move_early": S.OPT_MOVE_EARLY,
    "lords.advanced.crash_very_low": S.OPT_CRASH_VERY_LOW,
    "lords.advanced.crash_slow": S.OPT_CRASH_SLOW,
    "lords.advanced.crash_zeroed": S.OPT_CRASH_ZEROED,
    "lords.advanced.landing": S.OPT_LANDING,
    "lords.advanced.banking": S.OPT_BANKING,
}
#: the rules the book labels optional ("This means that all players must agree to use them",
#: p.15): the initiative rules (p.15), New Acceleration Allowances and Turning Between Move
#: Phases (p.16), Critical Hits (p.19), Fumbles and Multiple Hits (p.20), Tactics (p.22); in
#: advanced+optional only
OPTIONAL_SWITCHES = {
    "lords.advanced.initiative": S.OPT_INIT_MOD,
    "lords.advanced.acceleration": S.OPT_ACCEL_WINGS,
    "lords.advanced.turn_between": S.OPT_TURN_BETWEEN,
    "lords.optional.critical_hits": S.OPT_CRITICALS,
    "lords.optional.fumbles": S.OPT_FUMBLES,
    "lords.optional.multiple_hits": S.OPT_HIT_LIMIT,
    "lords.optional.tactics": S.OPT_TACTICS,
}
ALL_SWITCHES = {**SWITCHES, **OPTIONAL_SWITCHES}
ALPHA = 1e-4


# ---- presets -------------------------------------------------------------------------------
def test_basic_is_todays_game():
    """``basic`` is the defaults: the same values and hash, no overrides, and a seeded duel
    gives the same counters with ``rules="basic"`` as with no rules at all."""
    rs = lords_rules(preset="basic")
    assert rs.hash == lords_rules().hash and rs.overrides == {} and rs.preset == "basic"
    a = duel("Tankerous", "Skyblazer", n=200, seed=5, progress=False).counters
    b = duel("Tankerous", "Skyblazer", n=200, seed=5, progress=False, rules="basic").counters
    assert np.array_equal(a, b)


@pytest.mark.slow
def test_advanced_turns_on_exactly_the_rules_implemented():
    """Every switch is a true/false rule under ``lords.advanced.`` or ``lords.optional.``,
    off by default; the ``advanced`` preset turns on every advanced one and nothing else,
    ``advanced+optional`` every one of both (optional rules, pp. 19-20), and they reach the
    kernel's options; the rules still to come are listed, not switched."""
    reg = registry("lords")
    switches = {k for k, r in reg.items() if isinstance(r.value, bool)}
    assert switches == set(ALL_SWITCHES)
    assert all(reg[k].value is False and reg[k].provenance == "printed" for k in switches)
    assert presets("lords") == {
        "basic": {},
        "advanced": dict.fromkeys(SWITCHES, True),
        "advanced+optional": dict.fromkeys(ALL_SWITCHES, True),
    }
    opt = prepare("Skyblazer", "Tankerous", rules="advanced")["options"]
    assert all(opt[i] == 1 for i in SWITCHES.values())
    assert not any(opt[i] for i in OPTIONAL_SWITCHES.values())
    opt = prepare("Skyblazer", "Tankerous", rules="advanced+optional")["options"]
    assert all(opt[i] == 1 for i in ALL_SWITCHES.values())
    # every advanced and optional rule is in: none still to come
    assert TO_COME == () and OPTIONAL_TO_COME == ()


@pytest.mark.parametrize("key", list(ALL_SWITCHES))
def test_each_switch_alone(key):
    """A switch turned on alone sets its own kernel option and no other."""
    opt = prepare("Skyblazer", "Tankerous", rules={key: True})["options"]
    got = {k: int(opt[i]) for k, i in ALL_SWITCHES.items()}
    assert got == {k: int(k == key) for k in ALL_SWITCHES}


def test_a_rules_file_names_a_preset_and_overrides_one_switch(tmp_path):
    """``preset = "advanced"`` then ``[lords] advanced.lancer = false``: the other
    advanced rules stay on; the hash differs from both presets; the old 0/1 name of the
    Lancer's switch is still read."""
    f = tmp_path / "r.toml"
    f.write_text('preset = "advanced"\n[lords]\nadvanced.lancer = false\n')
    rs = lords_rules(file=f)
    assert rs.preset == "advanced"
    assert [rs.get(k) for k in SWITCHES] == [k != "lords.advanced.lancer" for k in SWITCHES]
    assert rs.hash not in {lords_rules(preset=p).hash for p in ("basic", "advanced")}
    old = lords_rules({"riders_in_play": 1})
    assert old.hash == lords_rules({"advanced.lancer": True}).hash


@pytest.mark.parametrize(
    "kw, needle",
    [
        ({"preset": "advancd"}, "did you mean 'advanced'"),
        ({"overrides": {"advanced.lancer": 1}}, "expected true or false"),
        ({"overrides": {"riders_in_play": 2}}, "is now 'lords.advanced.lancer'"),
    ],
)
def test_bad_presets_and_switches_are_one_clear_line(kw, needle):
    with pytest.raises(UserError, match=needle):
        lords_rules(**kw)


def test_python_rules_names_a_preset():
    """``rules="advanced"`` wherever ``rules=`` is taken: sheets, odds, duels; the manifest
    records the switches (as overrides, in the hash, and in the options)."""
    t = sheet("Tankerous", rules="advanced")
    assert close_combat_modifier(t, "advanced") == t.cc + 2
    assert odds.close_combat("Zippinchill", "Tankerous", rules="advanced") == (
        odds.close_combat_by_difference(9 - 3)
    )
    man = duel("Reaper", "Skyblazer", n=20, seed=1, progress=False, rules="advanced").manifest
    assert man["rules_overrides"] == dict.fromkeys(SWITCHES, True)
    assert man["rules_hash"] == lords_rules(preset="advanced").hash
    assert (man["options"]["init_mod"], man["options"]["accel_wings"]) == (False, False)
    assert man["options"]["wizard"] is True
    with pytest.raises(UserError, match="unknown preset 'expert'"):
        duel("Reaper", "Skyblazer", n=20, progress=False, rules="expert")


def test_cli_rules_lists_switches_presets_and_what_is_to_come(capsys):
    assert main(["rules", "--game", "lords", "--rules", "advanced", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["games"]["lords"]["preset"] == "advanced"
    assert {s["key"]: (s["value"], s["presets"]) for s in d["switches"]} == {
        **{k: (True, ["advanced", "advanced+optional"]) for k in SWITCHES},
        **{k: (False, ["advanced+optional"]) for k in OPTIONAL_SWITCHES},
    }
    assert [t["rule"] for t in d["to_come"]] == [r for r, _ in TO_COME]
    assert [t["rule"] for t in d["optional_to_come"]] == [r for r, _ in OPTIONAL_TO_COME]
    assert main(["rules", "--game", "lords", "--rules", "basic"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"lords\.advanced\.initiative +false  on in: advanced\+optional$", out, re.M)
    assert re.search(r"lords\.advanced\.wizard +false  on in: advanced, advanced\+", out)
    assert re.search(r"lords\.optional\.fumbles +false  on in: advanced\+optional", out)
    assert "still to come" not in out  # every rule of the rulebook is in
    assert re.search(r"lords\.advanced\.turn_between +false  on in: advanced\+optional", out)


def test_cli_duel_takes_a_preset(capsys):
    """``--rules advanced`` where ``--rules FILE`` is; a misspelt preset is one line naming
    the preset it is near, exit 2."""
    argv = ["duel", "Tankerous", "Zippinchill", "-n", "50", "--json", "--rules", "advanced"]
    assert main(argv) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["manifest"]["rules_overrides"] == dict.fromkeys(SWITCHES, True)
    assert main(["duel", "Tankerous", "Zippinchill", "-n", "50", "--rules", "advancd"]) == 2
    err = capsys.readouterr().err
    assert "neither a preset" in err and "did you mean 'advanced'" in err
    argv = ["duel", "Tankerous", "Zippinchill", "-n", "50", "--json"]
    assert main([*argv, "--rules", "advanced+optional"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["manifest"]["rules_overrides"] == dict.fromkeys(ALL_SWITCHES, True)


# ---- initiative (p.15) ---------------------------------------------------------------------
@njit(cache=True)
def _later(n, seed, rows, opt, tb, w, tail_hit):
    """How often dragon 0 is second in initiative order (moves later) in ``n`` initiative
    phases of the engine, each from its own streams; ``tail_hit``: dragon 0's tail below
    half first (serious damage, p.12)."""
    ds = w.ds[:2]
    cnt = np.zeros(S.N_COUNTERS, np.int64)
    later = 0
    for k in range(n):
        seed_stream(w.gst, seed, k, np.int64(STREAM_GAME))
        seed_stream(w.pst, seed, k, np.int64(STREAM_POLICY))
        E.init_dragons(ds, rows, tb, opt)
        if tail_hit:
            ds[0, S.F_DP + S.PART_TAIL] = 1
            M.refresh(ds, 0, tb.scalars, opt)
        E.initiative(ds, np.int64(2), E.rules_inputs(opt, tb), w, cnt)
        later += ds[0, S.F_INIT]
    return later


def _p_later(m0: int, m1: int) -> Fraction:
    """Exact: dragon 0 (modifier m0) rolls 2d6 + m0 against 2d6 + m1, "lower numbers move
    before ... higher ones", a tie rolled off (even odds)."""
    rolls = [a + b for a, b in product(range(1, 7), repeat=2)]
    p = Fraction(0)
    for x, y in product(rolls, repeat=2):
        if x + m0 > y + m1:
            p += Fraction(1, 1296)
        elif x + m0 == y + m1:
            p += Fraction(1, 2592)
    return p


def test_initiative_modifier_by_maneuverability_rechecked_after_a_tail_hit():
    """ "Maneuverability Effect on Initiative Roll": A-C +2, D-F 0, G-I -2 (p.15). Skyblazer
    (MR C, +2) against Tankerous (MR I, -2) moves later with the exact probability of
    2d6 + 2 > 2d6 - 2; after a tail hit drops Skyblazer two steps to E ("does affect", p.12)
    its modifier is 0; without the switch the order is even. Exact binomial tests."""
    n = 20_000
    w = E.new_work()
    cases = [
        ({"advanced.initiative": True}, False, _p_later(2, -2)),
        ({"advanced.initiative": True}, True, _p_later(0, -2)),
        ({}, False, Fraction(1, 2)),
        ({}, True, Fraction(1, 2)),
    ]
    for k, (ov, tail, p) in enumerate(cases):
        rows, _, opt, tb, _, _ = prepare("Skyblazer", "Tankerous", rules=ov)["args"]
        later = _later(n, 900 + k, rows, opt, tb, w, tail)
        assert binomial_consistent(int(later), n, float(p), ALPHA / len(cases)), (ov, tail, later)
    assert _p_later(2, -2) > _p_later(0, -2) > Fraction(1, 2)


# ---- acceleration (p.16) -------------------------------------------------------------------
@pytest.mark.parametrize(
    "wings, accel", [("Huge", 6), ("Large", 5), ("Medium", 4), ("Small", 3), ("Tiny", 2)]
)
def test_acceleration_by_wing_size(wings, accel):
    """ "Advanced Acceleration Allowance" (p.16): Huge 6, Large 5, Medium 4, Small 3, Tiny 2
    points faster than last turn; the basic rules' 3 (p.7) without the switch. A Very Light
    body (minimum speed 1), last turn at speed 1, through the options a duel gets."""
    d = design(body="Very Light", wings=wings, breath="Cold", claws="Blunt")
    for ov, up in (({"advanced.acceleration": True}, accel), ({}, 3)):
        rows, _, opt, tb, _, _ = prepare(d, d, rules=ov)["args"]
        ds = np.zeros((1, S.NF), np.int64)
        E.init_dragons(ds, rows[:1], tb, S.default_options())
        M.record_speed(ds, 0, 1, tb.scalars)
        assert M.speed_limits(ds, 0, tb.scalars, tb.accel_wings, opt) == (1, 1 + up)


def test_advanced_games_run_and_differ_from_basic():
    """Common random numbers: the same seeded duel under ``advanced`` is a different game
    (the rules reach the kernel), and every game still ends with a result."""
    a = duel("Skyblazer", "Tankerous", n=200, seed=2, progress=False)
    b = duel("Skyblazer", "Tankerous", n=200, seed=2, progress=False, rules="advanced")
    assert b.wins_a + b.wins_b + b.draws == 200
    assert not np.array_equal(a.counters, b.counters)


# ---- the Lancer (p.18), one truth with odds ------------------------------------------------
@njit(cache=True)
def _fights(n, seed, rows, opt, tb, w):
    """``n`` close combats of two healthy dragons through the engine's own phase; the
    ``C_CC`` counters."""
    ds = w.ds[:2]
    cnt = np.zeros(S.N_COUNTERS, np.int64)
    for k in range(n):
        seed_stream(w.gst, seed, k, np.int64(STREAM_GAME))
        seed_stream(w.pst, seed, k, np.int64(STREAM_POLICY))
        E.init_dragons(ds, rows, tb, opt)
        for i in range(2):
            ds[i, S.F_ENG] = 1 - i
            ds[i, S.F_INIT] = i
            ds[i, S.F_ALT] = 3
            ds[i, S.F_SPEED] = ds[i, S.F_MIN]
            w.order[i] = i
        E.close_combat(ds, np.int64(2), E.rules_inputs(opt, tb), w, cnt, np.int64(1), None)
    return cnt[S.C_CC : S.C_CC + 3 * (S.CC_DIFF_MAX + 1)].reshape(-1, 3)


@pytest.mark.parametrize("printed", [0, 1])
def test_lancer_counts_in_odds_exactly_when_the_engine_does(printed):
    """Tankerous (MR I, a Lancer) against Zippinchill (MR A, 9), under both readings of
    Tankerous's sheet (close combat 1 from MR I, or the printed 9, p.34), with the Lancer's
    switch off and on: the engine's close combats fall in the bin of the odds' modifier
    difference (+2 for the Lancer exactly when the switch is on, p.18), and win / draw / loss
    agree with odds.close_combat (exact binomial tests)."""
    n = 4000
    w = E.new_work()
    checks = []
    for lancer in (False, True):
        rs = lords_rules({"printed_sheet_values": printed, "advanced.lancer": lancer})
        rows, _, opt, tb, _, _ = prepare("Tankerous", "Zippinchill", rules=rs)["args"]
        t = sheet("Tankerous", rules=rs)
        mt = close_combat_modifier(t, rs)
        assert mt == (9 if printed else 1) + (2 if lancer else 0)
        diff = mt - 9
        cc = _fights(n, 40 + printed * 2 + lancer, rows, opt, tb, w)
        assert [int(d) - S.CC_DIFF_ZERO for d in np.flatnonzero(cc.sum(axis=1))] == [diff]
        checks.append((cc[diff + S.CC_DIFF_ZERO], odds.close_combat(t, "Zippinchill", rules=rs)))
    for row, exact in checks:
        for k in range(3):
            assert binomial_consistent(int(row[k]), n, float(exact[k]), ALPHA / 6), (row, exact)


def test_lancer_damage_plus_four():
    """ "+4 points of damage in close combat" (p.18): the same decided close combat (same
    dice) deals 4 more with the switch on; none without a Lancer."""
    for name, extra in (("Tankerous", 4), ("Zippinchill", 0)):
        dealt = []
        for rules in ("basic", "advanced"):
            rows, _, opt, tb, _, _ = prepare(name, "Reaper", rules=rules)["args"]
            ds = np.zeros((2, S.NF), np.int64)
            E.init_dragons(ds, rows, tb, S.default_options())
            M.resolve_close_combat(ds, 0, 1, (0, 7, 10, 0, 0, 0), tb, opt)
            dealt.append(int(ds[0, S.F_DEALT]))
        assert dealt[1] - dealt[0] == extra, name


# ---- every bot plays the advanced rules legally -------------------------------------------
@pytest.mark.slow
def test_every_bot_is_legal_under_advanced():
    """The independent checker (``tests/lords_reference.py``), told the advanced acceleration
    (optional, p.16), finds no illegal step in games of every bot under ``advanced`` with that
    rule added; the Huge-winged Skyblazer does use the allowance: some recorded speed is more
    than 3 over last turn's, which the basic rules' checker (p.7) refuses."""
    import lords_reference as ref

    from dragonsim.lords.bots import POLICIES

    rules = {**presets("lords")["advanced"], "lords.advanced.acceleration": True}
    faster = 0
    for k, pol in enumerate(POLICIES):
        for game in range(2):
            prep = prepare("Skyblazer", "Tankerous", policies=(pol, "random"), rules=rules)
            cnt, log = E.logged_game(game, 21 + k, *prep["args"], 5000)
            rows, tb = prep["args"][0], prep["tables"]
            assert ref.check_log(log, 2, rows, tb, options=prep["options"]) == [], pol
            basic = ref.check_log(log, 2, rows, tb)
            faster += sum(v.kind == "speed" and "outside" in v.why for v in basic)
    assert faster > 0


# the compiled helpers above inline the engine's phases: their cache goes whenever a file of
# the engine, the bots or the game changes (a kept one would run yesterday's engine)
guard(sys.modules[__name__])
