"""Riders in the advanced rules (Dragon Lords rulebook, pp. 15 and 18).

"4. Record Rider Actions" and "5. Rider Actions" (p.15): the Javelin Thrower, Archer and
Crossbow Shooter shoot "at any target within range. The attack is handled like a dragon's
breath weapon attack. Riders have a full 360 deg arc of fire" (p.18), with the ranges and
damage of the Rider Abilities Table (p.18). "Whenever a dragon's body is hit in breath or
close combat, roll 2d6 ... If the result is a 7, the rider has been hit instead of the dragon
... the rider is instantly killed. The dragon takes no damage from the attack" (p.18).

Two switches (``lords.advanced.rider_attacks``, ``lords.advanced.rider_deaths``), both in the
``advanced`` preset, and two assumed readings (``lords.rider_engaged_targets``,
``lords.rider_effects``).
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import lords_reference as ref
import numpy as np
import pytest

from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.lords import engine as E
from dragonsim.lords.api import battle, battle_setup, duel, prepare
from dragonsim.lords.bots import POLICIES
from dragonsim.lords.game import mechanics as M
from dragonsim.lords.game import odds
from dragonsim.lords.game import state as S
from dragonsim.lords.game.sheets import sheet
from dragonsim.lords.game.tables import S_BASE_TO_HIT
from dragonsim.lords.views.script import load_script, play_script
from dragonsim.rules import lords_rules
from dragonsim.stats import binomial_consistent

ALPHA = 1e-4
#: the ready-made dragons whose rider shoots (pp. 30-35)
SHOOTERS = {"Blowderby": "Javelin Thrower", "Fiercival": "Archer", "Ozonic": "Crossbow Shooter"}
ADVANCED = lords_rules(preset="advanced")
ATTACKS = {"lords.advanced.rider_attacks": True}
DEATHS = {"lords.advanced.rider_deaths": True}


def p_roll_hits(tn: int) -> Fraction:
    """P(2d6 hits ``tn``) under "A roll of 2 always misses, and a roll of 12 always hits"
    (p.10), which a rider attack shares, counted here over the 36 faces."""
    faces = [a + b for a, b in product(range(1, 7), repeat=2)]
    return Fraction(sum(s != 2 and (s == 12 or s >= tn) for s in faces), 36)


def _state(a: str, b: str, rules=ADVANCED):
    """Two dragons' state rows in play, on two teams, not engaged."""
    rows, _, opt, tb, _, _ = prepare(a, b, rules=rules)["args"]
    ds = np.zeros((2, S.NF), np.int64)
    E.init_dragons(ds, rows, tb, S.default_options())
    ds[:, S.F_ALIVE] = 1
    ds[:, S.F_ENG] = -1
    ds[:, S.F_TEAM] = (0, 1)
    ds[:, S.F_Q], ds[:, S.F_R], ds[:, S.F_ALT] = (10, 12), (10, 10), (3, 3)
    return ds, opt, tb


# ---- the to-hit number, the reach, the targets ---------------------------------------------------
@pytest.mark.parametrize("attacker", list(SHOOTERS))
def test_rider_target_number_is_the_odds_number(attacker):
    """The engine's rider target number and band equal ``odds.rider_attack``'s at every
    distance of the Rider Abilities Table's reach and every altitude difference, in front of
    the dragon or behind it ("a full 360 deg arc of fire", p.18); beyond the long range there
    is no shot."""
    for target in ("Reaper", "Zippinchill", "Tankerous"):
        ds, _, tb = _state(attacker, target)
        reach = int(tb.rider_range[ds[0, S.F_RIDER], 1])
        assert (
            reach == {"Javelin Thrower": 2, "Archer": 4, "Crossbow Shooter": 6}[SHOOTERS[attacker]]
        )
        for dist, steps, behind in product(range(1, reach + 2), range(5), (False, True)):
            ds[1, S.F_Q] = 10 - dist if behind else 10 + dist
            ds[0, S.F_ALT], ds[1, S.F_ALT] = 5, 5 - steps
            tn, band = M.rider_target_number(
                ds, 0, 1, tb.scalars[S_BASE_TO_HIT], tb.alt_mod, tb.rider_range, tb.scalars
            )
            if dist > reach:
                assert (tn, band) == (-1, -1)
                continue
            want = odds.rider_attack(
                attacker, target, distance=dist, altitude_steps=steps, rules=ADVANCED
            )
            assert tn == want["target_number"], (attacker, target, dist, steps)
            assert ("medium", "long")[band] == want["band"]


