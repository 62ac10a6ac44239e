"""Commands: rules, sheet, roster, odds (Dragon Lords foundation). Parsing and printing only."""

from __future__ import annotations

import argparse
from fractions import Fraction

from ..defaults import BASELINE_SEED
from .common import (
    add_rules_option,
    add_seed_option,
    add_speed_options,
    count,
    emit_json,
    rules_from,
    speed_of,
)


def register(sub: argparse._SubParsersAction) -> None:
    _register_rules(sub)
    _register_docs(sub)
    _register_sheet(sub)
    _register_roster(sub)
    _register_odds(sub)
    _register_baseline(sub)


def _register_rules(sub: argparse._SubParsersAction) -> None:
    """The ``rules`` command."""
    p = sub.add_parser(
        "rules",
        help="print the rules of the three games with their provenance",
        description="Print every rules value of Dragon Lords, Dragon Dice and Warriors of Krynn "
        "with its provenance (printed, derived, published, assumed), where it is used, why it "
        "has its value, and how to override it in a rules file; then the switches of the "
        "advanced and optional rules and the presets that turn each on (and any rule of the "
        "book the engine does not play yet: none today). "
        "`rules presets` prints the Dragon Lords presets: each rule's page, the book's label "
        "(advanced, or optional: 'all players must agree to use them', p.15), the presets "
        "that play it and its readings.",
    )
    p.add_argument(
        "what",
        nargs="?",
        choices=("presets",),
        help="presets: the table of the Dragon Lords rules presets",
    )
    p.add_argument(
        "--assumed",
        action="store_true",
        help="list only the assumed values (and where each is used)",
    )
    p.add_argument("--game", choices=("all", "lords", "dice", "krynn"), default="all")
    add_rules_option(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_rules)


def _register_docs(sub: argparse._SubParsersAction) -> None:
    """The ``docs`` command."""
    p = sub.add_parser(
        "docs",
        help="write the rules-as-simulated pages (docs/rules-*.md) from the rules data",
        description="Generate docs/rules-lords.md, docs/rules-dice.md and docs/rules-krynn.md "
        "from the rules data (every value, its provenance, where it is used, why, and how to "
        "override it). With --check, write nothing and exit 1 if a committed page is stale.",
    )
    p.add_argument("--out", default="docs", help="folder to write into (default docs)")
    p.add_argument("--check", action="store_true", help="only check; exit 1 when stale")
    p.set_defaults(func=cmd_docs)


def _register_sheet(sub: argparse._SubParsersAction) -> None:
    """The ``sheet`` command."""
    p = sub.add_parser(
        "sheet",
        help="print a computed Dragon Lords play sheet",
        description="A ready-made dragon by name, or a design written inline: "
        "body=Heavy,wings=Large,breath=Ice,claws=Sharp[,rider=Archer]",
    )
    p.add_argument("dragon", help="ready-made name or inline design")
    p.add_argument("--budget", type=int, default=None, help="refuse a design over this cost")
    add_rules_option(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_sheet)


def _register_roster(sub: argparse._SubParsersAction) -> None:
    """The ``roster`` command."""
    p = sub.add_parser("roster", help="list the ready-made Dragon Lords dragons")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_rules_option(p)
    p.set_defaults(func=cmd_roster)


