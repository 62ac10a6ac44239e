"""Every assumed Dragon Lords value has an override that reaches what uses it.

For each rule (or table row) with provenance "assumed" in ``registry("lords")``, the rule at
another legal value must change what uses it: the counters of a small seeded duel (common
random numbers: the same seed, so any difference is the rule's), or, for a value the engine
does not simulate yet, the exact odds the ``odds`` module computes from it. Such a value is
also listed in ``NOT_SIMULATED`` with the reason. An assumed rule in no list fails, so a new
assumed rule must be classified here.
"""

from __future__ import annotations

import numpy as np
import pytest

from dragonsim.lords.api import battle, duel
from dragonsim.rules import lords_rules, registry
from dragonsim.rules.lords import WINGS

N = 300


def _duel(**kw):
    """Reaper against Skyblazer, hunters: breath combat every game, on the default board."""
    return duel("Reaper", "Skyblazer", n=N, seed=3, progress=False, **kw).counters


def _brawl(**kw):
    """Tankerous against Zippinchill, brawlers: they close in and engage, so close combats
    are won (and the winner's own 1d6 allocated) every few games."""
    return duel(
        "Tankerous", "Zippinchill", n=N, seed=3, progress=False, policy="brawler", **kw
    ).counters


#: the rider rules on (advanced rules, pp. 15, 18), for the rider readings' cases
RIDERS_ON = {"lords.advanced.rider_attacks": True, "lords.advanced.rider_deaths": True}


def _riders(rules=None):
    """Three dragons whose riders shoot, free for all: a rider may find a target engaged
    with another dragon, and a rider's damage may destroy a dragon before its own rider acts."""
    return battle(
        ["Ozonic", "Fiercival", "Blowderby"],
        n=N,
        seed=3,
        progress=False,
        rules={**RIDERS_ON, **(rules or {})},
    ).counters


def _ground_riders(rules=None):
    """Ozonic against Fiercival, random bots, all advanced rules: the random bot lands
    (p.17), and a rider on a dragon on the ground shoots (pp. 17-19)."""
    adv = dict(lords_rules(preset="advanced").overrides)
    return duel(
        "Ozonic",
        "Fiercival",
        n=N,
        seed=3,
        progress=False,
        policy="random",
        rules={**adv, **(rules or {})},
    ).counters


def _optional(rules=None):
    """Four dragons, two with riders, random bots, under advanced+optional: criticals
    (double and triple damage among them) and fumbles with rider checks (pp. 19-20)."""
    opt = dict(lords_rules(preset="advanced+optional").overrides)
    return battle(
        ["Reaper", "Ozonic", "Tankerous", "Zippinchill"],
        n=N,
        seed=3,
        progress=False,
        policy="random",
        rules={**opt, **(rules or {})},
    ).counters


def _tactics(rules=None):
    """Tankerous against Zippinchill, brawlers, with the optional tactics (p.22): the
    close combats they seek are won defending now and then."""
    return duel(
        "Tankerous",
        "Zippinchill",
        n=N,
        seed=3,
        progress=False,
        policy="brawler",
        rules={"lords.optional.tactics": True, **(rules or {})},
    ).counters


def _wizards(rules=None):
    """Slash against Lectronist under advanced+optional, random bots and random spells (the
    Wizard's Spellbook, pp. 24-25): every spell is cast, at every range, and Dull lands on
    Lectronist's Dull claws."""
    opt = dict(lords_rules(preset="advanced+optional").overrides)
    return duel(
        "Slash",
        "Lectronist",
        n=400,  # Vigor is seldom cast at its medium range: 300 games may hold none there
        seed=3,
        progress=False,
        policy="random",
        spells="random",
        rules={**opt, **(rules or {})},
    ).counters


def _turning(rules=None):
    """Tankerous against Reaper, brawlers, under advanced+optional with turning between move
    phases (p.16): turns carried into the next move, after 180 degree turns and close
    combats too."""
    opt = dict(lords_rules(preset="advanced+optional").overrides)
    return duel(
        "Tankerous",
        "Reaper",
        n=N,
        seed=3,
        progress=False,
        policy="brawler",
        rules={**opt, **(rules or {})},
    ).counters


def _slow_wings(rules=None):
    """:func:`_ground_riders` with every maximum speed 8 (``lords.max_speed_by_wings``): a
    dragon with a seriously damaged wing then has a maximum under 7, the only way the take-off
    reading can matter (with the printed speeds a maximum never falls below 7: Tiny 11 less 2
    a wing)."""
    return _ground_riders({"lords.max_speed_by_wings": dict.fromkeys(WINGS, 8), **(rules or {})})


def _shorter_medium(name: str) -> list[int]:
    cost, med, far = lords_rules().get("lords.spells")[name]
    return [cost, med - 1, far]


