"""The design-point commands: ``prices`` (a fair price for every option), ``price`` (one
build's, from a stored fit), ``gauntlet`` (builds against the field, paired), ``best`` (the
best build at a budget) and ``skill`` (both, and the tournament, under several bots)."""

from __future__ import annotations

import argparse
import sys

from ..defaults import TURN_LIMIT as DEFAULT_TURN_LIMIT
from .common import (
    add_backend_options,
    add_checkpoint_option,
    add_rules_option,
    add_seed_option,
    add_speed_options,
    backend_options,
    check_outputs,
    count,
    emit_json,
    interrupted_code,
    positive_int,
    rules_from,
    save_figure,
    speed_of,
    write_output,
)


def _share(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None


def _common(p: argparse.ArgumentParser) -> None:
    add_backend_options(p)
    p.add_argument("--budget", type=int, default=15, help="design points (default 15)")
    add_seed_option(p)
    p.add_argument(
        "--policy",
        default="hunter",
        help="the bot every dragon plays (default hunter; e.g. search, hunter:64)",
    )
    p.add_argument(
        "--turn-limit",
        type=positive_int,
        default=DEFAULT_TURN_LIMIT,
        help=f"a game's turn limit (default {DEFAULT_TURN_LIMIT})",
    )
    p.add_argument(
        "--field",
        default=None,
        metavar="A,B,...",
        help="the fixed opponents, ready-made names (default the twelve ready-made dragons)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--csv", metavar="FILE.csv", help="write the table (to_frame) to FILE.csv")
    p.add_argument("--plot", metavar="FILE.png", help="write the figure to FILE.png")
    add_speed_options(p)
    add_rules_option(p)
    add_checkpoint_option(p)


def register(sub) -> None:
    p = sub.add_parser(
        "prices",
        help="a fair design-point price for every option, from games",
        description="Plays every legal design of the budget band (or --designs of them) "
        "against the ready-made dragons and two other designs, fits a Bradley-Terry model in "
        "which a design's strength is the sum of its options' (the cheapest option of each "
        "slot the reference) plus the pair terms (body x wings, ...) that predict held-out "
        "designs better, and converts strength to design points at the rate one printed point "
        "buys. Reports each option's fair price (its average over the band) beside its printed "
        "cost with a 95% interval that holds the games' noise and the model's misfit "
        "(clustered by design), the options over- or under-priced (Holm 5%), the negative "
        "control (riders under the basic rules), prices per pair of interacting options, the "
        "fit on held-out designs and the option pairs the model still misses. --json holds "
        "every pairing's counts.",
    )
    _common(p)
    p.add_argument(
        "--band", type=int, default=3, help="designs cost budget-band..budget+band (default 3)"
    )
    p.add_argument(
        "--designs",
        type=count,
        default=None,
        help="draw this many designs of the band (default: every one)",
    )
    p.add_argument("-n", type=count, default=20, help="games per pairing per seat (default 20)")
    p.add_argument(
        "--holdout",
        type=_share,
        default=0.2,
        help="share of designs held out of the validation fit (default 0.2)",
    )
    p.add_argument(
        "--bootstrap",
        type=_replicates,
        default=0,
        help="also resample the designs this many times (20 or more) to check the clustered "
        "intervals, reported as se_bootstrap (default 0: none)",
    )
    p.add_argument(
        "--save-fit",
        metavar="FILE.json",
        default=None,
        help="also write the fit (coefficients, clustered covariance, exchange rate, band, "
        "rules hash, bot) to FILE.json, for `python -m dragonsim price BUILD --fit FILE.json`; "
        "a fit saved in results/ as prices-*-fit.json is found there without --fit",
    )
    p.set_defaults(func=cmd_prices)

    p = sub.add_parser(
        "best",
        help="the best build at a budget: every legal design raced against the field",
        description="Races every legal design costing exactly --budget design points against "
        "the ready-made dragons (each from both seats) by successive halving on common random "
        "numbers: each round doubles the games of the survivors, and a design is eliminated "
        "only when its Hoeffding bound (simultaneous over every design and round) falls below "
        "the best lower bound, so the best build survives with probability >= 1 - alpha. "
        "Reports the survivors (the builds not separated from the top) with their bounds.",
    )
    _common(p)
    p.add_argument(
        "--n0",
        type=count,
        default=16,
        help="games per seat per field dragon in round 0, doubling each round (default 16)",
    )
    p.add_argument("--rounds", type=count, default=10, help="most rounds (default 10)")
    p.add_argument("--max-games", type=count, default=8_000_000, help="game budget (default 8e6)")
    p.add_argument(
        "--alpha", type=_share, default=0.05, help="chance of losing the best (default 0.05)"
    )
    p.add_argument("--top", type=count, default=10, help="survivors to list (default 10)")
    p.set_defaults(func=cmd_best)

    _register_price(sub)
    _register_gauntlet(sub)

    from ..lords.analysis import skill as sk

    p = sub.add_parser(
        "skill",
        help="balance across skill: tournament, prices and best builds under several bots",
        description="Runs the round robin of the ready-made dragons, the fair prices and the "
        "best-build race under each bot of --bots (weakest first) on the same seed, and shows "
        "where the answer changes with the bot: each dragon's win share and rating per bot, "
        "the pairs whose verdict (who wins more, or balanced; Holm 5%) changes (e.g. "
        "'balanced only for weak play'), each option's fair price per bot and the options "
        "whose over/under-priced verdict differs, and each bot's top builds with their ranks "
        "under the other bots. The defaults are a short run (a few minutes on two cores).",
    )
    p.add_argument(
        "--bots",
        default=",".join(sk.DEFAULT_BOTS),
        help=f"bots to compare, weakest first (default {','.join(sk.DEFAULT_BOTS)})",
    )
    p.add_argument(
        "--what",
        default=",".join(sk.STUDIES),
        help=f"studies to run, comma separated (default {','.join(sk.STUDIES)})",
    )
    p.add_argument("--budget", type=int, default=15, help="design points (default 15)")
    p.add_argument(
        "-n",
        type=count,
        default=sk.DEFAULT_N,
        help=f"tournament games a pair under each bot (default {sk.DEFAULT_N})",
    )
    add_seed_option(p)
    p.add_argument(
        "--dragons",
        default=None,
        metavar="A,B,...",
        help="the tournament's dragons (default the twelve ready-made dragons)",
    )
    p.add_argument(
        "--price-designs",
        type=count,
        default=sk.DEFAULT_PRICE_DESIGNS,
        help="designs drawn from the price band (default: "
        + ("every one" if sk.DEFAULT_PRICE_DESIGNS is None else f"{sk.DEFAULT_PRICE_DESIGNS}")
        + ")",
    )
    p.add_argument(
        "--price-n",
        type=count,
        default=sk.DEFAULT_PRICE_N,
        help=f"price games a seat per pairing (default {sk.DEFAULT_PRICE_N})",
    )
    p.add_argument(
        "--best-games",
        type=count,
        default=sk.DEFAULT_BEST_GAMES,
        help=f"each bot's race game budget (default {sk.DEFAULT_BEST_GAMES:,})",
    )
    p.add_argument("--top", type=count, default=5, help="builds listed per bot (default 5)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--plot", metavar="FILE.png", help="write the figure to FILE.png")
    add_speed_options(p)
    add_rules_option(p)
    p.set_defaults(func=cmd_skill)


def _field_file(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--field",
        metavar="FILE",
        default=None,
        help="the opponents: a text file of ready-made names or inline designs, one a line "
        "(# comments) (default the twelve ready-made dragons)",
    )


def _register_price(sub) -> None:
    """The ``price`` command: one build's fair cost from a stored fit, its score."""
    from ..lords.analysis.fieldscore import DEFAULT_N

    p = sub.add_parser(
        "price",
        help="one build's fair design-point cost (from a stored prices fit) and its score",
        description="Prices one build from a stored band fit of the prices study (results/"
        "prices-*-fit.json, found by --budget, the rules hash and the bot, or --fit FILE; "
        "`prices --save-fit` makes one): its fair cost is the reference options' printed "
        "costs plus its strength in the model (its options and the pair terms it holds) at "
        "the exchange rate, with a 95% interval from the fit's covariance clustered by design "
        "(delta method), beside its printed cost and the verdict at 5%; each option's "
        "contribution (its own strength and half of each pair term it holds) against its "
        "printed cost, the options that over- or under-price it most (Holm 5%); and its score "
        "against the field (its share of the points from both seats, 95% interval), played "
        "now on common random numbers. Under a minute on 2 cores.",
    )
    p.add_argument(
        "build", help="the build: ready-made name or design such as body=Heavy,wings=Large,..."
    )
    p.add_argument(
        "--budget",
        type=int,
        default=None,
        help="the band fit to read: the fit of the prices study at this budget (default 15)",
    )
    p.add_argument(
        "--fit",
        metavar="FILE.json",
        default=None,
        help="a fit saved by `prices --save-fit` (default: the one in results/ for the budget, "
        "rules and bot)",
    )
    p.add_argument(
        "--policy",
        default="hunter",
        help="the bot every dragon plays (default hunter); a stored fit must be of this bot",
    )
    p.add_argument(
        "-n",
        type=count,
        default=DEFAULT_N,
        help=f"score games per field dragon from each seat (default {DEFAULT_N})",
    )
    _field_file(p)
    add_seed_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_speed_options(p)
    add_rules_option(p)
    p.set_defaults(func=cmd_price)


def _register_gauntlet(sub) -> None:
    """The ``gauntlet`` command: builds against the field, paired."""
    from ..lords.analysis.fieldscore import DEFAULT_N

    p = sub.add_parser(
        "gauntlet",
        help="builds or ready-mades against the field, paired on common random numbers",
        description="Plays each build against every dragon of the field (the twelve "
        "ready-made dragons, or --field FILE) -n games from each seat, every build the same "
        "games of each pairing (common random numbers), and reports each build's share of the "
        "points with a 95% interval and the difference between every two builds with its own "
        "paired interval (the unpaired one beside it), Holm 5% over the differences. "
        "--plot draws both. E.g. `gauntlet body=Heavy,wings=Large,breath=Magma,claws=Dull "
        "Skyblazer`: is the design better against the field than Skyblazer?",
    )
    p.add_argument(
        "entrants",
        nargs="+",
        metavar="BUILD",
        help="builds: ready-made names or designs such as body=Heavy,wings=Large,breath=Ice,"
        "claws=Sharp",
    )
    _field_file(p)
    p.add_argument(
        "-n",
        type=count,
        default=DEFAULT_N,
        help=f"games per field dragon from each seat (default {DEFAULT_N})",
    )
    p.add_argument("--policy", default="hunter", help="the bot every dragon plays (default hunter)")
    p.add_argument(
        "--turn-limit",
        type=positive_int,
        default=DEFAULT_TURN_LIMIT,
        help=f"a game's turn limit (default {DEFAULT_TURN_LIMIT})",
    )
    add_seed_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--plot", metavar="FILE.png", help="write the figure to FILE.png")
    add_speed_options(p)
    add_rules_option(p)
    p.set_defaults(func=cmd_gauntlet)


def _check_paths(args) -> None:
    """Refuse a --plot or --csv file that could not be written, before any game is played."""
    check_outputs(args, plot=".png", csv=".csv")


def _field(args):
    if args.field is None:
        return None
    return [f.strip() for f in args.field.split(",") if f.strip()]


def _output(args, res, unit: str) -> int:
    if args.csv:
        write_output(args.csv, lambda f: res.to_frame().to_csv(f, index=False))
    if args.plot:
        save_figure(args.plot, res.plot)
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.summary())
    return interrupted_code(res, unit)


