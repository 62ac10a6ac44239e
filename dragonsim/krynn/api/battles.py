"""Battles on one battle tile until a side controls it: :func:`battle` and its
:class:`BattleResult`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...checkpoint import open_checkpoint
from ...errors import UserError, resolve_name
from ...records import RecordsFile, check_path, run_blocks_recorded
from ...report import interrupted_line, manifest, rules_line
from ...runner import n_or_precision, run_to_precision
from ...stats import Rate, mean_interval
from .. import engine as K
from ..data import LINES, SIDES, Commander, KrynnRules
from ..engine.state import Setup
from .common import BATTLE_TYPES, fmt_lines, records_manifest, resolve_rules, run_tables
from .tiles import LineSpec, Tile


@dataclass
class BattleResult:
    """Battles on one tile, turn after turn until it is controlled (or ``max_turns``)."""

    n: int
    counters: np.ndarray
    tile: dict[str, Any]
    battle_type: str
    p_all_out: float
    heroes: int
    max_turns: int
    seconds: float
    interrupted: bool
    manifest: dict[str, Any] = field(repr=False)
    requested: int | None = None
    #: how a ``precision=`` run went (:class:`~dragonsim.runner.PrecisionRun`), else None
    precision: Any = None

    def _off(self):
        bins = int(self.heroes) * int(self.manifest["max_stress"]) + 1
        return K.battle_offsets(self.max_turns, bins), bins

    def _rate(self, i: int) -> Rate:
        """Counter ``i`` as a rate: Wilson 95%, or a precision run's confidence sequence."""
        from ...runner import precision_rates

        return precision_rates(self.precision)[0](int(self.counters[i]), self.n)

    @property
    def p_alliance_controls(self) -> Rate:
        """Probability the Alliance controls the tile (Wilson interval, or a precision run's
        confidence sequence)."""
        return self._rate(K.B_ALLIANCE)

    @property
    def p_army_controls(self) -> Rate:
        return self._rate(K.B_ARMY)

    @property
    def p_undecided(self) -> Rate:
        return self._rate(K.B_NONE)

    @property
    def mean_turns(self) -> tuple[float, float, float]:
        """Mean battles until the tile is controlled (controlled games), with a 95% interval."""
        k = int(self.counters[K.B_ALLIANCE] + self.counters[K.B_ARMY])
        return mean_interval(
            float(self.counters[K.B_TURNS_SUM]), float(self.counters[K.B_TURNS_SQ]), k
        )

    @property
    def mean_stress(self) -> tuple[float, float, float]:
        """Mean stress the heroes took absorbing hits, per game."""
        return mean_interval(
            float(self.counters[K.B_STRESS_SUM]), float(self.counters[K.B_STRESS_SQ]), self.n
        )

    @property
    def p_hero_at_max_stress(self) -> Rate:
        """Probability some hero ends the game at maximum stress (can absorb no more)."""
        return self._rate(K.B_HERO_MAXED)

    @property
    def dice_per_game(self) -> float:
        return float(self.counters[K.B_DICE]) / max(1, self.n)

    def units_left(self) -> dict[str, dict[str, float]]:
        """Mean ready and shaken units per side and line at the end."""
        out = {}
        for s, side in enumerate(SIDES):
            for li, line in enumerate(LINES):
                base = K.B_UNITS + (s * 3 + li) * 2
                out[f"{side}_{line}"] = {
                    "ready": float(self.counters[base]) / max(1, self.n),
                    "shaken": float(self.counters[base + 1]) / max(1, self.n),
                }
        return out

    def mean_units_left(self, side: str) -> tuple[float, float, float]:
        s = SIDES.index(resolve_name(side, SIDES, "side"))
        return mean_interval(
            float(self.counters[K.B_TOTAL + s]), float(self.counters[K.B_TOTAL + 2 + s]), self.n
        )

    def turns_histogram(self) -> np.ndarray:
        """``int64[2, max_turns + 1]``: games controlled by (Alliance, Army) at each turn."""
        (o_turn, _, _, _), _ = self._off()
        m = self.max_turns + 1
        return self.counters[o_turn : o_turn + 2 * m].reshape(2, m)

    def stress_histogram(self) -> np.ndarray:
        (_, o_st, _, _), bins = self._off()
        return self.counters[o_st : o_st + bins]

    def line_histogram(self, side: str, line: str) -> np.ndarray:
        """``int64[7, 7]``: games ending with (ready, shaken) units on that line."""
        s = SIDES.index(resolve_name(side, SIDES, "side"))
        li = LINES.index(resolve_name(line, LINES, "line"))
        (_, _, o_line, _), _ = self._off()
        base = o_line + (s * 3 + li) * 49
        return self.counters[base : base + 49].reshape(7, 7)

    def plot(self, ax=None):
        """When the tile falls, by side (matplotlib axes): the share of games controlled at
        each battle, the axis ending at the 99.5th percentile of the battles played."""
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator

        from ...report import hist_quantile, plot_style

        h = self.turns_histogram()
        last = max(1, hist_quantile(h.sum(axis=0), 0.995))
        turns = np.arange(1, last + 1)
        names = {"alliance": "Alliance", "army": "Dragon Army"}
        shares = {"alliance": self.p_alliance_controls, "army": self.p_army_controls}
        with plot_style():
            if ax is None:
                _, ax = plt.subplots()
            for s, (side, ls) in enumerate(zip(SIDES, ("-", "--"), strict=True)):
                ax.step(
                    turns,
                    h[s, 1 : last + 1] / max(1, self.n),
                    where="mid",
                    ls=ls,
                    label=f"{names[side]} controls it ({100 * shares[side].rate:.1f}% of games)",
                )
            ax.set_xlabel("battle at which the tile is controlled (axis to the 99.5th percentile)")
            ax.set_ylabel("share of games")
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_title(
                f"Alliance {fmt_lines(self.tile['alliance'])} vs Dragon Army "
                f"{fmt_lines(self.tile['army'])}\n{self.battle_type}, {self.n:,} games",
                fontsize=9,
            )
            ax.legend(loc="upper right", fontsize=8)
        return ax

    def to_dict(self) -> dict[str, Any]:
        pa, pd, pu = self.p_alliance_controls, self.p_army_controls, self.p_undecided
        mt, mlo, mhi = self.mean_turns
        ms, slo, shi = self.mean_stress
        return {
            "n": self.n,
            "requested": self.requested,
            "p_alliance_controls": pa.rate,
            "ci_p_alliance_controls": list(pa.ci),
            "p_army_controls": pd.rate,
            "ci_p_army_controls": list(pd.ci),
            "p_undecided": pu.rate,
            "ci_p_undecided": list(pu.ci),
            "mean_turns": mt,
            "ci_mean_turns": [mlo, mhi],
            "mean_stress": ms,
            "ci_mean_stress": [slo, shi],
            "p_hero_at_max_stress": self.p_hero_at_max_stress.rate,
            "units_left": self.units_left(),
            "dice_per_game": self.dice_per_game,
            "battle": self.battle_type,
            "tile": self.tile,
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "interval": pa.method,
            "precision": None if self.precision is None else self.precision.to_dict(),
            "manifest": self.manifest,
        }

    def to_frame(self):
        """One row per outcome (alliance, army, undecided) with rate and interval."""
        import pandas as pd

        rows = []
        for name, r in (
            ("alliance", self.p_alliance_controls),
            ("army", self.p_army_controls),
            ("undecided", self.p_undecided),
        ):
            rows.append({"controls": name, "games": r.k, "p": r.rate, "lo": r.lo, "hi": r.hi})
        return pd.DataFrame(rows)

    def summary(self) -> str:
        t = self.tile
        mt, mlo, mhi = self.mean_turns
        lines = [
            f"Warriors of Krynn battle ({self.battle_type}), {self.n:,} games",
            *interrupted_line(self),
            f"  Alliance {fmt_lines(t['alliance'])}  vs  Dragon Army {fmt_lines(t['army'])}",
            f"  Alliance controls the tile: {self.p_alliance_controls}",
            f"  Dragon Army controls it:    {self.p_army_controls}",
        ]
        if self.p_undecided.k:
            lines.append(f"  undecided after {self.max_turns} battles: {self.p_undecided}")
        lines.append(f"  battles until control: {mt:.2f} [{mlo:.2f}, {mhi:.2f}] (mean)")
        for side in SIDES:
            m, lo, hi = self.mean_units_left(side)
            name = "Alliance" if side == "alliance" else "Dragon Army"
            lines.append(f"  {name} units left: {m:.2f} [{lo:.2f}, {hi:.2f}] (mean, at the end)")
        if self.heroes:
            ms, slo, shi = self.mean_stress
            lines.append(
                f"  hero stress taken: {ms:.2f} [{slo:.2f}, {shi:.2f}]"
                f" ({self.heroes} hero(es)); a hero at maximum stress:"
                f" {self.p_hero_at_max_stress}"
            )
        if self.precision is not None:
            lines.append(self.precision.line())
        lines.append(f"  {self.n / max(self.seconds, 1e-9):,.0f} games/s, {self.seconds:.2f} s")
        lines.append(
            "  " + rules_line(self.manifest.get("rules_hash"), self.manifest.get("overrides"))
        )
        return "\n".join(lines)


