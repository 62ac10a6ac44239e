"""Conflicts: :func:`conflict`, a conflict's exact odds beside a simulation of its best plan,
and its :class:`ConflictResult`."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ...checkpoint import open_checkpoint
from ...errors import check_int, parse_count
from ...records import check_path, run_blocks_recorded
from ...report import interrupted_line, manifest, rules_line
from ...stats import Rate, mean_interval
from .. import engine as K
from ..data import KrynnRules
from ..odds import (
    MAX_ACTIONS,
    MAX_CARDS,
    MAX_DIFFICULTY,
    MAX_POOL,
    best_conflict_plan,
    conflict_odds,
    effective_difficulty,
)
from .common import records_manifest, resolve_rules


@dataclass
class ConflictResult:
    """A conflict: exact probabilities beside the simulated ones."""

    difficulty: int
    effective_difficulty: int
    mastered: bool
    dice: int | None
    actions: int
    cards: int
    exact_success: Fraction
    exact_exceed: Fraction | None
    exact_stress: Fraction
    plan: list[str]
    n: int
    counters: np.ndarray
    seconds: float
    manifest: dict[str, Any] = field(repr=False)
    interrupted: bool = False
    requested: int | None = None

    @property
    def success(self) -> Rate:
        return Rate.of(self.counters[K.K_SUCCESS], self.n)

    @property
    def exceed(self) -> Rate:
        return Rate.of(self.counters[K.K_EXCEED], self.n)

    @property
    def mean_stress(self) -> tuple[float, float, float]:
        return mean_interval(
            float(self.counters[K.K_STRESS_SUM]), float(self.counters[K.K_STRESS_SQ]), self.n
        )

    def to_dict(self) -> dict[str, Any]:
        s, e = self.success, self.exceed
        m, lo, hi = self.mean_stress
        return {
            "difficulty": self.difficulty,
            "effective_difficulty": self.effective_difficulty,
            "mastered": self.mastered,
            "dice": self.dice,
            "actions": self.actions,
            "cards": self.cards,
            "plan": self.plan,
            "exact_success": float(self.exact_success),
            "exact_success_fraction": str(self.exact_success),
            "exact_exceed": None if self.exact_exceed is None else float(self.exact_exceed),
            "exact_stress": float(self.exact_stress),
            "n": self.n,
            "requested": self.requested,
            "interrupted": self.interrupted,
            "p_success": s.rate,
            "ci_p_success": list(s.ci),
            "p_exceed": e.rate,
            "ci_p_exceed": list(e.ci),
            "mean_stress": m,
            "ci_mean_stress": [lo, hi],
            "mean_actions": float(self.counters[K.K_ACTIONS]) / max(1, self.n),
            "mean_cards": float(self.counters[K.K_CARDS]) / max(1, self.n),
            "seconds": self.seconds,
            "manifest": self.manifest,
        }

    def to_frame(self):
        import pandas as pd

        rows = [
            {
                "quantity": "success",
                "exact": float(self.exact_success),
                "simulated": self.success.rate,
                "lo": self.success.lo,
                "hi": self.success.hi,
            }
        ]
        if self.exact_exceed is not None:
            rows.append(
                {
                    "quantity": "exceed",
                    "exact": float(self.exact_exceed),
                    "simulated": self.exceed.rate,
                    "lo": self.exceed.lo,
                    "hi": self.exceed.hi,
                }
            )
        m, lo, hi = self.mean_stress
        rows.append(
            {
                "quantity": "stress",
                "exact": float(self.exact_stress),
                "simulated": m,
                "lo": lo,
                "hi": hi,
            }
        )
        return pd.DataFrame(rows)

    def summary(self) -> str:
        d = f"difficulty {self.difficulty}"
        if self.mastered:
            d += f" (mastered: {self.effective_difficulty})"
        lines = [f"Warriors of Krynn conflict, {d}", *interrupted_line(self, "trials")]
        if self.dice is not None:
            lines.append(f"  one roll of {self.dice} battle dice")
        else:
            lines.append(
                f"  best use of {self.actions} action(s) and {self.cards} ability card(s):"
            )
            lines += [f"    {i + 1}. {s}" for i, s in enumerate(self.plan)]
        lines.append(
            f"  success: exact {float(self.exact_success):.4%} ({self.exact_success})"
            f"   simulated {self.success} ({self.n:,} trials)"
        )
        if self.exact_exceed is not None:
            lines.append(
                f"  exceed (equipment): exact {float(self.exact_exceed):.4%}"
                f"   simulated {self.exceed}"
            )
        m, lo, hi = self.mean_stress
        lines.append(
            f"  stress from Woe: exact {float(self.exact_stress):.4f}"
            f"   simulated {m:.4f} [{lo:.4f}, {hi:.4f}] (mean stress per conflict)"
        )
        lines.append(
            "  " + rules_line(self.manifest.get("rules_hash"), self.manifest.get("overrides"))
        )
        return "\n".join(lines)


#: a conflict's records (``krynn conflict``)
CONFLICT_COLUMNS = {
    "game": "trial index (its random streams are (seed, trial): replayable)",
    "success": "true when the conflict succeeded",
    "exceeded": "true when the hits exceeded the difficulty (equipment)",
    "stress": "stress from Woe results",
    "attempts": "attempts made",
    "actions": "actions spent",
    "cards": "ability cards discarded",
}


def _conflict_columns(rows: np.ndarray) -> dict:
    return {
        "success": rows[:, K.K_SUCCESS] > 0,
        "exceeded": rows[:, K.K_EXCEED] > 0,
        "stress": rows[:, K.K_STRESS_SUM],
        "attempts": rows[:, K.K_ATTEMPTS],
        "actions": rows[:, K.K_ACTIONS],
        "cards": rows[:, K.K_CARDS],
    }


def conflict(
    difficulty: int,
    *,
    dice: int | None = None,
    actions: int = 4,
    cards: int = 0,
    mastered: bool = False,
    n: int | str = 100_000,
    seed: int = 1,
    threads: int | None = None,
    progress: bool | None = None,
    rules: KrynnRules | None = None,
    checkpoint=None,
    records=None,
    **overrides: Any,
) -> ConflictResult:
    """A conflict's exact success probability next to a simulation of it.

    With ``dice``: one roll of that many battle dice. Without: the best plan for ``actions``
    actions and ``cards`` ability cards of the conflict's ability
    (:func:`~dragonsim.krynn.odds.best_conflict_plan`), retries included (a retry rolls a new
    pool or the pool carried over, by the rule ``krynn.conflict_retry``), simulated by the
    kernel following the plan's table."""
    n = parse_count(n)
    r = resolve_rules(rules, overrides)
    check_int(difficulty, "difficulty", 1, MAX_DIFFICULTY)
    d = effective_difficulty(difficulty, mastered=mastered)
    dh, dw = r.die_arrays()
    carry = int(r.conflict_retry == "carry-over")
    if dice is not None:
        dice = check_int(dice, "dice", 1, MAX_POOL)
        odds = conflict_odds(difficulty, dice, mastered=mastered, rules=r)
        plan = np.zeros((dice + 1, 1, 1, 2), np.int64)
        plan[dice, 0, 0] = (dice, 0)
        acts, crd = dice, 0
        exact_s, exact_e, exact_w = odds["success"], odds["exceed"], odds["stress"]
        steps = [f"roll {dice} dice once"]
    else:
        check_int(actions, "actions", 1, MAX_ACTIONS)
        check_int(cards, "cards", 0, MAX_CARDS)
        bp = best_conflict_plan(
            difficulty, actions=actions, cards=cards, mastered=mastered, rules=r
        )
        acts, crd = int(actions), int(cards)
        # a pool carried over can reach actions + cards dice
        pools = acts + crd + 1 if carry else 1
        plan = np.zeros((acts + 1, crd + 1, pools, 2), np.int64)
        for key, (sa, sc) in bp.table.items():
            plan[key if carry else (*key, 0)] = (sa, sc)
        exact_s, exact_e, exact_w = bp.success, bp.exceed, bp.expected_stress
        steps = bp.steps()
    section = open_checkpoint(
        checkpoint,
        {"command": "krynn conflict", "seed": seed, "n": n, "rules_hash": r.hash},
    )
    if records is not None:
        check_path(records)
    out = run_blocks_recorded(
        K.conflict_kernel,
        n,
        seed,
        (d, plan, acts, crd, carry, dh, dw),
        records=records,
        manifest=lambda: records_manifest(
            "krynn conflict",
            seed,
            n,
            r,
            difficulty=int(difficulty),
            dice=dice,
            actions=int(actions),
            cards=int(cards),
            mastered=bool(mastered),
        ),
        columns=CONFLICT_COLUMNS,
        to_columns=_conflict_columns,
        progress=progress,
        threads=threads,
        label="conflicts",
        checkpoint=section,
        game="Warriors of Krynn",
    )
    man = manifest(
        command="krynn conflict",
        seed=seed,
        n=out.n,
        threads=out.threads,
        rules_hash=r.hash,
        overrides=r.overrides,
        seconds=out.seconds,
        compile_seconds=out.compile_seconds,
        resumed=out.resumed,
        interrupted=out.interrupted,
    )
    return ConflictResult(
        int(difficulty),
        d,
        bool(mastered),
        dice,
        acts,
        crd,
        exact_s,
        exact_e,
        exact_w,
        steps,
        out.n,
        out.counters,
        out.seconds,
        man,
        out.interrupted,
        n,
    )