def test_riders_without_a_shot_and_engaged_targets():
    """The Lancer "cannot attack at range" and the Wizard casts spells (the optional
    ``lords.advanced.wizard``, tests/lords/test_wizard_spells.py): neither has a rider's
    reach. A rider may shoot "at its dragon's opponent"; a dragon engaged with another is out
    of reach as for breath (p.10) unless the reading ``lords.rider_engaged_targets = "any"``."""
    for name in ("Tankerous", "Slash", "Reaper"):
        ds, _, tb = _state(name, "Reaper")
        assert tb.rider_range[ds[0, S.F_RIDER], 1] == 0
    ds, opt, _ = _state("Ozonic", "Reaper")
    assert M.may_shoot_at(ds, 0, 1, opt)
    ds[1, S.F_ENG] = 0  # engaged with the rider's own dragon
    assert M.may_shoot_at(ds, 0, 1, opt)
    ds[1, S.F_ENG] = 5  # engaged with another dragon
    assert not M.may_shoot_at(ds, 0, 1, opt)
    any_opt = prepare("Ozonic", "Reaper", rules={**ATTACKS, "lords.rider_engaged_targets": "any"})
    assert M.may_shoot_at(ds, 0, 1, any_opt["options"])
    ds[1, S.F_TEAM] = 0
    assert not M.may_shoot_at(ds, 0, 1, opt)  # only enemies


def test_the_rider_check_kills_on_7_and_the_lancer_loses_its_bonus():
    """A body hit rolls for the rider only with the rule on and a rider aboard; a 7 kills it
    ("the rider is instantly killed", p.18) and a dead Lancer adds no +2 (p.18)."""
    ds, opt, tb = _state("Tankerous", "Reaper")
    scal = tb.scalars
    assert M.rider_at_risk(ds, 0, S.PART_BODY, opt)
    assert not M.rider_at_risk(ds, 0, S.PART_HEAD, opt)
    assert not M.rider_at_risk(ds, 1, S.PART_BODY, opt)  # Reaper has no rider
    basic = prepare("Tankerous", "Reaper")["options"]
    assert not M.rider_at_risk(ds, 0, S.PART_BODY, basic)
    before = M.cc_modifier(ds, 0, tb.cc_by_mr, scal, opt)
    for roll in (2, 6, 8, 12):
        assert not M.rider_check(ds, 0, roll, scal)
    assert M.rider_check(ds, 0, 7, scal) and ds[0, S.F_RIDER] == 0
    assert M.cc_modifier(ds, 0, tb.cc_by_mr, scal, opt) == before - 2
    assert not M.rider_at_risk(ds, 0, S.PART_BODY, opt)  # no rider left to lose


# ---- switches ----------------------------------------------------------------------------------
def test_each_rider_switch_alone():
    """Rider attacks alone: riders shoot, none dies; rider deaths alone: body hits roll for
    the rider (1/6 of them kill it), no rider shoots; neither changes the basic game's dice
    (its counters are those of the basic rules, the new ones zero)."""
    kw = dict(n=600, seed=3, progress=False)
    base = duel("Ozonic", "Tankerous", **kw).counters
    att = duel("Ozonic", "Tankerous", rules=ATTACKS, **kw).counters
    dth = duel("Ozonic", "Tankerous", rules=DEATHS, **kw).counters
    tries = slice(S.C_RIDER_TRIES, S.C_RIDER_TRIES + 2)
    checks = slice(S.C_RIDER_CHECKS, S.C_RIDER_CHECKS + 3)
    assert not base[S.C_RIDER_TRIES :].any()
    assert att[tries].sum() > 1000 and not att[checks].any()
    assert not dth[tries].any() and dth[checks].sum() > 100
    assert dth[S.C_RIDER_CHECKS + S.RK_RIDER] == 0


# ---- Monte Carlo against exact values ----------------------------------------------------------
@pytest.fixture(scope="module")
def shooting():
    """Every shooter against two targets under ``advanced`` less banking (a rule of movement
    that does not touch a rider's roll; the sample of the games before banking): 1,500 games
    a pairing."""
    out = []
    rules = {**lords_rules(preset="advanced").overrides, "lords.advanced.banking": False}
    for a, b in product(SHOOTERS, ("Reaper", "Tankerous")):
        out.append(duel(a, b, n=1500, seed=11, progress=False, rules=rules).counters)
    return np.sum(out, axis=0)


