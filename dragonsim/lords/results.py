"""What a Dragon Lords run reports: :class:`DuelResult` and :class:`BattleResult` (rates with
their intervals, tables, plots), the first mover's advantage (:class:`FirstMover`), the game
length (:class:`GameLength`), what the advanced and optional rules did (:func:`play_counts`)
and the columns of the per-game records (:data:`DUEL_COLUMNS`, :data:`BATTLE_COLUMNS`).

Built by :func:`~dragonsim.lords.api.duel` and :func:`~dragonsim.lords.api.battle` from the
engine's counters (``C_*``) and records rows (``R_*``, :mod:`~dragonsim.lords.game.state`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..report import interrupted_line
from ..stats import Rate, mean_interval
from .game import state as S

__all__ = [
    "DuelResult",
    "BattleResult",
    "FirstMover",
    "GameLength",
    "DUEL_COLUMNS",
    "BATTLE_COLUMNS",
]


def play_counts(counters: np.ndarray, options: dict[str, Any]) -> dict[str, Any]:
    """What the advanced and optional rules in force (``options``: a manifest's, from
    :func:`~dragonsim.lords.inputs.options_manifest`) did over a run, from its counters: the
    spells cast by name, the rider attacks and the riders killed, crashes, landings, take-offs,
    banks, early moves, carried turns, criticals, fumbles, breaths the three-hit limit refused
    and close combats fought with tactics; only the rules in force are named. The bots' use of
    the rulebook in numbers."""
    from ..rules.lords import SPELLS

    c = counters
    out: dict[str, Any] = {}
    if options.get("wizard"):
        out["spells_cast"] = {SPELLS[k]: int(c[S.C_SPELLS + k]) for k in range(S.N_SPELLS)}
        out["spell_hits"] = int(c[S.C_SPELL_HITS : S.C_SPELL_HITS + S.N_SPELLS].sum())
    if options.get("rider_attacks"):
        out["rider_attacks"] = int(c[S.C_RIDER_TRIES : S.C_RIDER_TRIES + 2].sum())
    if options.get("rider_deaths"):
        out["riders_killed"] = int(c[S.C_RIDER_KILLED : S.C_RIDER_KILLED + 3].sum())
    if options.get("move_early"):
        out["early_moves"] = int(c[S.C_EARLY])
    if options.get("crash_very_low") or options.get("crash_slow") or options.get("crash_zeroed"):
        out["crashes"] = int(c[S.C_CRASHES : S.C_CRASHES + 3].sum())
    if options.get("landing"):
        out["landings"] = int(c[S.C_LANDINGS])
    if any(options.get(k) for k in ("landing", "crash_very_low", "crash_slow")):
        out["takeoffs"] = int(c[S.C_TAKEOFFS])
    if options.get("banking"):
        out["banks"] = int(c[S.C_BANKS])
    if options.get("turn_between"):
        out["turns_carried"] = int(c[S.C_TURN_CARRIED])
    if options.get("criticals"):
        out["criticals"] = int(c[S.C_CRITS : S.C_CRITS + 11].sum())
    if options.get("fumbles"):
        out["fumbles"] = int(c[S.C_FUMBLES : S.C_FUMBLES + 11].sum())
    if options.get("hit_limit"):
        out["breaths_refused_by_hit_limit"] = int(c[S.C_HIT_LIMIT])
    if options.get("tactics"):
        out["close_combats_with_tactics"] = int(c[S.C_TACTICS : S.C_LUNGE].sum())
    return out


def _snake(name: str) -> str:
    return name.lower().replace(" ", "_")


def event_counts(counters: np.ndarray) -> dict[str, int]:
    """What the dragons did over a run, one count per rule action, from the engine's counters
    (every key always present, 0 where the rule is off or never used): speeds recorded more
    than the basic acceleration (3, p.7) above last turn's (``speed_gain_over_3``: the wings'
    allowance, optional p.16, or Quicken), landings, take-offs, early moves (p.15-17),
    crashes by any cause (p.17), rider shots and riders killed by any cause (breath, close
    combat, rider shots, falls, fumbles; p.18-20), close combats fought (both-Defend fights
    included, p.13 and 22), criticals and fumbles (the Critical Hit and Fumble Tables rolled,
    p.19-20: a fumble settled by the rider check alone rolls no table), one ``spell_<name>``
    per spell cast (pp.24-25; the spellbook's name in snake case) and one ``tactic_<name>``
    per tactic chosen by either side of a fight (p.22)."""
    from ..rules.lords import SPELLS, TACTICS

    c = counters
    out = {
        "speed_gain_over_3": int(c[S.C_SPEED_GAIN]),
        "landings": int(c[S.C_LANDINGS]),
        "take_offs": int(c[S.C_TAKEOFFS]),
        "early_moves": int(c[S.C_EARLY]),
        "crashes": int(c[S.C_CRASHES : S.C_CRASHES + 3].sum()),
        "rider_shots": int(c[S.C_RIDER_TRIES : S.C_RIDER_TRIES + 2].sum()),
        # a fumble's rider check is a breath's (RK_BREATH): C_FUMBLE_RIDER_KILLED counts
        # those deaths again, so it is not added; a fall's 1d6 is counted apart
        "rider_kills": int(c[S.C_RIDER_KILLED : S.C_RIDER_KILLED + 3].sum() + c[S.C_FALL_KILLED]),
        "close_combats": int(
            c[S.C_CC : S.C_CC + 3 * (S.CC_DIFF_MAX + 1)].sum() + c[S.C_BOTH_DEFEND]
        ),
        "criticals": int(c[S.C_CRITS : S.C_CRITS + 11].sum()),
        "fumbles": int(c[S.C_FUMBLES : S.C_FUMBLES + 11].sum()),
    }
    for k, name in enumerate(SPELLS):
        out[f"spell_{_snake(name)}"] = int(c[S.C_SPELLS + k])
    pairs = c[S.C_TACTICS : S.C_LUNGE].reshape(S.N_TACTICS, S.N_TACTICS, 3).sum(axis=2)
    for k, name in enumerate(TACTICS):
        out[f"tactic_{_snake(name)}"] = int(pairs[k, :].sum() + pairs[:, k].sum())
    return out


def events_per_game(counters: np.ndarray) -> dict[str, float]:
    """:func:`event_counts` per game played (NaN with no games)."""
    games = int(counters[S.C_GAMES])
    return {k: (v / games if games else math.nan) for k, v in event_counts(counters).items()}


def events_line(counters: np.ndarray) -> str | None:
    """The text reports' lines of the events that happened, per game (the rule actions, the
    spells cast, the tactics chosen), None when none did."""
    ev = events_per_game(counters)
    groups = {"events a game": [], "spells a game": [], "tactics a game": []}
    for k, v in ev.items():
        if not v or v != v:
            continue
        for prefix, g in (("spell_", "spells a game"), ("tactic_", "tactics a game")):
            if k.startswith(prefix):
                groups[g].append(f"{k[len(prefix) :].replace('_', ' ')} {v:.3g}")
                break
        else:
            groups["events a game"].append(f"{k.replace('_', ' ')} {v:.3g}")
    lines = [f"  {g:<17}" + _wrap(parts, 19) for g, parts in groups.items() if parts]
    return "\n".join(lines) if lines else None


def _wrap(parts: list[str], indent: int, width: int = 96) -> str:
    lines, cur = [], ""
    for p in parts:
        nxt = f"{cur}, {p}" if cur else p
        if cur and indent + len(nxt) > width:
            lines.append(cur + ",")
            nxt = p
        cur = nxt
    lines.append(cur)
    return ("\n" + " " * indent).join(lines)


@dataclass(frozen=True)
class FirstMover:
    """The first-mover advantage of a duel, from who moved first on turn 1.

    "Players with lower numbers move before players with higher ones" (rulebook p.7,
    "1. Initiative"): the kernel notes the dragon that moved first on turn 1 (the lowest 2d6
    after roll-offs, ``R_FIRST``), and the duel counts, outside the engine's counters, the
    games each dragon moved first in and what the first and the second mover won. Later
    turns' initiative is not counted. ``advantage`` is the first mover's win rate minus the
    second mover's, with a normal interval from the multinomial variance
    ``(pf + ps - (pf - ps)**2) / n``.
    """

    n: int
    a_first: Rate  # games in which A moved first on turn 1
    first_wins: Rate  # games the first mover won
    second_wins: Rate  # games the second mover won
    advantage: float
    advantage_ci: tuple[float, float]
    a_wins_when_first: Rate  # A's wins of the games A moved first in
    a_wins_when_second: Rate  # A's wins of the games B moved first in

    def to_dict(self) -> dict[str, Any]:
        return {
            "definition": "moved first on turn 1 (lowest initiative roll, rulebook p.7)",
            "a_moved_first": self.a_first.k,
            "first_mover_wins": self.first_wins.k,
            "second_mover_wins": self.second_wins.k,
            "first_mover_win_rate": self.first_wins.rate,
            "first_mover_ci": list(self.first_wins.ci),
            "second_mover_win_rate": self.second_wins.rate,
            "second_mover_ci": list(self.second_wins.ci),
            "advantage": self.advantage,
            "advantage_ci": list(self.advantage_ci),
            "a_win_rate_when_first": self.a_wins_when_first.rate,
            "a_ci_when_first": list(self.a_wins_when_first.ci),
            "a_win_rate_when_second": self.a_wins_when_second.rate,
            "a_ci_when_second": list(self.a_wins_when_second.ci),
        }


@dataclass(frozen=True)
class GameLength:
    """Turns per game from the kernel's turn histogram (``C_TURN_HIST``; its last bin holds
    ``HIST_MAX`` turns or more, so a percentile there reads "at least HIST_MAX")."""

    mean: float
    ci: tuple[float, float]
    median: int
    p10: int
    p90: int
    top: int = S.HIST_MAX

    def to_dict(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "ci": list(self.ci),
            "median": self.median,
            "p10": self.p10,
            "p90": self.p90,
            "histogram_top": self.top,
        }

    def text(self) -> str:
        def t(v: int) -> str:
            return f">={v}" if v >= self.top else str(v)

        return (
            f"{self.mean:.2f} turns [{self.ci[0]:.2f}, {self.ci[1]:.2f}], median {t(self.median)}"
            f", 10th-90th percentile {t(self.p10)}-{t(self.p90)}"
        )


def game_length(counters: np.ndarray, confidence: float = 0.95) -> GameLength:
    """:class:`GameLength` of a run's counters: the mean (normal interval from the sums) and
    the percentiles of the turn histogram."""
    from ..report import hist_quantile

    h = counters[S.C_TURN_HIST : S.C_TURN_HIST + S.HIST_MAX + 1]
    games = int(counters[S.C_GAMES])
    mt = mean_interval(float(counters[S.C_TURNS]), float(counters[S.C_TURNS_SQ]), games, confidence)
    return GameLength(
        mt[0],
        (mt[1], mt[2]),
        hist_quantile(h, 0.5),
        hist_quantile(h, 0.1),
        hist_quantile(h, 0.9),
    )


#: the counts a duel's kernel caller adds after the engine's counters (``N_COUNTERS``) from
#: each game's ``R_FIRST``: games A moved first in, of them A's wins, B's wins when B moved first
X_A_FIRST, X_A_FIRST_WON, X_B_FIRST_WON = range(3)


N_EXTRA = 3


def first_mover_counts(rec: np.ndarray) -> np.ndarray:
    """The ``X_*`` counts of a block's records (two dragons)."""
    first = rec[:, S.R_FIRST]
    w = rec[:, S.R_WINNER]
    out = np.zeros(N_EXTRA, dtype=np.int64)
    out[X_A_FIRST] = np.count_nonzero(first == 0)
    out[X_A_FIRST_WON] = np.count_nonzero((first == 0) & (w == 0))
    out[X_B_FIRST_WON] = np.count_nonzero((first == 1) & (w == 1))
    return out


