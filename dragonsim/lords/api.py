"""``dragonsim.duel`` and ``dragonsim.lords.battle``: many complete Dragon Lords games between
two dragons, or among 2..8 in a free-for-all or teams.

The steps of a run: check the arguments and turn the dragons, bots and rules into the kernel's
inputs (:mod:`~dragonsim.lords.inputs`), open the checkpoint and the records file, play the
blocks of games on the engine (:func:`~dragonsim.runner.run_blocks`, or to a precision target),
and report (:mod:`~dragonsim.lords.results`).

Examples
--------
>>> r = duel("Reaper", "Skyblazer", n=2000, seed=1, progress=False)  # doctest: +SKIP
>>> r.wins_a + r.wins_b + r.draws == r.n  # doctest: +SKIP
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import defaults
from ..checkpoint import open_checkpoint
from ..errors import UserError, check_int, check_seed
from ..records import check_path, closing
from ..stats import mean_interval
from . import engine as E
from .bots import MAX_PLAN_SAMPLES, policy_version
from .game import state as S
from .game.sheets import sheet
from .inputs import (
    MAX_TURN_LIMIT,
    _rules,
    battle_setup,
    check_scenario,
    check_spells,
    dragon_row,
    options_manifest,
    prepare,
    resolve_policies,
)
from .results import (
    BATTLE_COLUMNS,
    DUEL_COLUMNS,
    BattleResult,
    DuelResult,
    first_mover,
    first_mover_counts,
    record_columns,
    records_manifest,
)

# the run setup and the columns are reached here too (tests, benchmarks): dragonsim.lords.api.X
__all__ = ["duel", "battle", "prepare", "battle_setup", "dragon_row", "DUEL_COLUMNS"]


def _kernel_with_records(current: list):
    """A duel-kernel caller that keeps each block's per-game rows in ``current[0]``."""

    def kernel(start, stop, seed_, *kargs):
        rec = np.zeros((stop - start, S.N_REC), dtype=np.int64)
        out = E.duel_kernel(start, stop, seed_, *kargs, rec)
        current[:] = [rec]
        return out

    return kernel


def _write_records(runrec, current: list, side_names: Sequence[str], two: bool):
    """The ``on_block`` that writes each block's games to the records (``runrec``: the run's
    :meth:`~dragonsim.records.RecordsFile.run`), from the rows the kernel caller kept in
    ``current[0]``."""

    def on_block(start, stop, part):
        runrec.block(start, stop, record_columns(current[0], start, side_names, two))

    return on_block


def _check_local_records(backend: str, records, precision, checkpoint) -> None:
    """Refuse the combinations a run cannot make: records on Dask, a checkpoint with a
    precision target."""
    if backend == "dask" and records is not None:
        raise UserError(
            "records are written by the local backend only; drop records= or use backend='local'"
        )
    if precision is not None and checkpoint is not None:
        raise UserError("checkpoints are not supported with a precision target; give n instead")


def _play(
    kernel, n, seed, args, *, precision, cap, rates, simultaneous, section, file, runrec, **run_kw
):
    """Play the games: ``n`` of them (resuming ``section``), or with ``precision`` until the
    rate of every counter in ``rates`` is that narrow (at most ``cap`` games; ``simultaneous``:
    all of them covered at once, :func:`~dragonsim.runner.run_to_precision`); the records
    (``runrec`` of ``file``) are finished and the file closed however the run ends. Returns
    ``(outcome, precision run or None)``."""
    from ..runner import run_blocks, run_to_precision

    out = prun = None
    try:
        if precision is None:
            out = run_blocks(kernel, n, int(seed), args, checkpoint=section, **run_kw)
        else:
            out, prun = run_to_precision(
                kernel,
                int(seed),
                args,
                precision=precision,
                cap=cap,
                rates=rates,
                simultaneous=simultaneous,
                **run_kw,
            )
        if runrec is not None:
            runrec.finish(out.n)
    finally:
        if file is not None:
            file.close(**closing(out))
    return out, prun


