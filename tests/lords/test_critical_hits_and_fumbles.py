"""Critical hits, fumbles and the three-hit limit (Dragon Lords rulebook, optional rules pp. 19-20).

"If, when breathing at an opponent, you roll an unmodified 12 on your 2d6, you have scored a
critical hit. This can only happen if the modified to-hit number was 11 or less to begin
with. Roll on the Critical Hit Table ... Critical hit results can add up. A dragon with a
broken leg may sustain another broken leg. In the unlikely event of 4 broken legs, reroll.
Also, in no case can any statistic be reduced below the lowest possible rating for that
statistic. If this happens, simply reroll" (p.19). "If you roll an unmodified 2 when rolling
to hit with a breath weapon, your dragon has breathed on itself! If you have a rider, check
for rider damage. Otherwise roll on the Fumble Table" (p.20). "a dragon is limited to
suffering damage from up to 3 breath attacks per turn ... only those attacks that do damage
apply to the three hit limit. After that, any other players that recorded that dragon as a
target may not breathe on it" (p.20).

Three switches (``lords.optional.critical_hits``, ``fumbles``, ``multiple_hits``), in the
``advanced+optional`` preset, and two readings (``lords.critical_body_damage``,
``lords.fumble_rider``).
"""

from __future__ import annotations

import json

import lords_reference as ref
import numpy as np
import pytest
from scipy.stats import chisquare

from dragonsim.cli import main
from dragonsim.lords import engine as E
from dragonsim.lords.api import battle, duel, prepare
from dragonsim.lords.bots import POLICIES
from dragonsim.lords.game import mechanics as M
from dragonsim.lords.game import odds
from dragonsim.lords.game import state as S
from dragonsim.lords.game.sheets import rule_switches, sheet
from dragonsim.lords.views.script import play_script
from dragonsim.rules import lords_rules
from dragonsim.rules.lords import RULES
from dragonsim.stats import binomial_consistent

ALPHA = 1e-6
CRIT = {"lords.optional.critical_hits": True}
FUMBLE = {"lords.optional.fumbles": True}
LIMIT = {"lords.optional.multiple_hits": True}
ALL = lords_rules(preset="advanced+optional")
MOVE = {"speed": 6, "path": "6F"}
TABLE = RULES["lords.critical_hits"].value


def _duel(attacker, target, dice, rules, turns=None):
    """``attacker`` (at column 5, facing E) breathes at ``target`` (column 20, facing W), both
    at Medium flying 6 hexes: range 3, the dark area; turn 1's ``dice``, then ``turns``."""
    spec = {
        "title": "optional combat",
        "rules": rules,
        "dragons": [
            {"dragon": attacker, "hex": [5, 10], "facing": "E", "altitude": "Medium"},
            {"dragon": target, "hex": [20, 10], "facing": "W", "altitude": "Medium"},
        ],
        "turns": [{"dice": dice, "moves": {attacker: dict(MOVE, target=target), target: MOVE}}]
        + (turns or []),
    }
    return play_script(spec)


def _breaths(rep):
    return [e for e in rep.events if e["event"] == "breath"]


def _after(rep, name, k):
    """Dragon ``name``'s (breath, claws, MR, max speed, in play) after the last effects row
    of turn 1 (its sheet's when none), dragon ``k`` in the log."""
    s = sheet(name)
    now = (s.breath_i, s.claws_i, s.mr_i, s.max_speed, 1)
    for row in rep.log:
        if row[S.L_KIND] == S.K_EFFECT and row[S.L_I] == k and row[S.L_TURN] == 1:
            now = tuple(int(x) for x in row[S.L_A : S.L_A + 5])
    return now


