"""Command: ``duel`` (many complete Dragon Lords games between two dragons). Parsing and
printing only; the work is :func:`dragonsim.lords.api.duel`."""

from __future__ import annotations

import argparse

from ..defaults import PLAN_SAMPLES as DEFAULT_PLAN_SAMPLES
from ..defaults import TURN_LIMIT as DEFAULT_TURN_LIMIT
from ..lords.bots import POLICIES
from .common import (
    SIMULTANEOUS_HELP,
    add_backend_options,
    add_checkpoint_option,
    add_records_option,
    add_rules_option,
    add_run_options,
    add_seed_option,
    add_speed_options,
    backend_options,
    check_outputs,
    count,
    emit_json,
    finish,
    half_width,
    interrupted_code,
    n_or_precision,
    positive_int,
    progress_of,
    rules_from,
    save_figure,
    speed_of,
    write_output,
)


def _add_run_identity(p: argparse.ArgumentParser) -> None:
    """What names a run's games besides its dragons: seed, bots, turn limit (``find``,
    ``replay``, ``show``)."""
    add_seed_option(p, what="the run's seed")
    p.add_argument("--policy", default="hunter", help="bot for every dragon (default hunter)")
    p.add_argument("--policies", metavar="P,Q", default=None, help="one bot per dragon")
    p.add_argument(
        "--turn-limit",
        type=positive_int,
        default=DEFAULT_TURN_LIMIT,
        help=f"the run's turn limit (default {DEFAULT_TURN_LIMIT})",
    )


def _add_precision(p: argparse.ArgumentParser, default_n: int, what: str) -> None:
    """``--precision H`` and ``--max-n`` beside a study's ``-n`` (read with
    :func:`~.common.n_or_precision`; not with --checkpoint or --records)."""
    p.set_defaults(default_n=default_n)
    p.add_argument(
        "--precision",
        type=half_width,
        default=None,
        metavar="H",
        help=f"instead of -n: play until the 95%% interval of {what} (a confidence sequence, "
        "valid however often it is looked at) is within +-H, e.g. 0.02",
    )
    p.add_argument(
        "--max-n",
        type=count,
        default=None,
        help="the most games a --precision run plays (default 1e8)",
    )
    p.add_argument("--simultaneous", action="store_true", help=SIMULTANEOUS_HELP)


def _add_game_options(p: argparse.ArgumentParser) -> None:
    """One game of a duel or battle run (``replay``, ``show``): its dragons, teams, index and
    the run's identity."""
    p.add_argument("dragons", nargs="*", help="the run's dragons, in its order")
    p.add_argument("--teams", default=None, help="a battle's team numbers, e.g. 0,0,1")
    p.add_argument("--game", type=int, default=0, help="the game's index in the run (default 0)")
    _add_run_identity(p)
    p.add_argument(
        "--script",
        metavar="NAME|FILE.json",
        default=None,
        help="play a scripted game instead (moves given, dice forced): a JSON script or "
        "'example', the rulebook's Example of Play (pp. 36-37); it names its own dragons",
    )
    p.add_argument(
        "--range-modifier",
        choices=("on", "off"),
        default=None,
        help="a script's Range Key row (p.11): on as the To-Hit table reads, off as the "
        "Example of Play reads (default: the script's own)",
    )


def register(sub: argparse._SubParsersAction) -> None:
    _register_duel(sub)
    _register_battle(sub)
    _register_tournament(sub)
    _register_sensitivity(sub)
    _register_replay(sub)
    _register_show(sub)
    _register_find(sub)
    _register_robustness(sub)


