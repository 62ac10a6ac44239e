"""Public Warriors of Krynn functions: validate, build arrays, run the kernels, present.

>>> from dragonsim.krynn import battle
>>> r = battle(alliance="foot=3,missile=2,mounted=2", army="foot=5,missile=3,mounted=2",
...            n=2000, progress=False)
>>> 0.0 <= r.p_alliance_controls.rate <= 1.0
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..checkpoint import Checkpoint, open_checkpoint
from ..errors import UserError, check_int, did_you_mean, parse_count, resolve_name
from ..records import RecordsFile, check_path, run_blocks_recorded
from ..report import interrupted_line, manifest, rules_line
from ..runner import n_or_precision, run_to_precision
from ..stats import Rate, mean_interval
from . import kernel as K
from .data import (
    HERO_POLICIES,
    LINES,
    MAX_UNITS,
    SIDES,
    Commander,
    KrynnRules,
    commander_array,
    default_rules,
    resolve_commander,
)
from .odds import (
    MAX_ACTIONS,
    MAX_CARDS,
    MAX_DIFFICULTY,
    MAX_POOL,
    best_conflict_plan,
    conflict_odds,
    effective_difficulty,
)

__all__ = [
    "Tile",
    "parse_lines",
    "battle",
    "BattleResult",
    "battlefield",
    "BattlefieldResult",
    "conflict",
    "ConflictResult",
    "sweep",
    "SweepResult",
    "BATTLE_TYPES",
]

#: ``--battle`` values and the probability of an all-out battle each turn (``mixed``: the rule
#: ``krynn.p_all_out_mixed``, 0.5 by default).
BATTLE_TYPES = {"skirmish": 0.0, "all-out": 1.0, "mixed": 0.5}
MAX_HEROES = 5  # printed: "3 to 5 players join the War of the Lance"
MAX_TACTICS = 20
MAX_TURNS = 10_000  # battles a game may last (a histogram row per battle)
MAX_TILES = 9
MAX_SWEEP_VALUES = 101
MAX_FLANK = 20

LineSpec = str | Mapping[str, int] | None


def parse_lines(spec: LineSpec, what: str, *, upper: int = MAX_UNITS) -> dict[str, int]:
    """Parse ``"foot=3,missile=2"`` (or a mapping) into ``{line: count}`` for all 3 lines.

    >>> parse_lines("foot=3, Mounted=1", "--alliance")
    {'foot': 3, 'missile': 0, 'mounted': 1}
    """
    out = dict.fromkeys(LINES, 0)
    if spec is None:
        return out
    if isinstance(spec, str):
        items = []
        for part in spec.split(","):
            part = part.strip()
            if not part:
                continue
            name, sep, val = part.partition("=")
            if not sep:
                name, sep, val = part.partition(":")
            if not sep:
                raise UserError(
                    f"{what}: expected LINE=COUNT items such as 'foot=3,missile=2', got {part!r}"
                )
            items.append((name.strip(), val.strip()))
    elif isinstance(spec, Mapping):
        items = list(spec.items())
    else:
        raise UserError(f"{what}: expected 'foot=3,missile=2' or a mapping, got {spec!r}")
    seen = set()
    for name, val in items:
        line = resolve_name(str(name), LINES, f"line in {what}")
        if line in seen:
            raise UserError(f"{what}: line {line!r} given twice")
        seen.add(line)
        try:
            v = int(val)
            if isinstance(val, float | str) and float(val) != v:
                raise ValueError
        except (TypeError, ValueError):
            raise UserError(
                f"{what}: {line} must be a whole number, got {val!r} (expected LINE=COUNT items"
                " separated by commas, e.g. 'foot=3,missile=2')"
            ) from None
        if not 0 <= v <= upper:
            raise UserError(f"{what}: {line} must be between 0 and {upper}, got {v}")
        out[line] = v
    return out


@dataclass(frozen=True)
class Tile:
    """One battle tile's starting position.

    ``alliance`` / ``army``: units per line (``"foot=3,missile=2"`` or a mapping, 0..6 each);
    ``*_shaken``: how many of them start shaken; ``*_barricades``: barricade tokens (at most
    one per unit; placed under ready units first); ``*_tactics``: tactic tokens (only on lines
    with units); commanders by name (:data:`dragonsim.krynn.data.COMMANDERS`) or
    :class:`~dragonsim.krynn.data.Commander`; ``flank``: flank tokens on the tile.
    """

    alliance: LineSpec = None
    army: LineSpec = None
    alliance_shaken: LineSpec = None
    army_shaken: LineSpec = None
    alliance_barricades: LineSpec = None
    army_barricades: LineSpec = None
    alliance_tactics: LineSpec = None
    army_tactics: LineSpec = None
    alliance_commander: str | Commander | None = None
    army_commander: str | Commander | None = None
    alliance_commander_shaken: bool = False
    flank: int = 1

    def arrays(
        self, commanders: Mapping[str, Commander] | None = None, capacity: int = MAX_UNITS
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(u[2, 3, 5], cmd[2], cmd_tab[2, 3])`` for the kernels (validated); commander
        names are looked up in ``commanders`` (the rules' ``krynn.commanders``; default the
        shipped ones), at most ``capacity`` units a line (``krynn.line_capacity``)."""
        u = np.zeros((2, 3, 5), np.int64)
        cmd = np.zeros(2, np.int64)
        for s, side in enumerate(SIDES):
            units = parse_lines(getattr(self, side), f"--{side}", upper=capacity)
            shaken = parse_lines(getattr(self, f"{side}_shaken"), f"{side} shaken")
            bars = parse_lines(getattr(self, f"{side}_barricades"), f"{side} barricades")
            tacs = parse_lines(
                getattr(self, f"{side}_tactics"), f"{side} tactics", upper=MAX_TACTICS
            )
            if sum(units.values()) == 0:
                raise UserError(f"the {side} needs at least one unit on the tile")
            for li, line in enumerate(LINES):
                n, sh, b, tc = units[line], shaken[line], bars[line], tacs[line]
                if sh > n:
                    raise UserError(f"{side} {line}: {sh} shaken units but only {n} units")
                if b > n:
                    raise UserError(
                        f"{side} {line}: {b} barricades but {n} units (each unit can have only"
                        " 1 barricade, and barricades can't be placed on spaces without units)"
                    )
                if tc > 0 and n == 0:
                    raise UserError(
                        f"{side} {line}: tactic tokens can't be added to a battle line with no"
                        " units"
                    )
                r = n - sh
                br = min(b, r)
                u[s, li] = (r, sh, br, b - br, tc)
            c = resolve_commander(getattr(self, f"{side}_commander"), commanders)
            cmd[s] = 0 if c.hook == "none" else 1
        if self.alliance_commander_shaken and cmd[0] == 1:
            cmd[0] = 2
        tab = commander_array([self.alliance_commander, self.army_commander], commanders)
        check_int(self.flank, "flank tokens", 0, MAX_FLANK)
        return u, cmd, tab

    def describe(
        self, commanders: Mapping[str, Commander] | None = None, capacity: int = MAX_UNITS
    ) -> dict[str, Any]:
        u, cmd, _ = self.arrays(commanders, capacity)
        out: dict[str, Any] = {}
        for s, side in enumerate(SIDES):
            out[side] = {line: int(u[s, li, 0] + u[s, li, 1]) for li, line in enumerate(LINES)}
            out[f"{side}_shaken"] = {line: int(u[s, li, 1]) for li, line in enumerate(LINES)}
            out[f"{side}_barricades"] = {
                line: int(u[s, li, 2] + u[s, li, 3]) for li, line in enumerate(LINES)
            }
            out[f"{side}_tactics"] = {line: int(u[s, li, 4]) for li, line in enumerate(LINES)}
            c = resolve_commander(getattr(self, f"{side}_commander"), commanders)
            out[f"{side}_commander"] = c.name
        out["flank"] = int(self.flank)
        return out