# ---- when a critical happens ------------------------------------------------------------------
def test_a_12_at_target_11_or_less_crits_and_at_12_does_not():
    """ "an unmodified 12 ... This can only happen if the modified to-hit number was 11 or
    less" (p.19): Reaper needs 7 at range 3 and its 12 rolls the table (roll 6, Dazed); with
    the base to-hit number 12 (an override) the same shot needs 11, still a critical, and
    at 13 (base 12 and one altitude step) its 12 hits, auto_hit, but rolls no table."""
    rep = _duel("Reaper", "Ozonic", [5, 9, 12, 8, 6, 6], CRIT)
    (b,) = _breaths(rep)
    assert b["target_number"] == 7 and b["critical_roll"] == 6 and b["critical"] == "dazed"
    assert [r["what"] for r in rep.forced][-1] == "Critical Hit Table roll (2d6, p.19)"
    assert "critical hit (p.19): table roll 6: dazed" in rep.text()
    hard = {**CRIT, "lords.base_to_hit": 12}
    (b,) = _breaths(_duel("Reaper", "Ozonic", [5, 9, 12, 8, 6, 6], hard))
    assert b["target_number"] == 11 and b["critical_roll"] == 6
    harder = {**hard, "lords.altitude_mod": [0, 1, 1, 2, 2]}
    spec_rep = _duel_alt("Reaper", "Ozonic", [5, 9, 12, 8, 6, 6], harder)
    (b,) = _breaths(spec_rep)
    assert b["target_number"] == 12 and b["hit"] and b["critical_roll"] is None
    assert spec_rep.forced[-1]["what"] is None  # the 6 after the damage is not asked for
    (b,) = _breaths(_duel("Reaper", "Ozonic", [5, 9, 12, 8, 6, 6], {}))
    assert b["critical_roll"] is None  # the switch off: no critical at all


def _duel_alt(attacker, target, dice, rules):
    """As :func:`_duel`, the target one altitude step lower (Low)."""
    spec = {
        "title": "optional combat",
        "rules": rules,
        "dragons": [
            {"dragon": attacker, "hex": [5, 10], "facing": "E", "altitude": "Medium"},
            {"dragon": target, "hex": [20, 10], "facing": "W", "altitude": "Low"},
        ],
        "turns": [{"dice": dice, "moves": {attacker: dict(MOVE, target=target), target: MOVE}}],
    }
    return play_script(spec)


# ---- every row of the Critical Hit Table ------------------------------------------------------
@pytest.mark.parametrize("roll", range(2, 13))
def test_each_critical_table_row(roll):
    """Each row's effect on Ozonic (breath 2, claws 2, MR G, a Crossbow Shooter), against the
    same game without criticals: Killed! removed when all have breathed; Triple / Double
    damage to body (the reading 'additional': the hit's 4 points two / one times more on the
    body); Head shot -1 breath step; Leg broken -1 tooth-and-claw step; Dazed nothing now
    (-2 initiative, below); Wing torn -1 maneuver step; Rider thrown: the rider is gone."""
    dice = [5, 9, 12, 6, 4, roll]  # location 6 from the front: a wing, never serious at 4
    base = _duel("Reaper", "Ozonic", dice, {})
    rep = _duel("Reaper", "Ozonic", dice, CRIT)
    (b0,) = _breaths(base)
    (b,) = _breaths(rep)
    effect = TABLE[roll]
    assert b["critical"] == effect and b["critical_rerolls"] == 0
    before, now = _after(base, "Ozonic", 1), _after(rep, "Ozonic", 1)
    want = list(before)
    extra = {"double body": 4, "triple body": 8}.get(effect, 0)
    assert b["points_lost"] == b0["points_lost"] + extra and b["critical_points"] == extra
    if effect == "killed":
        want[4] = 0
    elif effect == "head shot":
        want[0] -= 1
    elif effect == "leg broken":
        want[1] -= 1
    elif effect == "wing torn":
        want[2] += 1
    assert now == tuple(want), effect


@pytest.mark.slow
def test_rider_thrown_and_a_broken_leg_without_a_rider():
    """ "Rider thrown! The dragon loses its rider for remainder of game. If the dragon has no
    rider, a leg is broken instead!" (p.19), on state rows: Ozonic loses its Crossbow
    Shooter (and its recorded rider target); Reaper, with no rider, breaks a leg."""
    ds, _, tb = _rows("Ozonic", "Reaper")
    assert M.critical_effect(ds, 0, S.CE_RIDER) == S.CE_RIDER
    ds[0, S.F_RTARGET] = 1
    M.apply_critical(ds, 0, S.CE_RIDER)
    assert ds[0, S.F_RIDER] == 0 and ds[0, S.F_RTARGET] == -1
    assert M.critical_effect(ds, 1, S.CE_RIDER) == S.CE_LEG
    assert M.critical_effect(ds, 0, S.CE_RIDER) == S.CE_LEG  # its rider is gone now