def _register_duel(sub: argparse._SubParsersAction) -> None:
    """The ``duel`` command."""
    from ..lords.analysis.equilibrium import STYLES

    p = sub.add_parser(
        "duel",
        help="play many Dragon Lords games between two dragons",
        description="Play complete Dragon Lords games (setup, initiative, speed, movement, "
        "engagement, breath and close combat, serious damage; with --rules advanced or "
        "advanced+optional the riders, spells, the ground and the rest) between two dragons "
        "and report who wins, with Wilson 95% intervals (with --precision: until a confidence "
        "sequence is that narrow), the first mover's advantage and the game length. Each "
        "dragon is a ready-made name or "
        "an inline design such as body=Heavy,wings=Large,breath=Ice,claws=Sharp. With "
        "--policy equilibrium each side chooses its style: every style of A plays every "
        "style of B (-n games a cell, the same games in each), and the report is the style "
        "matrix, both sides' equilibrium mixtures and the matchup's value.",
    )
    p.add_argument("a", help="first dragon: ready-made name or inline design")
    p.add_argument("b", help="second dragon: ready-made name or inline design")
    add_run_options(p, default_n=100_000, precision=True)
    p.add_argument(
        "--policy",
        default="hunter",
        help=f"bot for both dragons: {', '.join(POLICIES)} (default hunter), or "
        "reference (the look-ahead the default is measured against, search-2); a version "
        "with @ (hunter@4); a planner may carry its breadth, e.g. hunter:32 (end states "
        f"scored per move; default {DEFAULT_PLAN_SAMPLES}): a stronger player, and play "
        "without a capability, e.g. hunter~engage (speed, spells, cast, engage, rider, "
        "tactics: what each is worth, benchmarks/ablations.py). Or equilibrium: "
        f"styles at equilibrium, each dragon choosing among {', '.join(STYLES)}; every "
        "style against every style on common random numbers (-n games a cell), the zero-sum "
        "game of A's win shares (draws half) solved; prints the matrix, both mixtures and "
        "the value (A's win share at equilibrium), and the rates and events per game are the "
        "cells' weighted by both mixtures (not with --policies or --precision; --records and "
        "--checkpoint: one file per cell beside the one named)",
    )
    p.add_argument(
        "--policies",
        metavar="P,Q",
        default=None,
        help="one bot per dragon, e.g. hunter,random, hunter:32,hunter:8 or reference,hunter "
        "(overrides --policy)",
    )
    p.add_argument(
        "--turn-limit",
        type=positive_int,
        default=DEFAULT_TURN_LIMIT,
        help=f"turns before a game is a stalemate draw (default {DEFAULT_TURN_LIMIT})",
    )
    add_records_option(p)
    add_rules_option(p)
    add_spells_option(p)
    add_backend_options(p)
    p.set_defaults(func=cmd_duel)


def _register_battle(sub: argparse._SubParsersAction) -> None:
    """The ``battle`` command."""
    p = sub.add_parser(
        "battle",
        help="play many free-for-all or team Dragon Lords games (2-8 dragons)",
        description="Free-for-all (last dragon in the air wins) or team games (--teams) of 2-8 "
        "dragons, or a named odd-player pairing from the rulebook: basic-3, basic-5, basic-7, "
        "advanced-3, advanced-5, advanced-5b, advanced-7.",
    )
    p.add_argument(
        "dragons",
        nargs="+",
        help="dragons (ready-made names or inline designs), or one pairing name",
    )
    p.add_argument(
        "--teams",
        metavar="T,T,...",
        default=None,
        help="one team number per dragon, e.g. 0,0,1 (default: free-for-all)",
    )
    add_run_options(p, default_n=10_000, precision=True)
    p.add_argument(
        "--policy",
        default="hunter",
        help=f"bot for every dragon: {', '.join(POLICIES)} (default hunter) or reference; a "
        "planner may carry its breadth, e.g. hunter:32, or leave out a capability, "
        "e.g. hunter~engage",
    )
    p.add_argument(
        "--policies",
        metavar="P,Q,...",
        default=None,
        help="one bot per dragon, e.g. hunter:32,hunter,random (overrides --policy)",
    )
    p.add_argument(
        "--turn-limit",
        type=positive_int,
        default=DEFAULT_TURN_LIMIT,
        help=f"turns before a game is a stalemate draw (default {DEFAULT_TURN_LIMIT})",
    )
    add_records_option(p)
    add_rules_option(p)
    add_spells_option(p)
    p.set_defaults(func=cmd_battle)