#: override key -> (another legal value, the seeded duel whose counters must move)
KERNEL_CASES = {
    # the arc of fire: a narrower dark area, a grey area no wider than the dark, a light area
    # out to 120 deg (each limit alone, the others at their defaults)
    "arc_degrees.dark": (0, _duel),
    "arc_degrees.grey": (30, _duel),
    "arc_degrees.light": (120, _duel),
    "altitude_mod": ([0, 1, 1, 2, 2], _duel),
    # a shallower board: the planners meet the edges sooner
    "board.depth": (16, _duel),
    # the Damage Allocation Table rows the rulebook's text lost (row 5: only its R, RL, FL)
    "damage_allocation.5": (["B", "B", "B", "H", "H", "H"], _duel),
    **{f"damage_allocation.{roll}": (["H"] * 6, _duel) for roll in (6, 7, 8, 9, 10, 11)},
    "damage_allocation.12": (["B"] * 6, _duel),
    "self_damage_policy": ("body", _brawl),
    "rider_to_hit.medium": (1, _riders),
    "rider_to_hit.long": (2, _riders),
    "rider_engaged_targets": ("any", _riders),
    "rider_effects": ("at-once", _riders),
    "rider_ground_attacker": ("none", _ground_riders),
    "critical_body_damage": ("in-place", _optional),
    "fumble_rider": ("rider-only", _optional),
    "defend_win": ("no-turn", _tactics),
    # banking (p.16) under advanced: the random bot banks in runs, near Very Low too
    "bank_very_low": ("any", _ground_riders),
    "bank_hex": ("forward", _ground_riders),
    "bank_run": ("each", _ground_riders),
    # the Wizard's Spellbook rows the rulebook's text cut off (p.25): a shorter medium range
    **{
        f"spells.{name}": (_shorter_medium(name), _wizards)
        for name in (
            "Lethargy",
            "Lightning Bolt",
            "Quicken",
            "Saddlesore",
            "Sharpen",
            "Slow",
            "Spin",
            "Vigor",
        )
    },
    "dull_floor": ("Blunt", _wizards),
    # turning between move phases (p.16): after a full 180, after a close combat
    "turn_between_180": ("reset", _turning),
    "turn_between_close_combat": ("facing", _turning),
    # the initiative roll-off with the modifiers (pp. 7, 15): MR A to I meet
    "initiative_tie": ("modified", _optional),
    # the three-hit limit's order (p.20): lowest first
    "hit_limit_order": ("low-first", _optional),
    # no rider check on a rider's hit (p.18)
    "rider_check_rider_hits": ("breath-and-close-combat", _riders),
    # every crash keeps the dragon in its hex (p.17): the random bot crashes and lands
    "crash_stuck": ("every-crash", _ground_riders),
    "takeoff_speed": ("7", _slow_wings),
    # the rows the source cuts off (pp. 19, 20)
    "critical_hits.12": ("dazed", _optional),
    "fumbles.10": ([1, "H"], _optional),
    "fumbles.11": ([1, "H"], _optional),
    "fumbles.12": ([1, "H"], _optional),
}


#: values the duel kernel does not simulate yet, with the reason
NOT_SIMULATED: dict[str, str] = {}

#: override key -> (another legal value, the exact odds that must move), for NOT_SIMULATED
ODDS_CASES: dict = {}


def _assumed_keys() -> set[str]:
    out = set()
    for rule in registry("lords").values():
        name = rule.key.removeprefix("lords.")
        for row in rule.assumed_rows():
            out.add(f"{name}.{row}" if row else name)
    return out


def test_every_assumed_value_is_classified():
    """Every assumed value moves a duel (KERNEL_CASES) or is not simulated yet, with the
    reason (NOT_SIMULATED); nothing else is listed, and each case's value is legal."""
    assumed = _assumed_keys()
    listed = set(KERNEL_CASES) | set(NOT_SIMULATED)
    assert assumed - listed == set(), "assumed values in neither list: classify them here"
    assert listed - assumed == set(), "listed values that are not assumed"
    assert set(KERNEL_CASES).isdisjoint(NOT_SIMULATED)
    assert set(ODDS_CASES) == set(NOT_SIMULATED), "every unsimulated value has its odds case"
    for key, (value, _) in {**KERNEL_CASES, **ODDS_CASES}.items():
        lords_rules({key: value})  # legal: the rules accept it
    for key, (value, run) in ODDS_CASES.items():
        # a value the kernel does not simulate yet still reaches the exact odds that use it
        # (none today: every assumed value reaches the kernel)
        assert run(lords_rules()) != run(lords_rules({key: value})), f"{key}: odds unmoved"


#: the cases that build banking move tables (10 s or more each)
SLOW_CASES = {"bank_hex", "bank_very_low"}


@pytest.mark.parametrize(
    "key",
    [
        pytest.param(k, marks=pytest.mark.slow) if k in SLOW_CASES else k
        for k in sorted(KERNEL_CASES)
    ],
)
def test_override_reaches_the_kernel(key):
    """The override changes the counters of a seeded duel (the same seed as the default)."""
    value, run = KERNEL_CASES[key]
    base = run()
    moved = run(rules={key: value})
    assert not np.array_equal(base, moved), f"{key} = {value!r} did not move its duel"