def _register_odds(sub: argparse._SubParsersAction) -> None:
    """The ``odds`` command."""
    p = sub.add_parser(
        "odds",
        help="exact probabilities of Dragon Lords events",
        description="Exact odds (fractions and decimals), no sampling.",
    )
    osub = p.add_subparsers(dest="event", metavar="EVENT")
    osub.required = True
    q = osub.add_parser("close-combat", help="win / draw / loss of one close combat")
    q.add_argument("a")
    q.add_argument("b")
    q.add_argument("--tactics", metavar="A,B", help="optional tactics, e.g. Lunge,Defend")
    q.add_argument("--json", action="store_true")
    add_rules_option(q)
    q.set_defaults(func=cmd_odds_cc)
    q = osub.add_parser(
        "tactics",
        help="the close-combat tactics game: payoffs, equilibrium mixtures, value",
        description="The optional close-combat tactics (Dragon Lords rulebook p.22) as the "
        "zero-sum game the planning bots solve: the attacker A's expected points for each pair "
        "of tactics (P(win) x (damage dealt - own 1d6) - P(loss) x (damage taken - the "
        "winner's own 1d6); Lunge's +1d6 in, nothing after a Defend win), both players' "
        "optimal mixtures and the value, by scipy.optimize.linprog.",
    )
    q.add_argument("a", help="the attacker (the dragon that engaged)")
    q.add_argument("b", help="the defender")
    q.add_argument("--json", action="store_true")
    add_rules_option(q)
    q.set_defaults(func=cmd_odds_tactics)
    q = osub.add_parser("breath", help="to-hit and damage of one breath attack")
    q.add_argument("attacker")
    q.add_argument("target")
    q.add_argument("--range", type=int, required=True, help="hexes to the target, 1..6")
    q.add_argument("--area", default="dark", help="arc area: dark, grey or light")
    q.add_argument("--altitude-steps", type=int, default=0, help="altitude steps apart")
    q.add_argument(
        "--no-range-modifier",
        action="store_true",
        help="drop the range modifier (as the Example of Play does)",
    )
    q.add_argument("--json", action="store_true")
    add_rules_option(q)
    q.set_defaults(func=cmd_odds_breath)
    q = osub.add_parser(
        "rider",
        help="to-hit and damage of one rider's shot (advanced rules, p.18)",
        description="Exact odds of a Javelin Thrower's, Archer's or Crossbow Shooter's shot "
        "(Dragon Lords rulebook p.18: to-hit as for breath with a 360 degree arc, the Rider "
        "Abilities Table's medium and long ranges; rule lords.rider_to_hit). The engine "
        "plays these shots under --rules advanced and advanced+optional (switch "
        "lords.advanced.rider_attacks).",
    )
    q.add_argument("attacker", help="a dragon whose rider shoots (e.g. Ozonic, Fiercival)")
    q.add_argument("target")
    q.add_argument("--range", type=int, required=True, help="hexes to the target")
    q.add_argument("--altitude-steps", type=int, default=0, help="altitude steps apart")
    q.add_argument("--json", action="store_true")
    add_rules_option(q)
    q.set_defaults(func=cmd_odds_rider)
    q = osub.add_parser(
        "crash",
        help="damage, hit part and the rider's fall in a crash (advanced rules, p.22)",
        description="Exact odds of a crash to the ground (Dragon Lords rulebook p.22: the Rear "
        "column of the Damage Allocation Table for the part, 1d6 of crash damage for each "
        "altitude level fallen, a rider killed in the fall on 1-3 of 1d6; rule lords.ground). "
        "The engine crashes dragons under the switches lords.advanced.crash_very_low, "
        "crash_slow and crash_zeroed (p.17), on in --rules advanced and advanced+optional.",
    )
    q.add_argument(
        "--from",
        dest="level",
        metavar="LEVEL",
        default=None,
        help="altitude fallen from: 1..5 or Very Low .. Very High (default: every level)",
    )
    q.add_argument("--json", action="store_true")
    add_rules_option(q)
    q.set_defaults(func=cmd_odds_crash)
    q = osub.add_parser(
        "takeoff",
        help="the leap, its cost and the speeds of a take-off (advanced rules, p.17)",
        description="A take-off from the ground (Dragon Lords rulebook p.17: a speed from the "
        "minimum + 1 to 7, the leap of minimum-speed hexes in a straight line at Very Low for "
        "minimum + 1 points, then the points left spent normally; rule lords.ground; the "
        "speed is also capped by the maximum speed). The engine plays the ground under the "
        "switches lords.advanced.crash_very_low, crash_slow, crash_zeroed and landing, on in "
        "--rules advanced and advanced+optional.",
    )
    q.add_argument("dragon", help="ready-made name or inline design")
    q.add_argument("--json", action="store_true")
    add_rules_option(q)
    q.set_defaults(func=cmd_odds_takeoff)
    q = osub.add_parser("location", help="hit-location distribution for a direction")
    q.add_argument("direction", help="F, FR, RR, R, RL or FL")
    q.add_argument("--json", action="store_true")
    add_rules_option(q)
    q.set_defaults(func=cmd_odds_location)


