"""A planner without one of its capabilities (``hunter~engage``): the bot ablations measure
what each capability is worth (``benchmarks/ablations.py``), so an ablated bot must leave out
exactly that one action and play the released bot in every other decision.

The actions are the rules' own: the engagement after a move ("Close Combat", p.9), the
shooting rider's action in the Rider Actions phase (p.18), the Wizard's spells (pp.18, 24-25),
the speed recorded (p.7) and the close-combat tactics (optional rules, p.22).
"""

from __future__ import annotations

import numpy as np
import pytest

import dragonsim.lords as L
from dragonsim.errors import UserError
from dragonsim.lords import engine as E
from dragonsim.lords.api import prepare
from dragonsim.lords.bots import (
    policy_ablation,
    policy_id,
    policy_spec,
    policy_version,
)
from dragonsim.lords.bots.registry import ABLATE_ENGAGE, ABLATE_RIDER, CAPABILITIES
from dragonsim.lords.game import state as S
from dragonsim.lords.game.sheets import sheet
from dragonsim.lords.inputs import dragon_row

NO_RECORDS = np.zeros((0, S.N_REC), np.int64)


def _counters(a, b, policies, n, seed, rules=None):
    args = prepare(a, b, policies=policies, rules=rules)["args"]
    return E.duel_kernel(0, n, seed, *args, NO_RECORDS)


def _events(a, b, policies, n, rules, seed=3):
    return L.duel(a, b, n=n, seed=seed, policies=policies, rules=rules).to_dict()["events"]


def test_an_ablated_bot_is_spelled_and_named_in_full():
    """The canonical spelling keeps the capabilities in the registry's order, and the manifest
    names the version and what it plays without, so a published result says which bot."""
    assert policy_spec("Hunter~Rider~engage") == "hunter~engage~rider"
    assert policy_version("hunter@5:32~speed") == "hunter-5:32~speed"
    assert policy_ablation("hunter~engage~rider") == ABLATE_ENGAGE | ABLATE_RIDER
    assert policy_ablation("hunter") == 0
    assert {c.name for c in CAPABILITIES} == {
        "speed",
        "spells",
        "cast",
        "engage",
        "rider",
        "tactics",
    }


@pytest.mark.parametrize(
    "spec, says",
    [
        ("hunter@4~speed", "hunter-4 has no capability 'speed'"),
        ("hunter~fly", "its capabilities: speed, spells, cast, engage, rider, tactics"),
        ("random~engage", "only a planner"),
        ("search~engage", "only a planner"),
    ],
)
def test_a_capability_the_bot_lacks_is_a_user_error_naming_what_it_has(spec, says):
    with pytest.raises(UserError, match=says):
        policy_spec(spec)


def test_a_bot_as_released_writes_its_sheet_row_as_before():
    """The capabilities left out ride above the bot's id in the policy column
    (``POLICY_BITS``): a released bot's row, and so the digest of an earlier checkpoint, is
    unchanged."""
    s = sheet("Reaper")
    assert dragon_row(s, 0, "hunter")[S.D_POLICY] == policy_id("hunter")
    row = dragon_row(s, 0, "hunter~rider")
    assert row[S.D_POLICY] & ((1 << S.POLICY_BITS) - 1) == policy_id("hunter")
    assert row[S.D_POLICY] >> S.POLICY_BITS == ABLATE_RIDER


def test_hunter_5_without_its_two_skills_plays_hunter_4_exactly():
    """hunter-5 is hunter-4 with the fastest speed allowed and the next-turn spells: without
    both it makes hunter-4's every decision, counter for counter, under the full rules (the
    Wizard's dragons, so the spells would act)."""
    for rules in ("basic", "advanced+optional"):
        a = _counters("Slash", "Stalwyrm", ("hunter@5~speed~spells",) * 2, 400, 8, rules)
        b = _counters("Slash", "Stalwyrm", ("hunter@4",) * 2, 400, 8, rules)
        assert np.array_equal(a, b)
    c = _counters("Slash", "Stalwyrm", ("hunter@5",) * 2, 400, 8, "advanced+optional")
    assert not np.array_equal(a, c)


def test_without_engage_the_bot_never_engages_but_fights_when_engaged():
    """An engagement is the moving dragon's choice (p.9): ``~engage`` never makes it. With
    both sides ablated no close combat is fought; against the full bot, close combats still
    come from the full bot's engagements."""
    full = _events("Slash", "Stalwyrm", ("hunter", "hunter"), 600, "basic")
    none = _events("Slash", "Stalwyrm", ("hunter~engage",) * 2, 600, "basic")
    half = _events("Slash", "Stalwyrm", ("hunter", "hunter~engage"), 600, "basic")
    assert full["close_combats"] > 0.05
    assert none["close_combats"] == 0
    assert half["close_combats"] > 0


def test_without_rider_a_crossbow_shooter_never_shoots():
    """The Crossbow Shooter's action (p.18) is left out; the full bot's rider shoots."""
    full = _events("Ozonic", "Ozonic", ("hunter", "hunter"), 400, "advanced")
    none = _events("Ozonic", "Ozonic", ("hunter~rider",) * 2, 400, "advanced")
    assert full["rider_shots"] > 0.5
    assert none["rider_shots"] == 0


def test_without_cast_a_wizard_casts_nothing_while_the_other_wizard_does():
    """The Wizard's spells (pp.18, 24-25): the ablated side's Wizard records none."""
    both = _events("Slash", "Stalwyrm", ("hunter~cast",) * 2, 300, "advanced")
    spells = {k: v for k, v in both.items() if k.startswith("spell_")}
    assert sum(spells.values()) == 0
    one = _events("Slash", "Stalwyrm", ("hunter", "hunter~cast"), 300, "advanced")
    assert sum(v for k, v in one.items() if k.startswith("spell_")) > 0


def test_without_tactics_the_tactics_are_drawn_uniformly():
    """Close-combat tactics (optional rules, p.22): the ablated bot draws among those with uses
    left instead of playing the equilibrium, so it chooses each of the six; the counts of the
    full bot, from its mixed strategy, differ from the ablated bot's."""
    rules = "advanced+optional"
    cut = _events("Slash", "Slash", ("hunter~tactics",) * 2, 1500, rules)
    full = _events("Slash", "Slash", ("hunter",) * 2, 1500, rules)
    tcut = [v for k, v in cut.items() if k.startswith("tactic_")]
    tfull = [v for k, v in full.items() if k.startswith("tactic_")]
    assert sum(tcut) > 0 and min(tcut) > 0
    assert tcut != tfull
