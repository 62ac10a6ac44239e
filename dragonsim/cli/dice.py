"""``python -m dragonsim dice ...``: dragon attacks, dragon duels, army-size sweeps, units.

Parsing and formatting only; the work is in :mod:`dragonsim.dice.api`.
"""

from __future__ import annotations

import argparse


def _opt_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--army-file",
        default=None,
        help="TOML file with extra [units.*], [dragons.*], [armies.*] and [options] (rules)",
    )
    p.add_argument(
        "--turns",
        default="1",
        help="most attacks (army mode) or rounds (duel) per game (default 1)",
    )
    p.add_argument(
        "--id-split",
        default=None,
        help="how ID results are split: slay-first (default: ID to the attack only "
        "when it completes a slaying, rest to saves) or save-first",
    )
    p.add_argument(
        "--policy",
        default=None,
        help="casualty choice: cheapest (default), largest, army-order, kin-first",
    )
    p.add_argument(
        "--promotion-supply",
        default=None,
        help="unlimited (default) or dead-area (only units killed in the game)",
    )
    p.add_argument(
        "--damage-carries",
        action="store_true",
        help="damage to a dragon carries over between attacks (default: it does not)",
    )
    p.add_argument(
        "--partial-damage",
        default=None,
        help="lost (default: damage covering no whole unit kills nothing) or round-up",
    )
    p.add_argument(
        "--promotion-rounds",
        default=None,
        help="per-dragon (default: each dragon slain grants promotions) or once",
    )


def _rules(args):
    """The Dice rules of ``--rules FILE`` (its ``[dice]`` table), or None (the shipped ones)."""
    if getattr(args, "rules", None) is None:
        return None
    from ..rules import dice_rules

    return dice_rules(file=args.rules)


def _turns(text: str) -> int:
    from ..errors import UserError

    try:
        v = int(str(text))
    except ValueError:
        raise UserError(f"--turns must be a whole number 1..1000, got {text!r}") from None
    if not 1 <= v <= 1000:
        raise UserError(f"--turns must be 1..1000, got {text!r}")
    return v


def _common(args) -> dict:
    """The options given on the command line (the rest: an army file's [options], defaults)."""
    out = {
        "id_split": args.id_split,
        "policy": args.policy,
        "promotion_supply": args.promotion_supply,
        "damage_carries": True if args.damage_carries else None,
        "partial_damage": args.partial_damage,
        "promotion_rounds": args.promotion_rounds,
    }
    return {k: v for k, v in out.items() if v is not None}


def _progress(args):
    return False if args.no_progress or args.json else None


def cmd_attack(args) -> int:
    from ..dice.api import attack
    from .common import emit_json, interrupted_code, n_or_precision

    r = attack(
        args.dragon,
        args.army,
        rules=_rules(args),
        **n_or_precision(args),
        seed=args.seed,
        turns=_turns(args.turns),
        army_file=args.army_file,
        threads=args.threads,
        progress=_progress(args),
        checkpoint=args.checkpoint,
        records=args.records,
        **_common(args),
    )
    if args.json:
        emit_json(r.to_dict())
    else:
        print(r.summary())
        if r.turns > 1:
            s = r.survival_frame()
            print("  survival: share of games with the army / the dragon still there after")
            print(f"    {'attack':>6}  {'army':>6}  {'dragon':>6}")
            for _, row in s.iterrows():
                print(f"    {int(row['turn']):>6}  {row['army']:.4f}  {row['dragon']:.4f}")
    return interrupted_code(r)


def cmd_table(args) -> int:
    from ..dice.api import dragon_table
    from .common import finish

    r = dragon_table(
        args.army,
        rules=_rules(args),
        dragons=args.dragons,
        n=args.n,
        seed=args.seed,
        turns=_turns(args.turns),
        army_file=args.army_file,
        threads=args.threads,
        progress=_progress(args),
        checkpoint=args.checkpoint,
        records=args.records,
        **_common(args),
    )
    return finish(args, r, "dragons")