def _register_tournament(sub: argparse._SubParsersAction) -> None:
    """The ``tournament`` command."""
    p = sub.add_parser(
        "tournament",
        help="round robin between dragons: Bradley-Terry ratings with intervals",
        description="Every pair plays -n games (each side listed first in half of them); "
        "draws count half. Prints Bradley-Terry ratings (log-odds) with 95% intervals, the "
        "matrix of P(row beats column) and any significant non-transitive cycles (Holm, 5%).",
    )
    p.add_argument("dragons", nargs="+", help="two or more ready-made names or inline designs")
    p.add_argument("-n", type=count, default=None, help="games per pair (default 10,000)")
    _add_precision(p, 10_000, "every pair's win share (draws half)")
    add_seed_option(p)
    p.add_argument("--policy", default="hunter", help="bot for every dragon (default hunter)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_speed_options(p)
    add_records_option(p)
    add_rules_option(p)
    add_spells_option(p)
    add_checkpoint_option(p)
    add_backend_options(p)
    p.set_defaults(func=cmd_tournament)


def _register_sensitivity(sub: argparse._SubParsersAction) -> None:
    """The ``sensitivity`` command."""
    p = sub.add_parser(
        "sensitivity",
        help="how a duel's answer moves with one rule value (paired, common random numbers)",
        description="Plays A against B under each value of one rule on the same games and "
        "reports A's win rate and its paired difference from the default. VALUES are JSON "
        "separated by ';', e.g. --values '[0,0,1,1,2];[0,1,1,2,2]'.",
    )
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument(
        "--rule",
        required=True,
        help="rule key, e.g. altitude_mod or damage_allocation.7 (see `rules`)",
    )
    p.add_argument(
        "--values",
        default=None,
        help="JSON values separated by ';' (default for a switch or a reading, e.g. "
        "lords.hit_limit_order: every value but the one in force)",
    )
    p.add_argument("-n", type=count, default=None, help="games per value (default 20,000)")
    _add_precision(p, 20_000, "every value's win rate of A")
    add_seed_option(p)
    p.add_argument("--policy", default="hunter", help="bot for both dragons (default hunter)")
    p.add_argument(
        "--policies", metavar="P,Q", default=None, help="one bot per dragon (overrides --policy)"
    )
    p.add_argument("--json", action="store_true", help="print JSON rows")
    add_speed_options(p)
    add_records_option(p, "game and value")
    add_rules_option(p)
    add_checkpoint_option(p)
    add_backend_options(p)
    p.set_defaults(func=cmd_sensitivity)


def _register_replay(sub: argparse._SubParsersAction) -> None:
    """The ``replay`` command."""
    p = sub.add_parser(
        "replay",
        help="replay one game of a duel or battle run (or a scripted game) exactly, every step "
        "with its dice",
        description="Game I of `duel A B --seed S` plays from its own random streams, so it "
        "can be played again alone: this prints its every step (placement, initiative, "
        "speeds, moves, engagements, targets, each breath attack's target number, rolls, "
        "location and damage, serious damage effects, close combat) and the outcome, which "
        "is exactly row I of that run's --records. Two dragons replay a `duel` run; three or "
        "more (or --teams) a `battle` run. --script plays a scripted game instead (a JSON "
        "script: the dragons' start, each turn's moves, the dice forced; `--script example` "
        "is the rulebook's Example of Play, pp. 36-37) through the same game loop.",
    )
    _add_game_options(p)
    p.add_argument("--jsonl", metavar="FILE", help="also write the events as JSON lines")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_rules_option(p)
    add_spells_option(p)
    p.set_defaults(func=cmd_replay)


def _register_show(sub: argparse._SubParsersAction) -> None:
    """The ``show`` command."""
    p = sub.add_parser(
        "show",
        help="draw one game of a duel or battle run, or a scripted game, on the hex map (PNG "
        "or GIF)",
        description="Replays game I of `duel A B --seed S` (see `replay`) and draws each "
        "dragon's course turn by turn: where each move ended (coloured by altitude, an arrow "
        "for the facing, the turn number), breath attacks that hit or missed, close combats "
        "and where a dragon fell. Two dragons: a `duel` run; three or more (or --teams): a "
        "`battle` run; --script: a scripted game. --out game.png draws the whole game, "
        "game_%d.png one picture per turn, game.gif an animation with a frame per turn.",
    )
    _add_game_options(p)
    p.add_argument(
        "--upto", type=positive_int, default=None, help="draw turns 1..UPTO only (long games)"
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        required=True,
        help="game.png: the whole game; game_%%d.png: one picture per turn (game_1.png, ...); "
        "game.gif: an animation, one frame per turn",
    )
    add_rules_option(p)
    add_spells_option(p)
    p.set_defaults(func=cmd_show)


def _register_find(sub: argparse._SubParsersAction) -> None:
    """The ``find`` command."""
    p = sub.add_parser(
        "find",
        help="find the games behind a number: shortest, longest, draws, upsets, a condition",
        description="Plays the duel run (the same games as `duel A B -n N --seed S`) with its "
        "records and lists the games asked for, each replayable with `replay`/`show` "
        "--game I. Three or more dragons (or --teams) find the games of a `battle` run "
        "(free-for-all, or team games). --where is a condition on the record columns, e.g. "
        '"winner_side == 1 and damage_points_left_b < 40".',
    )
    p.add_argument("dragons", nargs="+", help="the run's dragons, in its order")
    p.add_argument("--teams", default=None, help="a battle's team numbers, e.g. 0,0,1")
    p.add_argument("-n", type=count, default=10_000, help="games in the run (default 10,000)")
    _add_run_identity(p)
    p.add_argument("--shortest", type=positive_int, default=0, metavar="K")
    p.add_argument("--longest", type=positive_int, default=0, metavar="K")
    p.add_argument("--draws", action="store_true")
    p.add_argument("--upsets", action="store_true", help="games won by the run's underdog")
    p.add_argument("--where", default=None, metavar="EXPR", help="a condition on the records")
    p.add_argument("--limit", type=positive_int, default=10, help="at most this many of each")
    p.add_argument("--json", action="store_true", help="print JSON rows")
    add_speed_options(p)
    add_rules_option(p)
    p.set_defaults(func=cmd_find)


def _register_robustness(sub: argparse._SubParsersAction) -> None:
    """The ``robustness`` command."""
    from ..lords.analysis.robustness import DEFAULT_BOTS, DEFAULT_REFERENCE

    p = sub.add_parser(
        "robustness",
        help="which verdicts (who wins more) flip when the bot changes",
        description="Plays the round robin of DRAGONS (default: the twelve ready-made "
        "dragons) under each bot and reports, for every pair, the first dragon's win share "
        "per bot and its verdict (A, B or even?; Holm over every pair and bot, 5%), the "
        "pairs whose verdict flips between bots, and how far each bot sits from the "
        "reference.",
    )
    p.add_argument("dragons", nargs="*", help="ready-made names or inline designs")
    p.add_argument("-n", type=count, default=1_000, help="games per pair per bot (default 1,000)")
    add_seed_option(p)
    p.add_argument(
        "--bots",
        default=",".join(DEFAULT_BOTS),
        help=f"bots to compare, comma separated (default {','.join(DEFAULT_BOTS)})",
    )
    p.add_argument(
        "--reference",
        default=DEFAULT_REFERENCE,
        help=f"the bot the others are measured from (default {DEFAULT_REFERENCE})",
    )
    p.add_argument("--plot", metavar="FILE.png", help="write the figure of every pair's shares")
    add_records_option(p, "game (one file per bot, FILE.BOT.parquet)")
    p.add_argument("--csv", metavar="FILE.csv", help="write one row per pair and bot")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_speed_options(p)
    add_rules_option(p)
    add_checkpoint_option(p)
    p.set_defaults(func=cmd_robustness)


def add_spells_option(p: argparse.ArgumentParser) -> None:
    """``--spells bot|never|random``: the Wizards' spell policy (advanced rules)."""
    p.add_argument(
        "--spells",
        choices=("bot", "never", "random"),
        default="bot",
        help="how Wizards cast (lords.advanced.wizard, in --rules advanced and "
        "advanced+optional): bot (the default: the spell, target and moment of the "
        "best expected worth), never, or random (a uniform random legal spell and target)",
    )


def cmd_duel(args: argparse.Namespace) -> int:
    """``duel A B``: a plain duel, or with ``--policy equilibrium`` the styles at equilibrium
    (:func:`~dragonsim.lords.analysis.equilibrium.equilibrium_duel`; --policies and
    --precision are one-line errors there)."""
    from ..lords.analysis.equilibrium import equilibrium_duel
    from ..lords.api import duel

    at_equilibrium = str(args.policy).strip().lower() == "equilibrium"
    play = equilibrium_duel if at_equilibrium else duel
    bot = {} if at_equilibrium else {"policy": args.policy}
    with backend_options(args) as where:
        res = play(
            args.a,
            args.b,
            **n_or_precision(args),
            **bot,
            seed=args.seed,
            policies=args.policies,
            turn_limit=args.turn_limit,
            records=args.records,
            threads=args.threads,
            progress=progress_of(args),
            rules=rules_from(args, "lords"),
            checkpoint=args.checkpoint,
            spells=args.spells,
            **where,
        )
    return finish(args, res, "cells") if at_equilibrium else finish(args, res)


def cmd_battle(args: argparse.Namespace) -> int:
    from ..errors import UserError
    from ..lords.api import battle
    from ..rules.lords import ROSTER, TEAM_PAIRINGS

    dragons = args.dragons[0] if len(args.dragons) == 1 else args.dragons
    if isinstance(dragons, str) and (
        dragons.lower() in {r.lower() for r in ROSTER} or "=" in dragons
    ):
        raise UserError(
            f"a battle needs 2..8 dragons, or one pairing name "
            f"({', '.join(TEAM_PAIRINGS)}); got only {dragons!r}"
        )
    teams = None
    if args.teams is not None:
        try:
            teams = [int(t) for t in args.teams.split(",")]
        except ValueError:
            raise UserError(
                f"--teams takes whole numbers such as 0,0,1, got {args.teams!r}"
            ) from None
    res = battle(
        dragons,
        **n_or_precision(args),
        teams=teams,
        seed=args.seed,
        policy=args.policy,
        policies=args.policies,
        turn_limit=args.turn_limit,
        threads=args.threads,
        progress=progress_of(args),
        rules=rules_from(args, "lords"),
        checkpoint=args.checkpoint,
        records=args.records,
        spells=args.spells,
    )
    return finish(args, res)


def cmd_tournament(args: argparse.Namespace) -> int:
    from ..lords.analysis.study import tournament

    with backend_options(args) as where:
        res = tournament(
            args.dragons,
            **n_or_precision(args),
            seed=args.seed,
            policy=args.policy,
            rules=rules_from(args, "lords"),
            checkpoint=args.checkpoint,
            **speed_of(args),
            records=args.records,
            spells=args.spells,
            **where,
        )
    if args.json:
        d = res.to_dict()
        d["matrix"] = res.matrix().round(6).to_dict()
        emit_json(d)
    else:
        print(res.summary())
        print()
        print(res.matrix_text())
    return interrupted_code(res, "pairs")


def _other_values(args: argparse.Namespace) -> list:
    """Every value of a switch (true / false) or a reading (its choices) but the one in force:
    what ``sensitivity`` plays when ``--values`` is left out."""
    from ..errors import UserError

    rs = rules_from(args, "lords")
    key = args.rule if args.rule.startswith("lords.") else f"lords.{args.rule}"
    rule = rs.rule(key)
    if isinstance(rule.value, bool):
        return [not rs.get(key)]
    if isinstance(rule.value, str) and rule.choices:
        return [c for c in rule.choices if c != rs.get(key)]
    raise UserError(
        f"--values is needed for {key} (only a switch or a reading has its values listed); "
        "give JSON values separated by ';', e.g. '[0,0,1,1,2];[0,1,1,2,2]'"
    )


def cmd_sensitivity(args: argparse.Namespace) -> int:
    from ..errors import UserError
    from ..lords.analysis.rulesweep import _parse_value, sensitivity

    if args.values is None:
        values = _other_values(args)
    else:
        values = [_parse_value(v.strip()) for v in args.values.split(";") if v.strip()]
    if not values:
        raise UserError(
            f"--values needs at least one value (JSON separated by ';', e.g. "
            f"'[0,0,1,1,2];[0,1,1,2,2]'), got {args.values!r}"
        )
    with backend_options(args) as where:
        df = sensitivity(
            args.a,
            args.b,
            rule=args.rule,
            values=values,
            **n_or_precision(args),
            seed=args.seed,
            policies=_sensitivity_policies(args),
            rules=rules_from(args, "lords"),
            checkpoint=args.checkpoint,
            **speed_of(args),
            records=args.records,
            **where,
        )
    done = _Done(df, len(values))
    if args.json:
        emit_json(
            {
                "rule": df.attrs["rule"],
                "n": df.attrs["n"],
                "precision": df.attrs["precision"],
                "seed": args.seed,
                "values_requested": len(values),
                "interrupted": done.interrupted,
                "rows": df.to_dict(orient="records"),
                "manifest": df.attrs.get("manifest", {}),
            }
        )
        return interrupted_code(done, "values")
    from ..report import rules_line

    print(
        f"Dragon Lords sensitivity: {args.a} (A) vs {args.b}, A's win rate by "
        f"{df.attrs['rule']}, {df.attrs['n']:,} common games each (seed {args.seed})"
    )
    if df.attrs.get("precision_run") is not None:
        line = df.attrs["precision_run"].line().replace("every rate", "every win rate")
        print(line + " (the intervals below are that sequence)")
    print(
        "  value, A's win rate [95% interval], its paired difference from the value in force "
        "before the study in percentage points [95% interval]"
    )
    if done.interrupted:
        print(f"  INTERRUPTED: {done.n} of {done.requested} values finished (shown below)")
    for _, r in df.iterrows():
        mark = " (default)" if r["is_default"] else ""
        print(
            f"  {r['value']:<28} {100 * r['win_rate_a']:6.2f}% [{100 * r['ci_low']:.2f}, "
            f"{100 * r['ci_high']:.2f}]  vs default {100 * r['difference']:+.2f} pp "
            f"[{100 * r['diff_low']:+.2f}, {100 * r['diff_high']:+.2f}]{mark}"
        )
    man = df.attrs.get("manifest", {})
    print("  " + rules_line(man.get("rules_hash"), man.get("rules_overrides")))
    return interrupted_code(done, "values")


def _sensitivity_policies(args: argparse.Namespace) -> list[str]:
    """The two bots of a sensitivity study: ``--policies P,Q``, else ``--policy`` for both."""
    if args.policies is None:
        return [args.policy, args.policy]
    return [p.strip() for p in args.policies.split(",")]


class _Done:
    """How much of a sensitivity study finished (its DataFrame's ``attrs``)."""

    def __init__(self, df, requested: int):
        self.interrupted = bool(df.attrs.get("interrupted"))
        self.n = len(df)
        self.requested = requested


def cmd_robustness(args: argparse.Namespace) -> int:
    from ..lords.analysis.robustness import robustness

    check_outputs(args, plot=".png", csv=".csv")
    res = robustness(
        args.dragons or None,
        n=args.n,
        seed=args.seed,
        bots=args.bots,
        reference=args.reference,
        rules=rules_from(args, "lords"),
        **speed_of(args),
        checkpoint=args.checkpoint,
        records=args.records,
    )
    if args.csv:
        write_output(args.csv, lambda f: res.frame().to_csv(f, index=False))
    if args.plot:
        save_figure(args.plot, res.plot)
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.summary())
    return interrupted_code(res, "bots")


