"""One game of a run, replayed exactly, as a log of events.

Game ``i`` of a run with seed ``s`` plays from its own random streams (:mod:`dragonsim.
random`), so it can be played again alone: :func:`replay` runs it through the same game loop
as every simulated game, with the event log switched on (the logging is compiled only into
this one-game kernel, :func:`~dragonsim.lords.engine.logged_game`; a run's kernel has none),
and returns every step: the placement, each turn's initiative order, the speeds recorded,
every move (end hex, facing, altitude), engagements, breath targets, every breath attack
(target number, hit roll, side, location roll, part, damage roll, points lost), the serious
damage effects (p.12), every close combat (both rolls, the modifier difference, column,
location, damage, the winner's own damage, the facing it turned to) and the end, as
:mod:`~dragonsim.lords.views.eventlog` decodes and tells them.

The replay of game ``i`` gives exactly the winner, turns and damage that row ``i`` of the
same run's ``--records`` holds (``tests/lords/test_replay.py`` checks every game of a run).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ... import defaults
from ...errors import UserError, check_int, check_seed
from ..game import state as S
from ..game.sheets import rule_switches
from ..game.tables import S_BOARD_DEPTH, S_BOARD_WIDTH
from .eventlog import describe, events

#: the most events a replay keeps (a game at the turn limit has about 20 a turn)
MAX_EVENTS = 40_000


@dataclass
class Replay:
    """One replayed game: its events (:meth:`frame`), winner, turns and damage dealt."""

    names: list[str]
    seed: int
    game: int
    policies: list[str]
    events: list[dict[str, Any]]
    winner: int  # the winning side (a duel: 0 = A, 1 = B; a battle: the team), -1 a draw
    turns: int
    hit_turn_limit: bool
    damage_dealt: list[int]
    manifest: dict[str, Any] = field(default_factory=dict)
    teams: list[int] | None = None  # each dragon's side (None: a duel, sides 0 and 1)
    board: tuple[int, int] = (33, 24)  # the board in force (rule lords.board): width, depth
    #: a scripted game's (:func:`~dragonsim.lords.views.script.play_script`): its title, every
    #: forced roll (turn, roll, value, used, dragon, what it was for) and notes
    script: str | None = None
    forced: list[dict[str, Any]] | None = None
    notes: list[str] = field(default_factory=list)
    #: the raw event log (``L_*`` rows) when kept (scripted games: the tests' checker reads it)
    log: np.ndarray | None = field(default=None, repr=False)

    @property
    def sides(self) -> list[int]:
        return list(range(len(self.names))) if self.teams is None else list(self.teams)

    @property
    def winner_name(self) -> str | None:
        """The winning dragon, or for a team game the winning team's dragons joined by ' + '."""
        if self.winner < 0:
            return None
        return " + ".join(
            n for n, t in zip(self.names, self.sides, strict=True) if t == self.winner
        )

    def title(self) -> str:
        if self.teams is None or len(set(self.teams)) == len(self.names):
            return " vs ".join(self.names)
        k = max(self.teams) + 1
        return " vs ".join(
            " + ".join(n for n, t in zip(self.names, self.teams, strict=True) if t == side)
            for side in range(k)
        )

    def frame(self):
        """The events as a DataFrame, one row each (``turn``, ``phase``, ``event``,
        ``dragon``, ``other``, then the event's own columns)."""
        import pandas as pd

        return pd.DataFrame(self.events)

    def to_jsonl(self, path) -> None:
        """The events as JSON lines, the manifest and outcome first."""
        head = {
            "manifest": self.manifest,
            "winner": self.winner_name,
            "winner_side": self.winner,
            "turns": self.turns,
            "hit_turn_limit": self.hit_turn_limit,
            "damage_dealt": dict(zip(self.names, self.damage_dealt, strict=True)),
            "teams": self.sides,
        }
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(head) + "\n")
            for e in self.events:
                fh.write(json.dumps(e) + "\n")

    def text(self) -> str:
        """The game, readably: one line per event, grouped by turn (a scripted game's forced
        dice under each turn's heading)."""
        bots = ", ".join(f"{n} {p}" for n, p in zip(self.names, self.policies, strict=True))
        lines = [
            f"Dragon Lords scripted game: {self.script} ({self.title()})"
            if self.script is not None
            else f"Dragon Lords replay: {self.title()} ({bots}), seed {self.seed}, game {self.game}"
        ]
        last = None
        scripted_end = self.script is not None and self.winner < 0 and self.hit_turn_limit
        for e in self.events:
            if e["turn"] != last:
                last = e["turn"]
                lines.append("setup" if last == 0 else f"turn {last}")
                if self.forced is not None and last > 0:
                    lines.append("  forced dice: " + _dice_line(self.forced, last))
            if not (scripted_end and e["event"] == "game over"):
                lines.append("  " + describe(e))
        if scripted_end:
            lines.append(f"the script ends after turn {self.turns}; no side has won")
            lines.extend(f"note: {n}" for n in self.notes)
            return "\n".join(lines)
        lines.extend(f"note: {n}" for n in self.notes)
        out = (
            "a draw"
            + (" (the turn limit)" if self.hit_turn_limit else "")
            + f" after {self.turns} turns"
            if self.winner < 0
            else f"{self.winner_name} {'win' if ' + ' in self.winner_name else 'wins'} after "
            f"{self.turns} turns"
        )
        dealt = ", ".join(
            f"{n} dealt {d}" for n, d in zip(self.names, self.damage_dealt, strict=True)
        )
        lines.append(f"{out}; damage points: {dealt}")
        return "\n".join(lines)