def first_mover(
    extra: np.ndarray, wins_a: int, wins_b: int, n: int, rate_of, z: float = 1.959964
) -> FirstMover:
    """:class:`FirstMover` from the ``X_*`` counts; ``rate_of(k, n)`` makes the rates'
    intervals, ``z`` the advantage's."""
    a_first = int(extra[X_A_FIRST])
    fa, fb = int(extra[X_A_FIRST_WON]), int(extra[X_B_FIRST_WON])
    fw = fa + fb
    sw = (wins_a - fa) + (wins_b - fb)
    pf, ps = (fw / n, sw / n) if n else (math.nan, math.nan)
    adv = pf - ps
    half = z * math.sqrt(max(pf + ps - adv * adv, 0.0) / n) if n else math.nan
    return FirstMover(
        n=n,
        a_first=rate_of(a_first, n),
        first_wins=rate_of(fw, n),
        second_wins=rate_of(sw, n),
        advantage=adv,
        advantage_ci=(adv - half, adv + half),
        a_wins_when_first=rate_of(fa, a_first),
        a_wins_when_second=rate_of(wins_a - fa, n - a_first),
    )


@dataclass
class DuelResult:
    """Who won how often, with Wilson 95% intervals (a precision run's: a confidence
    sequence, ``precision``), the game length (:meth:`game_length`), the first mover's
    advantage (``first_mover``), damage statistics and a manifest.

    ``wins_a + wins_b + draws == n`` (games stopped by the turn limit are draws, also counted
    in ``turn_limit_hits``).
    """

    a: str
    b: str
    n: int
    requested: int
    seed: int
    policies: tuple[str, str]
    wins_a: int
    wins_b: int
    draws: int
    turn_limit: int
    turn_limit_hits: int
    rate_a: Rate
    rate_b: Rate
    rate_draw: Rate
    mean_turns: float
    turns_ci: tuple[float, float]
    damage_a: tuple[float, float, float]
    damage_b: tuple[float, float, float]
    breath_hit_rate: float
    engagements_per_game: float
    dice_per_game: float
    seconds: float
    interrupted: bool
    counters: np.ndarray = field(repr=False)
    manifest: dict[str, Any] = field(default_factory=dict, repr=False)
    records: str | None = None
    #: who moved first on turn 1 and how it went (:class:`FirstMover`)
    first_mover: FirstMover | None = None
    #: how a ``precision=`` run went (:class:`~dragonsim.runner.PrecisionRun`), else None
    precision: Any = None

    @property
    def win_rate_a(self) -> float:
        return self.rate_a.rate

    @property
    def win_rate_b(self) -> float:
        return self.rate_b.rate

    @property
    def draw_rate(self) -> float:
        return self.rate_draw.rate

    def turn_histogram(self) -> np.ndarray:
        """Games by number of turns (last bin: HIST_MAX turns or more)."""
        return self.counters[S.C_TURN_HIST : S.C_TURN_HIST + S.HIST_MAX + 1].copy()

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "n": self.n,
            "requested": self.requested,
            "seed": self.seed,
            "policies": list(self.policies),
            "wins_a": self.wins_a,
            "wins_b": self.wins_b,
            "draws": self.draws,
            "win_rate_a": self.rate_a.rate,
            "win_rate_b": self.rate_b.rate,
            "draw_rate": self.rate_draw.rate,
            "ci_a": list(self.rate_a.ci),
            "ci_b": list(self.rate_b.ci),
            "ci_draw": list(self.rate_draw.ci),
            "mean_turns": self.mean_turns,
            "turns_ci": list(self.turns_ci),
            "turn_limit": self.turn_limit,
            "turn_limit_hits": self.turn_limit_hits,
            "mean_damage_a": self.damage_a[0],
            "mean_damage_b": self.damage_b[0],
            "damage_ci_a": list(self.damage_a[1:]),
            "damage_ci_b": list(self.damage_b[1:]),
            "breath_hit_rate": self.breath_hit_rate,
            "engagements_per_game": self.engagements_per_game,
            "dice_per_game": self.dice_per_game,
            "play": play_counts(self.counters, self.manifest.get("options", {})),
            "events": events_per_game(self.counters),
            "game_length": self.game_length().to_dict(),
            "first_mover": None if self.first_mover is None else self.first_mover.to_dict(),
            "interval": self.rate_a.method,
            "precision": None if self.precision is None else self.precision.to_dict(),
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "records": self.records,
            "manifest": self.manifest,
        }

    def _ci_label(self) -> str:
        return "95% interval" if self.precision is None else "95% conf. sequence"

    def game_length(self) -> GameLength:
        """Turns per game: mean with its interval, median, 10th and 90th percentiles."""
        return game_length(self.counters)

    def to_frame(self):
        """One row per dragon: wins, rate, interval, mean damage dealt (pandas)."""
        import pandas as pd

        rows = []
        for name, pol, r, dmg in (
            (self.a, self.policies[0], self.rate_a, self.damage_a),
            (self.b, self.policies[1], self.rate_b, self.damage_b),
        ):
            rows.append(
                {
                    "dragon": name,
                    "policy": pol,
                    "wins": r.k,
                    "games": self.n,
                    "win_rate": r.rate,
                    "ci_low": r.lo,
                    "ci_high": r.hi,
                    "mean_damage_dealt": dmg[0],
                }
            )
        rows.append(
            {
                "dragon": "(draw)",
                "policy": "",
                "wins": self.draws,
                "games": self.n,
                "win_rate": self.rate_draw.rate,
                "ci_low": self.rate_draw.lo,
                "ci_high": self.rate_draw.hi,
                "mean_damage_dealt": math.nan,
            }
        )
        return pd.DataFrame(rows)

    def plot(self, ax=None):
        """Who wins, with 95% intervals, and how long games last (matplotlib, dragonsim's
        style): one colour per dragon, the matchup in the title, the turns axis ending at the
        99.5th percentile of game length. ``ax``: two axes to draw into. Returns the figure."""
        import matplotlib.pyplot as plt

        from ..report import hist_quantile, plot_style

        with plot_style():
            if ax is None:
                fig, (a1, a2) = plt.subplots(1, 2, figsize=(9.5, 3.6))
            else:
                a1, a2 = ax
                fig = a1.figure
            cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
            colours = [cycle[0], cycle[1 % len(cycle)], "0.6"]
            labels = [f"A: {self.a}\n({self.policies[0]})", f"B: {self.b}\n({self.policies[1]})"]
            labels.append("draw")
            rates = [self.rate_a, self.rate_b, self.rate_draw]
            y = [r.rate for r in rates]
            err = [[r.rate - r.lo for r in rates], [r.hi - r.rate for r in rates]]
            a1.bar(range(3), y, yerr=err, capsize=4, color=colours)
            for i, r in enumerate(rates):
                a1.annotate(
                    f"{100 * r.rate:.1f}%",
                    (i, r.hi),
                    textcoords="offset points",
                    xytext=(0, 3),
                    ha="center",
                )
            a1.set_xticks(range(3), labels)
            a1.set_ylim(0, max(0.05, max(r.hi for r in rates)) * 1.15)
            a1.set_ylabel("share of games (95% interval)")
            a1.set_title("who wins")
            h = self.turn_histogram()
            end = max(1, hist_quantile(h, 0.995))
            share = h / max(1, self.n)
            a2.bar(range(end + 1), share[: end + 1], width=1.0, color="0.45")
            a2.axvline(self.mean_turns, color=colours[0], lw=1, ls="--")
            a2.annotate(
                f"mean {self.mean_turns:.1f}",
                (self.mean_turns, share.max()),
                textcoords="offset points",
                xytext=(4, -10),
                color=colours[0],
            )
            a2.set_xlim(-0.5, end + 0.5)
            a2.set_xlabel(f"turns (axis ends at the 99.5th percentile, {end} turns)")
            a2.set_ylabel("share of games")
            a2.set_title("game length")
            fig.suptitle(
                f"Dragon Lords duel: {self.a} vs {self.b}, {self.n:,} games, seed {self.seed}"
            )
            fig.tight_layout()
        return fig

    def summary(self) -> str:
        """A readable table."""
        from ..report import rules_line

        # A: and B: tell a mirror match's two sides apart
        na, nb = f"A: {self.a}", f"B: {self.b}"
        w = max(len(na), len(nb), 6)
        lines = [
            f"Dragon Lords duel: {self.a} ({self.policies[0]}) vs {self.b} "
            f"({self.policies[1]}), {self.n:,} games, seed {self.seed}",
            *interrupted_line(self),
            "",
            f"  {'':<{w}}  {'wins':>10}  {'share':>8}  {self._ci_label():>18}  "
            f"{'damage dealt':>12}",
        ]
        for name, r, dmg in ((na, self.rate_a, self.damage_a), (nb, self.rate_b, self.damage_b)):
            lines.append(
                f"  {name:<{w}}  {r.k:>10,}  {100 * r.rate:7.2f}%  "
                f"[{100 * r.lo:6.2f}, {100 * r.hi:6.2f}]%  {dmg[0]:12.1f}"
            )
        r = self.rate_draw
        lines.append(
            f"  {'draw':<{w}}  {r.k:>10,}  {100 * r.rate:7.2f}%  "
            f"[{100 * r.lo:6.2f}, {100 * r.hi:6.2f}]%"
        )
        lines.append(
            f"  (share: of the {self.n:,} games; damage dealt: mean damage points the dragon "
            "dealt per game)"
        )
        lines.append("")
        lines.append(f"  game length      {self.game_length().text()}")
        fm = self.first_mover
        if fm is not None and fm.n:
            lo, hi = fm.advantage_ci
            lines.append(
                f"  first mover      the dragon moving first on turn 1 (lowest initiative roll) "
                f"won {fm.first_wins},"
            )
            lines.append(
                f"                   the second mover {fm.second_wins}: advantage "
                f"{100 * fm.advantage:+.2f} pp [{100 * lo:+.2f}, {100 * hi:+.2f}]"
            )
            lines.append(f"                   A moved first in {fm.a_first} of the games;")
            lines.append(
                f"                   A won {fm.a_wins_when_first} of those, "
                f"{fm.a_wins_when_second} of the others"
            )
        lines.append(
            f"  breath attacks   {100 * self.breath_hit_rate:.1f}% of them hit"
            if self.breath_hit_rate == self.breath_hit_rate
            else "  breath attacks   none made"
        )
        lines.append(
            f"  close combat     {self.engagements_per_game:.2f} engagements per game "
            "(a dragon moving in to fight at close quarters)"
        )
        ev = events_line(self.counters)
        if ev:
            lines.append(ev)
        if self.turn_limit_hits:
            lines.append(
                f"  turn limit       {self.turn_limit} turns reached in "
                f"{self.turn_limit_hits:,} games (counted as draws)"
            )
        verdict = _verdict(self)
        if verdict:
            lines.append("  " + verdict)
        breadth = self.manifest.get("options", {}).get("plan_samples")
        sampled = [p for p in self.policies if p in ("brawler", "sniper")]
        if breadth is not None and sampled:
            lines.append(
                f"  ({sampled[0]} plans from a sample of {breadth} end states per move "
                f"and its verdicts move with it: check with --policy {sampled[0]}:128)"
            )
        if self.precision is not None:
            lines.append(self.precision.line())
        lines.append(f"  {self.seconds:.2f} s ({_rate(self)})")
        rl = rules_line(self.manifest.get("rules_hash"), self.manifest.get("rules_overrides"))
        if rl:
            lines.append(f"  {rl}")
        if self.records:
            lines.append(f"  per-game records: {self.records}")
        return "\n".join(lines)