def test_rider_hit_rates_match_the_exact_odds(shooting):
    """At every target number the engine's rider attacks hit as often as P(2d6 >= number),
    2 always missing and 12 always hitting (pp. 10, 18), within the binomial interval of
    their count; both bands of the Rider Abilities Table are played."""
    tested = 0
    for tn in range(S.N_TN - 1):
        tries = int(shooting[S.C_RIDER_TN_TRIES + tn])
        if tries < 30:
            continue
        hits = int(shooting[S.C_RIDER_TN_HITS + tn])
        assert binomial_consistent(hits, tries, float(p_roll_hits(tn)), alpha=ALPHA), tn
        tested += 1
    assert tested >= 4
    assert shooting[S.C_RIDER_TRIES + 1] > 100  # long range shots too


def test_rider_deaths_are_one_body_hit_in_six(shooting):
    """Of the body hits on a dragon with a rider, the 2d6 = 7 that kills the rider comes 6
    times in 36 (p.18), from breath, close combat and rider attacks alike."""
    checks = shooting[S.C_RIDER_CHECKS : S.C_RIDER_CHECKS + 3]
    killed = shooting[S.C_RIDER_KILLED : S.C_RIDER_KILLED + 3]
    assert checks.sum() > 500
    assert binomial_consistent(int(killed.sum()), int(checks.sum()), 1 / 6, alpha=ALPHA)
    assert checks[S.RK_BREATH] > 0 and checks[S.RK_RIDER] > 0


def test_rider_damage_is_part_of_each_dragons_damage(shooting):
    """Rider damage is the dragon's side's damage: it is counted in the dragon's damage
    dealt, and a shooter deals some."""
    dealt = shooting[S.C_DEALT : S.C_DEALT + 2]
    rider = shooting[S.C_RIDER_DEALT : S.C_RIDER_DEALT + 2]
    assert rider[0] > 0 and rider[1] == 0 and (rider <= dealt).all()


# ---- legality: every bot, every rule ------------------------------------------------------------
@pytest.mark.parametrize("pol", POLICIES)
def test_every_bot_plays_riders_legally(pol):
    """The independent checker (``tests/lords_reference.py``) finds no illegal step in games
    of every bot under ``advanced``: rider targets in reach and not engaged with another
    (p.18, p.10), rider to-hit numbers from the tracked positions, the rider check exactly on
    body hits of dragons with riders and its 7 sparing the dragon, rider damage from the Rider
    Abilities Table, the Lancer's +4 (p.18) and every serious damage effect (p.12)."""
    shots = 0
    for k, (a, b) in enumerate((("Ozonic", "Fiercival"), ("Blowderby", "Tankerous"))):
        for game in range(2):
            prep = prepare(a, b, policies=(pol, "random"), rules="advanced")
            cnt, log = E.logged_game(game, 40 + k, *prep["args"], 5000)
            rows, tb = prep["args"][0], prep["tables"]
            sheets = [sheet(a), sheet(b)]
            v = ref.check_log(log, 2, rows, tb, options=prep["options"])
            v += ref.check_events(log, sheets, tb, cnt, rules=ADVANCED)
            v += ref.check_to_hit(log, sheets, ADVANCED)
            assert v == [], (pol, a, b, game, v[:3])
            shots += int((log[:, S.L_KIND] == S.K_RIDER).sum())
    assert shots > 0


def test_the_readings_play_legally_in_a_free_for_all():
    """Under both readings (a rider may shoot at any engaged dragon; a rider's damage takes
    effect at once) four dragons with riders play legal games by the checker, and each
    reading changes the counters (it reaches the kernel)."""
    names = ["Ozonic", "Fiercival", "Blowderby", "Tankerous"]
    other = {"lords.rider_engaged_targets": "any", "lords.rider_effects": "at-once"}
    rules = lords_rules({**dict(ADVANCED.overrides), **other})
    a = battle(names, n=300, seed=2, progress=False, rules="advanced").counters
    b = battle(names, n=300, seed=2, progress=False, rules=rules).counters
    assert not np.array_equal(a, b)
    sheets, _, _, rs, args = battle_setup(names, rules=rules)
    assert args[2][S.OPT_RIDER_AT_ENGAGED] == 1 and args[2][S.OPT_RIDER_AT_ONCE] == 1
    for game in range(3):
        cnt, log = E.logged_game(game, 8, *args, 20000)
        v = ref.check_log(log, 4, args[0], args[3], options=args[2])
        v += ref.check_events(log, sheets, args[3], cnt, rules=rs)
        v += ref.check_to_hit(log, sheets, rs)
        assert v == [], v[:3]


