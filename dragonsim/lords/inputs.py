"""A Dragon Lords run's inputs: the dragons, bots and rules asked for, checked and turned into
the kernel's arguments (:func:`prepare` for a duel, :func:`battle_setup` for 2..8 dragons):
sheet rows (:func:`dragon_row`), starting positions (:func:`check_scenario`), the rules'
tables, the move tables of the maneuverabilities a game can reach (:func:`game_mrs`) and the
options array, with what a manifest records of it (:func:`options_manifest`).

Used by the public runs (:mod:`~dragonsim.lords.api`), the studies
(:mod:`~dragonsim.lords.analysis`) and the replays (:mod:`~dragonsim.lords.views`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import defaults
from ..errors import UserError, check_int
from .bots import (
    MAX_PLAN_SAMPLES,
    POLICIES,
    edge_exact,
    parse_policy,
    policy_ablation,
    policy_id,
    policy_spec,
)
from .bots.plan import plan_table
from .game import movetables as MT
from .game import state as S
from .game.tables import S_MR_STEPS_LOST

__all__ = [
    "prepare",
    "battle_setup",
    "resolve_policies",
    "dragon_row",
    "check_scenario",
    "check_spells",
]

#: the longest turn limit a game may have (a game past it is a stalemate draw)
MAX_TURN_LIMIT = 100_000


def resolve_policies(
    policy: str | None = "hunter", policies: str | Sequence[str] | None = None
) -> tuple[str, str]:
    """The two bots (``policies`` wins over ``policy``), spelled canonically (``hunter``,
    ``hunter:32``: see :func:`~dragonsim.lords.bots.parse_policy`); UserError when
    unknown."""

    if policies is not None:
        if not isinstance(policies, str | Sequence):
            raise UserError(f"policies must be 'P,Q' or a pair of bot names, got {policies!r}")
        names = (
            [p.strip() for p in policies.split(",")]
            if isinstance(policies, str)
            else list(policies)
        )
        if len(names) != 2 or not all(names):
            raise UserError(
                f"policies must name two bots, one per dragon (e.g. hunter,random), got "
                f"{policies!r}"
            )
    else:
        if policy is None or not str(policy).strip():
            raise UserError(f"policy must be one of {', '.join(POLICIES)}, got {policy!r}")
        names = [policy, policy]
    return tuple(policy_spec(n) for n in names)  # type: ignore


def _rules(rules: Any):
    """``rules=`` of every public function: None, a RuleSet, overrides or a preset's name."""
    from ..rules import as_rules

    return as_rules("lords", rules)


def dragon_row(s, team: int, policy: str) -> np.ndarray:
    """The kernel's int64 sheet row for a :class:`~dragonsim.lords.game.sheets.Sheet`: its
    components, maneuverability and close-combat modifier as the sheet has them under the
    rules it was computed with (the values the exact odds use), team and bot."""
    row = np.zeros(S.N_DCOLS, dtype=np.int64)
    row[S.D_BODY] = s.body_i
    row[S.D_WINGS] = s.wings_i
    row[S.D_BREATH] = s.breath_i
    row[S.D_CLAWS] = s.claws_i
    row[S.D_RIDER] = s.rider_i
    row[S.D_MR] = s.mr_i
    row[S.D_CC] = s.cc
    row[S.D_TEAM] = team
    name, breadth = parse_policy(policy)
    row[S.D_POLICY] = policy_id(name) | (policy_ablation(policy) << S.POLICY_BITS)
    row[S.D_SAMPLES] = breadth or 0  # 0: the run's plan_samples
    return row


def game_mrs(sheets_mr, tb, rules) -> list[int]:
    """The maneuverability indices dragons with sheet ratings ``sheets_mr`` can reach in a game
    under ``rules``, the move tables' (:func:`~dragonsim.lords.game.movetables.needed_mrs`: the
    sheet's and one serious tail damage's); with critical hits (optional rules, p.19) "Wing
    torn! -1 step to maneuver rating" lowers it one step at a time, so every rating from the
    sheet's down to I."""
    n = tb.turn_cost.shape[0]
    if rules.get("lords.advanced.wizard"):
        # Lethargy and Vigor (p.25) move any rating two steps either way, again and again
        return list(range(n))
    if rules.get("lords.optional.critical_hits"):
        return sorted({m for s in sheets_mr for m in range(int(s), n)})
    return MT.needed_mrs(sheets_mr, tb.scalars[S_MR_STEPS_LOST], n)