def _rate(r) -> str:
    """Games per second of playing: compilation and games resumed from a checkpoint excluded."""
    played = r.n - int(r.manifest.get("resumed", 0) or 0)
    if r.seconds <= 0 or played <= 0:
        return "resumed from a checkpoint" if played <= 0 else "n/a games/s"
    return f"{played / r.seconds:,.0f} games/s"


def _verdict(r: DuelResult) -> str:
    """Which side is better, when the intervals say so."""
    if r.rate_a.lo > r.rate_b.hi:
        return f"{r.a} ({r.policies[0]}) wins more often than {r.b} ({r.policies[1]})."
    if r.rate_b.lo > r.rate_a.hi:
        return f"{r.b} ({r.policies[1]}) wins more often than {r.a} ({r.policies[0]})."
    return "No significant difference between the two at this n."


@dataclass
class BattleResult:
    """Wins per side (a team, or a single dragon in a free-for-all), draws, intervals."""

    dragons: list[str]
    teams: list[int]
    policies: list[str]
    n: int
    seed: int
    wins: list[int]
    draws: int
    rates: list[Rate]
    rate_draw: Rate
    turn_limit_hits: int
    mean_turns: float
    seconds: float
    interrupted: bool
    counters: np.ndarray = field(repr=False)
    manifest: dict[str, Any] = field(default_factory=dict, repr=False)
    requested: int | None = None
    records: str | None = None
    #: how a ``precision=`` run went (:class:`~dragonsim.runner.PrecisionRun`), else None
    precision: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "interval": self.rate_draw.method,
            "precision": None if self.precision is None else self.precision.to_dict(),
            "dragons": self.dragons,
            "teams": self.teams,
            "policies": self.policies,
            "n": self.n,
            "requested": self.requested,
            "seed": self.seed,
            "wins": self.wins,
            "draws": self.draws,
            "win_rates": [r.rate for r in self.rates],
            "ci": [[r.lo, r.hi] for r in self.rates],
            "draw_rate": self.rate_draw.rate,
            "mean_turns": self.mean_turns,
            "turn_limit_hits": self.turn_limit_hits,
            "events": events_per_game(self.counters),
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "records": self.records,
            "manifest": self.manifest,
        }

    def to_frame(self):
        import pandas as pd

        rows = []
        for t, (k, r) in enumerate(zip(self.wins, self.rates, strict=True)):
            members = [d for d, tt in zip(self.dragons, self.teams, strict=True) if tt == t]
            rows.append(
                {
                    "side": t,
                    "dragons": ", ".join(members),
                    "wins": k,
                    "win_rate": r.rate,
                    "ci_low": r.lo,
                    "ci_high": r.hi,
                }
            )
        rows.append(
            {
                "side": -1,
                "dragons": "(draw)",
                "wins": self.draws,
                "win_rate": self.rate_draw.rate,
                "ci_low": self.rate_draw.lo,
                "ci_high": self.rate_draw.hi,
            }
        )
        return pd.DataFrame(rows)

    def summary(self) -> str:
        from ..report import rules_line

        free = len(set(self.teams)) == len(self.teams)
        one_bot = len(set(self.policies)) == 1
        lines = [
            f"Dragon Lords battle ({'free-for-all' if free else 'teams'}), {self.n:,} games, "
            + (f"bot {self.policies[0]}, " if one_bot else "")
            + f"seed {self.seed}",
            *interrupted_line(self),
            "",
        ]
        labels = []
        for t in range(len(self.wins)):
            members = [
                d if one_bot else f"{d} ({p})"
                for d, tt, p in zip(self.dragons, self.teams, self.policies, strict=True)
                if tt == t
            ]
            labels.append(f"side {t}: {', '.join(members)}")
        w = max(len(x) for x in [*labels, "draw"])
        ci = "95% interval" if self.precision is None else "95% conf. sequence"
        lines.append(f"  {'':<{w}}  {'wins':>9}  {'share':>8}  {ci:>18}")
        for lab, k, r in zip(labels, self.wins, self.rates, strict=True):
            lines.append(
                f"  {lab:<{w}}  {k:>9,}  {100 * r.rate:7.2f}%  "
                f"[{100 * r.lo:6.2f}, {100 * r.hi:6.2f}]%"
            )
        r = self.rate_draw
        lines.append(
            f"  {'draw':<{w}}  {self.draws:>9,}  {100 * r.rate:7.2f}%  "
            f"[{100 * r.lo:6.2f}, {100 * r.hi:6.2f}]%"
        )
        lines.append("")
        lines.append(f"  game length      {self.mean_turns:.2f} turns")
        limit = self.manifest.get("options", {}).get("turn_limit")
        lines.append(
            f"  turn limit       {limit} turns reached in {self.turn_limit_hits:,} games "
            "(counted as draws)"
        )
        ev = events_line(self.counters)
        if ev:
            lines.append(ev)
        if self.precision is not None:
            lines.append(self.precision.line())
        rl = rules_line(self.manifest.get("rules_hash"), self.manifest.get("rules_overrides"))
        if rl:
            lines.append(f"  {rl}")
        if getattr(self, "records", None):
            lines.append(f"  per-game records: {self.records}")
        return "\n".join(lines)