def cmd_duel(args) -> int:
    from ..dice.api import duel
    from ..errors import UserError
    from .common import finish

    teams = [t for t in (args.a, args.b) if t]
    if args.dragons and teams:
        raise UserError("give either --dragons (grouped by colour) or --a/--b, not both")
    if args.dragons:
        teams = [args.dragons]
    elif len(teams) != 2:
        raise UserError(
            "give --a and --b (one colour each), or --dragons with two or more "
            "colours, e.g. --dragons red-wyrm,blue-drake,green-wyrm"
        )
    given = {"breath_negation_rounds": args.negation_rounds}
    if args.damage_carries:
        given["damage_carries"] = True
    from .common import n_or_precision

    r = duel(
        *teams,
        **n_or_precision(args),
        seed=args.seed,
        turns=_turns(args.turns),
        rules=_rules(args),
        army_file=args.army_file,
        threads=args.threads,
        progress=_progress(args),
        checkpoint=args.checkpoint,
        records=args.records,
        **{k: v for k, v in given.items() if v is not None},
    )
    return finish(args, r)


def cmd_sweep(args) -> int:
    from ..dice.api import sweep
    from ..errors import UserError
    from .common import finish

    try:
        p = float(args.p)
    except ValueError:
        raise UserError(f"--p must be a probability such as 0.5, got {args.p!r}") from None
    try:
        mc = int(args.max_copies)
    except ValueError:
        raise UserError(f"--max-copies must be a whole number, got {args.max_copies!r}") from None
    r = sweep(
        args.army,
        rules=_rules(args),
        dragons=args.dragons,
        p=p,
        n=args.n,
        seed=args.seed,
        turns=_turns(args.turns),
        max_copies=mc,
        army_file=args.army_file,
        threads=args.threads,
        progress=_progress(args),
        checkpoint=args.checkpoint,
        records=args.records,
        **_common(args),
    )
    return finish(args, r, "dragons")


def cmd_melee(args) -> int:
    from ..dice.api import melee
    from .common import finish

    r = melee(
        args.attacker,
        args.defender,
        n=args.n,
        seed=args.seed,
        counter_attack=False if args.no_counter else None,
        policy=args.policy,
        rules=_rules(args),
        army_file=args.army_file,
        threads=args.threads,
        progress=_progress(args),
        checkpoint=args.checkpoint,
        records=args.records,
    )
    return finish(args, r)


def cmd_exact(args) -> int:
    from ..dice.odds import exact_attack, exact_game
    from .common import emit_json, show

    turns = _turns(args.turns)
    if turns > 1:
        from ..dice.api.options import _catalog

        g = exact_game(
            args.dragon,
            args.army,
            turns=turns,
            rules=_rules(args),
            catalog=_catalog(None, args.army_file),
            **_common(args),
        )
        rows = [
            {
                "turn": t,
                "p_slain_at": float(g.slain_at[t]),
                "p_destroyed_at": float(g.destroyed_at[t]),
                "p_flew_at": float(g.flew_at[t]),
            }
            for t in range(1, turns + 1)
        ]
        d = {
            "dragon": g.dragon,
            "army": g.army,
            "turns": turns,
            "exact": True,
            "p_dragon_slain": float(g.p_dragon_slain),
            "p_army_destroyed": float(g.p_army_destroyed),
            "p_flew": float(g.p_flew),
            "p_still_fighting": float(g.still_fighting),
            "p_slain_and_destroyed": float(g.p_slain_and_destroyed),
            "by_turn": rows,
            "health_lost_distribution": {str(k): float(v) for k, v in g.lost.items()},
        }
        if args.json:
            emit_json(d)
        else:
            print(
                f"exact: up to {turns} attacks of {g.dragon} on "
                + ", ".join(f"{u} x{c}" for u, c in g.army.items())
            )
            print(f"  within {turns} attacks (probabilities, exact):")
            for k, label in (
                ("p_dragon_slain", "dragon slain"),
                ("p_army_destroyed", "army destroyed"),
                ("p_flew", "dragon flew away"),
                ("p_still_fighting", "still fighting"),
                ("p_slain_and_destroyed", "slain & destroyed"),
            ):
                print(f"    {label:<18} {d[k]:.6f}")
            print("    (each game ends in exactly one of the first four, or in the first two at")
            print("    once, slain & destroyed, by the same attack; a wing on the attack that")
            print("    destroys the army counts as the army destroyed)")
            print("  by attack: P(it ends at that attack with ...)")
            print(
                f"    {'attack':>6}  {'dragon slain':>12}  {'army destroyed':>14}  "
                f"{'dragon flew away':>16}"
            )
            for r in rows:
                print(
                    f"    {r['turn']:>6}  {r['p_slain_at']:>12.6f}  {r['p_destroyed_at']:>14.6f}"
                    f"  {r['p_flew_at']:>16.6f}"
                )
        return 0
    r = exact_attack(
        args.dragon, args.army, rules=_rules(args), army_file=args.army_file, **_common(args)
    )
    show(args, r)
    return 0