def options_manifest(opt: np.ndarray) -> dict[str, Any]:
    """What a manifest records of a kernel's options array ``opt``: the run's settings and
    every rule slot by name (:func:`dragonsim.lords.game.state.options_of`), so that the manifests
    of every command name the same rules for the same rules set."""
    return {
        "turn_limit": int(opt[S.OPT_TURN_LIMIT]),
        "plan_samples": int(opt[S.OPT_PLAN_SAMPLES]),
        "range_mod": bool(opt[S.OPT_RANGE_MOD]),
        "spells": S.SPELL_POLICIES[int(opt[S.OPT_SPELL_POLICY])],
        **S.options_of(opt),
    }


def check_spells(spells: str) -> int:
    """The spell policy ``spells`` ("bot", "never" or "random"; the Wizard's spells,
    optional rules pp. 18, 24-25, see :mod:`~dragonsim.lords.bots.spells`) as its
    ``OPT_SPELL_POLICY`` code."""
    if not isinstance(spells, str) or spells.strip().lower() not in S.SPELL_POLICIES:
        raise UserError(f"spells must be one of {', '.join(S.SPELL_POLICIES)}, got {spells!r}")
    return S.SPELL_POLICIES.index(spells.strip().lower())


def prepare(
    a,
    b,
    *,
    policies: tuple[str, str] = ("hunter", "hunter"),
    rules=None,
    turn_limit: int = defaults.TURN_LIMIT,
    plan_samples: int = defaults.PLAN_SAMPLES,
    range_mod: bool = True,
    scenario: np.ndarray | None = None,
    spells: str = "bot",
) -> dict[str, Any]:
    """Sheets, rules and every kernel argument for a duel (also used by tests/benchmarks);
    ``spells``: the Wizards' spell policy (:func:`check_spells`)."""
    from .game.sheets import rule_switches, sheet
    from .game.tables import kernel_tables

    rs = _rules(rules)
    sa = sheet(a, rules=rs)
    sb = sheet(b, rules=rs)
    tb = kernel_tables(rs)
    mv = MT.move_tables(
        tb.turn_cost,
        mrs=game_mrs((sa.mr_i, sb.mr_i), tb, rs),
        edges=edge_exact(policies),
        bank=MT.banking_of(rs),
        turning=MT.turning_of(rs),
    )
    dragons = np.stack([dragon_row(sa, 0, policies[0]), dragon_row(sb, 1, policies[1])])
    scen = (
        np.zeros((2, 5), dtype=np.int64)
        if scenario is None
        else np.asarray(scenario, dtype=np.int64)
    )
    opt = S.default_options(
        turn_limit=turn_limit,
        plan_samples=plan_samples,
        range_mod=range_mod,
        scenario=scenario is not None,
        spell_policy=check_spells(spells),
        **rule_switches(rs),
    )
    args = (dragons, scen, opt, tb, mv, plan_table(tb))
    return {"a": sa, "b": sb, "rules": rs, "tables": tb, "moves": mv, "args": args, "options": opt}


def check_scenario(scenario, sheets, rules) -> np.ndarray:
    """Validate caller-given starting positions: one ``(q, r, facing, altitude, speed)`` per
    dragon, axial coordinates on the board, facing 0..5 (E, NE, NW, W, SW, SE), altitude
    1 Very Low .. 5 Very High, distinct hexes, and ``speed`` the previous turn's speed (limits
    the first turn's acceleration) or -1 for a free first-turn choice."""
    from .game.hexes import on_board, to_offset

    board = rules.get("lords.board")
    w, d = board["width"], board["depth"]
    try:
        arr = np.asarray(scenario, dtype=np.int64)
    except (TypeError, ValueError):
        raise UserError(
            "scenario must be rows of whole numbers (q, r, facing, altitude, speed)"
        ) from None
    if arr.ndim != 2 or arr.shape != (len(sheets), 5):
        raise UserError(
            f"scenario needs one row (q, r, facing, altitude, speed) per dragon: "
            f"{len(sheets)} rows of 5, got shape {arr.shape}"
        )
    seen = set()
    for i, (q, r, f, alt, sp) in enumerate(arr.tolist()):
        if not on_board(q, r, w, d):
            raise UserError(
                f"scenario row {i}: hex (q={q}, r={r}) = (col, row) "
                f"{to_offset(q, r)} is off the {w}x{d} board"
            )
        if (q, r) in seen:
            raise UserError(f"scenario row {i}: hex ({q}, {r}) is already occupied")
        seen.add((q, r))
        if not 0 <= f <= 5:
            raise UserError(
                f"scenario row {i}: facing must be 0..5 (E, NE, NW, W, SW, SE), got {f}"
            )
        if not 1 <= alt <= 5:
            raise UserError(
                f"scenario row {i}: altitude must be 1 (Very Low) .. 5 (Very High), got {alt}"
            )
        s = sheets[i]
        if sp != -1 and not s.min_speed <= sp <= s.max_speed:
            raise UserError(
                f"scenario row {i}: speed must be -1 (free) or "
                f"{s.min_speed}..{s.max_speed} for {s.name}, got {sp}"
            )
    return arr