def _rows(a, b, rules=ALL):
    rows, _, opt, tb, _, _ = prepare(a, b, rules=rules)["args"]
    ds = np.zeros((2, S.NF), np.int64)
    E.init_dragons(ds, rows, tb, opt)
    return ds, opt, tb


def test_effects_add_up_and_clamp_with_serious_damage():
    """ "Critical hit results can add up" (p.19), with each other and with serious damage
    (p.12): Reaper (breath step 4, claws 4, MR E) with two head shots, two broken legs and
    a torn wing, then serious head, body and tail damage, is two plus one breath steps and
    two plus one claw steps down and three maneuver steps; nothing goes below the lowest
    rating (Cold, the lowest claws, MR I)."""
    ds, opt, tb = _rows("Reaper", "Ozonic")
    scal = tb.scalars
    for eff in (S.CE_HEAD, S.CE_HEAD, S.CE_LEG, S.CE_LEG, S.CE_WING):
        M.apply_critical(ds, 0, eff)
    M.refresh(ds, 0, scal, opt)
    assert (ds[0, S.F_BREATH], ds[0, S.F_CLAW], ds[0, S.F_MR]) == (2, 2, 5)
    for p in (S.PART_HEAD, S.PART_BODY, S.PART_TAIL):
        ds[0, S.F_DP + p] = 1
    M.refresh(ds, 0, scal, opt)
    assert (ds[0, S.F_BREATH], ds[0, S.F_CLAW], ds[0, S.F_MR]) == (1, 1, 7)
    for eff in (S.CE_HEAD, S.CE_HEAD, S.CE_WING, S.CE_WING):
        M.apply_critical(ds, 0, eff)
    M.refresh(ds, 0, scal, opt)
    assert (ds[0, S.F_BREATH], ds[0, S.F_MR]) == (0, 8)
    assert ds[0, S.F_ALIVE] == 1
    M.apply_critical(ds, 0, S.CE_KILLED)
    assert ds[0, S.F_ALIVE] == 1  # "Killed!" waits for the end of breath combat (refresh)
    M.refresh(ds, 0, scal, opt)
    assert ds[0, S.F_ALIVE] == 0


def test_the_reroll_at_the_lowest_rating_and_on_a_fourth_leg():
    """ "in no case can any statistic be reduced below the lowest possible rating for that
    statistic. If this happens, simply reroll"; "In the unlikely event of 4 broken legs,
    reroll" (p.19). Tankerous breathes Cold and has MR I: a head shot or a torn wing is
    rerolled, a broken leg is not until the claws are at their lowest or three legs are
    broken. In a script a head shot (4) on Tankerous rolls the table again (7: double)."""
    ds, _, tb = _rows("Tankerous", "Reaper")
    scal = tb.scalars
    assert M.critical_rerolls(ds, 0, S.CE_HEAD, scal)
    assert M.critical_rerolls(ds, 0, S.CE_WING, scal)
    assert not M.critical_rerolls(ds, 0, S.CE_LEG, scal)
    for k in range(3):  # Tankerous's claws step 3: three legs bring them to the lowest
        M.apply_critical(ds, 0, S.CE_LEG)
        assert M.critical_rerolls(ds, 0, S.CE_LEG, scal) == (k == 2)
    ds, _, _ = _rows("Reaper", "Tankerous")
    for _ in range(3):
        M.apply_critical(ds, 0, S.CE_LEG)
    assert M.critical_rerolls(ds, 0, S.CE_LEG, scal)  # a fourth leg, claws still above
    for eff in (S.CE_KILLED, S.CE_DOUBLE, S.CE_TRIPLE, S.CE_DAZED):
        assert not M.critical_rerolls(ds, 0, eff, scal)
    rep = _duel("Reaper", "Tankerous", [5, 9, 12, 6, 4, 4, 10, 7], CRIT)
    (b,) = _breaths(rep)
    assert b["critical_rerolls"] == 2 and b["critical"] == "double body"
    assert b["critical_points"] == 4
    whats = [r["what"] for r in rep.forced][-3:]
    assert whats == ["Critical Hit Table roll (2d6, p.19), rerolled"] * 2 + [
        "Critical Hit Table roll (2d6, p.19)"
    ]