def test_no_rider_check_on_a_riders_hit_under_its_reading():
    """``lords.rider_check_rider_hits``: "Whenever a dragon's body is hit in breath or close
    combat, roll 2d6" (p.18). By default a rider's attack, "handled like a dragon's breath
    weapon attack", rolls it too; under ``breath-and-close-combat`` no rider attack rolls it
    while breath still does, and the checker, told the reading, holds the games legal."""
    names = ["Ozonic", "Fiercival", "Blowderby", "Tankerous"]
    other = {**dict(ADVANCED.overrides), "lords.rider_check_rider_hits": "breath-and-close-combat"}
    default = battle(names, n=300, seed=2, progress=False, rules="advanced").counters
    reading = battle(names, n=300, seed=2, progress=False, rules=other).counters
    assert default[S.C_RIDER_CHECKS + S.RK_RIDER] > 0
    assert reading[S.C_RIDER_CHECKS + S.RK_RIDER] == 0
    assert reading[S.C_RIDER_CHECKS + S.RK_BREATH] > 0
    sheets, _, _, rs, args = battle_setup(names, rules=other)
    refused = 0
    for game in range(3):
        cnt, log = E.logged_game(game, 8, *args, 20000)
        assert ref.check_events(log, sheets, args[3], cnt, rules=rs) == []
        # a checker told the default finds a check missing where a rider hit a body
        told_default = ref.check_events(log, sheets, args[3], cnt, rules=ADVANCED)
        assert {v.kind for v in told_default} <= {"rider check"}
        refused += bool(told_default)
    assert refused > 0


# ---- scripts, the command line ------------------------------------------------------------------
def _script(rider_target: str | None, dice, reaper_col: int = 20):
    move = {"speed": 6, "path": "6F"}
    ozonic = dict(move, rider=rider_target) if rider_target else move
    return {
        "title": "a crossbow shot",
        "rules": {"lords.advanced.rider_attacks": True},
        "dragons": [
            {"dragon": "Ozonic", "hex": [5, 10], "facing": "E", "altitude": "Medium"},
            {"dragon": "Reaper", "hex": [reaper_col, 10], "facing": "W", "altitude": "Medium"},
        ],
        "turns": [{"dice": dice, "moves": {"Ozonic": ozonic, "Reaper": move}}],
    }


def test_a_script_gives_the_rider_its_target():
    """A scripted rider shot reads its dice in the order the module docstring gives: after
    the initiative rolls, the rider's 2d6 to hit, then on a hit the 2d6 location and the 1d6
    damage (a Crossbow Shooter 3 hexes away, at medium range: 1d6+6, p.18); the replay
    tells it and labels each roll."""
    rep = play_script(_script("Reaper", [5, 9, 12, 8, 4]))
    (shot,) = [e for e in rep.events if e["event"] == "rider shot"]
    assert shot["phase"] == "rider actions" and shot["range"] == 3 and shot["band"] == "medium"
    assert shot["hit"] and shot["damage_roll"] == 4 and shot["plus"] == 6
    assert shot["points_lost"] == 10 and rep.damage_dealt == [10, 0]
    whats = [r["what"] for r in rep.forced]
    assert whats[2:] == [
        "rider's hit roll (2d6) at Reaper",
        "location roll (2d6)",
        "rider's damage roll (1d6)",
    ]
    assert "Ozonic's rider shoots at Reaper (range 3, medium)" in rep.text()


def test_a_script_rider_target_out_of_reach_is_one_clear_line():
    """A rider target beyond the long range is refused with the rule named."""
    far = _script("Reaper", [5, 9], reaper_col=30)
    with pytest.raises(UserError, match="beyond the rider's long range"):
        play_script(load_script(far))