def cmd_units(args) -> int:
    from ..dice import data as D
    from ..dice.api import units_frame
    from ..dice.api.options import _catalog
    from .common import emit_json

    cat = _catalog(None, args.army_file)
    df = units_frame(cat)
    if args.json:
        emit_json(
            {
                "units": df.to_dict(orient="records"),
                "dragons": {
                    k: {
                        "colour": d.colour,
                        "faces": list(d.die.faces),
                        "provenance": d.die.provenance,
                        "source": d.die.source,
                    }
                    for k, d in cat.dragons.items()
                },
                "armies": cat.armies,
            }
        )
        return 0
    print("units (faces in printed order; ID = health-many results of any kind):")
    for _, r in df.iterrows():
        kin = f" [{r['dragonkin']} dragonkin]" if r["dragonkin"] else ""
        up = f" -> {r['promotes_to']}" if r["promotes_to"] else ""
        print(f"  {r['name']:<26} {r['health']}  {r['faces']}{kin}{up}  ({r['provenance']})")
    print("dragons (12 faces):")
    for v, die in D.DRAGON_DICE.items():
        counts = {i: die.faces.count(i) for i in D.DRAGON_ICONS if die.faces.count(i)}
        print(
            f"  <colour>-{v:<8} "
            + ", ".join(f"{k} {c}" for k, c in counts.items())
            + f"  ({die.provenance})"
        )
    print("  colours: " + ", ".join(D.COLOURS))
    extra = [k for k in cat.dragons if k not in D.dragons()]
    if extra:
        print("  user dragons: " + ", ".join(extra))
    print("ready-made armies:")
    for k, a in cat.armies.items():
        print(f"  {k:<18} " + ", ".join(f"{u}:{c}" for u, c in a.items()))
    return 0


def cmd_assumed(args) -> int:
    from ..dice.data import assumed
    from .common import emit_json

    rows = assumed(_rules(args))
    if args.json:
        emit_json(rows)
        return 0
    for r in rows:
        mark = (
            f"   [override; shipped: {r['default']!r}, assumed]"
            if r["provenance"] == "override"
            else ""
        )
        print(f"{r['key']} = {r['value']!r}{mark}\n    {r['source']}\n    used in: {r['used_in']}")
    return 0