def _register_baseline(sub: argparse._SubParsersAction) -> None:
    """The ``baseline`` command."""
    p = sub.add_parser(
        "baseline",
        help="write or check the stored baseline win rates",
        description="Baseline win rates in results/baseline.json and a gate "
        "that flags real changes (Holm-corrected), not noise.",
    )
    bsub = p.add_subparsers(dest="action", metavar="ACTION")
    bsub.required = True
    q = bsub.add_parser("write", help="play the baseline matchups and store their counts")
    q.add_argument("-n", type=count, default=200_000, help="games per matchup (default 2e5)")
    add_seed_option(q, default=BASELINE_SEED, what="the baseline's seed")
    q.add_argument("--file", default=None, help="default results/baseline.json")
    q.add_argument("--json", action="store_true", help="print the written baseline as JSON")
    add_speed_options(q)
    add_rules_option(q)
    q.set_defaults(func=cmd_baseline_write)
    q = bsub.add_parser("check", help="replay on a fresh seed; exit 1 on a significant change")
    q.add_argument("-n", type=count, default=20_000, help="games per matchup (default 2e4)")
    add_seed_option(q, default=7, what="the check's seed, not the baseline's")
    q.add_argument("--alpha", type=float, default=0.001, help="family-wise error (Holm)")
    q.add_argument("--file", default=None, help="default results/baseline.json")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    add_speed_options(q)
    add_rules_option(q)
    q.set_defaults(func=cmd_baseline_check)


def _frac(p: Fraction) -> dict:
    return {"fraction": f"{p.numerator}/{p.denominator}", "decimal": float(p)}


def cmd_rules(args) -> int:
    if args.what == "presets":
        return _print_presets(args)
    from ..rules import GAMES, presets, rows_of
    from ..rules.core import override_line
    from ..rules.lords import OPTIONAL_TO_COME, TO_COME

    games = GAMES if args.game == "all" else (args.game,)
    rows: list[dict] = []
    head: dict[str, dict] = {}
    rsets: dict = {}
    for game in games:
        rs = rules_from(args, game)
        head[game] = {"hash": rs.hash, "preset": rs.preset, "overrides": rs.overrides}
        rsets[game] = rs
        for r in rows_of(rs):
            if args.assumed and r.get("default_provenance", r["provenance"]) != "assumed":
                continue
            rows.append({"game": game, **r, "override": override_line(r["key"], r["value"])})
    switches = _switches(rsets, presets)
    lords = "lords" in games
    to_come = [{"rule": r, "what": w} for r, w in TO_COME] if lords else []
    optional_to_come = [{"rule": r, "what": w} for r, w in OPTIONAL_TO_COME] if lords else []
    if args.json:
        emit_json(
            {
                "games": head,
                "switches": switches,
                "to_come": to_come,
                "optional_to_come": optional_to_come,
                # the first game's hash and overrides, as before (one game asked for)
                "rules_hash": head[games[0]]["hash"],
                "overrides": {k: v for g in head.values() for k, v in g["overrides"].items()},
                "rules": rows,
            }
        )
        return 0
    from ..report import rules_line

    width = max((len(r["key"]) for r in rows), default=10)
    print(
        "provenance: printed (in the rulebook), derived (from printed values), published "
        "(outside the rulebook), assumed (our choice), override (set by --rules)"
    )
    for game in games:
        h = head[game]
        preset = f"preset {h['preset']}; " if h["preset"] else ""
        print(f"{game}: {preset}{rules_line(h['hash'], h['overrides'])}")
        print(f"  {'key':<{width}}  {'provenance':<10}  value in force")
        last_source = None
        for r in (r for r in rows if r["game"] == game):
            shipped = (
                f"   (shipped: {r['default']}, {r['default_provenance']})"
                if r["provenance"] == "override"
                else ""
            )
            print(f"  {r['key']:<{width}}  {r['provenance']:<10}  {r['value']}{shipped}")
            if args.assumed:
                if r.get("source") != last_source:
                    print(f"  {'':<{width}}  used in: {r.get('used_in', '')}")
                    print(f"  {'':<{width}}  why: {r.get('source', '')}")
                print(f"  {'':<{width}}  to override: {r['override']}")
            last_source = r.get("source")
    if switches:
        print(
            "\nswitches (true turns the rule on; --rules basic|advanced|advanced+optional, or a "
            "file's preset):"
        )
        w2 = max(len(s["key"]) for s in switches)
        for s in switches:
            on = ", ".join(s["presets"]) or "no preset"
            print(f"  {s['key']:<{w2}}  {str(s['value']).lower():<5}  on in: {on}")
    if to_come:
        print("advanced rules still to come (no preset plays them yet):")
        for t in to_come:
            print(f"  {t['rule']}: {t['what']}")
    if optional_to_come:
        print("optional rules still to come (advanced+optional does not play them yet):")
        for t in optional_to_come:
            print(f"  {t['rule']}: {t['what']}")
    return 0