def test_duel_advanced_from_the_command_line(capsys):
    """``duel Ozonic Reaper --rules advanced --json``: the manifest records the rider
    switches."""
    assert main(["duel", "Ozonic", "Reaper", "-n", "200", "--rules", "advanced", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    opts = out["manifest"]["options"]
    assert opts["rider_attacks"] and opts["rider_deaths"]
    assert not opts["rider_at_engaged"] and not opts["rider_at_once"]


def test_a_body_hit_rolls_7_and_kills_the_rider_instead():
    """ "Whenever a dragon's body is hit in breath ... roll 2d6 ... If the result is a 7, the
    rider has been hit instead of the dragon ... The dragon takes no damage from the attack"
    (p.18), forced in a script: Tankerous's breath hits Ozonic's body (location roll 8 from
    the front, p.11), the rider check rolls 7, Ozonic loses no points and its Crossbow
    Shooter is gone, so a rider target given next turn is refused."""
    move = {"speed": 6, "path": "6F"}
    spec = {
        "title": "the rider takes the hit",
        "rules": {"lords.advanced.rider_attacks": True, "lords.advanced.rider_deaths": True},
        "dragons": [
            {"dragon": "Ozonic", "hex": [5, 10], "facing": "E", "altitude": "Medium"},
            {"dragon": "Tankerous", "hex": [20, 10], "facing": "W", "altitude": "Medium"},
        ],
        "turns": [
            {
                "dice": [5, 9, 12, 8, 7],
                "moves": {"Ozonic": move, "Tankerous": dict(move, target="Ozonic")},
            },
        ],
    }
    rep = play_script(spec)
    (breath,) = [e for e in rep.events if e["event"] == "breath"]
    assert breath["hit"] and breath["part"] == "body" and breath["rider_check"] == 7
    assert breath["points_lost"] == 0 and rep.damage_dealt == [0, 0]
    assert [r["what"] for r in rep.forced][-1] == "rider check (2d6, p.18)"
    assert "rider check 7: Ozonic's rider is killed instead" in rep.text()
    spec["turns"].append(
        {"dice": [5, 9], "moves": {"Ozonic": dict(move, rider="Tankerous"), "Tankerous": move}}
    )
    with pytest.raises(UserError, match="has no Javelin Thrower, Archer or Crossbow Shooter"):
        play_script(spec)


def test_a_body_hit_that_spares_the_rider_does_full_damage():
    """A rider check other than 7 leaves the rider, and the breath's full damage follows
    (Tankerous breathes Cold, 2d6, p.11): the check is read between the location and the
    damage rolls."""
    move = {"speed": 6, "path": "6F"}
    spec = {
        "title": "the rider survives",
        "rules": {"lords.advanced.rider_deaths": True},
        "dragons": [
            {"dragon": "Ozonic", "hex": [5, 10], "facing": "E", "altitude": "Medium"},
            {"dragon": "Tankerous", "hex": [20, 10], "facing": "W", "altitude": "Medium"},
        ],
        "turns": [
            {
                "dice": [5, 9, 12, 8, 6, 10],
                "moves": {"Ozonic": move, "Tankerous": dict(move, target="Ozonic")},
            },
        ],
    }
    rep = play_script(spec)
    (breath,) = [e for e in rep.events if e["event"] == "breath"]
    assert breath["rider_check"] == 6 and breath["damage_roll"] == 10 and breath["points_lost"] > 0


def test_odds_rider_prints_the_exact_shot(capsys):
    """``odds rider Ozonic Reaper --range 3``: the Crossbow Shooter's medium range (3 hexes,
    1d6+6, p.18) against Reaper, the same target number as the engine's and P(hit) from the
    36 faces; a dragon without a shooting rider is one line, exit 2."""
    assert main(["odds", "rider", "Ozonic", "Reaper", "--range", "3", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    ds, _, tb = _state("Ozonic", "Reaper")
    ds[1, S.F_Q] = ds[0, S.F_Q] + 3
    ds[1, S.F_R] = ds[0, S.F_R]
    tn, band = M.rider_target_number(
        ds, 0, 1, tb.scalars[S_BASE_TO_HIT], tb.alt_mod, tb.rider_range, tb.scalars
    )
    assert (d["band"], d["target_number"]) == ("medium", tn) and band == 0
    assert d["p_hit"]["fraction"] == str(p_roll_hits(tn))
    assert sorted(int(k) for k in d["damage"]) == list(range(7, 13))
    assert main(["odds", "rider", "Reaper", "Ozonic", "--range", "3"]) == 2
    assert "has no ranged attack" in capsys.readouterr().err