def _dice_line(forced: list[dict[str, Any]], turn: int) -> str:
    """A turn's forced rolls: ``8 (Kelvinight's initiative roll (2d6)), ...``; rolls the
    turn did not ask for are marked."""
    rolls = [r for r in forced if r["turn"] == turn]
    if not rolls:
        return "none"
    return ", ".join(
        f"{r['value']} ("
        + (f"{r['dragon']}'s {r['what']}" if r["dragon"] else str(r["what"]))
        + ")"
        if r["used"]
        else f"{r['value']} (not asked for)"
        for r in rolls
    )


def _replayed(names, pols, teams, args, rs, seed, game, turn_limit) -> Replay:
    """Play game ``game`` of run ``seed`` from the kernel arguments ``args`` with the event log
    on, and package it (``teams`` None: a duel, each seat its own side)."""
    from ...firstrun import announce
    from ...report import manifest
    from .. import engine as E
    from ..bots import policy_version

    announce(E.logged_game, "Dragon Lords replay")
    cnt, log = E.logged_game(game, seed, *args, MAX_EVENTS)
    if len(log) >= MAX_EVENTS:
        raise UserError(f"game {game} has more than {MAX_EVENTS:,} events; lower --turn-limit")
    nd = len(names)
    ev = events(log, names, teams, ground=rs.get("lords.ground"))
    wins = [int(cnt[S.C_WIN + t]) for t in range(nd)]
    labels = [policy_version(p) for p in pols]
    extra = {} if teams is None else {"teams": list(teams)}
    return Replay(
        names,
        seed,
        game,
        labels,
        ev,
        -1 if cnt[S.C_DRAWS] else int(np.argmax(wins)),
        int(cnt[S.C_TURNS]),
        bool(ev[-1].get("hit_turn_limit")),
        [int(cnt[S.C_DEALT + k]) for k in range(nd)],
        manifest(
            command="replay",
            rules_hash=rs.hash,
            rules_overrides=rs.overrides,
            options=rule_switches(rs),
            seed=seed,
            game=game,
            **extra,
            policies=labels,
            turn_limit=turn_limit,
        ),
        teams=None if teams is None else list(teams),
        board=(int(args[3].scalars[S_BOARD_WIDTH]), int(args[3].scalars[S_BOARD_DEPTH])),
    )


