"""Army-size sweeps: :func:`sweep`, the smallest number of copies of an army that slays each
dragon with a given probability (a bisection over attacks on the same seed), and its
:class:`SweepResult`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import UserError, check_seed
from ...records import RecordsFile, check_path
from ...report import manifest, rules_line
from ...rules import RuleSet
from .. import data as D
from .attacks import ATTACK_COLUMNS, AttackResult, attack
from .common import _identity, _n, _records_manifest, _study_checkpoint, _turns
from .options import Options, _catalog, _options


@dataclass
class SweepResult:
    """Smallest army size (copies of a base army) that slays each dragon with probability p."""

    p: float
    base: dict[str, int]
    turns: int
    n: int
    rows: list[dict[str, Any]]
    seconds: float
    seed: int
    options: Options
    interrupted: bool = False
    dragons_requested: int | None = None

    @property
    def requested(self) -> int | None:
        return self.dragons_requested

    @property
    def finished(self) -> int:
        return len(self.rows)

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame(self.rows)

    def to_dict(self) -> dict[str, Any]:
        return {
            "p": self.p,
            "base_army": self.base,
            "turns": self.turns,
            "n": self.n,
            "rows": self.rows,
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "dragons_requested": self.dragons_requested,
            "manifest": manifest(
                game="dragon-dice",
                mode="sweep",
                seed=self.seed,
                n=self.n,
                p=self.p,
                base_army=self.base,
                turns=self.turns,
                options=self.options.to_dict(),
                rules_hash=self.options.rules.hash,
                seconds=self.seconds,
            ),
        }

    def summary(self) -> str:
        base = ", ".join(f"{u}:{c}" for u, c in self.base.items())
        lines = [
            f"Dragon Dice sweep: army size (copies of {base}) to slay the dragon with "
            "probability >= "
            f"{self.p:g} within {self.turns} attack(s); {self.n:,} games per size, "
            f"{self.seconds:.1f} s",
            *(
                [f"  INTERRUPTED: {len(self.rows)} of {self.dragons_requested} dragons finished"]
                if self.interrupted
                else []
            ),
            f"  {'dragon':<14}{'copies':>7}{'units':>7}{'health':>8}   P(slain) at that size "
            "[95% interval]",
        ]
        for r in self.rows:
            if r["copies"] is None:
                lines.append(
                    f"  {r['dragon']:<14}{'>' + str(r['max_copies']):>7}"
                    f"{'':>7}{'':>8}   best {r['p_slain']:.3f} (not reached)"
                )
            else:
                lines.append(
                    f"  {r['dragon']:<14}{r['copies']:>7}{r['units']:>7}"
                    f"{r['health']:>8}   {r['p_slain']:.3f} "
                    f"[{r['ci_slain'][0]:.3f}, {r['ci_slain'][1]:.3f}]"
                )
        lines.append(
            "  (copies: of the army; units, health: the army at that size; "
            f"{self.n:,} games per size on the same game indices)"
        )
        lines.append("  " + rules_line(self.options.rules.hash, self.options.rules.overrides))
        return "\n".join(lines)


def sweep(
    army: str | Mapping[str, int] = "goblin-thug:1",
    *,
    dragons: str | Sequence[str] = "all",
    p: float = 0.5,
    n: int | float | str = 20_000,
    seed: int = 1,
    turns: int = 1,
    max_copies: int = 60,
    options: Options | None = None,
    rules: RuleSet | None = None,
    catalog: D.Catalog | None = None,
    army_file: str | Path | None = None,
    threads: int | None = None,
    progress: bool | None = False,
    checkpoint=None,
    records=None,
    **option_kw: Any,
) -> SweepResult:
    """Smallest number of copies of ``army`` that slays each dragon with probability >= p.

    Every size is played on the same game indices (common random numbers), and the search
    is a bisection over 1..``max_copies`` on the estimated probability (slaying chance grows
    with the army; the estimate's own interval is reported). ``records``: a ``.parquet`` or
    ``.csv`` path for one row per game of every size tried (``dragon``, ``copies``, then
    :data:`ATTACK_COLUMNS`).
    """
    import time

    cat = _catalog(catalog, army_file)
    opts = _options(options, cat, option_kw, rules)
    cat = cat.under(opts.rules)
    if not isinstance(p, int | float) or not 0.0 < float(p) < 1.0:
        raise UserError(f"p must be a probability strictly between 0 and 1, got {p!r}")
    if (
        isinstance(max_copies, bool)
        or not isinstance(max_copies, int)
        or not 1 <= max_copies <= 500
    ):
        raise UserError(f"max_copies must be 1..500, got {max_copies!r}")
    base = D.parse_army(army, cat)
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
        raise UserError("no dragons to sweep; give names or 'all'")
    nn = _n(n)
    T = _turns(turns)
    ck = _study_checkpoint(
        checkpoint,
        _identity("dice sweep", seed, nn, opts, army=base, dragons=names, p=float(p), turns=T),
    )
    file = None
    if records is not None:
        check_path(records)
        file = RecordsFile(
            records,
            _records_manifest(
                "dice sweep", seed, nn, opts, army=base, dragons=names, p=float(p), turns=T
            ),
            {
                "dragon": "the attacking dragon",
                "copies": "copies of the army in these games (the bisection's sizes)",
                **ATTACK_COLUMNS,
            },
        )
    t0 = time.perf_counter()
    rows = []
    interrupted = False
    for name in names:
        memo: dict[int, AttackResult] = {}

        def run(m: int, name=name, memo=memo) -> AttackResult:
            if m not in memo:
                r = attack(
                    name,
                    {u: c * m for u, c in base.items()},
                    n=nn,
                    seed=seed,
                    turns=T,
                    options=opts,
                    catalog=cat,
                    threads=threads,
                    progress=progress,
                    checkpoint=None if ck is None else ck.section(f"{name} x{m}"),
                    records=file,
                    _records_context={"dragon": name, "copies": m},
                )
                if r.interrupted:
                    raise KeyboardInterrupt
                memo[m] = r
            return memo[m]

        try:
            row = _sweep_row(run, name, p, max_copies, base, cat)
        except KeyboardInterrupt:
            if not rows:
                if file is not None:
                    file.close(dragons_finished=0, interrupted=True)
                raise
            interrupted = True
            break
        rows.append(row)
    if file is not None:
        file.close(dragons_finished=len(rows), interrupted=interrupted)
    return SweepResult(
        float(p),
        base,
        T,
        nn,
        rows,
        time.perf_counter() - t0,
        check_seed(seed),
        opts,
        interrupted,
        len(names),
    )


def _sweep_row(run, name, p, max_copies, base, cat) -> dict[str, Any]:
    """The bisection of :func:`sweep` for one dragon (``run(m)``: the attack of m copies)."""
    if run(max_copies).p_dragon_slain.rate < p:
        r = run(max_copies).p_dragon_slain
        return {
            "dragon": name,
            "copies": None,
            "max_copies": max_copies,
            "units": None,
            "health": None,
            "p_slain": r.rate,
            "ci_slain": [r.lo, r.hi],
        }
    lo, hi = 0, max_copies  # p(lo) < p <= p(hi); p(0) = 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if run(mid).p_dragon_slain.rate >= p:
            hi = mid
        else:
            lo = mid
    r = run(hi).p_dragon_slain
    units_n = sum(c * hi for c in base.values())
    health = sum(c * hi * cat.units[u].health for u, c in base.items())
    prev = run(hi - 1).p_dragon_slain.rate if hi > 1 else 0.0
    return {
        "dragon": name,
        "copies": hi,
        "max_copies": max_copies,
        "units": units_n,
        "health": health,
        "p_slain": r.rate,
        "ci_slain": [r.lo, r.hi],
        "p_slain_one_less": prev,
    }