#: what each column of a duel's records holds (``--records``)
DUEL_COLUMNS = {
    "game": "game index (its random streams are (seed, game): replayable)",
    "winner_side": "0: dragon A won, 1: dragon B won, -1: a draw (also at the turn limit)",
    "winner": "the winner's name, or 'draw' (a mirror match: read winner_side)",
    "turns": "turns played",
    "hit_turn_limit": "true when the turn limit stopped the game (a draw)",
    "damage_dealt_a": "damage points dragon A dealt",
    "damage_dealt_b": "damage points dragon B dealt",
    "damage_points_left_a": "damage points dragon A had left at the end",
    "damage_points_left_b": "damage points dragon B had left at the end",
    "breath_hits_a": "breath attacks of dragon A that hit",
    "breath_hits_b": "breath attacks of dragon B that hit",
    "engagements": "close-combat engagements in the game (either dragon)",
    "first_mover": "0: dragon A moved first on turn 1 (the lower initiative roll, p.7), 1: B",
}


#: a battle's records: per side, not per dragon (the kernel keeps per-dragon figures for the
#: first two dragons only, so they are written only for a battle of two)
BATTLE_COLUMNS = {
    "game": DUEL_COLUMNS["game"],
    "winner_side": "the winning side (team number; in a free-for-all the dragon's place in "
    "the list), -1: a draw",
    "winner": "the winning side's dragons joined by ' + ', or 'draw'",
    "turns": DUEL_COLUMNS["turns"],
    "hit_turn_limit": DUEL_COLUMNS["hit_turn_limit"],
    "engagements": "close-combat engagements in the game (any dragon)",
}


