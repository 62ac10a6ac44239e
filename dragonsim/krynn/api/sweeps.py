"""Sweeps: :func:`sweep`, one battle per value of a varied quantity on the same seed, and its
:class:`SweepResult`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...checkpoint import Checkpoint
from ...errors import UserError, check_int, parse_count, resolve_name
from ...records import RecordsFile, check_path
from ...report import rules_line
from ..data import LINES, KrynnRules
from .battles import BATTLE_COLUMNS, BattleResult, battle
from .common import MAX_TURNS, records_manifest, resolve_rules
from .tiles import MAX_TACTICS, parse_lines

MAX_SWEEP_VALUES = 101

SWEEPABLE = tuple(
    f"{prefix}.{line}"
    for prefix in ("alliance", "army", "barricades", "tactics", "army_barricades", "army_tactics")
    for line in LINES
) + ("heroes",)


@dataclass
class SweepResult:
    """One battle result per value of a varied quantity (same seed: common random numbers)."""

    vary: str
    values: list[int]
    results: list[BattleResult]
    interrupted: bool = False
    values_requested: int | None = None

    @property
    def requested(self) -> int | None:
        return self.values_requested

    @property
    def finished(self) -> int:
        return len(self.results)

    def to_frame(self):
        import pandas as pd

        rows = []
        for v, r in zip(self.values, self.results, strict=True):
            pa, pd_ = r.p_alliance_controls, r.p_army_controls
            mt, _, _ = r.mean_turns
            rows.append(
                {
                    self.vary: v,
                    "p_alliance_controls": pa.rate,
                    "lo": pa.lo,
                    "hi": pa.hi,
                    "p_army_controls": pd_.rate,
                    "mean_turns": mt,
                    "alliance_units_left": r.mean_units_left("alliance")[0],
                    "army_units_left": r.mean_units_left("army")[0],
                    "mean_stress": r.mean_stress[0],
                    "n": r.n,
                }
            )
        return pd.DataFrame(rows)

    def to_dict(self) -> dict[str, Any]:
        return {
            "vary": self.vary,
            "rows": self.to_frame().to_dict(orient="records"),
            "interrupted": self.interrupted,
            "values_requested": self.values_requested,
            "manifest": self.results[0].manifest if self.results else {},
        }

    def summary(self) -> str:
        f = self.to_frame()
        lines = [
            f"Warriors of Krynn sweep over {self.vary} ({self.results[0].battle_type}, "
            f"{self.results[0].n:,} games each, the same seed for every value)",
            *(
                [f"  INTERRUPTED: {len(self.results)} of {self.values_requested} values finished"]
                if self.interrupted
                else []
            ),
        ]
        for _, row in f.iterrows():
            lines.append(
                f"  {self.vary}={int(row[self.vary]):<3} Alliance controls "
                f"{100 * row['p_alliance_controls']:6.2f}% [{100 * row['lo']:.2f}, "
                f"{100 * row['hi']:.2f}]  battles until control {row['mean_turns']:.2f}"
            )
        if self.results:
            m = self.results[0].manifest
            lines.append("  " + rules_line(m.get("rules_hash"), m.get("overrides")))
        return "\n".join(lines)

    def plot(self, ax=None):
        """P(the Alliance controls the tile) against the varied value, with 95% intervals
        (matplotlib axes): a tick per value, the y axis from 0 so that a small change looks
        small (its numbers are printed at the points)."""
        import matplotlib.pyplot as plt
        from matplotlib.ticker import PercentFormatter

        from ...report import plot_style

        f = self.to_frame()
        x = f[self.vary].to_numpy()
        y = f["p_alliance_controls"].to_numpy()
        with plot_style():
            if ax is None:
                _, ax = plt.subplots()
            ax.errorbar(
                x, y, yerr=[y - f["lo"], f["hi"] - y], marker="o", capsize=4, label="95% interval"
            )
            for xi, yi in zip(x, y, strict=True):
                ax.annotate(
                    f"{100 * yi:.2f}%",
                    (xi, yi),
                    textcoords="offset points",
                    xytext=(6, -4),
                    fontsize=8,
                )
            ax.set_xticks(x)
            ax.set_xlabel(self.vary)
            ax.set_ylim(0, max(float(f["hi"].max()) * 1.3, 0.01))
            ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=1))
            ax.set_ylabel("P(Alliance controls the tile)")
            r0 = self.results[0]
            ax.set_title(
                f"{self.vary}: the same games for every value\n({r0.battle_type}, "
                f"{r0.n:,} games per value; the y axis starts at 0)",
                fontsize=9,
            )
        return ax


def sweep(
    vary: str, values: Sequence[int], *, checkpoint=None, records=None, **battle_kwargs: Any
) -> SweepResult:
    """Run :func:`battle` once per value of ``vary`` (e.g. ``"barricades.foot"``,
    ``"army.foot"``, ``"tactics.missile"``, ``"heroes"``), all on the same seed. An
    interruption keeps the values that finished; ``checkpoint`` (a path) keeps every finished
    block, and the same call resumes from it. ``records``: a ``.parquet`` or ``.csv`` path
    for one row per game of every value (``value``, then :data:`BATTLE_COLUMNS`)."""
    key = resolve_name(str(vary), SWEEPABLE, "sweep quantity")
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise UserError(f"values must be a list of whole numbers, got {values!r}")
    if not 1 <= len(values) <= MAX_SWEEP_VALUES:
        raise UserError(f"sweep needs 1 to {MAX_SWEEP_VALUES} values, got {len(values)}")
    values = [check_int(v, f"sweep value of {key}", 0, MAX_TURNS) for v in values]
    ck = checkpoint
    if ck is not None and not isinstance(ck, Checkpoint):
        ident = {k: v for k, v in battle_kwargs.items() if k not in ("progress", "threads")}
        if isinstance(ident.get("rules"), KrynnRules):
            ident["rules"] = ident["rules"].hash
        ck = Checkpoint(
            ck, {"command": "krynn sweep", "vary": key, "values": values, "battle": ident}
        )
    # every value's battle arguments are built (and checked) before the first battle, so a
    # bad value is refused at once, not after the values before it have been played
    kws = []
    for v in values:
        kw = dict(battle_kwargs)
        if key == "heroes":
            kw["heroes"] = v
        else:
            prefix, line = key.split(".")
            spec = parse_lines(kw.get(prefix), prefix, upper=MAX_TACTICS)
            spec[line] = int(v)
            kw[prefix] = spec
        battle(**kw, _check_only=True)
        kws.append(kw)
    file = None
    if records is not None:
        check_path(records)
        rs = resolve_rules(battle_kwargs.get("rules"), {})
        ident = {
            k: v for k, v in battle_kwargs.items() if k not in ("progress", "threads", "rules")
        }
        file = RecordsFile(
            records,
            records_manifest(
                "krynn sweep",
                battle_kwargs.get("seed", 1),
                parse_count(battle_kwargs.get("n", 100_000)),
                rs,
                vary=key,
                values=values,
                battle=ident,
            ),
            {"value": f"the value of {key} in these games", **BATTLE_COLUMNS},
        )
    results = []
    interrupted = False
    for v, kw in zip(values, kws, strict=True):
        if ck is not None:
            kw["checkpoint"] = ck.section(f"{key}={v}")
        try:
            r = battle(**kw, records=file, _records_context={"value": int(v)})
        except KeyboardInterrupt:
            r = None
        if r is None or r.interrupted:
            if not results:
                if file is not None:
                    file.close(values_finished=0, interrupted=True)
                raise KeyboardInterrupt
            interrupted = True
            break
        results.append(r)
    if file is not None:
        file.close(values_finished=len(results), interrupted=interrupted)
    return SweepResult(
        key, [int(v) for v in values[: len(results)]], results, interrupted, len(values)
    )
