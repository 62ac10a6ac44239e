"""Every dragon against one army: :func:`dragon_table`, one attack per dragon on the same game
indices, and its :class:`DragonTable`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import UserError
from ...records import RecordsFile, check_path
from ...report import manifest, rules_line
from ...rules import RuleSet, dice_rules
from .. import data as D
from .attacks import ATTACK_COLUMNS, AttackResult, attack
from .common import _identity, _n, _records_manifest, _study_checkpoint
from .options import Options, _catalog, _options


@dataclass
class DragonTable:
    """Each dragon (colour and variant) against the same army, on the same game indices."""

    army: dict[str, int]
    turns: int
    n: int
    results: list[AttackResult]
    seconds: float
    interrupted: bool = False
    dragons_requested: int | None = None

    @property
    def requested(self) -> int | None:
        return self.dragons_requested

    @property
    def finished(self) -> int:
        return len(self.results)

    def to_frame(self):
        """One row per dragon: slain, army destroyed, flew away, mean health lost, with
        95% intervals."""
        import pandas as pd

        rows = []
        for r in self.results:
            hl = r.health_lost
            rows.append(
                {
                    "dragon": r.dragons[0],
                    "p_dragon_slain": r.p_dragon_slain.rate,
                    "ci_dragon_slain": r.p_dragon_slain.ci,
                    "p_army_destroyed": r.p_army_destroyed.rate,
                    "ci_army_destroyed": r.p_army_destroyed.ci,
                    "p_dragon_flew_away": r.p_flew.rate,
                    "mean_health_lost": hl[0],
                    "ci_health_lost": (hl[1], hl[2]),
                    "mean_promotions": r.promotions[0],
                }
            )
        return pd.DataFrame(rows)

    def to_dict(self) -> dict[str, Any]:
        return {
            "army": self.army,
            "turns": self.turns,
            "n": self.n,
            "rows": self.to_frame().to_dict(orient="records"),
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "dragons_requested": self.dragons_requested,
            "manifest": manifest(
                game="dragon-dice",
                mode="dragon-table",
                n=self.n,
                army=self.army,
                turns=self.turns,
                seed=self.results[0].seed if self.results else None,
                rules_hash=self.results[0].options.rules.hash
                if self.results
                else dice_rules().hash,
                seconds=self.seconds,
            ),
        }

    def summary(self) -> str:
        lines = [
            "Dragon Dice table: every dragon against "
            f"{', '.join(f'{u} x{c}' for u, c in self.army.items())}"
            f", up to {self.turns} attack(s), {self.n:,} games each, {self.seconds:.1f} s",
            *(
                [f"  INTERRUPTED: {len(self.results)} of {self.dragons_requested} dragons finished"]
                if self.interrupted
                else []
            ),
            f"  {'dragon':<13}{'slain':>8}{'destroyed':>11}{'flew':>8}{'health lost':>13}",
        ]
        for r in self.results:
            lines.append(
                f"  {r.dragons[0]:<13}{r.p_dragon_slain.rate:>8.4f}"
                f"{r.p_army_destroyed.rate:>11.4f}{r.p_flew.rate:>8.4f}"
                f"{r.health_lost[0]:>13.3f}"
            )
        lines.append(
            "  (slain, destroyed, flew: share of games the dragon was slain, the army destroyed, "
            "the dragon flew away with the army still there; health lost: mean health-worth of "
            "the army's units lost)"
        )
        if self.results:
            rs = self.results[0].options.rules
            lines.append("  " + rules_line(rs.hash, rs.overrides))
        return "\n".join(lines)


def dragon_table(
    army: str | Mapping[str, int],
    *,
    dragons: str | Sequence[str] = "all",
    n: int | float | str = 100_000,
    seed: int = 1,
    turns: int = 1,
    options: Options | None = None,
    rules: RuleSet | None = None,
    catalog: D.Catalog | None = None,
    army_file: str | Path | None = None,
    threads: int | None = None,
    progress: bool | None = False,
    checkpoint=None,
    records=None,
    **option_kw: Any,
) -> DragonTable:
    """Every dragon (default: all colours and both variants) attacking the same army.

    All dragons play the same game indices, so the army rolls the same dice against each
    (common random numbers): 'wyrm or drake?' differences are paired. ``records``: a
    ``.parquet`` or ``.csv`` path for one row per game of every dragon (``dragon``, then
    :data:`ATTACK_COLUMNS`). ``threads``, ``progress``: as for :func:`attack` (a bar for each
    dragon's games).
    """
    import time

    cat = _catalog(catalog, army_file)
    opts = _options(options, cat, option_kw, rules)
    cat = cat.under(opts.rules)
    if isinstance(dragons, str) and dragons.strip().lower() == "all":
        names = list(D.dragons())
    elif isinstance(dragons, str):
        names = [cat.dragon(s.strip()).name for s in dragons.split(",") if s.strip()]
    elif isinstance(dragons, Sequence):
        names = [cat.dragon(s).name for s in dragons]
    else:
        raise UserError(
            f"dragons must be names (comma-separated or a list) or 'all', got {dragons!r}"
        )
    if not names:
        raise UserError("no dragons given; give names or 'all'")
    nn = _n(n)
    ck = _study_checkpoint(
        checkpoint,
        _identity(
            "dice table", seed, nn, opts, army=D.parse_army(army, cat), dragons=names, turns=turns
        ),
    )
    file = None
    if records is not None:
        check_path(records)
        file = RecordsFile(
            records,
            _records_manifest(
                "dice table",
                seed,
                nn,
                opts,
                army=D.parse_army(army, cat),
                dragons=names,
                turns=turns,
            ),
            {"dragon": "the attacking dragon", **ATTACK_COLUMNS},
        )
    t0 = time.perf_counter()
    res: list[AttackResult] = []
    interrupted = False
    for nm in names:
        try:
            r = attack(
                nm,
                army,
                n=nn,
                seed=seed,
                turns=turns,
                options=opts,
                catalog=cat,
                threads=threads,
                progress=progress,
                checkpoint=None if ck is None else ck.section(nm),
                records=file,
                _records_context={"dragon": nm},
            )
        except KeyboardInterrupt:
            r = None
        if r is None or r.interrupted:
            if not res:
                if file is not None:
                    file.close(dragons_finished=0, interrupted=True)
                raise KeyboardInterrupt
            interrupted = True
            break
        res.append(r)
    if file is not None:
        file.close(dragons_finished=len(res), interrupted=interrupted)
    return DragonTable(
        res[0].army,
        res[0].turns,
        res[0].n,
        res,
        time.perf_counter() - t0,
        interrupted,
        len(names),
    )