#: what each column of a battle's records holds (``records=``, ``--records``)
BATTLE_COLUMNS = {
    "game": "game index (its random streams are (seed, game): replayable)",
    "winner_side": "the side controlling the tile: 0 the Alliance, 1 the Dragon Army, -1 "
    "undecided after the most battles",
    "winner": "alliance, army or undecided (as winner_side)",
    "battles": "battles fought",
    "alliance_units_left": "Alliance units (ready and shaken) on the tile at the end",
    "army_units_left": "Dragon Army units on the tile at the end",
    "hero_stress": "stress the heroes took (all together)",
    "hero_at_max_stress": "true when a hero ended at maximum stress",
    "battle_dice": "battle dice rolled",
}

_SIDE_LABELS = np.array(["alliance", "army", "undecided"], dtype=str)


def _battle_columns(rows: np.ndarray) -> dict:
    side = np.where(rows[:, K.B_ALLIANCE] > 0, 0, np.where(rows[:, K.B_ARMY] > 0, 1, -1)).astype(
        np.int64
    )
    return {
        "winner_side": side,
        "winner": _SIDE_LABELS[np.where(side < 0, 2, side)],
        "battles": rows[:, K.B_PLAYED],
        "alliance_units_left": rows[:, K.B_TOTAL],
        "army_units_left": rows[:, K.B_TOTAL + 1],
        "hero_stress": rows[:, K.B_STRESS_SUM],
        "hero_at_max_stress": rows[:, K.B_HERO_MAXED] > 0,
        "battle_dice": rows[:, K.B_DICE],
    }