def duel(
    a,
    b,
    *,
    n: int | str | float | None = None,
    precision: float | None = None,
    max_n: int | str | float | None = None,
    simultaneous: bool = False,
    seed: int = 1,
    policy: str = "hunter",
    policies: str | Sequence[str] | None = None,
    turn_limit: int = defaults.TURN_LIMIT,
    records: str | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    rules=None,
    plan_samples: int = defaults.PLAN_SAMPLES,
    scenario=None,
    backend: str = "local",
    dask_client=None,
    checkpoint=None,
    spells: str = "bot",
) -> DuelResult:
    """Play ``n`` complete games of dragon ``a`` against dragon ``b`` (the basic rules, or
    ``rules=``: a preset, a rules file's RuleSet or overrides).

    Parameters
    ----------
    a, b
        Ready-made names (case-insensitive), inline designs
        (``"body=Heavy,wings=Large,breath=Ice,claws=Sharp"``) or Sheets.
    n
        Number of games (``1e6`` and ``"1e6"`` are accepted).
    precision, max_n, simultaneous
        Instead of ``n``: play until the 95% interval of each of the three reported rates (A
        wins, B wins, draws) has a half-width of at most ``precision`` (0.005: +-0.5 pp), at
        most ``max_n`` games (default 1e8). The intervals are a confidence sequence:
        Clopper-Pearson at each look of a plan fixed before any game, whose errors sum to 5%
        (:func:`~dragonsim.stats.precision_plan`: most of it on the last look, where even a
        rate of 1/2 meets the target, about 1.1x a fixed-n interval's games). ``simultaneous``:
        the three rates covered at once (more games); by default each on its own, as a
        fixed-n run's are. The same seed and precision give the same n and counts.
    seed
        The run's seed; game ``i`` plays from its own streams, so results do not depend on
        threads or chunking.
    policy, policies
        One bot for both dragons, or two (``"hunter,random"`` or a pair). A planner may carry
        its own breadth, ``"hunter:32,hunter:8"``: end states scored per move, overriding
        ``plan_samples`` for that dragon (a stronger or weaker player). ``"equilibrium"``
        (each side choosing its style) is a study: :func:`dragonsim.lords.equilibrium_duel`.
    turn_limit
        Turns after which a game is a stalemate (a draw, reported separately).
    records
        A ``.parquet`` path for one row per game, written block by block.
    threads, progress
        numba threads (default all cores); progress bar (default: on a terminal).
    rules
        A RuleSet or a mapping of rule overrides.
    backend, dask_client
        ``"local"`` (numba threads, the default) or ``"dask"``: blocks of games become Dask
        tasks on ``dask_client`` (a ``distributed.Client``) or the default scheduler. The
        counters are the same either way.
    plan_samples
        End states a planning bot scores per altitude change.
    checkpoint
        A file path: finished blocks are saved there as they finish, and a run with the same
        arguments resumes from it (see :mod:`dragonsim.checkpoint`).
    scenario
        Starting positions instead of the rulebook's edge placement: two rows
        ``(q, r, facing, altitude, speed)`` (see :func:`check_scenario`).
    spells
        With the Wizard (rule ``lords.advanced.wizard``): how the Wizards choose
        their spells, ``"bot"`` (the default), ``"never"`` or ``"random"``
        (:mod:`~dragonsim.lords.bots.spells`).

    Returns
    -------
    DuelResult
        With the first-mover advantage (:class:`~dragonsim.lords.results.FirstMover`, who
        moved first on turn 1) and the game-length distribution
        (:meth:`DuelResult.game_length`).
    """
    from ..runner import n_or_precision

    n, cap = n_or_precision(n, precision, max_n, simultaneous=simultaneous)
    seed = check_seed(seed)
    turn_limit = check_int(turn_limit, "turn limit", 1, MAX_TURN_LIMIT)
    plan_samples = check_int(plan_samples, "plan_samples", 1, MAX_PLAN_SAMPLES)
    if records is not None:
        check_path(records)
    pols = resolve_policies(_not_equilibrium(policy), policies)
    check_spells(spells)
    if scenario is not None:
        rs_ = _rules(rules)
        scenario = check_scenario(scenario, [sheet(a, rules=rs_), sheet(b, rules=rs_)], rs_)
    prep = prepare(
        a,
        b,
        policies=pols,
        rules=rules,
        turn_limit=int(turn_limit),
        plan_samples=int(plan_samples),
        scenario=scenario,
        spells=spells,
    )
    _check_local_records(backend, records, precision, checkpoint)
    identity = _duel_identity(prep, pols, seed, n, spells)
    section = open_checkpoint(checkpoint, identity) if precision is None else None
    current: list = []
    file = runrec = on_block = None
    if records is not None:
        file = _duel_records_file(records, prep, pols, seed, n, precision, scenario)
        runrec = file.run(section)
        on_block = _write_records(runrec, current, (prep["a"].name, prep["b"].name), True)

    # every block keeps its games' rows (N_REC int64 cells a game, freed with the block): the
    # first-mover counts come from them and travel after the engine's counters, so they add
    # up over blocks, threads, Dask tasks and checkpoints like the counters do
    def kernel(start, stop, seed_, *kargs):
        rec = np.zeros((stop - start, S.N_REC), dtype=np.int64)
        out = E.duel_kernel(start, stop, seed_, *kargs, rec)
        current[:] = [rec]
        return np.concatenate([out, first_mover_counts(rec)])

    out, prun = _play(
        kernel,
        n,
        seed,
        prep["args"],
        precision=precision,
        cap=cap,
        rates=(S.C_WIN, S.C_WIN + 1, S.C_DRAWS),
        simultaneous=simultaneous,
        section=section,
        file=file,
        runrec=runrec,
        progress=progress,
        threads=threads,
        on_block=on_block,
        label="games",
        backend=backend,
        dask_client=dask_client,
        compiled=E.play_chunks,
        game="Dragon Lords",
    )
    if prun is not None:
        n = out.n
    return _duel_result(out, prun, n, prep, pols, seed, turn_limit, scenario, records)