def _tile(t: Tile | Mapping[str, Any], i: int) -> Tile:
    """A :class:`Tile`, or one from a mapping of its fields (unknown keys refused)."""
    if isinstance(t, Tile):
        return t
    if not isinstance(t, Mapping):
        raise UserError(f"tile {i}: expected a Tile or a mapping of its fields, got {t!r}")
    allowed = list(Tile.__dataclass_fields__)
    for k in t:
        if k not in allowed:
            raise UserError(
                f"tile {i}: unknown key {k!r}{did_you_mean(str(k), allowed)}; "
                f"allowed: {', '.join(allowed)}"
            )
    return Tile(**t)


def _p_all_out(kind: str | float, rules: KrynnRules) -> float:
    if isinstance(kind, int | float) and not isinstance(kind, bool):
        if not 0.0 <= float(kind) <= 1.0:
            raise UserError(f"probability of an all-out battle must be in [0, 1], got {kind}")
        return float(kind)
    name = resolve_name(str(kind), BATTLE_TYPES, "battle type")
    return rules.p_all_out_mixed if name == "mixed" else BATTLE_TYPES[name]


def _rules(rules: KrynnRules | None, overrides: dict[str, Any]) -> KrynnRules:
    if rules is not None and not isinstance(rules, KrynnRules):
        raise UserError(
            f"rules must be a KrynnRules (dragonsim.krynn.data.default_rules(), "
            f"KrynnRules.from_ruleset(krynn_rules(...))), got {type(rules).__name__}"
        )
    r = rules or default_rules()
    return r.replace(**overrides) if overrides else r