def battle(
    *,
    alliance: LineSpec,
    army: LineSpec,
    barricades: LineSpec = None,
    tactics: LineSpec = None,
    army_barricades: LineSpec = None,
    army_tactics: LineSpec = None,
    alliance_shaken: LineSpec = None,
    army_shaken: LineSpec = None,
    alliance_commander: str | Commander | None = None,
    army_commander: str | Commander | None = None,
    battle_type: str | float = "skirmish",
    heroes: int = 0,
    hero_policy: str | None = None,
    tier: str | None = None,
    max_turns: int = 100,
    n: int | str | None = None,
    precision: float | None = None,
    max_n: int | str | None = None,
    simultaneous: bool = False,
    seed: int = 1,
    threads: int | None = None,
    progress: bool | None = None,
    rules: KrynnRules | None = None,
    checkpoint=None,
    records=None,
    _check_only: bool = False,
    _records_context: Mapping[str, Any] | None = None,
    **overrides: Any,
) -> BattleResult:
    """Play battles on one battle tile until one side controls it, ``n`` times.

    Parameters
    ----------
    alliance, army
        Units per line, e.g. ``"foot=3,missile=2,mounted=2"`` or ``{"foot": 3}``.
    barricades, tactics
        The Alliance's barricade and tactic tokens per line (``army_*`` for the Dragon Army).
    battle_type
        ``"skirmish"``, ``"all-out"``, ``"mixed"`` or the probability of an all-out battle.
    heroes, hero_policy, tier
        Heroes on the tile who may absorb hits as stress (``never``, ``removals``, ``all`` or
        ``last``), and the tier setting their maximum stress.
    max_turns
        Battles before a game counts as undecided.
    n, precision, max_n, simultaneous
        Games (default 100,000), or instead a precision target: play until the Alliance,
        Dragon Army, undecided and hero-at-maximum-stress rates all have a 95%
        confidence-sequence half-width of at most ``precision``, at most ``max_n`` games
        (default 1e8; ``simultaneous``: all four covered at once); see
        :func:`~dragonsim.runner.run_to_precision`. Not with ``records``
        or ``checkpoint``.
    rules, **overrides
        The rules (:class:`~dragonsim.krynn.data.KrynnRules`, default
        :func:`~dragonsim.krynn.data.default_rules`) and overrides by rule name, e.g.
        ``alliance_hits="ready-first"`` or ``**{"battle_die.woe": 2}`` (see
        :meth:`~dragonsim.krynn.data.KrynnRules.replace`; ``python -m dragonsim rules --game
        krynn`` lists them).
    records
        A ``.parquet`` or ``.csv`` path: one row per game (:data:`BATTLE_COLUMNS`) and the
        run's manifest (:mod:`dragonsim.records`). The kernel keeps no per-game rows, so each
        game is played on its own: the counters are the same, the run slower.

    Returns
    -------
    BattleResult
    """
    n, cap = n_or_precision(n, precision, max_n, default_n=100_000, simultaneous=simultaneous)
    r = resolve_rules(rules, overrides)
    tile = Tile(
        alliance=alliance,
        army=army,
        alliance_barricades=barricades,
        alliance_tactics=tactics,
        army_barricades=army_barricades,
        army_tactics=army_tactics,
        alliance_shaken=alliance_shaken,
        army_shaken=army_shaken,
        alliance_commander=alliance_commander,
        army_commander=army_commander,
    )
    u, cmd, tab = tile.arrays(r.commanders, r.line_capacity)
    r, p, tables = run_tables(
        r,
        heroes=heroes,
        hero_policy=hero_policy,
        tier=tier,
        max_turns=max_turns,
        battle_type=battle_type,
    )
    args = (Setup(u[None], cmd[None], tab[None], np.array([tile.flank], np.int64)), tables)
    if records is not None and not isinstance(records, RecordsFile):
        check_path(records)
    if _check_only:
        return None
    prun = None
    if precision is not None:
        if records is not None or checkpoint is not None:
            raise UserError("records and checkpoints are not supported with a precision target")
        out, prun = _to_precision(args, seed, precision, cap, simultaneous, progress, threads)
        n = out.n
    section = open_checkpoint(
        checkpoint, {"command": "krynn battle", "seed": seed, "n": n, "rules_hash": r.hash}
    )
    if prun is None:
        out = run_blocks_recorded(
            K.battle_kernel,
            n,
            seed,
            args,
            records=records,
            manifest=lambda: records_manifest(
                "krynn battle",
                seed,
                n,
                r,
                tile=tile.describe(r.commanders, r.line_capacity),
                battle_type=str(battle_type),
                heroes=int(heroes),
                max_turns=int(max_turns),
            ),
            columns=BATTLE_COLUMNS,
            to_columns=_battle_columns,
            context=_records_context,
            progress=progress,
            threads=threads,
            label="battles",
            checkpoint=section,
            game="Warriors of Krynn",
        )
    return _result(out, prun, r, p, tile, battle_type, int(heroes), int(max_turns), seed, n)