def test_double_damage_in_place_reading():
    """The reading ``lords.critical_body_damage = "in-place"``: Double damage to body puts
    the hit's damage x2 on the body in place of the rolled location (a wing here)."""
    rules = {**CRIT, "lords.critical_body_damage": "in-place"}
    rep = _duel("Reaper", "Ozonic", [5, 9, 12, 6, 4, 7], rules)
    (b,) = _breaths(rep)
    assert b["critical"] == "double body" and b["critical_points"] == 8
    assert b["points_lost"] == 8 and rep.damage_dealt == [8, 0]
    sheets = [sheet("Reaper"), sheet("Ozonic")]
    tb = prepare("Reaper", "Ozonic", rules=rules)["tables"]
    assert ref.check_events(rep.log, sheets, tb, rules=lords_rules(rules)) == []
    # the checker holds the reading: the same log read as 'additional' is refused
    assert ref.check_events(rep.log, sheets, tb, rules=lords_rules(CRIT)) != []
    add = _duel("Reaper", "Ozonic", [5, 9, 12, 6, 4, 7], CRIT)
    assert add.damage_dealt == [8, 0] and _breaths(add)[0]["critical_points"] == 4


def test_dazed_is_minus_2_on_every_later_initiative_roll():
    """ "Dazed! -2 to initiative roll for remainder of game" (p.19): next turn Ozonic rolls 8
    and Reaper 7; without the daze Reaper moves first (lower moves first, p.7); dazed,
    Ozonic's 8 - 2 = 6 moves it first."""
    turn2 = [
        {
            "dice": [7, 8],
            "moves": {"Reaper": {"speed": 5, "path": "5F"}, "Ozonic": {"speed": 5, "path": "5F"}},
        }
    ]
    dazed = _duel("Reaper", "Ozonic", [5, 9, 12, 6, 4, 6], CRIT, turn2)
    plain = _duel("Reaper", "Ozonic", [5, 9, 12, 6, 4, 6], {}, turn2)

    def first(rep):
        (e,) = [e for e in rep.events if e["event"] == "initiative" and e["turn"] == 2][:1]
        return e["dragon"]

    assert first(plain) == "Reaper" and first(dazed) == "Ozonic"


# ---- fumbles ----------------------------------------------------------------------------------
def test_a_fumble_without_a_rider_rolls_the_table_on_itself():
    """An unmodified 2 (p.20): Reaper (no rider) rolls the Fumble Table: 3 is 2d6 on its Left
    Wing, the damage roll 9 takes 9 points from it; without the switch the 2 only misses."""
    rep = _duel("Reaper", "Ozonic", [5, 9, 2, 3, 9], FUMBLE)
    (b,) = _breaths(rep)
    assert not b["hit"] and b["fumble_roll"] == 3 and b["fumble_points"] == 9
    assert b["fumble_rider_check"] is None
    whats = [r["what"] for r in rep.forced][-2:]
    assert whats == ["Fumble Table roll (2d6, p.20)", "fumble damage roll (2d6, p.20)"]
    assert "a fumble (p.20): Fumble Table roll 3, damage roll 9: Reaper loses 9" in rep.text()
    (b,) = _breaths(_duel("Reaper", "Ozonic", [5, 9, 2, 3, 9], {}))
    assert b["fumble_roll"] is None


def test_a_fumble_checks_the_rider_first():
    """ "If you have a rider, check for rider damage" (p.20): Ozonic (a Crossbow Shooter)
    with rider deaths rolls the rider check; a 7 kills the rider and the dragon takes no
    damage (p.18); another roll leaves the rider and the table follows (the reading
    'check-then-table'), or nothing more (the reading 'rider-only'); without rider deaths
    no check, the table at once."""
    rules = {**FUMBLE, "lords.advanced.rider_deaths": True}
    (b,) = _breaths(_duel("Ozonic", "Reaper", [5, 9, 2, 7], rules))
    assert b["fumble_rider_check"] == 7 and b["fumble_roll"] is None
    rep = _duel("Ozonic", "Reaper", [5, 9, 2, 6, 8, 4], rules)
    (b,) = _breaths(rep)
    assert b["fumble_rider_check"] == 6 and b["fumble_roll"] == 8 and b["fumble_points"] == 4
    assert [r["what"] for r in rep.forced][2:6] == [
        "breath hit roll (2d6) at Reaper",
        "fumble: rider check (2d6, p.20)",
        "Fumble Table roll (2d6, p.20)",
        "fumble damage roll (1d6, p.20)",
    ]
    only = {**rules, "lords.fumble_rider": "rider-only"}
    (b,) = _breaths(_duel("Ozonic", "Reaper", [5, 9, 2, 6], only))
    assert b["fumble_rider_check"] == 6 and b["fumble_roll"] is None
    (b,) = _breaths(_duel("Ozonic", "Reaper", [5, 9, 2, 8, 4], FUMBLE))
    assert b["fumble_rider_check"] is None and b["fumble_roll"] == 8