def _print_presets(args) -> int:
    """``rules presets``: rule, page, label, the presets that play it, and its readings."""
    from ..rules.core import PRESET_NAMES
    from ..rules.lords import preset_rows

    rows = preset_rows()
    if args.json:
        emit_json({"presets": list(PRESET_NAMES), "rules": rows})
        return 0
    print(
        "Dragon Lords rules presets, as the rulebook labels its rules: 'some rules are labeled "
        "optional. This means that all players must agree to use them' (p.15). basic plays "
        "none of these; advanced every rule not labeled optional; advanced+optional all."
    )
    w = max(len(r["key"]) for r in rows)
    print(f"  {'rule':<{w}}  {'page':<13}  {'label':<8}  presets")
    for r in rows:
        print(f"  {r['key']:<{w}}  {r['page']:<13}  {r['label']:<8}  {', '.join(r['presets'])}")
        for q in r["readings"]:
            others = ", ".join(q["others"])
            print(f"  {'':<{w}}    reading {q['key']}: {q['default']} (default); {others}")
    print(
        'Any other mix is a rules file: preset = "advanced" and the switches to change '
        '(e.g. [lords] "advanced.initiative" = true); `python -m dragonsim rules` lists them.'
    )
    return 0


def _switches(rsets, presets) -> list[dict]:
    """Every switch (a rule whose value is true or false) of the games in ``rsets`` (game ->
    RuleSet in force), its value in force and the presets that turn it on."""
    out = []
    for game, rs in rsets.items():
        table = presets(game)
        for rule in rs:
            if isinstance(rule.value, bool):
                on = [name for name, sw in table.items() if sw.get(rule.key)]
                out.append(
                    {"game": game, "key": rule.key, "value": rs.get(rule.key), "presets": on}
                )
    return out


def cmd_docs(args) -> int:
    from ..rules import docs

    if args.check:
        bad = docs.stale(args.out)
        for name in bad:
            print(f"{args.out}/{name} is stale or missing: run `python -m dragonsim docs`")
        return 1 if bad else 0
    for path in docs.write(args.out):
        print(f"wrote {path}")
    return 0


def cmd_sheet(args) -> int:
    from ..lords.game.sheets import design, parse_design, sheet

    rs = rules_from(args, "lords")
    if args.budget is not None and "=" in args.dragon:
        s = design(**parse_design(args.dragon), budget=args.budget, rules=rs)
    else:
        s = sheet(args.dragon, rules=rs)
        if args.budget is not None and s.cost > args.budget:
            from ..errors import UserError

            raise UserError(
                f"{s.name} costs {s.cost} design points, over the budget of {args.budget}"
            )
    if args.json:
        emit_json(s.to_dict())
    else:
        print(s.render())
    return 0


def cmd_roster(args) -> int:
    from ..lords.game.sheets import roster

    sheets = roster(rules=rules_from(args, "lords"))
    if args.json:
        emit_json([s.to_dict() for s in sheets])
        return 0
    print(
        f"{'name':<12} {'DP':>3} {'body':<11} {'wings':<7} {'breath':<10} {'claws':<12} "
        f"{'rider':<17} MR CC speed"
    )
    for s in sheets:
        print(
            f"{s.name:<12} {s.cost:>3} {s.body:<11} {s.wings:<7} {s.breath:<10} "
            f"{s.claws:<12} {s.rider:<17} {s.mr:<2} {s.cc:>2} {s.min_speed}-{s.max_speed}"
        )
    return 0