def battle_setup(
    dragons,
    *,
    teams=None,
    policy: str = "hunter",
    policies=None,
    turn_limit: int = defaults.TURN_LIMIT,
    plan_samples: int = defaults.PLAN_SAMPLES,
    rules=None,
    scenario=None,
    spells: str = "bot",
):
    """A battle's checked inputs and kernel arguments: ``(sheets, teams, policies, rules,
    args)`` (used by :func:`~dragonsim.lords.api.battle` and the replays); ``spells`` as for
    :func:`~dragonsim.lords.api.duel`."""
    from ..errors import resolve_name
    from ..rules.lords import TEAM_PAIRINGS
    from .game.sheets import rule_switches, sheet
    from .game.tables import kernel_tables

    if isinstance(dragons, str):
        key = resolve_name(dragons, list(TEAM_PAIRINGS), "team pairing")
        sides = TEAM_PAIRINGS[key]
        dragons = [*sides[0], *sides[1]]
        teams = [0] * len(sides[0]) + [1] * len(sides[1])
    if not isinstance(dragons, Sequence):
        raise UserError(
            f"dragons must be a list of 2..{S.MAXD} dragons or a pairing name, got {dragons!r}"
        )
    dragons = list(dragons)
    if not 2 <= len(dragons) <= S.MAXD:
        raise UserError(f"a battle needs 2..{S.MAXD} dragons, got {len(dragons)}")
    if teams is None:
        teams = list(range(len(dragons)))
    if isinstance(teams, str) or not isinstance(teams, Sequence):
        raise UserError(f"teams must be a list of team numbers such as [0, 0, 1], got {teams!r}")
    teams = [check_int(t, "a team number", 0, S.MAXD - 1) for t in teams]
    if len(teams) != len(dragons):
        raise UserError(
            f"teams needs one team number per dragon ({len(dragons)}), got {len(teams)}"
        )
    if sorted(set(teams)) != list(range(len(set(teams)))) or len(set(teams)) < 2:
        raise UserError(f"teams must number at least two sides 0, 1, ... without gaps, got {teams}")
    if policies is None:
        pols = [policy_spec(policy)] * len(dragons)
    elif not isinstance(policies, str | Sequence):
        raise UserError(f"policies must be 'P,Q,...' or a list of bot names, got {policies!r}")
    else:
        pols = [
            policy_spec(p) for p in (policies.split(",") if isinstance(policies, str) else policies)
        ]
        if len(pols) != len(dragons):
            raise UserError(f"policies needs one bot per dragon ({len(dragons)}), got {len(pols)}")
    turn_limit = check_int(turn_limit, "turn limit", 1, MAX_TURN_LIMIT)
    plan_samples = check_int(plan_samples, "plan_samples", 1, MAX_PLAN_SAMPLES)
    rs = _rules(rules)
    sheets = [sheet(d, rules=rs) for d in dragons]
    tb = kernel_tables(rs)
    mv = MT.move_tables(
        tb.turn_cost,
        mrs=game_mrs([s.mr_i for s in sheets], tb, rs),
        edges=edge_exact(pols),
        bank=MT.banking_of(rs),
        turning=MT.turning_of(rs),
    )
    rows = np.stack([dragon_row(s, t, p) for s, t, p in zip(sheets, teams, pols, strict=True)])
    scen = (
        np.zeros((len(sheets), 5), dtype=np.int64)
        if scenario is None
        else check_scenario(scenario, sheets, rs)
    )
    opt = S.default_options(
        turn_limit=int(turn_limit),
        plan_samples=int(plan_samples),
        scenario=scenario is not None,
        spell_policy=check_spells(spells),
        **rule_switches(rs),
    )
    args = (rows, scen, opt, tb, mv, plan_table(tb))
    return sheets, teams, pols, rs, args