# ---- the three-hit limit ----------------------------------------------------------------------
def _four_on_one(hit_rolls, rules):
    """Four Reapers (team 0) breathe at Tankerous (team 1) in initiative order A1..A4."""

    def atk(name, hx):
        return {"dragon": "Reaper", "name": name, "team": 0, "hex": hx, "facing": "E"}

    dice = [3, 4, 5, 6, 11]
    for h in hit_rolls:
        dice += [h] + ([8, 4] if h >= 9 else [])
    spec = {
        "title": "four on one",
        "rules": rules,
        "dragons": [
            {**atk(n, [4, r]), "altitude": "Medium"}
            for n, r in (("A1", 8), ("A2", 9), ("A3", 11), ("A4", 12))
        ]
        + [
            {
                "dragon": "Tankerous",
                "name": "T",
                "team": 1,
                "hex": [18, 10],
                "facing": "W",
                "altitude": "Medium",
            }
        ],
        "turns": [
            {
                "dice": dice,
                "moves": {
                    **{f"A{k}": {"speed": 5, "path": "5F", "target": "T"} for k in range(1, 5)},
                    "T": {"speed": 5, "path": "5F"},
                },
            }
        ],
    }
    return play_script(spec)


def test_the_three_hit_limit():
    """ "a dragon is limited to suffering damage from up to 3 breath attacks per turn ... only
    those attacks that do damage apply ... any other players that recorded that dragon as a
    target may not breathe on it ... more alert dragons will get in the first shots, so
    resolve all attacks in order of initiative" (p.20): the highest initiative breathes
    first, so three hits by A4, A3, A2 and the least alert A1 does not breathe; a miss among
    the first three and the fourth breathes; without the switch all four breathe."""
    rep = _four_on_one([10, 10, 10], LIMIT)
    b = _breaths(rep)
    assert [e["points_lost"] for e in b] == [4, 4, 4, 0] and b[3]["refused"]
    assert [e["dragon"] for e in b] == ["A4", "A3", "A2", "A1"]
    assert "A1 may not breathe at T: it has suffered damage from three breath" in rep.text()
    b = _breaths(_four_on_one([10, 3, 10, 10], LIMIT))
    assert [e["hit"] for e in b] == [True, False, True, True] and not b[3]["refused"]
    free = _four_on_one([10, 10, 10, 10], {})
    b = _breaths(free)
    assert [e["points_lost"] for e in b] == [4, 4, 4, 4]
    # the checker holds the limit: the refusal is legal, a fourth damaging breath is not
    sheets = [sheet("Reaper")] * 4 + [sheet("Tankerous")]
    tb = prepare("Reaper", "Tankerous", rules=LIMIT)["tables"]
    assert ref.check_events(rep.log, sheets, tb, rules=lords_rules(LIMIT)) == []
    bad = ref.check_events(free.log, sheets, tb, rules=lords_rules(LIMIT))
    assert {v.kind for v in bad} == {"hit limit", "breath order"}


