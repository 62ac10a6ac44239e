"""What the dragons did, counted: the ``events`` of a Dragon Lords report (one count per game
of every rule action: speed gains, landings, take-offs, early moves, crashes, rider shots and
deaths, close combats, criticals, fumbles, each spell cast and each tactic chosen), checked
against the games' own logs and against the rules that make them impossible."""

from __future__ import annotations

import numpy as np

from dragonsim.lords import engine as E
from dragonsim.lords.api import duel, prepare
from dragonsim.lords.game import state as S
from dragonsim.lords.results import event_counts
from dragonsim.rules import lords_rules
from dragonsim.rules.lords import SPELLS, TACTICS

#: the wings' "Advanced Acceleration Allowance" (p.16) alone: Huge wings 6 a turn
ALLOWANCE = lords_rules({"lords.advanced.acceleration": True})
NO_RECORDS = np.zeros((0, S.N_REC), np.int64)


def _speed_rows(log):
    rows = log[log[:, S.L_KIND] == S.K_SPEED]
    speed, last, ground = rows[:, S.L_A], rows[:, S.L_A + 1], rows[:, S.L_A + 12]
    return speed, last, ground


def test_speed_gains_over_3_are_the_speeds_the_log_shows_above_last_turns_plus_3():
    """Under the Advanced Acceleration Allowance (p.16: Huge wings 6 points faster than last
    turn, in place of the basic 3 of p.7) the counter of speeds recorded in the air more than
    3 above last turn's is what the games' logs show, game by game, and the random bot with
    Huge wings does record such speeds."""
    prep = prepare("Zippinchill", "Reaper", policies=("random", "random"), rules=ALLOWANCE)
    counted = logged = 0
    for game in range(30):
        cnt, log = E.logged_game(game, 5, *prep["args"], 5000)
        speed, last, ground = _speed_rows(log)
        mine = int(np.count_nonzero((last >= 0) & (ground == 0) & (speed - last > 3)))
        assert int(cnt[S.C_SPEED_GAIN]) == mine, game
        counted += mine
        logged += len(speed)
    assert counted > 0 and logged > 100


def test_no_speed_gains_over_3_under_the_basic_acceleration():
    """'You can't be more than 3 points faster than you moved last turn' (basic rules, p.7):
    with the allowance off, no bot records a gain above 3 (random bots try every legal speed);
    with it on, Huge wings (6, p.16) do, under the same games."""
    for rules, some in ((None, False), (ALLOWANCE, True)):
        prep = prepare("Zippinchill", "Skyblazer", policies=("random", "random"), rules=rules)
        c = E.duel_kernel(0, 3000, 9, *prep["args"], NO_RECORDS)
        assert (c[S.C_SPEED_GAIN] > 0) == some, (rules, c[S.C_SPEED_GAIN])


def test_events_name_every_spell_of_the_spellbook_and_every_tactic():
    """One ``spell_<name>`` for each of the 13 spells (pp.24-25) and one ``tactic_<name>`` for
    each of the 6 tactics (p.22), in snake case, beside the rule actions; none of them is
    counted in an empty run."""
    ev = event_counts(np.zeros(S.N_COUNTERS + 3, np.int64))
    spells = [k for k in ev if k.startswith("spell_")]
    tactics = [k for k in ev if k.startswith("tactic_")]
    assert len(spells) == len(SPELLS) == 13 and len(tactics) == len(TACTICS) == 6
    assert "spell_lightning_bolt" in ev and "spell_distort_range" in ev
    assert "tactic_tail_swing" in ev
    for k in ("speed_gain_over_3", "landings", "take_offs", "early_moves", "crashes"):
        assert k in ev
    for k in ("rider_shots", "rider_kills", "close_combats", "criticals", "fumbles"):
        assert k in ev
    assert set(ev.values()) == {0}


def test_a_duel_reports_its_events_per_game_and_shows_only_those_that_happened():
    """``duel(...).to_dict()["events"]`` is the counts per game: the spells per game times the
    games are the spells the report's ``play`` counts; each close combat's two tactics (p.22:
    both players choose one) make the tactics twice the fights with tactics; the text names
    the spells cast under the advanced rules with a Wizard and no spell under the basic
    rules. (The Wizard and tactics alone: the movement rules' tables would cost the suite
    3 GB.)"""
    rules = {"lords.advanced.wizard": True, "lords.optional.tactics": True}
    r = duel("Slash", "Stalwyrm", n=2000, seed=3, rules=rules, progress=False)
    d = r.to_dict()
    ev, play = d["events"], d["play"]
    for name in SPELLS:
        key = "spell_" + name.lower().replace(" ", "_")
        assert round(ev[key] * r.n) == play["spells_cast"][name], name
    chosen = sum(ev["tactic_" + t.lower().replace(" ", "_")] for t in TACTICS)
    assert round(chosen * r.n) == 2 * play["close_combats_with_tactics"]
    assert round(ev["close_combats"] * r.n) >= play["close_combats_with_tactics"] > 0
    assert "spells a game" in r.summary()
    basic = duel("Slash", "Stalwyrm", n=500, seed=3, progress=False)
    assert set(basic.to_dict()["events"]) == set(ev)
    assert "spells a game" not in basic.summary()
    assert basic.to_dict()["events"]["spell_heal"] == 0


def test_a_rider_killed_counts_once_whatever_killed_it():
    """A rider dies to a 2d6 of 7 on a body hit (p.18), a fumble's rider check among them
    (p.20: the breath's own check, so the fumble's count of it is not added again), or to the
    1d6 of a fall (p.17): each death is one ``rider_kills``."""
    c = np.zeros(S.N_COUNTERS, np.int64)
    c[S.C_RIDER_KILLED + S.RK_BREATH] = 1  # a fumble's rider check that killed ...
    c[S.C_FUMBLE_RIDER_KILLED] = 1  # ... counted again among the fumbles
    c[S.C_RIDER_KILLED + S.RK_CLOSE_COMBAT] = 1
    c[S.C_FALL_KILLED] = 1
    assert event_counts(c)["rider_kills"] == 3