def replay(
    a,
    b,
    *,
    seed: int = 1,
    game: int = 0,
    policy: str = "hunter",
    policies: str | Sequence[str] | None = None,
    turn_limit: int = defaults.TURN_LIMIT,
    plan_samples: int = defaults.PLAN_SAMPLES,
    rules=None,
    spells: str = "bot",
) -> Replay:
    """Replay game ``game`` of the duel run ``seed`` of ``a`` against ``b`` (the same
    arguments as :func:`~dragonsim.lords.api.duel`, which plays games ``0..n-1``) and return
    its events."""
    from ..inputs import prepare, resolve_policies

    seed = check_seed(seed)
    game = check_int(game, "game", lo=0, hi=10**12 - 1)
    pols = resolve_policies(policy, policies)
    prep = prepare(
        a,
        b,
        policies=pols,
        rules=rules,
        turn_limit=turn_limit,
        plan_samples=plan_samples,
        spells=spells,
    )
    names = [prep["a"].name, prep["b"].name]
    if names[0] == names[1]:
        names = [f"A:{names[0]}", f"B:{names[1]}"]
    return _replayed(names, pols, None, prep["args"], prep["rules"], seed, game, turn_limit)


def replay_battle(
    dragons: Sequence,
    *,
    teams: Sequence[int] | None = None,
    seed: int = 1,
    game: int = 0,
    policy: str = "hunter",
    policies: str | Sequence[str] | None = None,
    turn_limit: int = defaults.TURN_LIMIT,
    plan_samples: int = defaults.PLAN_SAMPLES,
    rules=None,
    spells: str = "bot",
) -> Replay:
    """Replay game ``game`` of the battle run ``seed`` (the same arguments as
    :func:`~dragonsim.lords.api.battle`: a free-for-all, or team games with ``teams``)."""
    from ..inputs import battle_setup

    seed = check_seed(seed)
    game = check_int(game, "game", lo=0, hi=10**12 - 1)
    sheets, sides, pols, rs, args = battle_setup(
        dragons,
        teams=teams,
        policy=policy,
        policies=policies,
        turn_limit=turn_limit,
        plan_samples=plan_samples,
        rules=rules,
        spells=spells,
    )
    names = [s.name for s in sheets]
    if len(set(names)) < len(names):
        names = [f"{nm}#{k + 1}" for k, nm in enumerate(names)]
    return _replayed(names, pols, sides, args, rs, seed, game, turn_limit)


def find_games(
    a,
    b,
    *,
    n: int,
    seed: int = 1,
    policy: str = "hunter",
    policies: str | Sequence[str] | None = None,
    turn_limit: int = defaults.TURN_LIMIT,
    rules=None,
    where: str | None = None,
    shortest: int = 0,
    longest: int = 0,
    draws: bool = False,
    upsets: bool = False,
    limit: int = 10,
    threads: int | None = None,
    progress: bool | None = False,
):
    """The games behind a number: play the duel run (``n`` games, ``seed``) with its records
    in a temporary file and pick games from them, each replayable by its index
    (:func:`replay`). Returns a DataFrame with a ``why`` column: the ``shortest`` and
    ``longest`` games, the ``draws``, the ``upsets`` (won by the side that wins less often
    in this run) and the games where ``where`` holds (a pandas query over the record
    columns, e.g. ``"winner_side == 1 and damage_points_left_b < 20"``), at most ``limit``
    of each. ``threads``, ``progress``: as for :func:`~dragonsim.lords.api.duel` (the games
    found do not depend on them)."""
    import os
    import tempfile

    import pandas as pd

    from ..api import duel
    from ..results import DUEL_COLUMNS

    limit = check_int(limit, "limit", lo=1, hi=10_000)
    _ask_for_something(shortest, longest, draws, upsets, where)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "games.parquet")
        res = duel(
            a,
            b,
            n=n,
            seed=seed,
            policy=policy,
            policies=policies,
            turn_limit=turn_limit,
            rules=rules,
            records=path,
            threads=threads,
            progress=progress,
        )
        rec = pd.read_parquet(path)
    return _pick_games(
        rec,
        0 if res.wins_a < res.wins_b else 1,
        DUEL_COLUMNS,
        where=where,
        shortest=shortest,
        longest=longest,
        draws=draws,
        upsets=upsets,
        limit=limit,
    )