def test_the_three_hit_limit_lowest_first_reading():
    """The reading ``lords.hit_limit_order = low-first`` resolves "in order of initiative"
    (p.20) as the order of movement: A1, A2, A3 hit and A4 is refused; the checker holds
    each order and refuses a log in the other."""
    low = {**LIMIT, "lords.hit_limit_order": "low-first"}
    rep = _four_on_one([10, 10, 10], low)
    b = _breaths(rep)
    assert [e["dragon"] for e in b] == ["A1", "A2", "A3", "A4"] and b[3]["refused"]
    assert "A4 may not breathe at T: it has suffered damage from three breath" in rep.text()
    sheets = [sheet("Reaper")] * 4 + [sheet("Tankerous")]
    tb = prepare("Reaper", "Tankerous", rules=LIMIT)["tables"]
    assert ref.check_events(rep.log, sheets, tb, rules=lords_rules(low)) == []
    bad = ref.check_events(rep.log, sheets, tb, rules=lords_rules(LIMIT))
    assert "breath order" in {v.kind for v in bad}


# ---- Monte Carlo against the exact odds ---------------------------------------------------------
@pytest.fixture(scope="module")
def field():
    """A free-for-all of random bots under advanced+optional: many breaths, two riders."""
    return battle(
        ["Reaper", "Ozonic", "Tankerous", "Zippinchill"],
        n=1500,
        seed=4,
        policy="random",
        progress=False,
        rules="advanced+optional",
    ).counters


def test_criticals_are_one_in_36_of_their_chances(field):
    """P(unmodified 12) = 1/36 (odds.critical_hit) of the breath rolls at a target number of
    11 or less, within the binomial interval of the counts (alpha 1e-6), and none above.
    The Critical Hit Table's rolls follow 2d6 (chi-square) in a duel where no result was
    rerolled (Reaper and Skyblazer never reach a lowest rating there; a reroll would move
    the rows it rerolls)."""
    n = int(field[S.C_CRIT_CHANCES])
    k = int(field[S.C_CRITS : S.C_CRITS + 11].sum())
    assert n > 20_000 and binomial_consistent(k, n, float(odds.critical_hit(7)["p"]), ALPHA)
    assert n < int(field[S.C_BREATHS]) and odds.critical_hit(12)["p"] == 0
    c = duel("Reaper", "Skyblazer", n=3000, seed=4, progress=False, rules="advanced+optional")
    rows = c.counters[S.C_CRITS : S.C_CRITS + 11].astype(float)
    assert int(c.counters[S.C_CRIT_REROLLS]) == 0 and rows.sum() > 500
    want = np.array([float(odds.critical_hit(7)["table"][r][0]) for r in range(2, 13)])
    assert chisquare(rows, want * rows.sum()).pvalue > ALPHA


def test_fumbles_are_one_in_36_of_breath_rolls(field):
    """P(unmodified 2) = 1/36 (odds.fumble) of every breath roll (those whose rider check
    killed the rider roll no table); the Fumble Table's rolls follow 2d6 (chi-square, alpha
    1e-6); the fumble's rider checks kill 1/6 of the riders checked (2d6 = 7, p.18)."""
    n = int(field[S.C_FUMBLE_CHANCES])
    assert n == int(field[S.C_BREATHS])
    fum = field[S.C_FUMBLES : S.C_FUMBLES + 11]
    checked = int(field[S.C_FUMBLE_RIDER])
    killed = int(field[S.C_FUMBLE_RIDER_KILLED])
    assert binomial_consistent(int(fum.sum()) + killed, n, float(odds.fumble()["p"]), ALPHA)
    want = np.array([float(odds.fumble()["table"][r][0]) for r in range(2, 13)])
    assert chisquare(fum.astype(float), want * fum.sum()).pvalue > ALPHA
    assert checked > 50 and binomial_consistent(killed, checked, 1 / 6, ALPHA)


# ---- the checker, the switches, the preset ------------------------------------------------------
@pytest.mark.parametrize("pol", [p for p in POLICIES if not p.startswith("search")])
def test_every_bot_plays_the_optional_rules_legally(pol):
    """The independent checker (``tests/lords_reference.py``) finds no illegal step in games
    of every bot under ``advanced+optional``: each critical's table, rerolls and effect,
    each fumble's rider check, table and damage, the three-hit limit, and every move and
    serious damage effect with them."""
    seen = 0
    for k, (a, b) in enumerate((("Ozonic", "Fiercival"), ("Reaper", "Tankerous"))):
        for game in range(3):
            prep = prepare(a, b, policies=(pol, "random"), rules="advanced+optional")
            cnt, log = E.logged_game(game, 40 + k, *prep["args"], 5000)
            rows, tb = prep["args"][0], prep["tables"]
            sheets = [sheet(a), sheet(b)]
            v = ref.check_log(log, 2, rows, tb, options=prep["options"])
            v += ref.check_events(log, sheets, tb, cnt, rules=ALL)
            assert v == [], (pol, a, b, game, v[:3])
            br = log[log[:, S.L_KIND] == S.K_BREATH]
            seen += int((br[:, S.L_A + 12] > 0).sum() + (br[:, S.L_A + 17] > 0).sum())
    assert seen > 0


