"""Scenarios on a row of battle tiles: :func:`battlefield` and its
:class:`BattlefieldResult`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...checkpoint import open_checkpoint
from ...errors import UserError, check_int, parse_count, resolve_name
from ...records import check_path, run_blocks_recorded
from ...report import interrupted_line, manifest, rules_line
from ...stats import Rate, mean_interval
from .. import engine as K
from ..data import SIDES, KrynnRules
from ..engine.state import Setup
from .battles import BATTLE_COLUMNS
from .common import records_manifest, resolve_rules, run_tables
from .tiles import Tile, as_tile

MAX_TILES = 9


@dataclass
class BattlefieldResult:
    """Scenarios on a row of battle tiles, until all are controlled or the Dragon Army reaches
    its control limit."""

    n: int
    counters: np.ndarray
    tiles: list[dict[str, Any]]
    control_limit: int
    seconds: float
    manifest: dict[str, Any] = field(repr=False)
    interrupted: bool = False
    requested: int | None = None

    def rate(self, what: str) -> Rate:
        idx = {
            "win": K.F_WIN,
            "hold": K.F_HOLD,
            "loss": K.F_LOSS,
            "loss_by_limit": K.F_LOSS_LIMIT,
            "unfinished": K.F_UNFINISHED,
        }
        return Rate.of(self.counters[idx[resolve_name(what, idx, "outcome")]], self.n)

    @property
    def mean_turns(self) -> tuple[float, float, float]:
        return mean_interval(
            float(self.counters[K.F_TURNS_SUM]), float(self.counters[K.F_TURNS_SQ]), self.n
        )

    def tile_control(self) -> list[dict[str, Rate]]:
        return [
            {
                side: Rate.of(self.counters[K.F_TILES + 2 * i + s], self.n)
                for s, side in enumerate(SIDES)
            }
            for i in range(len(self.tiles))
        ]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n,
            "requested": self.requested,
            "interrupted": self.interrupted,
        }
        for k in ("win", "hold", "loss", "loss_by_limit", "unfinished"):
            r = self.rate(k)
            out[f"p_{k}"] = r.rate
            out[f"ci_p_{k}"] = list(r.ci)
        m, lo, hi = self.mean_turns
        out["mean_turns"], out["ci_mean_turns"] = m, [lo, hi]
        out["tiles"] = [
            {"p_alliance_controls": c["alliance"].rate, "p_army_controls": c["army"].rate}
            for c in self.tile_control()
        ]
        out["control_limit"] = self.control_limit
        out["seconds"] = self.seconds
        out["manifest"] = self.manifest
        return out

    def to_frame(self):
        import pandas as pd

        rows = []
        for i, c in enumerate(self.tile_control()):
            for side, r in c.items():
                rows.append({"tile": i, "controls": side, "p": r.rate, "lo": r.lo, "hi": r.hi})
        return pd.DataFrame(rows)

    def summary(self) -> str:
        m, lo, hi = self.mean_turns
        lines = [
            f"Warriors of Krynn battlefield, {len(self.tiles)} tiles, {self.n:,} scenarios",
            *interrupted_line(self, "scenarios"),
        ]
        labels = {
            "win": "win (Alliance controls more tiles)",
            "hold": "hold (both control as many)",
            "loss": "loss (Dragon Army controls more, or its limit)",
            "loss_by_limit": "  of which by the control limit",
            "unfinished": f"unfinished after {self.manifest.get('max_turns', '?')} turns",
        }
        w = max(len(v) for v in labels.values())
        lines.append("  scenario outcome, share of scenarios:")
        for k, lab in labels.items():
            lines.append(f"    {lab:<{w}}  {self.rate(k)}")
        lines.append(f"  scenario length: {m:.2f} turns [{lo:.2f}, {hi:.2f}]")
        lines.append("  tile control at the end, share of scenarios:")
        for i, c in enumerate(self.tile_control()):
            lines.append(f"    tile {i}: Alliance {c['alliance']}  Dragon Army {c['army']}")
        lines.append(
            "  " + rules_line(self.manifest.get("rules_hash"), self.manifest.get("overrides"))
        )
        return "\n".join(lines)


#: a battlefield scenario's records (``krynn battlefield``); ``tile_I`` columns follow
FIELD_COLUMNS = {
    "game": BATTLE_COLUMNS["game"],
    "winner_side": "0 the Alliance (a win), 1 the Dragon Army (a loss), -1 neither (a hold, "
    "or unfinished)",
    "outcome": "win, hold, loss, loss by limit (the Dragon Army's control limit) or unfinished",
    "turns": "turns played",
    "hero_stress": BATTLE_COLUMNS["hero_stress"],
}


def _field_columns(ntiles: int):
    def cols(rows: np.ndarray) -> dict:
        names = np.array(["win", "hold", "loss", "loss by limit", "unfinished"], dtype=str)
        limit = rows[:, K.F_LOSS_LIMIT] > 0
        k = np.select(
            [rows[:, K.F_WIN] > 0, rows[:, K.F_HOLD] > 0, limit, rows[:, K.F_LOSS] > 0],
            [0, 1, 3, 2],
            4,
        )
        side = np.where(k == 0, 0, np.where((k == 2) | (k == 3), 1, -1)).astype(np.int64)
        out = {
            "winner_side": side,
            "outcome": names[k],
            "turns": rows[:, K.F_TURNS_SUM],
            "hero_stress": rows[:, K.F_STRESS_SUM],
        }
        for t in range(ntiles):
            a = rows[:, K.F_TILES + 2 * t] > 0
            b = rows[:, K.F_TILES + 2 * t + 1] > 0
            out[f"tile_{t}"] = np.where(a, "alliance", np.where(b, "army", "none"))
        return out

    return cols


def battlefield(
    tiles: Sequence[Tile | Mapping[str, Any]],
    *,
    control_limit: int = 0,
    battle_type: str | float = "mixed",
    heroes: int = 0,
    hero_policy: str | None = None,
    tier: str | None = None,
    max_turns: int = 200,
    n: int | str = 100_000,
    seed: int = 1,
    threads: int | None = None,
    progress: bool | None = None,
    rules: KrynnRules | None = None,
    checkpoint=None,
    records=None,
    **overrides: Any,
) -> BattlefieldResult:
    """Play a scenario on a row of battle tiles (far left ... far right) ``n`` times.

    Each turn one uncontrolled tile is the active flank (chosen in proportion to its flank
    tokens, assumed) and fights a battle; a controlled tile's flank token and 1 unit of each
    type of the victor move to a neighbouring uncontrolled tile. The scenario ends when all
    tiles are controlled (win / hold / loss by who controls more) or when the Dragon Army
    controls ``control_limit`` tiles (loss; 0 = no limit). ``records``: a ``.parquet`` or
    ``.csv`` path for one row per scenario (:data:`FIELD_COLUMNS` and who controls each tile
    at the end), played one scenario at a time (see :func:`battle`)."""
    n = parse_count(n)
    if isinstance(tiles, str | Mapping | Tile) or not isinstance(tiles, Sequence):
        raise UserError(f"tiles must be a list of Tile or mappings, got {tiles!r}")
    if not 1 <= len(tiles) <= MAX_TILES:
        raise UserError(f"a battlefield needs 1 to {MAX_TILES} battle tiles, got {len(tiles)}")
    ts = [as_tile(t, i) for i, t in enumerate(tiles)]
    control_limit = check_int(control_limit, "control_limit (0: none)", 0, len(ts))
    r = resolve_rules(rules, overrides)
    arrs = [t.arrays(r.commanders, r.line_capacity) for t in ts]
    u = np.stack([a[0] for a in arrs])
    cmd = np.stack([a[1] for a in arrs])
    tab = np.stack([a[2] for a in arrs])
    flank = np.array([t.flank for t in ts], np.int64)
    r, p, tables = run_tables(
        r,
        heroes=heroes,
        hero_policy=hero_policy,
        tier=tier,
        max_turns=max_turns,
        battle_type=battle_type,
        control_limit=int(control_limit),
    )
    args = (Setup(u, cmd, tab, flank), tables)
    section = open_checkpoint(
        checkpoint,
        {"command": "krynn battlefield", "seed": seed, "n": n, "rules_hash": r.hash},
    )
    if records is not None:
        check_path(records)
    fcols = dict(FIELD_COLUMNS)
    for t in range(len(ts)):
        fcols[f"tile_{t}"] = f"who controls tile {t} at the end: alliance, army or none"
    out = run_blocks_recorded(
        K.field_kernel,
        n,
        seed,
        args,
        records=records,
        manifest=lambda: records_manifest(
            "krynn battlefield",
            seed,
            n,
            r,
            tiles=[t.describe(r.commanders, r.line_capacity) for t in ts],
            control_limit=int(control_limit),
            battle_type=str(battle_type),
            max_turns=int(max_turns),
        ),
        columns=fcols,
        to_columns=_field_columns(len(ts)),
        progress=progress,
        threads=threads,
        label="scenarios",
        checkpoint=section,
        game="Warriors of Krynn",
    )
    man = manifest(
        command="krynn battlefield",
        seed=seed,
        n=out.n,
        threads=out.threads,
        rules_hash=r.hash,
        overrides=r.overrides,
        p_all_out=p,
        max_turns=int(max_turns),
        control_limit=int(control_limit),
        seconds=out.seconds,
        compile_seconds=out.compile_seconds,
        resumed=out.resumed,
        interrupted=out.interrupted,
    )
    return BattlefieldResult(
        out.n,
        out.counters,
        [t.describe(r.commanders, r.line_capacity) for t in ts],
        int(control_limit),
        out.seconds,
        man,
        out.interrupted,
        n,
    )