def _replicates(text: str) -> int:
    """argparse type for --bootstrap: 0 (none) or a count of 20 or more."""
    return 0 if text.strip() == "0" else count(text)


def cmd_prices(args: argparse.Namespace) -> int:
    from ..lords.analysis.pricing import prices

    _check_paths(args)
    check_outputs(args, save_fit=".json")
    with backend_options(args) as where:
        res = prices(
            args.budget,
            band=args.band,
            designs=args.designs,
            n=args.n,
            seed=args.seed,
            policy=args.policy,
            rules=rules_from(args, "lords"),
            field_dragons=_field(args),
            holdout=args.holdout,
            bootstrap=args.bootstrap,
            turn_limit=args.turn_limit,
            checkpoint=args.checkpoint,
            **speed_of(args),
            **where,
        )
    if args.save_fit and res.interrupted:
        print(f"the fit was not saved to {args.save_fit}: the run was interrupted", file=sys.stderr)
    elif args.save_fit:
        write_output(args.save_fit, res.save_fit)
    return _output(args, res, "games")


def cmd_best(args: argparse.Namespace) -> int:
    from ..lords.analysis.race import best

    _check_paths(args)
    with backend_options(args) as where:
        res = best(
            args.budget,
            n0=args.n0,
            rounds=args.rounds,
            max_games=args.max_games,
            alpha=args.alpha,
            seed=args.seed,
            policy=args.policy,
            rules=rules_from(args, "lords"),
            field_dragons=_field(args),
            top=args.top,
            turn_limit=args.turn_limit,
            checkpoint=args.checkpoint,
            **speed_of(args),
            **where,
        )
    return _output(args, res, "rounds")