def _not_equilibrium(policy):
    """``policy``, a bot; UserError for ``"equilibrium"``: no bot but a study of every style
    against every style (the analyses sit above this module), reached by its own function."""
    if isinstance(policy, str) and policy.strip().lower() == "equilibrium":
        raise UserError(
            "policy 'equilibrium' is a study of many duels, every style against every style: "
            "call dragonsim.lords.equilibrium_duel(a, b, n=...) (on the command line: duel A B "
            "--policy equilibrium)"
        )
    return policy


def _duel_identity(prep, pols, seed: int, n: int, spells: str) -> dict[str, Any]:
    """What a duel's checkpoint must match to resume."""
    identity = {
        "command": "duel",
        "a": prep["a"].name,
        "b": prep["b"].name,
        "policies": list(pols),
        "seed": seed,
        "n": n,
        "rules_hash": prep["rules"].hash,
    }
    if spells != "bot":
        identity["spells"] = spells
    return identity


def _duel_records_file(records, prep, pols, seed, n, precision, scenario):
    """A duel's records file (:data:`DUEL_COLUMNS`), its manifest written before the run."""
    from ..records import RecordsFile

    sa, sb = prep["a"], prep["b"]
    return RecordsFile(
        records,
        records_manifest(
            command="duel",
            a=sa.to_dict(),
            b=sb.to_dict(),
            policies=[policy_version(p) for p in pols],
            seed=int(seed),
            requested=n,
            precision=precision,
            rules_hash=prep["rules"].hash,
            rules_overrides=prep["rules"].overrides,
            options=options_manifest(prep["args"][2]),
            scenario=None if scenario is None else np.asarray(scenario).tolist(),
        ),
        DUEL_COLUMNS,
    )