def register(subparsers) -> None:
    """Add ``dice`` and its subcommands."""
    from .common import add_records_option, add_rules_option, add_run_options

    p = subparsers.add_parser(
        "dice",
        help="Dragon Dice: dragon attacks, duels, army melee with dragonkin, exact odds",
        description="Dragon Dice: dragons attacking an army (attack, table, sweep, exact), "
        "dragons of different colours fighting each other (duel), one army's melee on "
        "another with dragonkin breath (melee), and the dice and values they use (units, "
        "assumed).",
    )
    sub = p.add_subparsers(dest="dice_command", metavar="SUBCOMMAND")
    sub.required = True

    a = sub.add_parser(
        "attack",
        help="dragons of one colour attack an army",
        description="Dragons of one colour attacking an army, up to --turns "
        "attacks (one per turn of the army's owner).",
    )
    a.add_argument(
        "--dragon",
        required=True,
        help="e.g. red-wyrm, or several of one colour: red-wyrm,red-drake or red-wyrm:2",
    )
    a.add_argument(
        "--army",
        required=True,
        help="UNIT:COUNT[,UNIT:COUNT...] or a ready-made army (see 'dice units')",
    )
    _opt_args(a)
    add_rules_option(a)
    add_run_options(a, precision=True)
    add_records_option(a)
    a.set_defaults(func=cmd_attack)

    t = sub.add_parser(
        "table",
        help="every dragon against one army (wyrm or drake?)",
        description="Each dragon (colour and variant) attacking the same army, on the same games.",
    )
    t.add_argument("--army", required=True, help="UNIT:COUNT,... or a ready-made army")
    t.add_argument("--dragons", default="all", help="dragon names, comma-separated, or all")
    _opt_args(t)
    add_rules_option(t)
    add_run_options(t)
    add_records_option(t)
    t.set_defaults(func=cmd_table)

    d = sub.add_parser(
        "duel",
        help="dragons of different colours fight each other",
        description="Team A (one colour) against team B (another colour), or "
        "any dragons grouped by colour (--dragons).",
    )
    d.add_argument("--a", default=None, help="team A, e.g. red-wyrm or red-wyrm:2")
    d.add_argument("--b", default=None, help="team B, e.g. blue-drake")
    d.add_argument(
        "--dragons",
        default=None,
        help="dragons of two or more colours, e.g. red-wyrm,blue-drake:2,green-wyrm"
        " (same colours team up)",
    )
    d.add_argument("--army-file", default=None, help="TOML file with extra [dragons.*]")
    d.add_argument("--turns", default="1", help="most rounds (default 1)")
    d.add_argument(
        "--negation-rounds",
        type=int,
        default=None,
        help="rounds after the current one that breath negates saves (default: the rule "
        "dice.breath_negation_rounds, 2)",
    )
    d.add_argument(
        "--damage-carries",
        action="store_true",
        help="damage to a dragon carries over between rounds",
    )
    add_rules_option(d)
    add_run_options(d, precision=True)
    add_records_option(d)
    d.set_defaults(func=cmd_duel)

    s = sub.add_parser(
        "sweep",
        help="army size needed to slay each dragon with probability p",
        description="Smallest number of copies of --army that slays each "
        "dragon with probability >= --p.",
    )
    s.add_argument(
        "--army", default="goblin-thug:1", help="the army to copy (default goblin-thug:1)"
    )
    s.add_argument("--dragons", default="all", help="dragon names, comma-separated, or all")
    s.add_argument("--p", default="0.5", help="target slaying probability (default 0.5)")
    s.add_argument("--max-copies", default="60", help="largest size tried (default 60)")
    _opt_args(s)
    add_rules_option(s)
    add_run_options(s, default_n=20_000)
    add_records_option(s)
    s.set_defaults(func=cmd_sweep)

    m = sub.add_parser(
        "melee",
        help="one army's melee attack on another, with dragonkin breath",
        description="Army A attacks army B in melee; dragonkin breathe their "
        "weaker breath; B's survivors counter-attack.",
    )
    m.add_argument("--attacker", required=True, help="UNIT:COUNT,... or a ready-made army")
    m.add_argument("--defender", required=True, help="UNIT:COUNT,... or a ready-made army")
    m.add_argument("--army-file", default=None)
    m.add_argument(
        "--policy",
        default=None,
        help="who is targeted/killed: cheapest (default), largest, army-order, kin-first",
    )
    m.add_argument("--no-counter", action="store_true", help="no counter-attack")
    add_rules_option(m)
    add_run_options(m)
    add_records_option(m)
    m.set_defaults(func=cmd_melee)

    from ..defaults import DICE_EXACT_TURNS as MAX_EXACT_TURNS

    e = sub.add_parser(
        "exact",
        help="exact outcome distribution of one attack, or of a game (small armies)",
        description="Exact probabilities, no sampling: one attack's outcomes (armies of up to "
        f"14 units), or with --turns 2..{MAX_EXACT_TURNS} how a game of that many attacks "
        "at most ends (up to 8 units; every army state is carried with exact fractions, so "
        f"each attack costs more than the last; beyond {MAX_EXACT_TURNS}, 'dice attack "
        "--turns' plays up to 1000 by Monte Carlo).",
    )
    e.add_argument("--dragon", required=True)
    e.add_argument("--army", required=True)
    _opt_args(e)
    add_rules_option(e)
    e.add_argument("--json", action="store_true", help="print one JSON object")
    e.set_defaults(func=cmd_exact)

    u = sub.add_parser("units", help="list unit dice, dragons and ready-made armies")
    u.add_argument("--army-file", default=None)
    u.add_argument("--json", action="store_true")
    u.set_defaults(func=cmd_units)

    r = sub.add_parser("assumed", help="list the assumed Dragon Dice values")
    add_rules_option(r)
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=cmd_assumed)
