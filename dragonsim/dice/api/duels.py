"""Dragons of different colours fighting each other, one team per colour: :func:`duel`, its
:class:`DuelResult`, :func:`teams_by_colour` and the columns of its records
(:data:`DUEL_COLUMNS`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...checkpoint import open_checkpoint
from ...errors import UserError, check_seed
from ...records import check_path, run_blocks_recorded
from ...report import interrupted_line, manifest, rules_line
from ...rules import RuleSet
from ...runner import n_or_precision, run_to_precision
from ...stats import Rate, mean_interval
from .. import data as D
from .. import kernel as K
from .armies import _dragon_faces, resolve_dragons
from .attacks import ATTACK_COLUMNS
from .common import _identity, _records_manifest, _turns
from .options import Options, _catalog, _options

#: a dragon fight's records (``dice duel``)
DUEL_COLUMNS = {
    "game": ATTACK_COLUMNS["game"],
    "winner_side": "the team left alone (0 for the first colour given, 1 the next, ...), -1: "
    "none (all gone, or still fighting)",
    "winner": "the winning colour, 'all gone' or 'still fighting'",
    "rounds": "rounds fought",
    "all_gone": "true when no dragon was left at all",
    "still_fighting": "true when two or more colours were left after the last round",
}


def _duel_columns(colours: Sequence[str]):
    def cols(rows: np.ndarray) -> dict:
        wins = np.stack(
            [rows[:, K.VHEAD + K.VT * i + K.VT_WINS] for i in range(len(colours))], axis=1
        )
        side = np.where(wins.any(axis=1), wins.argmax(axis=1), -1).astype(np.int64)
        gone = rows[:, K.V_ALL_GONE] > 0
        label = np.array([*colours, "all gone", "still fighting"], dtype=str)
        out = {
            "winner_side": side,
            "winner": label[
                np.where(side >= 0, side, np.where(gone, len(colours), len(colours) + 1))
            ],
            "rounds": rows[:, K.V_ROUNDS],
            "all_gone": gone,
            "still_fighting": rows[:, K.V_TIMEOUT] > 0,
        }
        for i, c in enumerate(colours):
            out[f"slain_{c}"] = rows[:, K.VHEAD + K.VT * i + K.VT_SLAIN]
            out[f"flew_{c}"] = rows[:, K.VHEAD + K.VT * i + K.VT_FLEW]
        return out

    return cols


@dataclass
class DuelResult:
    """Counters of dragons of different colours fighting each other (one team per colour)."""

    counters: np.ndarray
    n: int
    turns: int
    teams: list[list[str]]
    colours: list[str]
    options: Options
    seconds: float
    seed: int
    interrupted: bool = False
    requested: int | None = None
    #: how a ``precision=`` run went (:class:`~dragonsim.runner.PrecisionRun`), else None
    precision: Any = None

    @property
    def team_a(self) -> list[str]:
        return self.teams[0]

    @property
    def team_b(self) -> list[str]:
        return self.teams[1]

    def _r(self, i: int) -> Rate:
        """Counter ``i`` as a rate: Wilson 95%, or a precision run's confidence sequence."""
        from ...runner import precision_rates

        return precision_rates(self.precision)[0](int(self.counters[i]), self.n)

    def _t(self, team: int, what: int) -> int:
        return K.VHEAD + K.VT * team + what

    def p_team_wins(self, team: int) -> Rate:
        """Only this team's dragons are left."""
        return self._r(self._t(team, K.VT_WINS))

    def p_team_slain(self, team: int) -> Rate:
        """Some dragon of this team was slain."""
        return self._r(self._t(team, K.VT_ANY_SLAIN))

    @property
    def p_a_wins(self) -> Rate:
        return self.p_team_wins(0)

    @property
    def p_b_wins(self) -> Rate:
        return self.p_team_wins(1)

    @property
    def p_all_gone(self) -> Rate:
        return self._r(K.V_ALL_GONE)

    p_both_gone = p_all_gone

    @property
    def p_timeout(self) -> Rate:
        return self._r(K.V_TIMEOUT)

    @property
    def p_a_slain(self) -> Rate:
        return self.p_team_slain(0)

    @property
    def p_b_slain(self) -> Rate:
        return self.p_team_slain(1)

    @property
    def rounds(self) -> tuple[float, float, float]:
        return mean_interval(
            float(self.counters[K.V_ROUNDS]), float(self.counters[K.V_ROUNDS_SQ]), self.n
        )

    def _labels(self) -> list[str]:
        return ["a", "b"] if len(self.teams) == 2 else list(self.colours)

    def to_frame(self):
        import pandas as pd

        rows = []
        for i, lab in enumerate(self._labels()):
            for what, r in (("wins", self.p_team_wins(i)), ("dragon_slain", self.p_team_slain(i))):
                rows.append((f"p_{lab}_{what}", r.rate, r.lo, r.hi))
        for nm, r in (("p_all_gone", self.p_all_gone), ("p_still_fighting", self.p_timeout)):
            rows.append((nm, r.rate, r.lo, r.hi))
        rows.append(("mean_rounds", *self.rounds))
        return pd.DataFrame(rows, columns=["metric", "value", "lo", "hi"])

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n,
            "requested": self.requested,
            "interrupted": self.interrupted,
            "teams": self.teams,
            "colours": self.colours,
            "turns": self.turns,
        }
        if len(self.teams) == 2:
            out["team_a"], out["team_b"] = self.teams
        for _, row in self.to_frame().iterrows():
            m = row["metric"]
            key = m[2:] if m.startswith("p_") else m[5:]
            out[m] = row["value"]
            out[f"ci_{key}"] = [row["lo"], row["hi"]]
        if len(self.teams) == 2:
            out["p_both_gone"] = out["p_all_gone"]
            out["ci_both_gone"] = out["ci_all_gone"]
        out["seconds"] = self.seconds
        out["interval"] = self.p_timeout.method
        out["precision"] = None if self.precision is None else self.precision.to_dict()
        out["options"] = self.options.to_dict()
        out["manifest"] = manifest(
            game="dragon-dice",
            mode="dragon-vs-dragon",
            seed=self.seed,
            n=self.n,
            turns=self.turns,
            teams=self.teams,
            options=self.options.to_dict(),
            rules_hash=self.options.rules.hash,
            seconds=self.seconds,
        )
        return out

    def summary(self) -> str:
        r = self.rounds
        lines = [
            "Dragon Dice dragon fight: " + "  vs  ".join(" + ".join(t) for t in self.teams),
            f"  {self.n:,} games, up to {self.turns} round(s), {self.seconds:.2f} s",
            *interrupted_line(self),
        ]
        for i, col in enumerate(self.colours):
            lines.append(f"  {col + ' wins':<24}{self.p_team_wins(i)}")
        lines += [
            f"  {'all gone':<24}{self.p_all_gone}",
            f"  {'still fighting':<24}{self.p_timeout}",
        ]
        for i, col in enumerate(self.colours):
            lines.append(f"  {'a ' + col + ' dragon slain':<24}{self.p_team_slain(i)}")
        lines.append(f"  {'rounds played':<24}{r[0]:.3f} [{r[1]:.3f}, {r[2]:.3f}]  (mean)")
        rs = self.options.rules
        if self.precision is not None:
            lines.append(self.precision.line())
        lines.append("  " + rules_line(rs.hash, rs.overrides))
        return "\n".join(lines)