def test_the_checker_refuses_a_critical_not_applied():
    """A log whose head shot is erased (the effect logged as none and the breath step kept)
    is refused: the table gives a head shot and the serious damage effects row no longer
    shows it."""
    rep = _duel("Reaper", "Ozonic", [5, 9, 12, 6, 4, 4], CRIT)
    sheets = [sheet("Reaper"), sheet("Ozonic")]
    tb = prepare("Reaper", "Ozonic", rules=lords_rules(CRIT))["tables"]
    rules = lords_rules(CRIT)
    log = rep.log.copy()
    assert ref.check_events(log, sheets, tb, rules=rules) == []
    (r,) = np.nonzero((log[:, S.L_KIND] == S.K_BREATH) & (log[:, S.L_A + 12] > 0))[0]
    log[r, S.L_A + 14] = S.CE_NONE
    eff = np.nonzero((log[:, S.L_KIND] == S.K_EFFECT) & (log[:, S.L_I] == 1))[0]
    log = np.delete(log, eff, axis=0)
    kinds = {v.kind for v in ref.check_events(log, sheets, tb, rules=rules)}
    assert {"critical", "effect"} <= kinds


def test_each_optional_switch_alone_reaches_the_kernel():
    """Each switch and reading alone sets its own option and changes a run's counters (from
    the counters it adds), and the preset advanced+optional turns on every advanced switch
    and the three optional ones."""
    sw = rule_switches("advanced+optional")
    assert sw["criticals"] and sw["fumbles"] and sw["hit_limit"]
    adv = rule_switches("advanced")
    assert all(sw[k] for k, v in adv.items() if v)
    assert not any(adv[k] for k in ("criticals", "fumbles", "hit_limit"))
    names = ["Reaper", "Ozonic", "Tankerous", "Zippinchill"]
    base = battle(names, n=300, seed=2, policy="random", progress=False).counters
    for key, c in (
        ("lords.optional.critical_hits", S.C_CRIT_CHANCES),
        ("lords.optional.fumbles", S.C_FUMBLE_CHANCES),
    ):
        got = battle(names, n=300, seed=2, policy="random", progress=False, rules={key: True})
        assert got.counters[c] > 0 and base[c] == 0
    opt = prepare("Reaper", "Ozonic", rules=LIMIT)["options"]
    assert opt[S.OPT_HIT_LIMIT] == 1 and opt[S.OPT_CRITICALS] == 0
    reading = {**CRIT, "lords.critical_body_damage": "in-place", "lords.fumble_rider": "rider-only"}
    opt = prepare("Reaper", "Ozonic", rules=reading)["options"]
    assert opt[S.OPT_CRIT_IN_PLACE] == 1 and opt[S.OPT_FUMBLE_RIDER_ONLY] == 1


def test_duel_advanced_optional_from_the_command_line(capsys):
    """``duel ... --rules advanced+optional --json`` plays it and the manifest records the
    switches; ``rules`` lists the preset and its switches, and no optional rule is left to come
    (the tactics and the Wizard's spells were the last)."""
    argv = ["duel", "Reaper", "Ozonic", "-n", "200", "--rules", "advanced+optional", "--json"]
    assert main(argv) == 0
    opts = json.loads(capsys.readouterr().out)["manifest"]["options"]
    assert opts["criticals"] and opts["fumbles"] and opts["hit_limit"] and opts["rider_deaths"]
    assert main(["rules", "--game", "lords"]) == 0
    out = capsys.readouterr().out
    assert "lords.optional.critical_hits" in out and "advanced+optional" in out
    assert "lords.optional.tactics" in out and "lords.advanced.wizard" in out
    assert "optional rules still to come" not in out
