"""Command: ``plan`` (games needed to tell two win rates apart, before a game is played).
Parsing and printing only; the work is :func:`dragonsim.stats.sample_size` and, for a pilot,
:func:`dragonsim.lords.analysis.paired.pilot`."""

from __future__ import annotations

import argparse
import math

from .common import (
    add_rules_option,
    add_seed_option,
    add_speed_options,
    count,
    emit_json,
    rules_from,
    speed_of,
)


def _share(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not 0.0 < v < 1.0:
        raise argparse.ArgumentTypeError(f"must be a number in (0, 1), got {text!r}")
    return v


def _signed(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not -1.0 < v < 1.0 or v == 0.0:
        raise argparse.ArgumentTypeError(f"must be a non-zero number in (-1, 1), got {text!r}")
    return v


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "plan",
        help="how many games tell two win rates apart (sample-size planner)",
        description="Games per build for a two-sided test at --alpha to detect win rates "
        "--base and --base + --difference with --power: unpaired (two independent runs, "
        "the two-proportion z test) and, with --paired, paired on common random numbers "
        "(both builds play the same games), using the correlation of the paired outcomes: "
        "given (--correlation R) or measured on a pilot of paired games (--paired A B "
        "--against C: A and B each against C on the same games).",
    )
    p.add_argument(
        "--difference",
        type=_signed,
        required=True,
        help="the difference in win rate to detect, e.g. 0.02 (2 pp)",
    )
    p.add_argument("--power", type=_share, default=0.8, help="power (default 0.8)")
    p.add_argument("--alpha", type=_share, default=0.05, help="two-sided level (default 0.05)")
    p.add_argument(
        "--base",
        type=_share,
        default=None,
        help="the first build's win rate (default 0.5, or the pilot's A rate with --paired A B)",
    )
    p.add_argument(
        "--paired",
        nargs="*",
        metavar="BUILD",
        default=None,
        help="plan a paired study too; with two builds A B, measure the correlation on a "
        "pilot of paired games (needs --against)",
    )
    p.add_argument(
        "--correlation",
        type=_signed,
        default=None,
        help="the correlation of the paired 0/1 outcomes (with a bare --paired)",
    )
    p.add_argument("--against", default=None, help="the pilot's common opponent (--paired A B)")
    p.add_argument("--pilot", type=count, default=2000, help="pilot games (default 2,000)")
    add_seed_option(p, what="the pilot's seed")
    p.add_argument("--policy", default="hunter", help="the pilot's bot (default hunter)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_speed_options(p)
    add_rules_option(p)
    p.set_defaults(func=cmd_plan)


def cmd_plan(args: argparse.Namespace) -> int:
    from ..errors import UserError
    from ..stats import sample_size

    pil = None
    r = args.correlation
    base = args.base
    if args.paired is None:
        if r is not None or args.against is not None:
            raise UserError("--correlation and --against go with --paired")
    elif len(args.paired) == 0:
        if r is None:
            raise UserError("--paired needs --correlation R, or two builds A B and --against C")
    elif len(args.paired) == 2:
        if r is not None:
            raise UserError("give --correlation or two builds to measure it on, not both")
        if args.against is None:
            raise UserError("--paired A B needs --against C, the opponent both builds play")
        from ..lords.analysis.paired import pilot

        pil = pilot(
            args.paired[0],
            args.paired[1],
            against=args.against,
            n=args.pilot,
            seed=args.seed,
            policies=(args.policy, args.policy),
            rules=rules_from(args, "lords"),
            **speed_of(args),
        )
        r = pil.correlation
        if base is None:
            base = min(max(pil.rate_a.rate, 1e-3), 1 - 1e-3)
    else:
        raise UserError(f"--paired takes no builds or two (A B), got {len(args.paired)}")
    ss = sample_size(
        args.difference,
        power=args.power,
        alpha=args.alpha,
        base=0.5 if base is None else base,
        correlation=r,
    )
    if args.json:
        emit_json({**ss.to_dict(), "pilot": None if pil is None else pil.to_dict()})
        return 0
    print(
        f"Games to tell win rates {100 * ss.p1:.1f}% and {100 * ss.p2:.1f}% apart "
        f"(difference {100 * (ss.p2 - ss.p1):+.1f} pp, two-sided alpha {ss.alpha:g}, "
        f"power {ss.power:g})"
    )
    if pil is not None:
        print(f"  pilot            {pil.n:,} paired games against {pil.against} (seed {pil.seed}):")
        print(f"                   {pil.a} wins {pil.rate_a}, {pil.b} wins {pil.rate_b}")
    print(
        f"  unpaired         {ss.unpaired:,} games per build ({2 * ss.unpaired:,} in all; "
        "two-proportion z test)"
    )
    if ss.paired is not None:
        print(
            f"  paired           {ss.paired:,} games per build on common random numbers "
            f"(outcome correlation {ss.correlation:.3f}: {ss.reduction:.2f}x fewer)"
        )
    return 0
