"""Scripted games: a scenario, the moves given and the dice forced, played through the game loop.

A script sets the dragons up (where each stands, its facing and altitude, last turn's speed),
then gives, turn by turn, each dragon's decisions (the speed it records, its move as a path or
an end state, its breath target, whether it engages) and the dice: "a list of rolls in the
order the rules ask for them". :func:`play_script` plays it through the same game loop as every
simulated game (:func:`~dragonsim.lords.engine.logged_game`: the same phases, the same rules
checks, the same event log) and returns the same :class:`~dragonsim.lords.views.replay.Replay` as
:func:`~dragonsim.lords.views.replay.replay`, so ``describe``, ``text``, :func:`~dragonsim.lords.
picture.draw` and the tests' event checker read it alike.

How the forcing works: a scripted game hands the loop two arrays where a game's random
streams go (``Work.gst``: the forced dice, ``FD_*``; ``Work.pst``: the decisions, ``SD_*``,
both laid out in :mod:`~dragonsim.lords.game.state`). A seeded stream is one cell, so the roll
functions (:func:`~dragonsim.lords.game.mechanics.roll_dice`, ``roll_d6``) and the dispatchers
(:mod:`~dragonsim.lords.bots.dispatch`, which ask :mod:`~dragonsim.lords.bots.scripted`) read
the script only when the stream is longer; an ordinary run's counters are bit-identical.

The script's format, and reading it: :mod:`~dragonsim.lords.views.scriptfile`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ...errors import UserError
from ...rules.lords import ALTITUDES, TACTICS
from ..game import state as S
from ..game.hexes import DIRECTION_NAMES, DQ, DR, on_board
from ..game.sheets import rule_switches
from .eventlog import SIDES
from .replay import Replay
from .scriptfile import (
    SCRIPTS_DIR,
    Move,
    Script,
    _drops,
    load_script,
    parse_path,
    path_banks,
    path_carry_error,
    path_cost,
    path_end,
    path_turn_left,
)

# =================================================================================================
# the kernel's arrays
# =================================================================================================


def dice_array(sc: Script) -> np.ndarray:
    """The forced dice as the game loop reads them (``FD_*``; int64, handed over as uint64)."""
    per = [list(d) for d in sc.dice] if sc.per_turn else [list(sc.dice)]
    rolls = [v for d in per for v in d]
    nt = sc.turns
    at = S.FD_STARTS + 2 * (nt + 2)
    a = np.zeros(at + 2 * len(rolls) + 1, dtype=np.int64)  # + 1: more than one cell, always
    a[S.FD_PER_TURN] = int(sc.per_turn)
    a[S.FD_TURNS] = nt
    a[S.FD_NROLLS] = len(rolls)
    a[S.FD_END] = len(rolls)
    a[S.FD_ROLLS_AT] = at
    a[S.FD_TURN_ASKED_AT] = S.FD_STARTS + nt + 2
    starts = np.cumsum([0, *[len(d) for d in per]]) if sc.per_turn else np.zeros(nt + 1, int)
    a[S.FD_STARTS + 1 : S.FD_STARTS + 1 + len(starts)] = starts
    a[at : at + len(rolls)] = rolls
    return a


def decisions_array(sc: Script, turning=None, each: bool = False) -> np.ndarray:
    """The decisions as the dispatchers read them (``SD_*`` / ``SR_*``); ``turning``
    (:class:`~dragonsim.lords.game.movetables.Turning`, None without turning between move phases,
    p.16): each path's own turn left in its last hex goes to the kernel; ``each``: the
    reading ``lords.bank_run = each`` (the levels a path's banks drop)."""
    nd = len(sc.names)
    a = np.zeros(S.SD_ROWS + sc.turns * nd * S.N_SR, dtype=np.int64)
    a[S.SD_DRAGONS] = nd
    a[S.SD_TURNS] = sc.turns
    for t, row in enumerate(sc.moves):
        for i, m in enumerate(row):
            k = S.SD_ROWS + (t * nd + i) * S.N_SR
            if m is None:
                continue
            a[k + S.SR_DROP] = -1
            if m.path is not None:
                vals = (S.SR_PATH, *path_end(m.path))
                a[k + S.SR_DROP] = path_banks(m.path, each)[1]
                if turning is not None:
                    mode, left = path_turn_left(m.path)
                    a[k + S.SR_TURN_MODE] = mode
                    a[k + S.SR_TURN] = left
                    a[k + S.SR_TURN_RESET] = int(turning.reset_180)
            else:
                vals = (S.SR_END, *m.end)
            a[k + S.SR_GIVEN] = 1
            a[k + S.SR_SPEED] = m.speed
            a[k + S.SR_MODE : k + S.SR_ALT + 1] = vals
            a[k + S.SR_TARGET] = m.target
            a[k + S.SR_ENGAGE] = int(m.engage)
            a[k + S.SR_SIDE] = m.side
            a[k + S.SR_FACING] = m.facing
            a[k + S.SR_RIDER] = m.rider
            a[k + S.SR_EARLY] = int(m.early)
            a[k + S.SR_LAND] = int(m.land)
            a[k + S.SR_TACTIC] = m.tactic + 1
            a[k + S.SR_SPELL] = m.spell
            a[k + S.SR_SPELL_TARGET] = m.spell_target
            a[k + S.SR_SPELL_ARG] = m.spell_arg
    return a


# =================================================================================================
# playing it
# =================================================================================================


def play_script(
    script,
    *,
    range_modifier: bool | None = None,
    rules=None,
) -> Replay:
    """Play a script (:func:`load_script`'s sources: ``"example"``, a ``.json`` path, a
    mapping, or a :class:`Script`) through the game loop and return its
    :class:`~dragonsim.lords.views.replay.Replay`: the events, ``forced`` (every roll given, with
    the turn and what the rules asked it for, or unused), ``notes`` and the raw ``log``.

    ``range_modifier`` overrides the script's (the Range Key row of the To-Hit Modifiers
    Table, p.11; the Example of Play reads none); ``rules`` (a mapping of overrides or a
    RuleSet's overrides) goes on top of the script's own.

    Examples
    --------
    >>> from dragonsim.lords.views.script import play_script
    >>> rep = play_script("example")                          # doctest: +SKIP
    >>> [e["target_number"] for e in rep.events if e["event"] == "breath"]   # doctest: +SKIP
    [9, 8]
    """
    from ...report import manifest
    from .. import engine as E
    from ..game import movetables as MT
    from ..inputs import _rules, battle_setup, game_mrs

    sc = script if isinstance(script, Script) else load_script(script)
    from ...rules import RuleSet

    overrides = dict(sc.rules)
    if isinstance(rules, RuleSet):
        overrides.update(rules.overrides)
    elif rules is not None:
        if not isinstance(rules, Mapping):
            raise UserError(f"rules must be a mapping of overrides, got {type(rules).__name__}")
        overrides.update(rules)
    rs = _rules(overrides or None)
    sheets, teams, _, rs, args = battle_setup(
        sc.dragons,
        teams=sc.teams,
        policies=["random"] * len(sc.dragons),
        turn_limit=sc.turns,
        rules=rs,
        scenario=[list(r) for r in sc.scenario],
    )
    dragons, scen, opt, tb, _, plan = args
    # every scripted move is checked against the exact board edge (some legal path stays on)
    mv = MT.move_tables(
        tb.turn_cost,
        mrs=game_mrs([s.mr_i for s in sheets], tb, rs),
        edges=True,
        bank=MT.banking_of(rs),
        turning=MT.turning_of(rs),
    )
    opt = opt.copy()
    rm = sc.range_modifier if range_modifier is None else bool(range_modifier)
    opt[S.OPT_RANGE_MOD] = int(rm)
    bk = MT.banking_of(rs)
    fd, sd = dice_array(sc), decisions_array(sc, MT.turning_of(rs), bk is not None and bk.each)
    work = E.new_work()._replace(gst=fd.view(np.uint64), pst=sd.view(np.uint64))
    from .eventlog import events
    from .replay import MAX_EVENTS

    cnt, log = E.logged_game(0, 0, dragons, scen, opt, tb, mv, plan, MAX_EVENTS, work=work)
    ev = events(log, sc.names, teams, ground=rs.get("lords.ground"))
    forced, asked_for = _forced_rolls(sc, fd, ev, tb)
    problems = _decision_error(sc, sd, log) + _dice_error(sc, fd, forced, asked_for)
    bad_paths, paths = _walk_paths(sc, log, tb, MT.banking_of(rs))
    problems += bad_paths
    if problems:
        problems.sort(key=lambda p: p[0])
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UserError(f"script {sc.title!r}: {problems[0][1]}{more}")
    for n, hexes in paths.items():
        if ev[n]["event"] == "move":
            ev[n]["path"] = hexes
    nd = len(sc.names)
    wins = [int(cnt[S.C_WIN + t]) for t in range(nd)]
    turns = int(cnt[S.C_TURNS])
    notes = []
    unused = [r for r in forced if not r["used"]]
    if unused:
        notes.append(
            f"{len(unused)} forced roll{'s' if len(unused) > 1 else ''} not asked for: "
            + ", ".join(f"turn {r['turn']} roll {r['roll']} ({r['value']})" for r in unused)
        )
    if turns < sc.turns:
        notes.append(
            f"the game was over after turn {turns}: turns {turns + 1}..{sc.turns} unplayed"
        )
    if not rm:
        notes.append("no range modifier (the Range Key row is off, as the Example of Play reads)")
    man = manifest(
        command="replay --script",
        script=sc.title,
        script_source=sc.source,
        script_digest=sc.digest,
        range_modifier=rm,
        rules_hash=rs.hash,
        rules_overrides=rs.overrides,
        options=rule_switches(rs),
        teams=list(teams),
    )
    return Replay(
        list(sc.names),
        0,
        0,
        ["script"] * nd,
        ev,
        -1 if cnt[S.C_DRAWS] else int(np.argmax(wins)),
        turns,
        bool(ev[-1].get("hit_turn_limit")),
        [int(cnt[S.C_DEALT + k]) for k in range(nd)],
        man,
        teams=None if teams == list(range(nd)) else list(teams),
        board=_board(tb),
        script=sc.title,
        forced=forced,
        notes=notes,
        log=log,
    )


# ---- what each roll was for, and the errors, named ----------------------------------------------


def _turn_windows(sc: Script, fd: np.ndarray, last_turn: int) -> list[tuple[int, int, int]]:
    """Per turn played: ``(turn, first roll index read, rolls asked)``."""
    at = int(fd[S.FD_TURN_ASKED_AT])
    out, pooled = [], 0
    for t in range(1, last_turn + 1):
        asked = (
            int(fd[at + t]) if t < last_turn else int(fd[S.FD_CURSOR]) - int(fd[S.FD_TURN_START])
        )
        start = int(fd[S.FD_STARTS + t]) if sc.per_turn else pooled
        out.append((t, start, asked))
        pooled += asked
    return out


def _labels(turn_events: list[dict], asked: int, names: list[str], tb) -> list[tuple]:
    """What each roll a turn asked for was, in order: ``(dragon, what)``; the initiative's
    count is what the later rolls leave (2d6 a dragon in play, in seat order, then
    roll-offs). The later rolls come in the order of the turn's events: a move on the
    ground's 1d6, rider attacks, breath attacks, close combats and the crashes among them
    (advanced rules, pp. 17, 22)."""
    from ..game.tables import S_CC_SELF_DAMAGE_DICE, S_GROUND_MOVE_DICE, S_GROUND_MOVE_PLUS

    combat: list[tuple] = []
    for e in turn_events:
        who = e["dragon"]
        check = (e["other"], "rider check (2d6, p.18)")
        if e["event"] == "move" and e.get("ground_roll") is not None:
            nd6, plus = (int(tb.scalars[k]) for k in (S_GROUND_MOVE_DICE, S_GROUND_MOVE_PLUS))
            combat.append((who, f"ground move roll ({nd6}d6, +{plus} hexes, p.17)"))
        elif e["event"] == "crashes":
            if e["facing_roll"] is not None:
                combat.append((who, "crashing winner's facing roll (1d6, p.22)"))
            combat.append((who, "crash location roll (2d6, Rear column, p.22)"))
            combat.append((who, f"crash damage roll ({e['dice']}d6, p.22)"))
            if e["rider_roll"] is not None:
                combat.append((who, "rider's fall roll (1d6, p.22)"))
        elif e["event"] == "spell" and e.get("hit") is not None:
            combat.append((who, f"{e['spell']} hit roll (2d6) at {e['other']}"))
            if e["hit"] and e["location_roll"] is not None:
                combat.append((who, "location roll (2d6)"))
                if e["rider_check"] is not None:
                    combat.append(check)
                if e["rider_check"] != 7:
                    combat.append((who, f"{e['spell']} damage roll (1d6, p.24)"))
            elif e["hit"] and e["spell"] == "Heal":
                combat.append((who, "Heal roll (1d6, p.24)"))
        elif e["event"] == "rider shot":
            combat.append((who, f"rider's hit roll (2d6) at {e['other']}"))
            if e["hit"]:
                combat.append((who, "location roll (2d6)"))
                if e["rider_check"] is not None:
                    combat.append(check)
                if e["rider_check"] != 7:
                    combat.append((who, "rider's damage roll (1d6)"))
        elif e["event"] == "breath" and e["target_number"] >= 0:
            combat.append((who, f"breath hit roll (2d6) at {e['other']}"))
            if e["hit"]:
                combat.append((who, "location roll (2d6)"))
                if e["rider_check"] is not None:
                    combat.append(check)
                if e["rider_check"] != 7:
                    combat.append((who, f"breath damage roll ({e['dice']}d6)"))
                if e.get("critical_roll") is not None:
                    for _ in range(e["critical_rerolls"]):
                        combat.append((who, "Critical Hit Table roll (2d6, p.19), rerolled"))
                    combat.append((who, "Critical Hit Table roll (2d6, p.19)"))
            else:
                if e.get("fumble_rider_check") is not None:
                    combat.append((who, "fumble: rider check (2d6, p.20)"))
                if e.get("fumble_roll") is not None:
                    nd6 = int(tb.fumble[e["fumble_roll"], 0])
                    combat.append((who, "Fumble Table roll (2d6, p.20)"))
                    combat.append((who, f"fumble damage roll ({nd6}d6, p.20)"))
        elif e["event"] == "close combat":
            if e.get("both_defend"):
                continue  # "no combat rolls are necessary" (optional tactics, p.22)
            combat.append((who, f"close-combat roll (2d6) against {e['other']}"))
            combat.append((e["other"], f"close-combat roll (2d6) against {who}"))
            if e["winner"] is not None and e.get("defend_win"):
                if e["facing_roll"] is not None:
                    loser = e["other"] if e["winner"] == who else who
                    combat.append((loser, "new facing roll (1d6)"))
            elif e["winner"] is not None:
                win = e["winner"]
                loser = e["other"] if win == who else who
                combat.append((win, "column roll (1d6)"))
                combat.append((win, "location roll (2d6)"))
                if e["rider_check"] is not None:
                    combat.append((loser, "rider check (2d6, p.18)"))
                if e["rider_check"] != 7:
                    combat.append((win, "tooth-and-claw damage roll"))
                if e.get("lunge_roll") is not None:
                    combat.append((win, "Lunge's extra damage roll (1d6, p.22)"))
                if int(tb.scalars[S_CC_SELF_DAMAGE_DICE]) > 0:
                    combat.append((win, "own damage roll (the winner's, p.13)"))
                loser = e["other"] if win == who else who
                combat.append((loser, "new facing roll (1d6)"))
    movers = [e["dragon"] for e in turn_events if e["event"] == "initiative"]
    movers.sort(key=names.index)
    n_init = max(asked - len(combat), 0)
    init = [
        (movers[k], "initiative roll (2d6)") if k < len(movers) else (None, "initiative roll-off")
        for k in range(n_init)
    ]
    return init + combat


def _forced_rolls(sc: Script, fd: np.ndarray, ev: list[dict], tb) -> tuple[list[dict], dict]:
    """Every roll the script gives: its turn and index in that turn (1-based), value, and
    what the game asked it for (``used`` False: not asked for); and per turn played, what
    each roll it asked for was (``{turn: (first index, [(dragon, what), ...])}``)."""
    last = max((e["turn"] for e in ev), default=0)
    given = [list(d) for d in sc.dice] if sc.per_turn else [list(sc.dice)]
    out: list[dict] = []
    for t, d in enumerate(given):
        for k, v in enumerate(d):
            out.append(
                {
                    "turn": t + 1 if sc.per_turn else None,
                    "roll": k + 1,
                    "value": v,
                    "used": False,
                    "dragon": None,
                    "what": None,
                }
            )
    asked_for = {}
    for t, start, asked in _turn_windows(sc, fd, last):
        labels = _labels([e for e in ev if e["turn"] == t], asked, sc.names, tb)
        asked_for[t] = (start, labels)
        for k, (who, what) in enumerate(labels):
            idx = start + k
            if idx >= len(out) or (sc.per_turn and out[idx]["turn"] != t):
                break
            out[idx].update(used=True, dragon=who, what=what)
            if not sc.per_turn:
                out[idx]["turn"] = t
    return out, asked_for


def _dice_error(sc: Script, fd: np.ndarray, forced: list[dict], asked_for: dict) -> list[tuple]:
    code = int(fd[S.FD_ERROR])
    if code == S.FD_OK:
        return []
    turn, k, n = int(fd[S.FD_ERR_TURN]), int(fd[S.FD_ERR_ROLL]), int(fd[S.FD_ERR_DICE])
    dice = f"{n}d6"
    if code == S.FD_BAD_VALUE:
        r = forced[k]
        who = f"{r['dragon']}'s " if r["dragon"] else ""
        return [
            (
                (turn, 0),
                f"turn {turn}, roll {r['roll']} ({who}{r['what'] or dice}): "
                f"{int(fd[S.FD_ERR_VALUE])} is not a {dice} roll ({n}..{6 * n})",
            )
        ]
    start, labels = asked_for.get(turn, (0, []))
    first = int(fd[S.FD_STARTS + turn]) if sc.per_turn else 0
    given = (int(fd[S.FD_STARTS + turn + 1]) - first) if sc.per_turn else len(forced)
    scope = f"turn {turn} gives {given}" if sc.per_turn else f"the script gives {given}"
    who, what = labels[k - start] if 0 <= k - start < len(labels) else (None, dice)
    what = f"{who}'s {what}" if who else what
    return [
        (
            (turn, 0),
            f"turn {turn}: the forced dice ran out: the game asked for roll {k - first + 1}, "
            f"{what}, but {scope}; add the rolls the rules ask for, in order",
        )
    ]


_WHY = {
    S.SD_WHY_ENGAGED: "it is engaged in close combat (p.10: engaged dragons may not breathe "
    "on other dragons)",
    S.SD_WHY_TARGET_ENGAGED: "that dragon is engaged in close combat (p.10)",
    S.SD_WHY_GONE: "it is not an enemy in play",
    S.SD_WHY_ARC: "it is not in the arc of fire, within range or within the neck bend (p.10)",
    S.SD_WHY_SELF: "a dragon cannot breathe at itself",
}


def _decision_error(sc: Script, sd: np.ndarray, log: np.ndarray) -> list[tuple]:
    from ...rules.lords import MRS

    code = int(sd[S.SD_ERROR])
    if code == S.SD_OK:
        return []
    t, i = int(sd[S.SD_ERR_TURN]), int(sd[S.SD_ERR_DRAGON])
    a, b, c = (int(sd[k]) for k in (S.SD_ERR_A, S.SD_ERR_B, S.SD_ERR_C))
    who = sc.names[i]
    head = f"turn {t}, {who}"
    m = sc.moves[t - 1][i] if 1 <= t <= sc.turns else None
    if code == S.SD_NO_MOVE:
        return [((t, 1), f"turn {t}: the script gives {who} no move (it is in play)")]
    if code == S.SD_SPEED and b > c:
        return [
            (
                (t, 1),
                f"{head}: speed {a} is not allowed; on the ground it may only record 0 "
                f"(ground): it cannot take off (a zeroed tail or wing, p.22, or a maximum "
                f"speed below its minimum + 1)",
            )
        ]
    if code == S.SD_SPEED:
        return [
            (
                (t, 1),
                f"{head}: speed {a} is not allowed; it may record {b}..{c} this turn (p.7: "
                f"its minimum and maximum, at most 3 more than last turn, 10 or more for at "
                f"most three turns running, then two turns at 9 or less for each)",
            )
        ]
    if code in (S.SD_UNREACHABLE, S.SD_OFF_BOARD, S.SD_OCCUPIED):
        where = _move_text(m)
        if code == S.SD_UNREACHABLE:
            why = (
                f"no legal move of exactly speed {m.speed} does that at maneuverability "
                f"{MRS[a]}"
                + (f" (it would end at altitude {c}, outside 1..5)" if not 1 <= c <= 5 else "")
                + " (pp. 8-9: a hex forward costs 1, a climb 2, a dive 0, one level a hex, "
                "turns at the maneuver diagram's cost, never two in a row)"
            )
        elif code == S.SD_OFF_BOARD:
            why = "every path to it leaves the board (a dragon that leaves it is out)"
        else:
            why = f"{sc.names[a]} is in that hex"
        return [((t, 3), f"{head}: the move {where}: {why}")]
    if code == S.SD_ENGAGE:
        return [
            (
                (t, 3),
                f"{head} cannot engage: no enemy directly in front at the same altitude (not "
                f"Very Low) that has moved this turn and is not engaged (p.9)",
            )
        ]
    if code == S.SD_TARGET:
        return [((t, 4), f"{head} cannot breathe at {sc.names[a]}: {_WHY[b]}")]
    if code == S.SD_RIDER:
        why = {
            S.SD_WHY_SELF: "a rider cannot shoot at its own dragon",
            S.SD_WHY_NO_RIDER: "its dragon has no Javelin Thrower, Archer or Crossbow Shooter",
            S.SD_WHY_GONE: "it is not an enemy in play",
            S.SD_WHY_TARGET_ENGAGED: "that dragon is engaged in close combat with another "
            "(p.10; rule lords.rider_engaged_targets)",
            S.SD_WHY_REACH: "it is beyond the rider's long range (Rider Abilities Table, p.18)",
        }[b]
        return [((t, 4), f"{head}'s rider cannot shoot at {sc.names[a]}: {why}")]
    if code == S.SD_SPELL:
        from ...rules.lords import SPELLS

        why = {
            S.SW_NO_WIZARD: "its dragon has no Wizard (or it was killed)",
            S.SW_POINTS: f"its Wizard has only {c} magic points left ('If there aren't enough "
            "spell points, the spell cannot be cast', p.18)",
        }[b]
        return [((t, 4), f"{head}'s Wizard cannot cast {SPELLS[a]}: {why}")]
    if code == S.SD_SPELL_TARGET:
        from ...rules.lords import SPELLS

        why = {
            S.SW_GONE: "it is not in play",
            S.SW_ENEMY: f"{SPELLS[b]} is cast at an opponent (p.24)",
            S.SW_ENGAGED: "that dragon is engaged in close combat with another (p.10; rule "
            "lords.rider_engaged_targets)",
            S.SW_REACH: f"it is beyond {SPELLS[b]}'s long range (the Wizard's Spellbook, p.25)",
        }[c]
        who_t = sc.names[a] if 0 <= a < len(sc.names) else str(a)
        return [((t, 4), f"{head}'s Wizard cannot cast {SPELLS[b]} at {who_t}: {why}")]
    if code == S.SD_SPELL_ARG:
        from ...rules.lords import SPELLS

        return [
            (
                (t, 4),
                f"{head}'s Wizard cannot cast {SPELLS[a]} with argument {b} (Spin turns up "
                f"to 120 degrees, p.25)",
            )
        ]
    if code == S.SD_LANDING:
        why = (
            f"its flight ends at {ALTITUDES[a] if 0 <= a < len(ALTITUDES) else a}, and a "
            "landing is from Very Low"
            if b == 0
            else "the hex ahead of its flight is off the board or taken"
        )
        return [
            (
                (t, 3),
                f"{head} cannot land: {why} (p.17: 'by moving forward 1 hex and spending 1 "
                f"point. This must be the dragon's last point')",
            )
        ]
    if code in (S.SD_TACTIC, S.SD_TACTIC_USED):
        if code == S.SD_TACTIC:
            why = "the script gives it no 'tactic' (with tactics each side chooses one, p.22)"
        else:
            why = (
                f"{TACTICS[a]} is used up ({b} of {c} times; 'You may only use each tactic "
                f"five times during a game', p.22)"
            )
        return [((t, 0), f"{head} cannot fight its close combat: {why}")]
    if code == S.SD_SIDE:
        given = "" if c < 0 else f" ({SIDES[c]} is neither)"
        return [
            (
                (t, 5),
                f"{head}'s breath comes in through a corner between the {SIDES[a]} and "
                f"{SIDES[b]} hexsides: say which with 'side': '{SIDES[a]}' or '{SIDES[b]}'"
                f"{given}",
            )
        ]
    return [((t, 9), f"{head}: decision error {code}")]


def _move_text(m: Move | None) -> str:
    if m is None:
        return "(none)"
    if m.path is not None:
        return f"speed {m.speed}, path {' '.join(m.path)}"
    q, r, f, alt = m.end
    col = q + (r - (r & 1)) // 2
    return f"speed {m.speed} to hex ({col},{r}) facing {DIRECTION_NAMES[f]}" + (
        "" if alt < 0 else f", {ALTITUDES[alt]}"
    )


def _walk_paths(sc: Script, log: np.ndarray, tb, bank=None) -> tuple[list[tuple], dict[int, list]]:
    """Each scripted path walked from where its dragon stood: it costs exactly the speed at
    the dragon's maneuverability then (p.8), stays on the board and within Very Low..Very
    High (p.8) all the way; its banks (``bank``: :class:`~dragonsim.lords.game.movetables.
    Banking`, None without the rule) drop a level for each two in sequence and never below
    Very Low (p.16). Returns the errors and, per log row of a move, the hexes its path
    entered (``[q, r, altitude index]`` each: the picture draws them)."""
    from ...rules.lords import MRS

    width, depth = _board(tb)
    out, paths = [], {}
    for n, row in enumerate(log):
        if int(row[S.L_KIND]) not in (S.K_MOVE, S.K_LEAVE):
            continue
        t, i = int(row[S.L_TURN]), int(row[S.L_I])
        m = sc.moves[t - 1][i] if 1 <= t <= sc.turns else None
        if m is None or m.path is None or int(row[S.L_A + 6]) != S.MK_FLY:
            continue  # a move on the ground, a take-off or a landing: the kernel checked it
        snap = row[S.L_SNAP :].reshape(-1, S.N_SNAP)
        q, r, f, alt = (int(x) for x in snap[i, :4])
        mr = int(row[S.L_A + 1])
        head = f"turn {t}, {sc.names[i]}: the path {' '.join(m.path)}"
        banks = path_banks(m.path)[0]
        if banks and bank is None:
            out.append(
                ((t, 2.5), f"{head} banks, an advanced rule off here (lords.advanced.banking)")
            )
            continue
        carry = int(row[S.L_A + 12])  # turning between move phases (p.16)
        why = path_carry_error(m.path, carry)
        if why:
            out.append(((t, 2.5), f"{head} {why}"))
            continue
        cost = path_cost(m.path, tb.turn_cost[mr], int(bank.cost[mr]) if banks else 0, carry)
        if cost != m.speed:
            out.append(
                (
                    (t, 2.5),
                    f"{head} costs {cost} movement points at maneuverability {MRS[mr]}, but "
                    f"its speed is {m.speed} (p.8: exactly the speed recorded)",
                )
            )
            continue
        hexes = paths[n] = []
        run = 0
        for k, act in enumerate(m.path):
            if act in ("F", "C", "D", "BL", "BR"):
                bad = ""
                if act in ("BL", "BR"):
                    run += 1
                    drop = _drops(run, bank.each)
                    if run >= 2 and alt == 1 and (drop or bank.very_low_any):
                        bad = "banks twice in a row at Very Low (p.16: it would crash)"
                    d = (f + (1 if act == "BL" else -1)) % 6
                    q, r = q + int(DQ[d]), r + int(DR[d])
                    alt -= 1 if drop else 0
                else:
                    run = 0
                    q, r = q + int(DQ[f]), r + int(DR[f])
                    alt += {"F": 0, "C": 1, "D": -1}[act]
                hexes.append([q, r, alt])
                bad = bad or (
                    "leaves the board"
                    if not on_board(q, r, width, depth)
                    else ("flies outside Very Low..Very High" if not 1 <= alt <= 5 else "")
                )
                if bad:
                    out.append(((t, 2.5), f"{head} {bad} at its action {k + 1} ({act})"))
                    break
            else:
                run = 0
                f = (f + {"L1": 1, "L2": 2, "R1": -1, "R2": -2, "T3": 3}[act]) % 6
    return out, paths


def _board(tb) -> tuple[int, int]:
    from ..game.tables import S_BOARD_DEPTH, S_BOARD_WIDTH

    return int(tb.scalars[S_BOARD_WIDTH]), int(tb.scalars[S_BOARD_DEPTH])


__all__ = [
    "play_script",
    "dice_array",
    "decisions_array",
    # reached as dragonsim.lords.views.script.X by the tests
    "load_script",
    "parse_path",
    "path_banks",
    "path_end",
    "path_cost",
    "SCRIPTS_DIR",
]