def _common(rules, *, heroes, hero_policy, tier, max_turns, battle_type):
    if hero_policy is not None:
        rules = rules.replace(hero_policy=resolve_name(hero_policy, HERO_POLICIES, "hero policy"))
    if tier is not None:
        tiers = rules.tier_max_stress
        rules = rules.replace(max_stress=tiers[resolve_name(tier, tiers, "tier")])
    heroes = check_int(heroes, "heroes", 0, MAX_HEROES)
    max_turns = check_int(max_turns, "max_turns", 1, MAX_TURNS)
    p = _p_all_out(battle_type, rules)
    ra = rules.arrays()
    die_hits, die_woe, sk_line, sk_cmd = ra.die_hits, ra.die_woe, ra.sk_line, ra.sk_cmd
    cards, sizes = ra.cards, ra.sizes
    opts = np.zeros(K.N_OPTS, np.int64)
    opts[: K.N_RULE_OPTS] = ra.options
    opts[K.O_HEROES] = int(heroes)
    opts[K.O_MAX_TURNS] = int(max_turns)
    opts[K.O_STRESS_BINS] = int(heroes) * rules.max_stress + 1
    fopts = np.array([p, float(rules.p_all_out_commanders)], np.float64)
    return rules, p, (cards, sizes, die_hits, die_woe, sk_line, sk_cmd, opts, fopts)


# --- one tile ---------------------------------------------------------------------------------
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
        from ..runner import precision_rates

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

        from ..report import hist_quantile, plot_style

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
                f"Alliance {_fmt_lines(self.tile['alliance'])} vs Dragon Army "
                f"{_fmt_lines(self.tile['army'])}\n{self.battle_type}, {self.n:,} games",
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
            f"  Alliance {_fmt_lines(t['alliance'])}  vs  Dragon Army {_fmt_lines(t['army'])}",
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
#: a battlefield scenario's records (``krynn battlefield``); ``tile_I`` columns follow
FIELD_COLUMNS = {
    "game": BATTLE_COLUMNS["game"],
    "winner_side": "0 the Alliance (a win), 1 the Dragon Army (a loss), -1 neither (a hold, "
    "or unfinished)",
    "outcome": "win, hold, loss, loss by limit (the Dragon Army's control limit) or unfinished",
    "turns": "turns played",
    "hero_stress": BATTLE_COLUMNS["hero_stress"],
}
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