def cmd_odds_cc(args) -> int:
    from ..errors import UserError
    from ..lords.game import odds
    from ..lords.game.sheets import close_combat_modifier, riders_in_play, sheet

    tactics = None
    if args.tactics:
        parts = [t.strip() for t in args.tactics.split(",")]
        if len(parts) != 2:
            raise UserError(f"--tactics takes two tactics A,B, got {args.tactics!r}")
        tactics = (parts[0], parts[1])
    rs = rules_from(args, "lords")
    a, b = sheet(args.a, rules=rs), sheet(args.b, rules=rs)
    w, d, l = odds.close_combat(a, b, tactics=tactics, rules=rs)
    ma, mb = close_combat_modifier(a, rs), close_combat_modifier(b, rs)
    if args.json:
        emit_json(
            {
                "a": a.name,
                "b": b.name,
                "modifier_a": ma,
                "modifier_b": mb,
                "riders_in_play": riders_in_play(rs),
                "tactics": tactics,
                "win_a": _frac(w),
                "draw": _frac(d),
                "win_b": _frac(l),
            }
        )
        return 0

    def mod(s, m):
        return f"cc {s.cc}" + (f" + {m - s.cc} Lancer" if m != s.cc else "")

    print(
        f"close combat {a.name} ({mod(a, ma)}) vs {b.name} ({mod(b, mb)})"
        + (f", tactics {tactics[0]} vs {tactics[1]}" if tactics else "")
    )
    for label, p in ((f"{a.name} wins", w), ("draw", d), (f"{b.name} wins", l)):
        print(f"  {label:<20} {str(p):>9}  = {float(p):.6f}")
    if "Lancer" in (a.rider, b.rider) and not riders_in_play(rs):
        print("  (basic rules: riders do not act; --rules advanced counts the Lancer's +2)")
    return 0


def cmd_odds_tactics(args) -> int:
    from ..lords.game import odds
    from ..lords.game.sheets import sheet

    rs = rules_from(args, "lords")
    a, b = sheet(args.a, rules=rs), sheet(args.b, rules=rs)
    res = odds.tactics(a, b, rules=rs)
    if args.json:
        emit_json(res)
        return 0
    rows, cols = res["attacker_tactics"], res["defender_tactics"]
    print(
        f"tactics: {a.name} attacks (modifier {res['modifier_attacker']}), {b.name} defends "
        f"(modifier {res['modifier_defender']}); {a.name}'s expected points per fight"
    )
    print("  " + "A \\ B".ljust(11) + "".join(f"{c:>11}" for c in cols) + f"{'A mix':>9}")
    for x, row, p in zip(rows, res["payoff"], res["attacker_mixture"], strict=True):
        print(f"  {x:<11}" + "".join(f"{v:>11.4f}" for v in row) + f"{p:>9.4f}")
    print(f"  {'B mix':<11}" + "".join(f"{q:>11.4f}" for q in res["defender_mixture"]))
    print(f"  value to {a.name}: {res['value']:+.6f} points a fight")
    return 0


