"""Every legal design at a budget, and many design-against-design duels in one run.

The design-point studies (:mod:`~dragonsim.lords.analysis.pricing`,
:mod:`~dragonsim.lords.analysis.race`) share two things, both here:

* :func:`legal_designs` -- every combination of body, wings, breath, tooth and claw and rider
  (the Cost Table, rulebook p.26: 5 + 5 + 5 + 5 + 6 = 26 options) whose cost lies in a band,
  priced by the rule ``lords.design_cost`` in force (an override of the costs changes the
  enumeration) and inside ``lords.design_bounds`` ("no dragon may cost less than 4 points or
  more than 25 points", p.26). At exactly 15 design points there are 433.
* :func:`play_pair_games` -- the same keeping every game's winner, each pair from a first
  stream of its choosing, so two designs that met the same opponents on the same games can be
  compared game by game (the gauntlet, :mod:`~dragonsim.lords.analysis.fieldscore`).
* :func:`play_pairs` -- ``n`` games of each of many pairs of sheets in one
  :func:`~dragonsim.runner.run_blocks` run, so progress, interruption, checkpoints and the
  Dask backend come as they do for a duel. With ``common`` game ``k`` of *every* pair plays
  from the streams ``(seed, offset + k)``: common random numbers across pairs, as
  :func:`~dragonsim.lords.analysis.rulesweep.sensitivity` has them across rules; without, every pair
  plays from streams of its own (independent pairs). The counters are three per
  pair (side 0's wins, side 1's wins, draws), so they add over blocks like any counters and a
  run's totals do not depend on the block size, thread count or backend.

The pairs kernel (:func:`pairs_kernel`) is plain Python around the compiled duel kernel
(:func:`~dragonsim.lords.engine.duel_kernel`), one call per pair and block: no new numba
compile. Its move tables cover every maneuverability rating, so any pair can play with the
same arguments; a pair's counters equal a :func:`~dragonsim.lords.api.duel` of the same two
sheets, seed and games (``tests/lords/test_design_point_prices.py`` checks it).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ... import defaults
from ...errors import UserError, check_int
from .. import engine as E
from ..game import state as S

__all__ = [
    "SLOTS",
    "OPTIONS",
    "Design",
    "legal_designs",
    "field_text",
    "option_matrix",
    "PairSetup",
    "pair_setup",
    "play_pairs",
    "pairs_kernel",
    "play_pair_games",
    "pair_games_kernel",
]

#: the five slots of a design and their options, in the Cost Table's order (p.26); the first
#: option of each slot is its cheapest
SLOTS: tuple[str, ...] = ("body", "wings", "breath", "claws", "rider")


def _slot_options() -> dict[str, tuple[str, ...]]:
    from ...rules.lords import BODIES, BREATHS, CLAWS, RIDERS, WINGS

    return {"body": BODIES, "wings": WINGS, "breath": BREATHS, "claws": CLAWS, "rider": RIDERS}


#: every option as ``(slot, name)``: 26 of them
OPTIONS: tuple[tuple[str, str], ...] = tuple(
    (slot, name) for slot, names in _slot_options().items() for name in names
)


@dataclass(frozen=True)
class Design:
    """A legal design: one option index per slot (:data:`SLOTS` order) and its cost."""

    index: tuple[int, int, int, int, int]
    cost: int

    def components(self) -> dict[str, str]:
        opts = _slot_options()
        return {s: opts[s][i] for s, i in zip(SLOTS, self.index, strict=True)}

    @property
    def label(self) -> str:
        """``body=Heavy,wings=Large,breath=Ice,claws=Sharp[,rider=Archer]`` (an inline design
        every command reads)."""
        return ",".join(
            f"{k}={v}" for k, v in self.components().items() if not (k == "rider" and v == "None")
        )


def legal_designs(lo: int, hi: int | None = None, *, rules=None) -> list[Design]:
    """Every legal design costing ``lo..hi`` design points (``hi`` defaults to ``lo``) under
    ``rules``' Cost Table, cheapest first, then in slot order.

    >>> len(legal_designs(15)), len(legal_designs(4)), len(legal_designs(4, 25))
    (433, 1, 3750)
    """
    from ..inputs import _rules

    rs = _rules(rules)
    lo = check_int(lo, "budget", 0, 1000)
    hi = lo if hi is None else check_int(hi, "budget", lo, 1000)
    costs = rs.get("lords.design_cost")
    bounds = rs.get("lords.design_bounds")
    opts = _slot_options()
    out = []
    for idx in itertools.product(*(range(len(opts[s])) for s in SLOTS)):
        c = sum(costs[s][i] for s, i in zip(SLOTS, idx, strict=True))
        if lo <= c <= hi and bounds["min"] <= c <= bounds["max"]:
            out.append(Design(tuple(int(i) for i in idx), int(c)))
    out.sort(key=lambda d: (d.cost, d.index))
    return out


def short_label(name: str) -> str:
    """A design's label without its slot names (``Heavy/Large/Magma/Dull``), a ready-made's
    name as it is: what fits a figure's axis or a table's column."""
    if "=" not in name:
        return name
    return "/".join(part.split("=", 1)[1] for part in name.split(","))


def option_matrix(index: np.ndarray) -> np.ndarray:
    """0/1 indicators of the 26 :data:`OPTIONS` for designs given as option indices.

    ``index``: int [k, 5] (one option index per slot); returns float64 [k, 26].
    """
    index = np.asarray(index, dtype=np.int64).reshape(-1, len(SLOTS))
    opts = _slot_options()
    starts = np.cumsum([0] + [len(opts[s]) for s in SLOTS])[:-1]
    x = np.zeros((index.shape[0], len(OPTIONS)))
    rows = np.arange(index.shape[0])
    for k in range(len(SLOTS)):
        x[rows, starts[k] + index[:, k]] = 1.0
    return x


def field_text(names: Sequence[str]) -> str:
    """``the 12 ready-made dragons`` for the default field, else the names."""
    from ..game.sheets import ROSTER

    if list(names) == list(ROSTER):
        return f"the {len(names)} ready-made dragons"
    return "the field " + ", ".join(names)


@dataclass(frozen=True)
class PairSetup:
    """What every pair of a run shares: the kernel arguments after the dragons, the bot."""

    args: tuple  # (scen, opt, tb, mv, plan)
    policy: str
    rules: Any

    def row(self, sheet, team: int) -> np.ndarray:
        from ..inputs import dragon_row

        return dragon_row(sheet, team, self.policy)


def pair_setup(
    *, policy: str = "hunter", rules=None, turn_limit: int = defaults.TURN_LIMIT
) -> PairSetup:
    """The shared kernel arguments for games between any two designs under ``rules`` with
    both dragons played by ``policy``: move tables for every maneuverability rating (about
    half a second to build), the rules tables, the options and the planning table."""
    from ..bots import edge_exact
    from ..bots.plan import plan_table
    from ..game import movetables as MT
    from ..game.sheets import rule_switches
    from ..game.tables import kernel_tables
    from ..inputs import MAX_TURN_LIMIT, _rules, resolve_policies

    rs = _rules(rules)
    pols = resolve_policies(policy)
    turn_limit = check_int(turn_limit, "turn limit", 1, MAX_TURN_LIMIT)
    tb = kernel_tables(rs)
    mv = MT.move_tables(
        tb.turn_cost,
        edges=edge_exact(pols),
        bank=MT.banking_of(rs),
        turning=MT.turning_of(rs),
    )
    opt = S.default_options(turn_limit=turn_limit, **rule_switches(rs))
    scen = np.zeros((2, 5), dtype=np.int64)
    return PairSetup((scen, opt, tb, mv, plan_table(tb)), pols[0], rs)


def pairs_kernel(start, stop, seed, rows, m, offset, common, *args):
    """Games ``start..stop-1`` of a pairs run: game ``g`` is game ``g % m`` of pair ``g // m``;
    it plays from the streams ``(seed, offset + g % m)`` when ``common`` (the same in every
    pair: common random numbers), else ``(seed, offset + g)`` (every pair its own).

    Parameters
    ----------
    rows : int64 [P, 2, N_DCOLS]
        Each pair's two sheet rows (side 0, side 1).
    m, offset, common : int
        Games per pair, the first stream index, and 1 for common random numbers across pairs
        (0: independent pairs).
    args
        ``(scen, opt, tb, mv, plan)`` (:attr:`PairSetup.args`).

    Returns
    -------
    int64 [3 * P]
        Per pair: side 0's wins, side 1's wins, draws.
    """
    npairs = rows.shape[0]
    out = np.zeros(3 * npairs, dtype=np.int64)
    g = int(start)
    stop = int(stop)
    while g < stop:
        p, k0 = divmod(g, m)
        k1 = min(m, k0 + stop - g)
        base = offset + (0 if common else p * m)
        c = E.duel_kernel(base + k0, base + k1, seed, rows[p], *args, _NO_RECORDS)
        out[3 * p] += c[S.C_WIN]
        out[3 * p + 1] += c[S.C_WIN + 1]
        out[3 * p + 2] += c[S.C_DRAWS]
        g += k1 - k0
    return out


_NO_RECORDS = np.zeros((0, S.N_REC), dtype=np.int64)


def play_pairs(
    pairs: Sequence[tuple[Any, Any]],
    setup: PairSetup,
    *,
    n: int,
    seed: int,
    offset: int = 0,
    common: bool = True,
    kernel: Callable[..., np.ndarray] | None = None,
    progress: bool | None = False,
    checkpoint=None,
    label: str = "games",
    backend: str = "local",
    dask_client=None,
    threads: int | None = None,
):
    """Play ``n`` games of every pair of sheets in ``pairs`` (side 0, side 1): games
    ``offset..offset+n-1`` of each pair's streams with ``common`` (common random numbers:
    game ``k`` of every pair from the same streams), else every pair its own streams.

    Returns ``(counts, outcome)``: int64 [P, 3] (side 0's wins, side 1's wins, draws) and the
    :class:`~dragonsim.runner.RunOutcome` (games played, seconds, interrupted). An interrupted
    run keeps the pairs it finished, in order (the counts of the rest are zero or partial: the
    games each pair finished are ``counts.sum(axis=1)``). ``kernel`` replaces
    :func:`pairs_kernel` (a synthetic win model in tests; same signature).
    """
    from ...runner import run_blocks

    n = check_int(n, "n", 1, 10**9)
    rows = _pair_rows(pairs, setup)
    k = kernel if kernel is not None else pairs_kernel
    out = run_blocks(
        k,
        n * len(pairs),
        seed,
        (rows, int(n), int(offset), int(bool(common)), *setup.args),
        progress=progress,
        checkpoint=checkpoint,
        compiled=E.play_chunks,
        game="Dragon Lords",
        label=label,
        backend=backend,
        dask_client=dask_client,
        threads=threads,
    )
    counts = np.zeros((len(pairs), 3), dtype=np.int64)
    if out.counters is not None and len(out.counters) == 3 * len(pairs):
        counts = out.counters.reshape(len(pairs), 3).copy()
    return counts, out


def _pair_rows(pairs: Sequence[tuple[Any, Any]], setup: PairSetup) -> np.ndarray:
    """int64 [P, 2, N_DCOLS]: each pair's two sheet rows (side 0 team 0, side 1 team 1), one
    row built per sheet and side, not per pair."""
    if not pairs:
        raise UserError("no pairs to play")
    memo: dict[tuple[int, int], np.ndarray] = {}

    def row(s, team):
        key = (id(s), team)
        if key not in memo:
            memo[key] = setup.row(s, team)
        return memo[key]

    return np.stack([np.stack([row(a, 0), row(b, 1)]) for a, b in pairs])


def pair_games_kernel(start, stop, seed, rows, streams, *args):
    """Games ``start..stop-1`` of a run that keeps every game's winner: game ``g`` is game
    ``k = g // P`` of pair ``g % P`` (game-major, so a run cut short holds the first games of
    every pair alike), played from the streams ``(seed, streams[p] + k)``.

    Parameters
    ----------
    rows : int64 [P, 2, N_DCOLS]
        Each pair's two sheet rows (side 0, side 1).
    streams : int64 [P]
        Each pair's first stream index: pairs with the same one play on common random numbers.
    args
        ``(scen, opt, tb, mv, plan)`` (:attr:`PairSetup.args`).

    Returns
    -------
    (int64 [3 * P], bytes)
        Per pair: side 0's wins, side 1's wins, draws; and each game's winner in game order,
        int8 (0 side 0, 1 side 1, -1 a draw).
    """
    npairs = rows.shape[0]
    out = np.zeros(3 * npairs, dtype=np.int64)
    start, stop = int(start), int(stop)
    winners = np.zeros(stop - start, dtype=np.int8)
    for p in range(npairs):
        k0 = -(-(start - p) // npairs)  # the first k with k * P + p >= start
        k1 = -(-(stop - p) // npairs)
        if k1 <= k0:
            continue
        rec = np.zeros((k1 - k0, S.N_REC), dtype=np.int64)
        base = int(streams[p])
        c = E.duel_kernel(base + k0, base + k1, seed, rows[p], *args, rec)
        out[3 * p] += c[S.C_WIN]
        out[3 * p + 1] += c[S.C_WIN + 1]
        out[3 * p + 2] += c[S.C_DRAWS]
        winners[np.arange(k0, k1) * npairs + p - start] = rec[:, S.R_WINNER]
    return out, winners.tobytes()


def play_pair_games(
    pairs: Sequence[tuple[Any, Any]],
    setup: PairSetup,
    *,
    n: int,
    seed: int,
    streams: Sequence[int] | None = None,
    kernel: Callable[..., Any] | None = None,
    progress: bool | None = False,
    label: str = "games",
    threads: int | None = None,
):
    """Play games ``0..n-1`` of every pair of sheets in ``pairs`` (side 0, side 1) and keep
    each game's winner: game ``k`` of pair ``p`` from the streams ``(seed, streams[p] + k)``
    (default 0 for every pair: common random numbers across all of them, as
    :func:`play_pairs` with ``common``). Pairs given the same first stream play on common
    random numbers; pairs ``n`` or more apart on streams of their own.

    Returns ``(winners, outcome)``: int8 [k, P] (0 side 0 won, 1 side 1, -1 a draw; ``k =
    n``, or on an interruption the games every pair finished) and the
    :class:`~dragonsim.runner.RunOutcome`. ``kernel`` replaces :func:`pair_games_kernel`
    (same signature: a synthetic win model in tests).
    """
    from ...runner import run_blocks

    n = check_int(n, "n", 1, 10**9)
    rows = _pair_rows(pairs, setup)
    npairs = len(pairs)
    first = np.zeros(npairs, np.int64) if streams is None else np.asarray(streams, np.int64)
    if first.shape != (npairs,) or (first < 0).any():
        raise UserError(f"streams must be {npairs} first stream indices >= 0, one a pair")
    out = run_blocks(
        kernel if kernel is not None else pair_games_kernel,
        n * npairs,
        seed,
        (rows, first, *setup.args),
        progress=progress,
        compiled=E.play_chunks,
        game="Dragon Lords",
        label=label,
        threads=threads,
    )
    games = np.frombuffer(out.extra, dtype=np.int8)
    k = len(games) // npairs
    return games[: k * npairs].reshape(k, npairs).copy(), out