def teams_by_colour(
    spec: str | Sequence[str | D.Dragon], catalog: D.Catalog | None = None
) -> list[list[D.Dragon]]:
    """Group dragons into teams by colour ('dragons of the same color team up').

    >>> [[d.name for d in t] for t in teams_by_colour("red-wyrm,blue-drake,red-drake")]
    [['red-wyrm', 'red-drake'], ['blue-drake']]
    """
    cat = catalog or D.Catalog()
    teams: dict[str, list[D.Dragon]] = {}
    for d in resolve_dragons(spec, cat):
        teams.setdefault(d.colour, []).append(d)
    return list(teams.values())


def duel(
    *teams: str | Sequence[str | D.Dragon],
    n: int | float | str | None = None,
    precision: float | None = None,
    max_n: int | float | str | None = None,
    simultaneous: bool = False,
    seed: int = 1,
    turns: int = 1,
    options: Options | None = None,
    rules: RuleSet | None = None,
    catalog: D.Catalog | None = None,
    army_file: str | Path | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    checkpoint=None,
    records=None,
    **option_kw: Any,
) -> DuelResult:
    """Dragons of different colours fighting each other, one team per colour.

    Each team focuses on one dragon of another colour (one whose saves a breath negated
    first, else the first listed); all dragons roll at once; a dragon is slain by 5 damage
    (its health) plus 5 (its saves, unless it rolled belly or an enemy breath negated them
    for this round and the next ``breath_negation_rounds``). ``turns`` is the most rounds; a
    game ends when at most one colour is left.

    Parameters
    ----------
    teams
        Two or more teams, e.g. ``duel("red-wyrm", "blue-drake:2")``; or one spec holding
        several colours (``duel("red-wyrm,blue-drake,green-wyrm")``), grouped by colour.
    n, precision, max_n, simultaneous
        Games (default 100,000), or instead a precision target: play until every reported
        rate (each team's wins and a dragon of it slain, all gone, still fighting) has a 95%
        confidence-sequence half-width of at most ``precision``, at most ``max_n`` games
        (``simultaneous``: all covered at once; see :func:`attack`). Not with ``records``
        or ``checkpoint``.
    records
        A ``.parquet`` or ``.csv`` path: one row per game (:data:`DUEL_COLUMNS`, and each
        colour's dragons slain and flown away), played one game at a time (see
        :func:`attack`).
    """
    cat = _catalog(catalog, army_file)
    opts = _options(options, cat, option_kw, rules)
    cat = cat.under(opts.rules)
    if len(teams) == 1:
        groups = teams_by_colour(teams[0], cat)
    else:
        groups = [resolve_dragons(t, cat) for t in teams]
    if len(groups) < 2:
        raise UserError(
            "a dragon fight needs dragons of at least two colours; dragons of the "
            "same colour do not fight each other (they attack the army together; "
            "use attack)"
        )
    cols = []
    for i, team in enumerate(groups):
        c = {d.colour for d in team}
        if len(c) > 1:
            raise UserError(
                f"team {i + 1} mixes colours {sorted(c)}; dragons of one colour "
                "team up, so give each team one colour"
            )
        cols.append(c.pop())
    if len(set(cols)) < len(cols):
        raise UserError(
            f"two teams share a colour ({', '.join(cols)}): dragons of the same "
            "colour do not fight each other (they team up)"
        )
    dragons_all = [d for t in groups for d in t]
    if len(dragons_all) > 16:
        raise UserError("at most 16 dragons in a fight")
    T = _turns(turns)
    faces = _dragon_faces(dragons_all)
    side = np.array([i for i, t in enumerate(groups) for _ in t], np.int64)
    nn, cap = n_or_precision(n, precision, max_n, default_n=100_000, simultaneous=simultaneous)
    if precision is not None:
        if records is not None or checkpoint is not None:
            raise UserError("records and checkpoints are not supported with a precision target")
        k = len(groups)
        rated = [K.VHEAD + K.VT * t + w for t in range(k) for w in (K.VT_WINS, K.VT_ANY_SLAIN)]
        out, prun = run_to_precision(
            K.dvd_kernel,
            check_seed(seed),
            (faces, side, len(groups), opts.array(), T),
            precision=precision,
            cap=cap,
            rates=(*rated, K.V_ALL_GONE, K.V_TIMEOUT),
            simultaneous=simultaneous,
            progress=progress,
            threads=threads,
            label="games",
            game="Dragon Dice",
        )
        return DuelResult(
            out.counters,
            out.n,
            T,
            [[d.name for d in t] for t in groups],
            cols,
            opts,
            out.seconds,
            check_seed(seed),
            out.interrupted,
            out.n,
            prun,
        )
    section = open_checkpoint(
        checkpoint,
        _identity("dice duel", seed, nn, opts, teams=[[d.name for d in t] for t in groups]),
    )
    if records is not None:
        check_path(records)
    colcols = dict(DUEL_COLUMNS)
    for c in cols:
        colcols[f"slain_{c}"] = f"{c} dragons slain"
        colcols[f"flew_{c}"] = f"{c} dragons flown away"
    out = run_blocks_recorded(
        K.dvd_kernel,
        nn,
        check_seed(seed),
        (faces, side, len(groups), opts.array(), T),
        records=records,
        manifest=lambda: _records_manifest(
            "dice duel", seed, nn, opts, teams=[[d.name for d in t] for t in groups], turns=T
        ),
        columns=colcols,
        to_columns=_duel_columns(cols),
        progress=progress,
        threads=threads,
        label="games",
        checkpoint=section,
        game="Dragon Dice",
    )
    return DuelResult(
        out.counters,
        out.n,
        T,
        [[d.name for d in t] for t in groups],
        cols,
        opts,
        out.seconds,
        check_seed(seed),
        out.interrupted,
        nn,
    )