def cmd_odds_breath(args) -> int:
    from ..lords.game import odds
    from ..lords.game.sheets import sheet

    rs = rules_from(args, "lords")
    a, t = sheet(args.attacker, rules=rs), sheet(args.target, rules=rs)
    res = odds.breath(
        a,
        t,
        distance=args.range,
        area=args.area,
        altitude_steps=args.altitude_steps,
        range_modifier=not args.no_range_modifier,
        rules=rs,
    )
    if args.json:
        emit_json(
            {
                "attacker": a.name,
                "target": t.name,
                "range": args.range,
                "range_name": odds.range_name(args.range, rs),
                "area": args.area.lower(),
                "altitude_steps": args.altitude_steps,
                "target_number": res["target_number"],
                "p_hit": _frac(res["p_hit"]),
                "expected_damage_if_hit": _frac(res["expected_damage_if_hit"]),
                "expected_damage": _frac(res["expected_damage"]),
                "damage": {str(k): _frac(v) for k, v in res["damage"].items()},
            }
        )
        return 0
    p = res["p_hit"]
    print(
        f"{a.name} breathes ({a.breath}, {a.breath_damage}) at {t.name}: range {args.range} "
        f"({odds.range_name(args.range, rs)}), {args.area.lower()} area, "
        f"{args.altitude_steps} altitude steps apart"
    )
    print(f"  target number {res['target_number']}   P(hit) = {p} = {float(p):.6f}")
    e = res["expected_damage"]
    print(
        f"  damage if hit {a.breath_damage} (mean {float(res['expected_damage_if_hit']):.2f});"
        f" expected damage {e} = {float(e):.4f}"
    )
    return 0


def cmd_odds_rider(args) -> int:
    from ..lords.game import odds
    from ..lords.game.sheets import sheet

    rs = rules_from(args, "lords")
    a, t = sheet(args.attacker, rules=rs), sheet(args.target, rules=rs)
    res = odds.rider_attack(a, t, distance=args.range, altitude_steps=args.altitude_steps, rules=rs)
    if args.json:
        emit_json(
            {
                "attacker": a.name,
                "rider": a.rider,
                "target": t.name,
                "range": args.range,
                "band": res["band"],
                "altitude_steps": args.altitude_steps,
                "target_number": res["target_number"],
                "p_hit": _frac(res["p_hit"]),
                "expected_damage": _frac(res["expected_damage"]),
                "damage": {str(k): _frac(v) for k, v in res["damage"].items()},
            }
        )
        return 0
    p, e = res["p_hit"], res["expected_damage"]
    lo, hi = min(res["damage"]), max(res["damage"])
    print(
        f"{a.name}'s {a.rider} shoots at {t.name}: {args.range} hexes ({res['band']} range), "
        f"{args.altitude_steps} altitude steps apart"
    )
    print(f"  target number {res['target_number']}   P(hit) = {p} = {float(p):.6f}")
    print(f"  damage if hit {lo}..{hi}; expected damage {e} = {float(e):.4f}")
    return 0


def _crash_level(text: str, rs) -> int:
    """``--from``: a number of levels 1..5 or an altitude's name (Very Low .. Very High)."""
    from ..errors import UserError, resolve_name
    from ..rules.lords import ALTITUDES

    top = rs.get("lords.altitude_levels")
    names = ALTITUDES[1 : top + 1]
    if text.strip().lstrip("+-").isdigit():
        k = int(text)
        if not 1 <= k <= top:
            raise UserError(
                f"--from takes 1..{top} altitude levels ({', '.join(names)}), got {text}"
            )
        return k
    return ALTITUDES.index(resolve_name(text, names, "altitude", hint=f"or 1..{top}"))


def cmd_odds_crash(args) -> int:
    from ..lords.game import odds

    rs = rules_from(args, "lords")
    top = rs.get("lords.altitude_levels")
    levels = [_crash_level(args.level, rs)] if args.level is not None else range(1, top + 1)
    rows = [odds.crash(k, rs) for k in levels]
    if args.json:
        emit_json(
            [
                {
                    "levels": c["levels"],
                    "altitude": c["altitude"],
                    "dice": c["dice"],
                    "mean": _frac(c["mean"]),
                    "variance": _frac(c["variance"]),
                    "sd": float(c["variance"]) ** 0.5,
                    "p_rider_killed": _frac(c["p_rider_killed"]),
                    "location": {p: _frac(q) for p, q in c["location"].items()},
                    "expected_points": {p: _frac(q) for p, q in c["expected_points"].items()},
                    "damage": {str(k): _frac(v) for k, v in c["damage"].items()},
                }
                for c in rows
            ]
        )
        return 0
    parts = [p for p, q in rows[0]["location"].items() if q]
    print(
        "a crash to the ground, exact (p.22): the Rear column of the Damage Allocation Table "
        "for the part, 1d6 a level fallen, a rider killed in the fall on 1-3"
    )
    head = "".join(f" {'P(' + p.replace('_', ' ') + ')':>10}" for p in parts)
    print(
        f"  {'fallen from':<11} {'levels':>6} {'mean':>5} {'sd':>6} {'P(rider killed)':>15}" + head
    )
    for c in rows:
        cells = "".join(f" {str(c['location'][p]):>10}" for p in parts)
        print(
            f"  {c['altitude']:<11} {c['levels']:>6} {float(c['mean']):>5.1f} "
            f"{float(c['variance']) ** 0.5:>6.3f} {str(c['p_rider_killed']):>15}{cells}"
        )
    return 0