def _replay_of(args: argparse.Namespace):
    """The replayed game a `replay` / `show` command names: a duel's for two dragons, a
    battle's for more or with --teams."""
    from ..errors import UserError
    from ..lords.views.replay import replay, replay_battle

    if args.script is not None:
        from ..lords.views.script import play_script

        if args.dragons or args.teams is not None:
            raise UserError("a script names its own dragons and teams: drop them, or --script")
        rm = None if args.range_modifier is None else args.range_modifier == "on"
        return play_script(args.script, range_modifier=rm, rules=rules_from(args, "lords"))
    if args.range_modifier is not None:
        raise UserError("--range-modifier goes with --script (a run's rules: --rules FILE)")
    kw = dict(
        seed=args.seed,
        game=args.game,
        policy=args.policy,
        turn_limit=args.turn_limit,
        rules=rules_from(args, "lords"),
        spells=args.spells,
    )
    if len(args.dragons) == 2 and args.teams is None:
        return replay(*args.dragons, policies=args.policies, **kw)
    if len(args.dragons) < 2:
        raise UserError(
            f"name the run's two or more dragons (or --script NAME|FILE), got {args.dragons}"
        )
    teams = _teams_of(args)
    pols = args.policies.split(",") if args.policies else None
    return replay_battle(args.dragons, teams=teams, policies=pols, **kw)