def _duel_result(out, prun, n, prep, pols, seed, turn_limit, scenario, records) -> DuelResult:
    """The :class:`DuelResult` of a finished run (``out``, a RunOutcome; ``prun``, its
    precision run or None) with its manifest."""
    from ..report import manifest
    from ..runner import precision_rates

    sa, sb = prep["a"], prep["b"]
    args = prep["args"]
    c = out.counters[: S.N_COUNTERS]
    extra = out.counters[S.N_COUNTERS :]
    games = int(c[S.C_GAMES])
    wa, wb, dr = int(c[S.C_WIN]), int(c[S.C_WIN + 1]), int(c[S.C_DRAWS])
    rate_of, z = precision_rates(prun)
    mt = mean_interval(float(c[S.C_TURNS]), float(c[S.C_TURNS_SQ]), games)
    da = mean_interval(float(c[S.C_DEALT]), float(c[S.C_DEALT_SQ]), games)
    db = mean_interval(float(c[S.C_DEALT + 1]), float(c[S.C_DEALT_SQ + 1]), games)
    breaths = int(c[S.C_BREATHS])
    man = manifest(
        command="duel",
        a=sa.to_dict() if hasattr(sa, "to_dict") else sa.name,
        b=sb.to_dict() if hasattr(sb, "to_dict") else sb.name,
        rules_hash=prep["rules"].hash,
        rules_overrides=prep["rules"].overrides,
        policies=[policy_version(p) for p in pols],
        seed=int(seed),
        n=games,
        requested=n,
        precision=None if prun is None else prun.to_dict(),
        seconds=out.seconds,
        compile_seconds=out.compile_seconds,
        resumed=out.resumed,
        threads=out.threads,
        options=options_manifest(args[2]),
        scenario=None if scenario is None else np.asarray(scenario).tolist(),
        interrupted=out.interrupted,
    )
    return DuelResult(
        a=sa.name,
        b=sb.name,
        n=games,
        requested=n,
        seed=int(seed),
        policies=pols,
        wins_a=wa,
        wins_b=wb,
        draws=dr,
        turn_limit=int(turn_limit),
        turn_limit_hits=int(c[S.C_TURN_LIMIT]),
        rate_a=rate_of(wa, games),
        rate_b=rate_of(wb, games),
        rate_draw=rate_of(dr, games),
        mean_turns=mt[0],
        turns_ci=(mt[1], mt[2]),
        damage_a=da,
        damage_b=db,
        breath_hit_rate=int(c[S.C_BREATH_HITS]) / breaths if breaths else math.nan,
        engagements_per_game=int(c[S.C_ENGAGES]) / games if games else math.nan,
        dice_per_game=int(c[S.C_DICE]) / games if games else math.nan,
        seconds=out.seconds,
        interrupted=out.interrupted,
        counters=c,
        manifest=man,
        records=records,
        first_mover=first_mover(extra, wa, wb, games, rate_of, z),
        precision=prun,
    )


# ------------------------------------------------------------------------------------------------
# free-for-all and team games
# ------------------------------------------------------------------------------------------------


def battle(
    dragons: Sequence | str,
    *,
    n: int | str | float | None = None,
    precision: float | None = None,
    max_n: int | str | float | None = None,
    simultaneous: bool = False,
    teams: Sequence[int] | None = None,
    seed: int = 1,
    policy: str = "hunter",
    policies: Sequence[str] | None = None,
    turn_limit: int = defaults.TURN_LIMIT,
    scenario=None,
    threads: int | None = None,
    progress: bool | None = None,
    rules=None,
    plan_samples: int = defaults.PLAN_SAMPLES,
    checkpoint=None,
    records: str | None = None,
    spells: str = "bot",
) -> BattleResult:
    """Free-for-all or team games of 2..8 dragons (rulebook p.14).

    ``dragons`` is a list of names/designs, or the name of a team pairing for odd numbers of
    players (``"basic-3"``: two Zippinchills against Reaper, ``"basic-5"``, ``"basic-7"``, and
    the advanced ones). Without ``teams`` it is a free-for-all: "The player with the last
    dragon in the air wins the game"; with ``teams`` (one team number 0..k-1 per dragon) "The
    team that destroys all of the other team's dragons wins". A game where the last dragons
    fall together is a draw. ``records``: a ``.parquet`` or ``.csv`` file for one row per
    game (:data:`BATTLE_COLUMNS`; :data:`DUEL_COLUMNS` for two dragons), see
    :mod:`dragonsim.records`. ``precision``, ``max_n``: instead of ``n``, play until every
    side's win rate and the draw rate have a 95% confidence-sequence half-width of at most
    ``precision`` (as :func:`duel` does, ``simultaneous`` too; not with ``checkpoint``).
    ``spells``: the Wizards' spell policy, as for :func:`duel`.
    """
    from ..runner import n_or_precision

    n, cap = n_or_precision(n, precision, max_n, simultaneous=simultaneous)
    if precision is not None and checkpoint is not None:
        raise UserError("checkpoints are not supported with a precision target; give n instead")
    seed = check_seed(seed)
    if records is not None:
        check_path(records)
    sheets, teams, pols, rs, args = battle_setup(
        dragons,
        teams=teams,
        policy=policy,
        policies=policies,
        turn_limit=turn_limit,
        plan_samples=plan_samples,
        rules=rules,
        scenario=scenario,
        spells=spells,
    )
    empty = np.zeros((0, S.N_REC), dtype=np.int64)
    section = open_checkpoint(
        checkpoint,
        {
            "command": "battle",
            "dragons": [s.name for s in sheets],
            "teams": teams,
            "policies": pols,
            "seed": seed,
            "n": n,
            "rules_hash": rs.hash,
        },
    )
    file = runrec = on_block = None
    if records is not None:
        two = len(sheets) == 2
        file = _battle_records_file(records, sheets, teams, pols, seed, n, rs, args, scenario)
        runrec = file.run(section)
        side_names = [
            " + ".join(s.name for s, t in zip(sheets, teams, strict=True) if t == k)
            for k in range(len(set(teams)))
        ]
        current: list = []
        kernel = _kernel_with_records(current)
        on_block = _write_records(runrec, current, side_names, two)
    else:

        def kernel(start, stop, seed_, *kargs):
            return E.duel_kernel(start, stop, seed_, *kargs, empty)

    k = len(set(teams))
    out, prun = _play(
        kernel,
        n,
        seed,
        args,
        precision=precision,
        cap=cap,
        rates=[S.C_WIN + t for t in range(k)] + [S.C_DRAWS],
        simultaneous=simultaneous,
        section=section,
        file=file,
        runrec=runrec,
        progress=progress,
        threads=threads,
        on_block=on_block,
        compiled=E.play_chunks,
        game="Dragon Lords",
    )
    if prun is not None:
        n = out.n
    return _battle_result(out, prun, n, sheets, teams, pols, rs, args, seed, scenario, records)