def cmd_odds_takeoff(args) -> int:
    from ..lords.game import odds

    rs = rules_from(args, "lords")
    t = odds.take_off(args.dragon, rs)
    if args.json:
        emit_json({**t, "speeds": {str(k): v for k, v in t["speeds"].items()}})
        return 0
    print(
        f"{t['dragon']} takes off (p.17): speed {t['min_speed']}-{t['max_speed']}; the leap "
        f"of {t['leap_hexes']} hexes straight ahead at Very Low costs {t['cost']} points"
    )
    if not t["speeds"]:
        print("  it cannot take off: no speed from the minimum + 1 to 7 within its maximum")
        return 0
    print(f"  {'speed':>5}  points left after the leap")
    for v, left in t["speeds"].items():
        print(f"  {v:>5}  {left}")
    return 0


def cmd_odds_location(args) -> int:
    from ..errors import resolve_name
    from ..lords.game import odds

    rs = rules_from(args, "lords")
    dist = odds.location(args.direction, rs)
    if args.json:
        emit_json({k: _frac(v) for k, v in dist.items()})
        return 0
    d = resolve_name(args.direction, odds.DIRECTIONS, "direction")
    print(
        f"where a hit from direction {d} lands: P(part), exact (2d6 on the Damage "
        "Allocation Table, p.11)"
    )
    print(f"  {'part':<11} {'P':>6}   decimal")
    for k, v in dist.items():
        print(f"  {k.replace('_', ' '):<11} {str(v):>6} = {float(v):.4f}")
    return 0


def cmd_baseline_write(args) -> int:
    from ..errors import check_output
    from ..lords.analysis import baseline

    check_output(args.file or baseline.DEFAULT_FILE, "baseline file", make_folder=True)
    data = baseline.write(
        args.file or baseline.DEFAULT_FILE,
        n=args.n,
        seed=args.seed,
        rules=rules_from(args, "lords"),
        **speed_of(args),
    )
    if args.json:
        emit_json({**data, "file": str(args.file or baseline.DEFAULT_FILE)})
        return 0
    for k, v in data["matchups"].items():
        print(f"{k:<46} A wins {v['wins_a'] / v['n']:.4f} of {v['n']:,}")
    print(f"wrote {args.file or baseline.DEFAULT_FILE} in {data['manifest']['seconds']} s")
    return 0


def cmd_baseline_check(args) -> int:
    from ..errors import UserError
    from ..lords.analysis import baseline

    if not 0 < args.alpha < 1:
        raise UserError(f"--alpha must be between 0 and 1, got {args.alpha}")
    found: list = []
    lines: list[str] = []
    ok = baseline.check(
        args.file or baseline.DEFAULT_FILE,
        n=args.n,
        seed=args.seed,
        alpha=args.alpha,
        rules=rules_from(args, "lords"),
        echo=lines.append if args.json else print,
        findings=found,
        **speed_of(args),
    )
    if args.json:
        emit_json(
            {
                "ok": ok,
                "n": args.n,
                "seed": args.seed,
                "alpha": args.alpha,
                "findings": [
                    {
                        "matchup": f.matchup,
                        "baseline_rate": f.baseline.rate,
                        "baseline_ci": list(f.baseline.ci),
                        "current_rate": f.current.rate,
                        "current_ci": list(f.current.ci),
                        "pvalue": f.pvalue,
                        "changed": f.regression,
                    }
                    for f in found
                ],
                "lines": lines,
            }
        )
    return 0 if ok else 1