def _to_precision(args, seed, precision, cap, simultaneous, progress, threads):
    """Battles until the rates :func:`battle` reports are as precise as asked: returns
    ``(out, PrecisionRun)`` (:func:`~dragonsim.runner.run_to_precision`)."""
    return run_to_precision(
        K.battle_kernel,
        seed,
        args,
        precision=precision,
        cap=cap,
        rates=(K.B_ALLIANCE, K.B_ARMY, K.B_NONE, K.B_HERO_MAXED),
        simultaneous=simultaneous,
        progress=progress,
        threads=threads,
        label="battles",
        game="Warriors of Krynn",
    )


def _result(out, prun, r, p, tile, battle_type, heroes, max_turns, seed, n) -> BattleResult:
    """:func:`battle`'s result from the run ``out`` (and its precision run ``prun``)."""
    kind = (
        resolve_name(battle_type, BATTLE_TYPES, "battle type")
        if isinstance(battle_type, str)
        else f"p_all_out={p}"
    )
    man = manifest(
        command="krynn battle",
        seed=seed,
        n=out.n,
        threads=out.threads,
        rules_hash=r.hash,
        overrides=r.overrides,
        hero_policy=r.hero_policy,
        max_stress=r.max_stress,
        seconds=out.seconds,
        compile_seconds=out.compile_seconds,
        resumed=out.resumed,
        interrupted=out.interrupted,
        precision=None if prun is None else prun.to_dict(),
    )
    return BattleResult(
        out.n,
        out.counters,
        tile.describe(r.commanders, r.line_capacity),
        kind,
        p,
        heroes,
        max_turns,
        out.seconds,
        out.interrupted,
        man,
        n,
        prun,
    )
