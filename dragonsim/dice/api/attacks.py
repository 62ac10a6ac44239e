"""Dragons of one colour attacking an army: :func:`attack`, its :class:`AttackResult` and the
columns of its records (:data:`ATTACK_COLUMNS`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...checkpoint import open_checkpoint
from ...errors import UserError, check_seed
from ...records import RecordsFile, check_path, run_blocks_recorded
from ...report import interrupted_line, manifest, rules_hash, rules_line
from ...rules import RuleSet
from ...runner import n_or_precision, run_to_precision
from ...stats import Rate, mean_interval
from .. import data as D
from .. import kernel as K
from .armies import build_army, resolve_dragons
from .common import _identity, _records_manifest, _sides, _turns
from .options import Options, _catalog, _options

#: what each column of a dragon attack's records holds (``records=``, ``--records``)
ATTACK_COLUMNS = {
    "game": "game index (its random streams are (seed, game): replayable)",
    "winner_side": "0: the dragons (the army destroyed, not every dragon slain), 1: the army (no "
    "dragon left, slain or flown away, the army still there), -1: neither (the army destroyed "
    "and every dragon slain by the same attack, or still fighting)",
    "winner": "dragons, army or none (as winner_side)",
    "attacks": "attacks made",
    "dragons_slain": "dragons slain",
    "all_dragons_slain": "true when every dragon was slain",
    "army_destroyed": "true when the army was destroyed",
    "dragon_flew_away": "true when no dragon was left, one flew away and the army was still "
    "there (a wing on the attack that destroys the army: army_destroyed)",
    "still_fighting": "true when dragons and army were both still there after the last attack",
    "army_health_lost": "health-worth of the army's units lost (killed, buried, dragonkin removed)",
    "army_health_buried": "health-worth buried (black and red breath)",
    "promotions": "units promoted (slaying and treasure)",
}


def _attack_columns(rows: np.ndarray) -> dict:
    destroyed = rows[:, K.C_DESTROYED] > 0
    gone = (rows[:, K.C_ALL_SLAIN] > 0) | (rows[:, K.C_FLEW] > 0)
    return {
        **_sides(destroyed, gone, ("dragons", "army")),
        "attacks": rows[:, K.C_TURNS],
        "dragons_slain": rows[:, K.C_SLAIN_SUM],
        "all_dragons_slain": rows[:, K.C_ALL_SLAIN] > 0,
        "army_destroyed": destroyed,
        "dragon_flew_away": rows[:, K.C_FLEW] > 0,
        "still_fighting": rows[:, K.C_TIMEOUT] > 0,
        "army_health_lost": rows[:, K.C_LOST],
        "army_health_buried": rows[:, K.C_BURIED],
        "promotions": rows[:, K.C_PROMO],
    }


@dataclass
class AttackResult:
    """Counters of dragons attacking an army, with rates, intervals and curves."""

    counters: np.ndarray
    n: int
    turns: int
    hcap: int
    dragons: list[str]
    army: dict[str, int]
    options: Options
    seconds: float
    seed: int
    interrupted: bool = False
    meta: dict[str, Any] = field(default_factory=dict)
    requested: int | None = None
    #: how a ``precision=`` run went (:class:`~dragonsim.runner.PrecisionRun`), else None
    precision: Any = None

    def _c(self, i: int) -> int:
        return int(self.counters[i])

    def _rate(self, i: int) -> Rate:
        """Counter ``i`` as a rate: Wilson 95%, or a precision run's confidence sequence."""
        from ...runner import precision_rates

        return precision_rates(self.precision)[0](self._c(i), self.n)

    def _lay(self, key: str) -> np.ndarray:
        return self.counters[K.army_layout(self.hcap, self.turns)[key]]

    @property
    def p_dragon_slain(self) -> Rate:
        """At least one dragon slain."""
        return self._rate(K.C_ANY_SLAIN)

    @property
    def p_all_slain(self) -> Rate:
        return self._rate(K.C_ALL_SLAIN)

    @property
    def p_army_destroyed(self) -> Rate:
        return self._rate(K.C_DESTROYED)

    @property
    def p_flew(self) -> Rate:
        return self._rate(K.C_FLEW)

    @property
    def p_slain_and_destroyed(self) -> Rate:
        """Every dragon slain by the attack that destroys the army: the one way a game ends
        in two of slain, destroyed, flew away and still fighting (counted in both), so that
        ``p_all_slain + p_army_destroyed + p_flew + p_timeout - p_slain_and_destroyed`` is 1.
        (A dragon whose wing shows on the attack that destroys the army counts as the army
        destroyed, not flown away: the battle it left is over.)"""
        from ...runner import precision_rates

        c = self._c
        both = c(K.C_ALL_SLAIN) + c(K.C_DESTROYED) + c(K.C_FLEW) + c(K.C_TIMEOUT) - c(K.C_GAMES)
        return precision_rates(self.precision)[0](both, self.n)

    @property
    def p_destroyed_by_breath(self) -> Rate:
        """The army destroyed by a breath before it could respond."""
        return self._rate(K.C_DESTROYED_BY_BREATH)

    @property
    def p_timeout(self) -> Rate:
        return self._rate(K.C_TIMEOUT)

    @property
    def p_promotion(self) -> Rate:
        return self._rate(K.C_PROMO_ANY)

    def _mean(self, i: int, j: int) -> tuple[float, float, float]:
        return mean_interval(float(self._c(i)), float(self._c(j)), self.n)

    @property
    def health_lost(self) -> tuple[float, float, float]:
        """Mean health-worth of units lost, with its 95% interval."""
        return self._mean(K.C_LOST, K.C_LOST_SQ)

    @property
    def promotions(self) -> tuple[float, float, float]:
        return self._mean(K.C_PROMO, K.C_PROMO_SQ)

    @property
    def turns_played(self) -> tuple[float, float, float]:
        return self._mean(K.C_TURNS, K.C_TURNS_SQ)

    @property
    def lost_hist(self) -> np.ndarray:
        """Games by health-worth lost (last bin: that much or more)."""
        return self._lay("lost_hist").copy()

    @property
    def dice_per_attack(self) -> tuple[float, float]:
        """Mean dragon dice and unit dice rolled per attack."""
        att = max(1, self._c(K.C_TURNS))
        return self._c(K.C_DICE_DRAGON) / att, self._c(K.C_DICE_ARMY) / att

    def survival(self) -> dict[str, np.ndarray]:
        """Per turn 0..turns: fraction of games with the army still there, with a dragon still
        there, and with no dragon slain yet."""
        n = max(1, self.n)
        out = {}
        for key, lay in (
            ("army", "army_gone_at"),
            ("dragon", "dragons_gone_at"),
            ("unslain", "first_slain_at"),
        ):
            gone = np.cumsum(self._lay(lay))
            out[key] = 1.0 - gone / n
        return out

    def to_frame(self):
        """Metrics with 95% intervals as a pandas DataFrame (metric, value, lo, hi)."""
        import pandas as pd

        rows = []
        for name, r in (
            ("p_dragon_slain", self.p_dragon_slain),
            ("p_all_dragons_slain", self.p_all_slain),
            ("p_army_destroyed", self.p_army_destroyed),
            ("p_army_destroyed_by_breath", self.p_destroyed_by_breath),
            ("p_dragon_flew_away", self.p_flew),
            ("p_still_fighting", self.p_timeout),
            ("p_slain_and_destroyed", self.p_slain_and_destroyed),
            ("p_any_promotion", self.p_promotion),
        ):
            rows.append((name, r.rate, r.lo, r.hi))
        for name, m in (
            ("mean_health_lost", self.health_lost),
            ("mean_promotions", self.promotions),
            ("mean_turns", self.turns_played),
        ):
            rows.append((name, *m))
        return pd.DataFrame(rows, columns=["metric", "value", "lo", "hi"])

    def lost_frame(self):
        """Distribution of health-worth lost (health, games, probability)."""
        import pandas as pd

        h = self.lost_hist
        return pd.DataFrame(
            {"health_lost": np.arange(h.size), "games": h, "probability": h / max(1, self.n)}
        )

    def survival_frame(self):
        import pandas as pd

        s = self.survival()
        return pd.DataFrame({"turn": np.arange(self.turns + 1), **s})

    def to_dict(self) -> dict[str, Any]:
        def rate(prefix: str, r: Rate) -> dict[str, Any]:
            return {f"p_{prefix}": r.rate, f"ci_{prefix}": [r.lo, r.hi]}

        hl = self.health_lost
        pm = self.promotions
        tp = self.turns_played
        h = self.lost_hist
        last = int(np.max(np.nonzero(h)[0])) if h.any() else 0
        out: dict[str, Any] = {
            "n": self.n,
            "requested": self.requested,
            "dragons": self.dragons,
            "army": self.army,
            "turns": self.turns,
        }
        out.update(rate("dragon_slain", self.p_dragon_slain))
        out.update(rate("all_dragons_slain", self.p_all_slain))
        out.update(rate("army_destroyed", self.p_army_destroyed))
        out.update(rate("army_destroyed_by_breath", self.p_destroyed_by_breath))
        out.update(rate("dragon_flew_away", self.p_flew))
        out.update(rate("still_fighting", self.p_timeout))
        out.update(rate("slain_and_destroyed", self.p_slain_and_destroyed))
        out.update(rate("any_promotion", self.p_promotion))
        out.update(
            {
                "mean_health_lost": hl[0],
                "ci_health_lost": [hl[1], hl[2]],
                "mean_promotions": pm[0],
                "ci_promotions": [pm[1], pm[2]],
                "mean_turns": tp[0],
                "ci_turns": [tp[1], tp[2]],
                "health_lost_distribution": (h[: last + 1] / max(1, self.n)).tolist(),
                "survival": {k: v.tolist() for k, v in self.survival().items()},
                "dice_per_attack": list(self.dice_per_attack),
                "seconds": self.seconds,
                "interrupted": self.interrupted,
                "interval": self.p_army_destroyed.method,
                "precision": None if self.precision is None else self.precision.to_dict(),
                "options": self.options.to_dict(),
                "manifest": self.manifest(),
            }
        )
        return out

    def manifest(self) -> dict[str, Any]:
        return manifest(
            game="dragon-dice",
            mode="army",
            seed=self.seed,
            n=self.n,
            turns=self.turns,
            dragons=self.dragons,
            army=self.army,
            options=self.options.to_dict(),
            policy=self.options.policy,
            rules_hash=rules_hash({"rules": self.options.rules.hash, **self.meta}),
            rules_overrides=self.options.rules.overrides,
            seconds=self.seconds,
            precision=None if self.precision is None else self.precision.to_dict(),
            **self.meta,
        )

    def summary(self) -> str:
        hl = self.health_lost
        pm = self.promotions
        tp = self.turns_played
        slain = "all dragons slain" if len(self.dragons) > 1 else "dragon slain"
        lines = [
            f"Dragon Dice attack: {' + '.join(self.dragons)} attacking "
            f"{', '.join(f'{u} x{c}' for u, c in self.army.items())}",
            f"  {self.n:,} games, up to {self.turns} attack(s) each, {self.seconds:.2f} s",
            *interrupted_line(self),
            f"  {'a dragon slain   ' if len(self.dragons) > 1 else 'dragon slain     '} "
            f"{self.p_dragon_slain}",
        ]
        if len(self.dragons) > 1:
            lines.append(f"  all dragons slain {self.p_all_slain}")
        lines += [
            f"  army destroyed    {self.p_army_destroyed}",
            f"  dragon flew away  {self.p_flew}",
            f"  still fighting    {self.p_timeout}",
            f"  slain & destroyed {self.p_slain_and_destroyed}  (by the same attack)",
            f"  (a game ends in exactly one of {slain}, army destroyed, flew away and still",
            "  fighting, or in the first two at once: slain & destroyed; a wing on the attack",
            "  that destroys the army counts as the army destroyed)",
            f"  army health lost  {hl[0]:.3f} [{hl[1]:.3f}, {hl[2]:.3f}]  (mean health-worth of "
            "the army's units lost, per game)",
            f"  promotions        {pm[0]:.3f} [{pm[1]:.3f}, {pm[2]:.3f}]  (mean units "
            "promoted, per game)",
            f"  attacks made      {tp[0]:.3f} [{tp[1]:.3f}, {tp[2]:.3f}]  (mean, of at most "
            f"{self.turns})",
            "  (a share of games with its 95% "
            + ("interval" if self.precision is None else "confidence sequence")
            + "; means with their 95% intervals)",
        ]
        if self.precision is not None:
            lines.append(self.precision.line())
        rs = self.options.rules
        lines.append("  " + rules_line(rs.hash, rs.overrides))
        return "\n".join(lines)

    def plot(self, ax=None):
        """Survival curves by attack (matplotlib axes): the share of games with the army
        still there, with a dragon still there and with no dragon slain yet, each with its
        own line style and marker; two curves that are the same (no dragon ever flew away)
        are drawn once, under both labels."""
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator, PercentFormatter

        from ...report import plot_style

        with plot_style():
            if ax is None:
                _, ax = plt.subplots()
            s = self.survival()
            x = np.arange(self.turns + 1)
            curves = [
                (s["army"], "army still there", "-", "o"),
                (s["dragon"], "a dragon still there", "--", "s"),
                (s["unslain"], "no dragon slain yet", ":", "^"),
            ]
            if np.array_equal(s["dragon"], s["unslain"]):
                curves = [
                    curves[0],
                    (s["dragon"], "a dragon still there = no dragon slain yet", "--", "s"),
                ]
            for y, label, ls, mk in curves:
                ax.step(x, y, where="post", ls=ls, label=label)
                ax.plot(x, y, ls="none", marker=mk, ms=4, color=ax.lines[-1].get_color())
            ax.set_xlabel("attacks made")
            ax.set_ylabel("share of games")
            ax.set_ylim(0, 1.02)
            ax.yaxis.set_major_formatter(PercentFormatter(1.0))
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_title(
                f"{' + '.join(self.dragons)} attacking "
                f"{', '.join(f'{u} x{c}' for u, c in self.army.items())}\n{self.n:,} games, "
                f"up to {self.turns} attacks",
                fontsize=9,
            )
            ax.legend(loc="lower left")
        return ax


