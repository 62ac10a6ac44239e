"""One army's melee attack on another, dragonkin breath included: :func:`melee`, its
:class:`MeleeResult` and the columns of its records (:data:`MELEE_COLUMNS`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...checkpoint import open_checkpoint
from ...errors import check_seed
from ...records import check_path, run_blocks_recorded
from ...report import interrupted_line, manifest, rules_line
from ...rules import RuleSet, dice_rules
from ...stats import Rate, mean_interval
from .. import data as D
from .. import kernel as K
from .armies import build_army
from .attacks import ATTACK_COLUMNS
from .common import _identity, _n, _records_manifest, _sides
from .options import Options, _catalog, _options

#: a melee's records (``dice melee``)
MELEE_COLUMNS = {
    "game": ATTACK_COLUMNS["game"],
    "winner_side": "0: the attacker (the defender destroyed, the attacker not), 1: the "
    "defender (the other way round), -1: neither or both destroyed",
    "winner": "attacker, defender or none (as winner_side)",
    "defender_destroyed": "true when the defending army was destroyed",
    "attacker_destroyed": "true when the attacking army was destroyed (by the counter-attack)",
    "defender_health_lost": "health-worth the defender lost",
    "attacker_health_lost": "health-worth the attacker lost",
    "attacker_breaths": "dragonkin breath icons the attacker rolled",
}


def _melee_columns(rows: np.ndarray) -> dict:
    bd = rows[:, K.M_B_DESTROYED] > 0
    ad = rows[:, K.M_A_DESTROYED] > 0
    return {
        **_sides(bd, ad, ("attacker", "defender")),
        "defender_destroyed": bd,
        "attacker_destroyed": ad,
        "defender_health_lost": rows[:, K.M_B_LOST],
        "attacker_health_lost": rows[:, K.M_A_LOST],
        "attacker_breaths": rows[:, K.M_BREATHS_A],
    }


@dataclass
class MeleeResult:
    """One melee attack of army A on army B (B counter-attacks), dragonkin breath included."""

    counters: np.ndarray
    n: int
    hcap: int
    attacker: dict[str, int]
    defender: dict[str, int]
    counter: bool
    policy: Any
    seconds: float
    seed: int
    interrupted: bool = False
    options: Options | None = None
    requested: int | None = None

    def _r(self, i: int) -> Rate:
        return Rate.of(int(self.counters[i]), self.n)

    def _m(self, i: int, j: int) -> tuple[float, float, float]:
        return mean_interval(float(self.counters[i]), float(self.counters[j]), self.n)

    @property
    def p_defender_destroyed(self) -> Rate:
        return self._r(K.M_B_DESTROYED)

    @property
    def p_attacker_destroyed(self) -> Rate:
        return self._r(K.M_A_DESTROYED)

    @property
    def defender_lost(self) -> tuple[float, float, float]:
        return self._m(K.M_B_LOST, K.M_B_LOST_SQ)

    @property
    def attacker_lost(self) -> tuple[float, float, float]:
        return self._m(K.M_A_LOST, K.M_A_LOST_SQ)

    @property
    def defender_lost_hist(self) -> np.ndarray:
        return self.counters[K.MHEAD : K.MHEAD + self.hcap + 1].copy()

    def to_frame(self):
        import pandas as pd

        rows = [
            ("p_defender_destroyed", *self._rr(self.p_defender_destroyed)),
            ("p_attacker_destroyed", *self._rr(self.p_attacker_destroyed)),
            ("mean_defender_health_lost", *self.defender_lost),
            ("mean_attacker_health_lost", *self.attacker_lost),
        ]
        return pd.DataFrame(rows, columns=["metric", "value", "lo", "hi"])

    @staticmethod
    def _rr(r: Rate) -> tuple[float, float, float]:
        return (r.rate, r.lo, r.hi)

    def to_dict(self) -> dict[str, Any]:
        d = self.p_defender_destroyed
        a = self.p_attacker_destroyed
        bl = self.defender_lost
        al = self.attacker_lost
        return {
            "n": self.n,
            "requested": self.requested,
            "interrupted": self.interrupted,
            "attacker": self.attacker,
            "defender": self.defender,
            "counter_attack": self.counter,
            "p_defender_destroyed": d.rate,
            "ci_defender_destroyed": [d.lo, d.hi],
            "p_attacker_destroyed": a.rate,
            "ci_attacker_destroyed": [a.lo, a.hi],
            "mean_defender_health_lost": bl[0],
            "ci_defender_health_lost": [bl[1], bl[2]],
            "mean_attacker_health_lost": al[0],
            "ci_attacker_health_lost": [al[1], al[2]],
            "breaths_by_attacker_per_game": int(self.counters[K.M_BREATHS_A]) / self.n,
            "seconds": self.seconds,
            "manifest": manifest(
                game="dragon-dice",
                mode="melee",
                seed=self.seed,
                n=self.n,
                attacker=self.attacker,
                defender=self.defender,
                counter_attack=self.counter,
                policy=str(self.policy),
                rules_hash=self.options.rules.hash if self.options else dice_rules().hash,
                seconds=self.seconds,
            ),
        }

    def summary(self) -> str:
        bl = self.defender_lost
        al = self.attacker_lost
        fmt = ", ".join
        return "\n".join(
            [
                f"Dragon Dice melee: {fmt(f'{u} x{c}' for u, c in self.attacker.items())}  "
                "attacks  "
                f"{fmt(f'{u} x{c}' for u, c in self.defender.items())}",
                f"  {self.n:,} games, {'with' if self.counter else 'without'} counter-attack, "
                f"{self.seconds:.2f} s",
                *interrupted_line(self),
                f"  defender destroyed   {self.p_defender_destroyed}",
                f"  attacker destroyed   {self.p_attacker_destroyed}",
                f"  defender health lost {bl[0]:.3f} [{bl[1]:.3f}, {bl[2]:.3f}]  (mean "
                "health-worth of its units lost)",
                f"  attacker health lost {al[0]:.3f} [{al[1]:.3f}, {al[2]:.3f}]  (mean)",
                *(
                    ["  " + rules_line(self.options.rules.hash, self.options.rules.overrides)]
                    if self.options
                    else []
                ),
            ]
        )


def melee(
    attacker: str | Mapping[str, int],
    defender: str | Mapping[str, int],
    *,
    n: int | float | str = 100_000,
    seed: int = 1,
    counter_attack: bool | None = None,
    policy: str | Sequence[str] | None = None,
    black_needs_id: bool | None = None,
    rules: RuleSet | None = None,
    catalog: D.Catalog | None = None,
    army_file: str | Path | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    checkpoint=None,
    records=None,
    **option_kw: Any,
) -> MeleeResult:
    """One melee attack of ``attacker`` on ``defender``, with dragonkin breath in melee.

    The attacker rolls for melee (ID as melee); each dragonkin breath icon applies its
    colour's weaker effect to one defending unit at once (black: must roll ID or be killed
    and buried; blue: rolls only for saves until the end of its next turn, so it does not
    counter-attack; gold: killed unless it rolls a save; green: halves its results; red:
    killed and buried), the defending owner choosing the unit by ``policy``. The defender
    rolls for saves (ID as saves, dragonkin armor unless belly); damage kills health-worth.
    With ``counter_attack`` the defender's survivors then attack the same way.

    ``counter_attack``, ``policy`` and ``black_needs_id`` are the rules
    ``dice.melee_counter_attack``, ``dice.casualty_policy`` and ``dice.kin_black_needs_id``
    (``None``: the value in ``rules``, default the shipped rules); ``option_kw`` takes any
    other rule by name. ``records``: a ``.parquet`` or ``.csv`` path for one row per game
    (:data:`MELEE_COLUMNS`), played one game at a time (see :func:`attack`).
    """
    cat = _catalog(catalog, army_file)
    kw = dict(option_kw)
    for name, v in (
        ("melee_counter_attack", counter_attack),
        ("policy", policy),
        ("kin_black_needs_id", black_needs_id),
    ):
        if v is not None:
            kw[name] = bool(v) if name != "policy" else v
    opts = _options(None, cat, kw, rules)
    cat = cat.under(opts.rules)
    a = D.parse_army(attacker, cat)
    b = D.parse_army(defender, cat)
    aa = build_army(a, cat, colour=-1, options=opts)
    bb = build_army(b, cat, colour=-1, options=opts)
    hcap = int(sum(int(bb.count0[t]) * int(bb.health[t]) for t in range(len(bb.names))))
    args = (aa.record(), bb.record(), opts.melee_array(), hcap)
    nn = _n(n)
    section = open_checkpoint(
        checkpoint, _identity("dice melee", seed, nn, opts, attacker=a, defender=b)
    )
    if records is not None:
        check_path(records)
    out = run_blocks_recorded(
        K.melee_kernel,
        nn,
        check_seed(seed),
        args,
        records=records,
        manifest=lambda: _records_manifest("dice melee", seed, nn, opts, attacker=a, defender=b),
        columns=MELEE_COLUMNS,
        to_columns=_melee_columns,
        progress=progress,
        threads=threads,
        label="games",
        checkpoint=section,
        game="Dragon Dice",
    )
    return MeleeResult(
        out.counters,
        out.n,
        hcap,
        a,
        b,
        opts.melee_counter_attack,
        opts.policy,
        out.seconds,
        check_seed(seed),
        out.interrupted,
        opts,
        nn,
    )