def _conflict_columns(rows: np.ndarray) -> dict:
    return {
        "success": rows[:, K.K_SUCCESS] > 0,
        "exceeded": rows[:, K.K_EXCEED] > 0,
        "stress": rows[:, K.K_STRESS_SUM],
        "attempts": rows[:, K.K_ATTEMPTS],
        "actions": rows[:, K.K_ACTIONS],
        "cards": rows[:, K.K_CARDS],
    }


def _records_manifest(command: str, seed, n, r, **what: Any) -> dict[str, Any]:
    return manifest(
        command=command,
        game="warriors-of-krynn",
        seed=int(seed),
        requested=int(n),
        rules_hash=r.hash,
        rules_overrides=r.overrides,
        **what,
    )


def _fmt_lines(d: Mapping[str, int]) -> str:
    return ",".join(f"{k}={v}" for k, v in d.items())


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
    n, precision, max_n
        Games (default 100,000), or instead a precision target: play until the Alliance,
        Dragon Army, undecided and hero-at-maximum-stress rates all have a 95%
        confidence-sequence half-width of at most ``precision``, at most ``max_n`` games
        (default 1e8); see :func:`~dragonsim.runner.run_to_precision`. Not with ``records``
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
    n, cap = n_or_precision(n, precision, max_n, default_n=100_000)
    r = _rules(rules, overrides)
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
    r, p, (cards, sizes, dh, dw, sl, sc, opts, fopts) = _common(
        r,
        heroes=heroes,
        hero_policy=hero_policy,
        tier=tier,
        max_turns=max_turns,
        battle_type=battle_type,
    )
    args = (u[None], cmd[None], tab[None], cards, sizes, dh, dw, sl, sc, opts, fopts)
    if records is not None and not isinstance(records, RecordsFile):
        check_path(records)
    if _check_only:
        return None
    prun = None
    if precision is not None:
        if records is not None or checkpoint is not None:
            raise UserError("records and checkpoints are not supported with a precision target")
        out, prun = run_to_precision(
            K.battle_kernel,
            seed,
            args,
            precision=precision,
            cap=cap,
            rates=lambda c, _n: [c[i] for i in (K.B_ALLIANCE, K.B_ARMY, K.B_NONE, K.B_HERO_MAXED)],
            progress=progress,
            threads=threads,
            label="battles",
            game="Warriors of Krynn",
        )
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
            manifest=lambda: _records_manifest(
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
        int(heroes),
        int(max_turns),
        out.seconds,
        out.interrupted,
        man,
        n,
        prun,
    )


# --- battlefield ------------------------------------------------------------------------------
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
    ts = [_tile(t, i) for i, t in enumerate(tiles)]
    control_limit = check_int(control_limit, "control_limit (0: none)", 0, len(ts))
    r = _rules(rules, overrides)
    arrs = [t.arrays(r.commanders, r.line_capacity) for t in ts]
    u = np.stack([a[0] for a in arrs])
    cmd = np.stack([a[1] for a in arrs])
    tab = np.stack([a[2] for a in arrs])
    flank = np.array([t.flank for t in ts], np.int64)
    r, p, (cards, sizes, dh, dw, sl, sc, opts, fopts) = _common(
        r,
        heroes=heroes,
        hero_policy=hero_policy,
        tier=tier,
        max_turns=max_turns,
        battle_type=battle_type,
    )
    opts[K.O_CONTROL_LIMIT] = int(control_limit)
    args = (u, cmd, tab, flank, cards, sizes, dh, dw, sl, sc, opts, fopts)
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
        manifest=lambda: _records_manifest(
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


# --- conflicts --------------------------------------------------------------------------------
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
    r = _rules(rules, overrides)
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
        manifest=lambda: _records_manifest(
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


# --- sweeps -----------------------------------------------------------------------------------
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

        from ..report import plot_style

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
        rs = _rules(battle_kwargs.get("rules"), {})
        ident = {
            k: v for k, v in battle_kwargs.items() if k not in ("progress", "threads", "rules")
        }
        file = RecordsFile(
            records,
            _records_manifest(
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