def attack(
    dragon: str | D.Dragon | Sequence[str | D.Dragon],
    army: str | Mapping[str, int],
    *,
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
    dead_area: Mapping[str, int] | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    checkpoint=None,
    records=None,
    _records_context: Mapping[str, Any] | None = None,
    **option_kw: Any,
) -> AttackResult:
    """Dragons of one colour attacking an army, ``turns`` attacks at most.

    Parameters
    ----------
    dragon
        A dragon name (``'red-wyrm'``), several of one colour (``'red-wyrm,red-drake'`` or
        ``'red-wyrm:2'``), or :class:`~dragonsim.dice.data.Dragon` objects.
    army
        ``'goblin-thug:6,goblin-pelter:4'``, a ready-made army name, or ``{unit: count}``.
    n, seed, threads, progress
        Games (default 100,000), seed, numba threads, progress bar.
    precision, max_n, simultaneous
        Instead of ``n``: play until every reported rate (dragon slain, all dragons slain,
        army destroyed, by breath, dragon flew away, still fighting, any promotion) has a 95%
        confidence-sequence half-width of at most ``precision``, at most ``max_n`` games
        (default 1e8); see :func:`~dragonsim.runner.run_to_precision` (Clopper-Pearson at
        each look of a plan fixed before any game, :func:`~dragonsim.stats.precision_plan`).
        ``simultaneous``: every rate covered at once, not each on its own. Not with
        ``records`` or ``checkpoint``.
    turns
        Attacks at most (one per turn of the army's owner); the game also ends when the
        dragons are gone (slain or flown away) or the army is destroyed.
    options, rules, option_kw
        :class:`Options`, a :class:`~dragonsim.rules.core.RuleSet` of the Dice rules (e.g.
        ``dice_rules(file="house.toml")``), or rules by name as keywords (e.g.
        ``id_split='save-first'``; every ``dice.<name>`` of :mod:`dragonsim.rules.dice`, and
        ``policy`` for ``casualty_policy``). Keywords win over ``options``, which wins over an
        army file's ``[options]``, which wins over ``rules``.
    catalog, army_file
        Extra units, dragons and armies (a :class:`~dragonsim.dice.data.Catalog` or a TOML
        file, see :func:`~dragonsim.dice.data.load_toml`).
    dead_area
        Units in the army's dead unit area at the start (for ``promotion_supply='dead-area'``).
    records
        A ``.parquet`` or ``.csv`` path: one row per game (:data:`ATTACK_COLUMNS`) and the
        run's manifest (:mod:`dragonsim.records`). The kernel keeps no per-game rows, so each
        game is played on its own: the counters are the same, the run slower.

    Returns
    -------
    AttackResult
    """
    cat = _catalog(catalog, army_file)
    opts = _options(options, cat, option_kw, rules)
    cat = cat.under(opts.rules)
    ds = resolve_dragons(dragon, cat)
    cols = {d.colour for d in ds}
    if len(cols) > 1:
        raise UserError(
            f"dragons of different colours ({', '.join(sorted(cols))}) attack each other, not "
            "the army (seed: 'Dragon vs. Dragon'); use the duel command / dice.duel()"
        )
    armyd = D.parse_army(army, cat)
    nn, cap = n_or_precision(n, precision, max_n, default_n=100_000, simultaneous=simultaneous)
    T = _turns(turns)
    colour = ds[0].colour_code
    arr = build_army(armyd, cat, colour=colour, dead_area=dead_area, options=opts)
    args = arr.kernel_args(ds, colour, opts, T)
    prun = None
    if precision is not None:
        if records is not None or checkpoint is not None:
            raise UserError("records and checkpoints are not supported with a precision target")
        out, prun = run_to_precision(
            K.army_kernel,
            check_seed(seed),
            args,
            precision=precision,
            cap=cap,
            rates=(
                K.C_ANY_SLAIN,
                K.C_ALL_SLAIN,
                K.C_DESTROYED,
                K.C_DESTROYED_BY_BREATH,
                K.C_FLEW,
                K.C_TIMEOUT,
                K.C_PROMO_ANY,
            ),
            simultaneous=simultaneous,
            progress=progress,
            threads=threads,
            label="games",
            compiled=K._army_kernel,
            game="Dragon Dice",
        )
        return _attack_result(out, T, arr, ds, armyd, opts, seed, cat, out.n, prun)
    section = open_checkpoint(
        checkpoint,
        _identity("dice attack", seed, nn, opts, dragons=[d.name for d in ds], army=armyd),
    )
    if records is not None and not isinstance(records, RecordsFile):
        check_path(records)
    out = run_blocks_recorded(
        K.army_kernel,
        nn,
        check_seed(seed),
        args,
        records=records,
        manifest=lambda: _records_manifest(
            "dice attack", seed, nn, opts, dragons=[d.name for d in ds], army=armyd, turns=T
        ),
        columns=ATTACK_COLUMNS,
        to_columns=_attack_columns,
        context=_records_context,
        progress=progress,
        threads=threads,
        label="games",
        checkpoint=section,
        compiled=K._army_kernel,
        game="Dragon Dice",
    )
    return _attack_result(out, T, arr, ds, armyd, opts, seed, cat, nn, None)


def _attack_result(out, T, arr, ds, armyd, opts, seed, cat, requested, prun) -> AttackResult:
    meta = {
        "unit_faces": {nm: list(cat.units[nm].faces) for nm in arr.names},
        "dragon_faces": {d.name: list(d.die.faces) for d in ds},
    }
    return AttackResult(
        out.counters,
        out.n,
        T,
        arr.hcap,
        [d.name for d in ds],
        armyd,
        opts,
        out.seconds,
        check_seed(seed),
        out.interrupted,
        meta,
        requested,
        prun,
    )