def cmd_replay(args: argparse.Namespace) -> int:
    from ..errors import UserError, check_output

    if args.jsonl:
        check_output(args.jsonl, "--jsonl file")
    res = _replay_of(args)
    if args.jsonl:
        try:
            res.to_jsonl(args.jsonl)
        except OSError as e:
            raise UserError(f"cannot write {args.jsonl!r}: {e.strerror or e}") from None
    if args.json:
        emit_json(
            {
                "winner": res.winner_name,
                "winner_side": res.winner,
                "turns": res.turns,
                "hit_turn_limit": res.hit_turn_limit,
                "damage_dealt": res.damage_dealt,
                "events": res.events,
                "manifest": res.manifest,
                **(
                    {"forced_dice": res.forced, "notes": res.notes}
                    if res.script is not None
                    else {}
                ),
            }
        )
    else:
        print(res.text())
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from ..errors import UserError, check_output
    from ..lords.views.picture import draw, save_gif, save_turns

    out = str(args.out)
    low = out.lower()
    per_turn = low.endswith(".png") and _turn_pattern(out)
    if not (low.endswith(".png") or low.endswith(".gif")):
        raise UserError(
            f"{out!r}: write a .png (the whole game), a .png with %d in its name (one "
            f"picture per turn, e.g. game_%d.png) or a .gif (one frame per turn)"
        )
    if "%" in out and not per_turn:
        raise UserError(f"{out!r}: one %d (e.g. game_%d.png or game_%02d.png) names each turn")
    check_output(out, "--out file")
    res = _replay_of(args)
    import matplotlib

    matplotlib.use("Agg")
    try:
        if low.endswith(".gif"):
            n = save_gif(res, out, last_turn=args.upto)
            what = f"{n} frames, one per turn"
        elif per_turn:
            paths = save_turns(res, out, last_turn=args.upto)
            what = f"{len(paths)} pictures, {paths[0]} .. {paths[-1]}"
        else:
            draw(res, last_turn=args.upto).savefig(out, dpi=110, bbox_inches="tight")
            what = "the whole game"
    except OSError as e:
        raise UserError(f"cannot write {out!r}: {e.strerror or e}") from None
    outcome = "a draw"
    if res.winner >= 0:
        outcome = f"{res.winner_name} {'win' if ' + ' in res.winner_name else 'wins'}"
    if res.script is not None:
        print(f"{out}: {res.script} ({res.title()}), {res.turns} turns ({what})")
    else:
        print(f"{out}: {res.title()}, game {res.game}, {outcome} in {res.turns} turns ({what})")
    return 0