def find_battle_games(
    dragons: Sequence,
    *,
    n: int,
    teams: Sequence[int] | None = None,
    seed: int = 1,
    policy: str = "hunter",
    policies: str | Sequence[str] | None = None,
    turn_limit: int = defaults.TURN_LIMIT,
    rules=None,
    where: str | None = None,
    shortest: int = 0,
    longest: int = 0,
    draws: bool = False,
    upsets: bool = False,
    limit: int = 10,
    threads: int | None = None,
    progress: bool | None = False,
):
    """:func:`find_games` for a battle run (the same arguments as
    :func:`~dragonsim.lords.api.battle`: a free-for-all, or team games with ``teams``): the
    games picked from its records (:data:`~dragonsim.lords.results.BATTLE_COLUMNS`), each
    replayable by its index with :func:`replay_battle`. An upset is a game won by the side
    that wins least often in this run (of sides tied for fewest wins, the last)."""
    import os
    import tempfile

    import pandas as pd

    from ..api import battle
    from ..results import BATTLE_COLUMNS, DUEL_COLUMNS

    limit = check_int(limit, "limit", lo=1, hi=10_000)
    _ask_for_something(shortest, longest, draws, upsets, where)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "games.parquet")
        res = battle(
            dragons,
            n=n,
            teams=teams,
            seed=seed,
            policy=policy,
            policies=policies,
            turn_limit=turn_limit,
            rules=rules,
            records=path,
            threads=threads,
            progress=progress,
        )
        rec = pd.read_parquet(path)
    wins = list(res.wins)
    under = min(range(len(wins)), key=lambda t: (wins[t], -t))
    columns = DUEL_COLUMNS if len(res.dragons) == 2 else BATTLE_COLUMNS
    return _pick_games(
        rec,
        under,
        columns,
        where=where,
        shortest=shortest,
        longest=longest,
        draws=draws,
        upsets=upsets,
        limit=limit,
    )


def _ask_for_something(shortest, longest, draws, upsets, where) -> None:
    if not (shortest or longest or draws or upsets or where):
        raise UserError(
            "say which games to find: --shortest K, --longest K, --draws, --upsets or --where"
        )


def _pick_games(rec, under, columns, *, where, shortest, longest, draws, upsets, limit):
    """The rows of a run's records ``rec`` asked for, each with its ``why``; ``under``: the
    side whose wins are the upsets; ``columns``: the record columns (named for a bad
    ``where``)."""
    import pandas as pd

    picks = []
    if shortest:
        picks.append(
            rec.nsmallest(min(shortest, limit), "turns", keep="first").assign(why="shortest")
        )
    if longest:
        picks.append(rec.nlargest(min(longest, limit), "turns", keep="first").assign(why="longest"))
    if draws:
        picks.append(rec[rec["winner_side"] < 0].head(limit).assign(why="draw"))
    if upsets:
        picks.append(rec[rec["winner_side"] == under].head(limit).assign(why="upset"))
    if where:
        try:
            hit = rec.query(where)
        except Exception as e:  # a user's expression: any failure is theirs to fix
            raise UserError(
                f"--where {where!r} is not a condition on the records ({type(e).__name__}: "
                f"{e}); columns: {', '.join(columns)}"
            ) from None
        picks.append(hit.head(limit).assign(why=f"where {where}"))
    out = pd.concat(picks, ignore_index=True)
    return out[["why", *[c for c in out.columns if c != "why"]]]