def record_columns(rec: np.ndarray, start: int, side_names: Sequence[str], two: bool) -> dict:
    """The records columns of games ``start..start+len(rec)-1`` from the kernel's rows
    (``R_*``): :data:`DUEL_COLUMNS` when ``two`` (two dragons), else :data:`BATTLE_COLUMNS`."""
    w = rec[:, S.R_WINNER]
    names = np.array([*side_names, "draw"], dtype=str)
    cols = {
        "game": np.arange(start, start + rec.shape[0], dtype=np.int64),
        "winner_side": w.astype(np.int64),
        "winner": names[np.where(w < 0, len(side_names), w)],
        "turns": rec[:, S.R_TURNS].copy(),
        "hit_turn_limit": rec[:, S.R_TURN_LIMIT] != 0,
    }
    if two:
        cols.update(
            damage_dealt_a=rec[:, S.R_DEALT0].copy(),
            damage_dealt_b=rec[:, S.R_DEALT1].copy(),
            damage_points_left_a=rec[:, S.R_LEFT0].copy(),
            damage_points_left_b=rec[:, S.R_LEFT1].copy(),
            breath_hits_a=rec[:, S.R_HITS0].copy(),
            breath_hits_b=rec[:, S.R_HITS1].copy(),
        )
    cols["engagements"] = rec[:, S.R_ENGAGES].copy()
    if two:
        cols["first_mover"] = rec[:, S.R_FIRST].copy()
    return cols


def records_manifest(**fields: Any) -> dict[str, Any]:
    """The manifest a records file carries, before the run (what produced the rows)."""
    from ..report import manifest

    return manifest(**fields)