def _turn_pattern(name: str) -> bool:
    """Whether a file name holds one turn number field (``%d``, ``%02d``, ...)."""
    import re

    return len(re.findall(r"%0?\d*d", name)) == 1 and name.count("%") == 1


def _teams_of(args: argparse.Namespace) -> list[int] | None:
    """``--teams 0,1,0,1`` as team numbers (checked by the battle), or None."""
    from ..errors import UserError

    if args.teams is None:
        return None
    try:
        return [int(t) for t in args.teams.split(",")]
    except ValueError:
        raise UserError(f"--teams must be team numbers such as 0,0,1, got {args.teams!r}") from None


def cmd_find(args: argparse.Namespace) -> int:
    from ..errors import UserError
    from ..lords.views.replay import find_battle_games, find_games

    teams = _teams_of(args)
    if len(args.dragons) < 2:
        raise UserError(f"name the run's two or more dragons, got {args.dragons}")
    what = dict(
        n=args.n,
        seed=args.seed,
        policy=args.policy,
        turn_limit=args.turn_limit,
        rules=rules_from(args, "lords"),
        where=args.where,
        shortest=args.shortest,
        longest=args.longest,
        draws=args.draws,
        upsets=args.upsets,
        limit=args.limit,
        **speed_of(args),
    )
    if len(args.dragons) == 2 and teams is None:
        df = find_games(*args.dragons, policies=args.policies, **what)
    else:
        pols = args.policies.split(",") if args.policies else None
        df = find_battle_games(args.dragons, teams=teams, policies=pols, **what)
    if args.json:
        emit_json({"games": df.to_dict(orient="records")})
        return 0
    if df.empty:
        print("no game of the run is what was asked for")
        return 0
    cols = ["why", "game", "winner", "turns", "damage_dealt_a", "damage_dealt_b", "engagements"]
    print(df[[c for c in cols if c in df.columns]].to_string(index=False))
    pol = f" --policies {args.policies}" if args.policies else f" --policy {args.policy}"
    tm = f" --teams {args.teams}" if args.teams is not None else ""
    print(
        f"replay one: python -m dragonsim replay {' '.join(args.dragons)}{tm} --seed "
        f"{args.seed}{pol} --game {int(df['game'].iloc[0])}   (or `show ... --out game.png`)"
    )
    return 0