def _battle_records_file(records, sheets, teams, pols, seed, n, rs, args, scenario):
    """A battle's records file (:data:`BATTLE_COLUMNS`; :data:`DUEL_COLUMNS` for two
    dragons), its manifest written before the run."""
    from ..records import RecordsFile

    return RecordsFile(
        records,
        records_manifest(
            command="battle",
            dragons=[s.to_dict() for s in sheets],
            teams=teams,
            policies=[policy_version(p) for p in pols],
            seed=int(seed),
            requested=n,
            rules_hash=rs.hash,
            rules_overrides=rs.overrides,
            options=options_manifest(args[2]),
            scenario=None if scenario is None else args[1].tolist(),
        ),
        DUEL_COLUMNS if len(sheets) == 2 else BATTLE_COLUMNS,
    )


def _battle_result(
    out, prun, n, sheets, teams, pols, rs, args, seed, scenario, records
) -> BattleResult:
    """The :class:`BattleResult` of a finished run (``out``, a RunOutcome; ``prun``, its
    precision run or None) with its manifest."""
    from ..report import manifest
    from ..runner import precision_rates

    scen = args[1]
    k = len(set(teams))
    c = out.counters
    games = int(c[S.C_GAMES])
    rate_of = precision_rates(prun)[0]
    wins = [int(c[S.C_WIN + t]) for t in range(k)]
    mt = mean_interval(float(c[S.C_TURNS]), float(c[S.C_TURNS_SQ]), games)
    man = manifest(
        command="battle",
        dragons=[s.name for s in sheets],
        teams=teams,
        policies=[policy_version(p) for p in pols],
        rules_hash=rs.hash,
        rules_overrides=rs.overrides,
        seed=int(seed),
        n=games,
        requested=n,
        precision=None if prun is None else prun.to_dict(),
        seconds=out.seconds,
        compile_seconds=out.compile_seconds,
        resumed=out.resumed,
        threads=out.threads,
        scenario=None if scenario is None else scen.tolist(),
        options=options_manifest(args[2]),
        interrupted=out.interrupted,
    )
    return BattleResult(
        dragons=[s.name for s in sheets],
        teams=teams,
        policies=pols,
        n=games,
        seed=int(seed),
        wins=wins,
        draws=int(c[S.C_DRAWS]),
        rates=[rate_of(w, games) for w in wins],
        rate_draw=rate_of(int(c[S.C_DRAWS]), games),
        turn_limit_hits=int(c[S.C_TURN_LIMIT]),
        mean_turns=mt[0],
        seconds=out.seconds,
        interrupted=out.interrupted,
        counters=c,
        manifest=man,
        requested=n,
        records=None if records is None else str(records),
        precision=prun,
    )