def cmd_skill(args: argparse.Namespace) -> int:
    from ..lords.analysis.skill import skill

    check_outputs(args, plot=".png")
    dragons = None
    if args.dragons is not None:
        dragons = [d.strip() for d in args.dragons.split(",") if d.strip()]
    res = skill(
        bots=args.bots,
        what=args.what,
        budget=args.budget,
        n=args.n,
        seed=args.seed,
        dragons=dragons,
        price_designs=args.price_designs,
        price_n=args.price_n,
        best_games=args.best_games,
        top=args.top,
        rules=rules_from(args, "lords"),
        **speed_of(args),
    )
    if args.plot:
        save_figure(args.plot, res.plot)
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.summary())
    return 0


def cmd_price(args: argparse.Namespace) -> int:
    from ..lords.analysis.buildprice import price
    from ..lords.analysis.fieldscore import read_field

    res = price(
        args.build,
        budget=args.budget,
        rules=rules_from(args, "lords"),
        policy=args.policy,
        fit=args.fit,
        n=args.n,
        seed=args.seed,
        field=read_field(args.field) if args.field else None,
        **speed_of(args),
    )
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.summary())
    return interrupted_code(res, "games")


def cmd_gauntlet(args: argparse.Namespace) -> int:
    from ..lords.analysis.fieldscore import gauntlet, read_field

    check_outputs(args, plot=".png")
    res = gauntlet(
        args.entrants,
        field=read_field(args.field) if args.field else None,
        n=args.n,
        seed=args.seed,
        policy=args.policy,
        rules=rules_from(args, "lords"),
        turn_limit=args.turn_limit,
        **speed_of(args),
    )
    if args.plot:
        save_figure(args.plot, res.plot)
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.summary())
    return interrupted_code(res, "games")
