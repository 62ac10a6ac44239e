"""A game's event log (the rows :func:`~dragonsim.lords.engine.logged_game` writes, ``L_*``
and ``K_*`` of :mod:`~dragonsim.lords.game.state`) as events: :func:`events` decodes each row
into a dict (the turn, the phase, the dragons, every roll and what it did) and
:func:`describe` tells one as a line of text.

Under the advanced rules of the ground (p.17; switches ``lords.advanced.crash_very_low``,
``crash_slow``, ``crash_zeroed``, ``landing``) a move says its ``kind`` (``fly``, ``take off``,
``land``, ``ground``: a move on the ground with its 1d6+3 ``ground_roll``, None for a dragon a
zeroed tail or wing keeps in its hex, which only turns), a speed says whether the dragon is on
the ground (0: it stays there), and a ``crashes`` event tells each crash: its ``cause``, the
altitude levels fallen, the location roll on the Rear column and the part, the damage roll and
the points taken, the rider's 1d6 in the fall and whether it killed the rider, and a crashing
close-combat winner's facing roll (pp. 17, 22).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...rules.lords import ALTITUDES, BREATHS, CLAWS, MRS, PARTS, SPELLS, TACTICS
from ..game import state as S
from ..game.hexes import DIRECTION_NAMES

#: the phase each event kind belongs to (the basic sequence of play, p.7; the advanced
#: one's rider phases, p.15)
PHASES = {
    S.K_EARLY: "movement",
    S.K_RTARGET: "record rider actions",
    S.K_RIDER: "rider actions",
    S.K_SPELL_REC: "record rider actions",
    S.K_SPELL: "rider actions",
    S.K_SETUP: "setup",
    S.K_INIT: "initiative",
    S.K_SPEED: "record speed",
    S.K_MOVE: "movement",
    S.K_LEAVE: "movement",
    S.K_ENGAGE: "movement",
    S.K_TARGET: "record breath target",
    S.K_BREATH: "breath combat",
    S.K_EFFECT: "serious damage",
    S.K_CC: "close combat",
    S.K_CRASH: "close combat",  # a tail or wing at 0: the phase whose damage it was
    S.K_END: "end",
}


EVENTS = {
    S.K_EARLY: "moves early",
    S.K_RTARGET: "rider targets",
    S.K_RIDER: "rider shot",
    S.K_SPELL_REC: "spell recorded",
    S.K_SPELL: "spell",
    S.K_SETUP: "placed",
    S.K_INIT: "initiative",
    S.K_SPEED: "speed",
    S.K_MOVE: "move",
    S.K_LEAVE: "leaves the board",
    S.K_ENGAGE: "engages",
    S.K_TARGET: "targets",
    S.K_BREATH: "breath",
    S.K_EFFECT: "effects",
    S.K_CC: "close combat",
    S.K_CRASH: "crashes",
    S.K_END: "game over",
}


#: the hexside a breath attack came in from (Damage Allocation Table columns, p.11)
SIDES = ("F", "FR", "RR", "R", "RL", "FL")


#: the areas of an arc of fire (p.10), as K_BREATH rows log them
AREAS = ("dark", "grey", "light")


#: a move's kind (``K_MOVE`` / ``K_LEAVE`` rows' ``MK_*``; the ground, advanced rules p.17)
MOVE_KINDS = {S.MK_FLY: "fly", S.MK_TAKE_OFF: "take off", S.MK_LAND: "land", S.MK_GROUND: "ground"}


#: why a dragon crashed (``K_CRASH`` rows' ``CR_*``, p.17), as the events name it, and in words
CRASH_CAUSES = {S.CR_VERY_LOW: "very low", S.CR_SLOW: "slow", S.CR_ZEROED: "zeroed"}


CRASH_WHY = {
    "very low": "an engagement at Very Low: the fight's altitude loss takes both to the ground",
    "slow": "close combat's -2 took its speed below its minimum",
    "zeroed": "a tail or wing at 0: it can no longer fly",
}


def _facing(f: int) -> str:
    return DIRECTION_NAMES[int(f) % 6]


def turn_words(t: int) -> str:
    """A turn in a hex (turning between move phases, p.16): ``-2`` -> "a 120 deg turn to the
    right"."""
    if abs(t) == 3:
        return "a full 180 deg turn"
    return f"a {60 * abs(t)} deg turn to the {'left' if t > 0 else 'right'}"


def _hex(q: int, r: int) -> str:
    return f"({q},{r})"


def _fumble_text(e: dict, who: str) -> str:
    """A fumble's words (optional rules, p.20): the rider check, the Fumble Table's roll
    and the damage the dragon did to itself ("" when the miss was no fumble)."""
    out = ""
    if e.get("fumble_rider_check") is not None:
        rc = e["fumble_rider_check"]
        out += f"; a fumble (p.20): rider check {rc}"
        if rc == 7:
            return out + f": {who}'s rider is killed, the dragon takes no damage"
    if e.get("fumble_roll") is not None:
        out += "; a fumble (p.20):" if not out else ","
        out += (
            f" Fumble Table roll {e['fumble_roll']}, damage roll {e['fumble_damage_roll']}: "
            f"{who} loses {e['fumble_points']}"
        )
    return out


def _arg_text(e: dict) -> str:
    """A spell's argument, as words (Distort Range, Spin, Heal)."""
    a = e.get("arg")
    if e["spell"] == "Distort Range":
        return " (farther)" if a > 0 else " (nearer)"
    if e["spell"] == "Spin":
        return f" ({60 * a:+d} deg)"
    if e["spell"] == "Heal" and a is not None and 0 <= a < len(PARTS):
        return f" ({PARTS[a].replace('_', ' ')} first)"
    return ""


def describe(e: dict[str, Any]) -> str:
    """One event as a line of text."""
    who, other, ev = e["dragon"], e.get("other"), e["event"]
    if ev == "placed":
        return (
            f"{who} placed at {_hex(e['q'], e['r'])} facing {_facing(e['facing'])}, {e['altitude']}"
        )
    if ev == "initiative":
        return f"{who} moves {e['place'] + 1}{_th(e['place'] + 1)}"
    if ev == "speed":
        return _speed_line(e, who, other)
    if ev == "move" and e.get("kind", "fly") != "fly":
        return _ground_move_line(e, who, other)
    if ev == "move":
        return _flight_line(e, who, other)
    if ev == "leaves the board":
        if e.get("kind") == "take off":
            return f"{who} takes off, but its leap (or the rest of its move) leaves the board"
        return f"{who} has no move that stays on the board at speed {e['speed']}: it leaves"
    if ev == "engages":
        return f"{who} engages {other}"
    if ev == "targets":
        return f"{who} records {other} as its breath target"
    if ev == "moves early":
        return f"{who} moves earlier in the phase, before {other} (p.15)"
    if ev == "rider targets":
        return f"{who}'s rider records {other} as its target"
    if ev == "spell recorded":
        at = "its own dragon" if other == who else other
        return f"{who}'s Wizard records {e['spell']}{_arg_text(e)} at {at}"
    if ev == "spell":
        return _spell_line(e, who, other)
    if ev == "rider shot":
        return _rider_line(e, who, other)
    if ev == "breath":
        return _breath_line(e, who, other)
    if ev == "effects":
        return _effects_line(e, who, other)
    if ev == "close combat":
        return _close_combat_line(e, who, other)
    if ev == "crashes":
        return _crash_line(e, who, other)
    if ev == "game over":
        return (
            "game over: "
            + (f"{e['winner']} wins" if e["winner"] is not None else "a draw")
            + (" (the turn limit)" if e["hit_turn_limit"] else "")
        )
    return str(e)


def _speed_line(e: dict[str, Any], who: str, other: str | None) -> str:
    """A speed recorded, with the speeds it may record (on the ground: a take-off's)."""
    last = "" if e["last"] < 0 else f", last turn {e['last']}"
    lo, hi = e["allowed"]
    if e.get("ground"):
        may = f"a take-off speed {lo}..{hi}" if lo <= hi else "no take-off"
        if e["speed"] == 0:
            return f"{who} stays on the ground (records ground, speed 0; it may record {may})"
        return f"{who} records take-off speed {e['speed']} (may record ground or {lo}..{hi})"
    return (
        f"{who} records speed {e['speed']} (may record {lo}..{hi} this turn: minimum "
        f"{e['minimum']}, maximum {e['maximum']}{last})"
    )


def _ground_move_line(e: dict[str, Any], who: str, other: str | None) -> str:
    """A move that is not a plain flight: a take-off, a landing, a move on the ground (p.17)."""
    to = f"{_hex(e['q'], e['r'])} facing {_facing(e['facing'])}"
    if e["kind"] == "take off":
        frm = e.get("took_off_from")
        at = f" from {_hex(*frm)}" if frm else ""
        return (
            f"{who} takes off{at}: climbs to Very Low and leaps straight ahead (p.17), then "
            f"flies the {e['speed']} point{'s' if e['speed'] != 1 else ''} left to {to}, "
            f"{e['altitude']}"
        )
    if e["kind"] == "land":
        fq, fr = e["flight_end"]
        return (
            f"{who} lands: flies {e['speed'] - 1} points to {_hex(fq, fr)} at Very Low, "
            f"then forward 1 hex for its last point to {to}, Ground"
        )
    if e["ground_roll"] is None:
        return f"{who} turns in its hex on the ground to face {_facing(e['facing'])}"
    return f"{who} moves on the ground, rolled {e['ground_roll']} (1d6+3 hexes), to {to}"


def _flight_line(e: dict[str, Any], who: str, other: str | None) -> str:
    """A flight, with its banks and the turn it carried and left (p.16)."""
    banked = ""
    if e.get("banks"):
        n, d = e["banks"], e["dropped"]
        banked = f" ({n} bank{'s' if n != 1 else ''}"
        banked += f", {d} level{'s' if d != 1 else ''} dropped)" if d else ")"
    turned = ""
    if e.get("carried_turn"):
        turned += f"; it began with {turn_words(e['carried_turn'])} carried from its last move"
    if e.get("turn_left"):
        turned += f"; it ends with {turn_words(e['turn_left'])} in its hex (p.16)"
    return (
        f"{who} flies {e['speed']} points to {_hex(e['q'], e['r'])} facing "
        f"{_facing(e['facing'])}, {e['altitude']}{banked}{turned}"
    )


def _spell_line(e: dict[str, Any], who: str, other: str | None) -> str:
    """A spell cast (pp. 24-25), or why it was not."""
    if e.get("saddlesore"):
        return f"{who}'s rider is saddlesore: it loses its action this turn (p.25)"
    if e.get("not_cast"):
        return f"{who}'s Wizard does not cast {e['spell']}: its target or the Wizard is gone"
    at = "its own dragon" if e["band"] == "own dragon" else f"{other}"
    where = "" if e["band"] == "own dragon" else f" (range {e['range']}, {e['band']})"
    head = (
        f"{who}'s Wizard casts {e['spell']}{_arg_text(e)} at {at}{where} for {e['cost']} "
        f"points ({e['magic_left']} left): needs {e['target_number']}, rolls {e['hit_roll']}"
    )
    if not e["hit"]:
        return head + ", misses: the points are lost"
    if e["spell"] in ("Fireball", "Lightning Bolt"):
        head += f", hits from {e['side']}: location roll {e['location_roll']} -> {e['part']}"
        if e["rider_check"] == 7:
            return head + f", rider check 7: {other}'s rider is killed instead (p.18)"
        check = "" if e["rider_check"] is None else f", rider check {e['rider_check']}"
        return f"{head}{check}, damage roll {e['dice_roll']}, {other} loses {e['effect']}"
    if e["spell"] == "Heal":
        return f"{head}, heals: roll {e['dice_roll']}, {e['effect']} points restored"
    return head + f", takes effect ({e['effect']})"


def _rider_line(e: dict[str, Any], who: str, other: str | None) -> str:
    """A rider's shot (p.18)."""
    head = (
        f"{who}'s rider shoots at {other} (range {e['range']}, {e['band']}): needs "
        f"{e['target_number']}, rolls {e['hit_roll']}"
    )
    if not e["hit"]:
        return head + ", misses"
    head += f", hits from {e['side']}: location roll {e['location_roll']} -> {e['part']}"
    if e["rider_check"] == 7:
        return head + f", rider check 7: {other}'s rider is killed instead (p.18)"
    check = "" if e["rider_check"] is None else f", rider check {e['rider_check']}"
    return (
        f"{head}{check}, damage roll {e['damage_roll']} + {e['plus']}, {other} loses "
        f"{e['points_lost']}"
    )


def _breath_line(e: dict[str, Any], who: str, other: str | None) -> str:
    """A breath attack, with its critical hit or fumble (pp. 19-20)."""
    if e.get("refused"):
        return (
            f"{who} may not breathe at {other}: it has suffered damage from three breath "
            "attacks this turn (p.20)"
        )
    if e["target_number"] < 0:
        return f"{who} cannot breathe at {other} any more: the breath is wasted"
    head = (
        f"{who} breathes at {other} (range {e['range']}, {e['area']} area): needs "
        f"{e['target_number']}, rolls {e['hit_roll']}"
    )
    if not e["hit"]:
        return head + ", misses" + _fumble_text(e, who)
    crit = ""
    if e.get("critical_roll") is not None:
        again = f" after {e['critical_rerolls']} rerolled" if e["critical_rerolls"] else ""
        crit = f"; critical hit (p.19): table roll {e['critical_roll']}{again}: {e['critical']}"
        if e["critical_points"]:
            crit += f" ({e['critical_points']} points to the body)"
    if e.get("rider_check") == 7:
        return (
            f"{head}, hits from {e['side']}: location roll {e['location_roll']} -> "
            f"{e['part']}, rider check 7: {other}'s rider is killed instead (p.18){crit}"
        )
    check = "" if e.get("rider_check") is None else f", rider check {e['rider_check']}"
    return (
        f"{head}, hits from {e['side']}: location roll {e['location_roll']} -> "
        f"{e['part']}{check}, damage roll {e['damage_roll']} ({e['dice']}d6), {other} "
        f"loses {e['points_lost']}{crit}"
    )


def _effects_line(e: dict[str, Any], who: str, other: str | None) -> str:
    """Serious damage: what changed."""
    label = {
        "breath": "breath",
        "claws": "tooth and claw",
        "mr": "maneuverability",
        "max_speed": "maximum speed",
    }
    changes = [
        f"{label[k]} {e[k + '_before']} -> {e[k]}" for k in label if e[k] != e[k + "_before"]
    ]
    if e["in_play"] != e["in_play_before"]:
        changes.append("a part is at 0: removed from play")
    return f"{who}, serious damage: " + ", ".join(changes)


def _close_combat_line(e: dict[str, Any], who: str, other: str | None) -> str:
    """A close combat, with its tactics (p.22)."""
    tac = ""
    if e.get("attacker_tactic") is not None:
        dfn = other if e["attacker"] == who else who
        tac = (
            f"{e['attacker']} attacks with {e['attacker_tactic']}, {dfn} defends with "
            f"{e['defender_tactic']} (attacker {e['tactic_modifier']:+d}, p.22)"
        )
        if e.get("tactic_resets"):
            tac += ", every tactic used: the check marks erased"
        tac += "; "
    if e.get("both_defend"):
        return f"{who} and {other} fight: {tac}both defend, no rolls, no damage (p.22)"
    head = (
        f"{who} and {other} fight: {tac}rolls {e['roll_a']} and {e['roll_b']}, modifier "
        f"difference {e['modifier_difference']:+d}"
    )
    if e["winner"] is None:
        return head + ", a draw"
    if e.get("defend_win"):
        text = f"{head}; {e['winner']} wins defending: no damage to either dragon (p.22)"
        if e["facing_roll"] is not None:
            text += (
                f", loser's facing roll {e['facing_roll']}, the winner turns to face "
                f"{_facing(e['winner_facing'])}"
            )
        return text
    if e.get("lunge_roll") is not None:
        head += f"; Lunge's extra damage roll {e['lunge_roll']} (p.22)"
    if e.get("rider_check") is not None:
        head += f"; rider check {e['rider_check']}" + (
            " kills the loser's rider instead (p.18)" if e["rider_check"] == 7 else ""
        )
    return (
        f"{head}; {e['winner']} wins: column {e['column']}, location roll "
        f"{e['location_roll']}, damage roll {e['damage_roll']} (loser loses "
        f"{e['loser_points_lost']}), its own damage roll {e['self_roll']} (loses "
        f"{e['winner_points_lost']}), turns to face {_facing(e['winner_facing'])}"
    )


def _crash_line(e: dict[str, Any], who: str, other: str | None) -> str:
    """A crash and the fall (pp. 17, 22)."""
    levels = f"{e['levels']} level{'s' if e['levels'] != 1 else ''}"
    text = (
        f"{who} crashes ({CRASH_WHY[e['cause']]}, p.17): falls {levels} from "
        f"{e['fell_from']} to the ground at {_hex(e['q'], e['r'])}"
    )
    if e["facing_roll"] is not None:
        text += (
            f", the winner's facing roll {e['facing_roll']} turns it to face "
            f"{_facing(e['facing'])} (p.22)"
        )
    text += (
        f"; Rear location roll {e['location_roll']} -> {e['part']}, damage roll "
        f"{e['damage_roll']} ({e['dice']}d6), loses {e['points_lost']}"
    )
    if e["rider_roll"] is not None:
        text += f"; its rider rolls {e['rider_roll']}: " + (
            "killed in the fall" if e["rider_killed"] else "survives the fall"
        )
    return text


def _th(k: int) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(k if k < 20 else k % 10, "th")


def events(
    log: np.ndarray,
    names: Sequence[str],
    teams: Sequence[int] | None = None,
    *,
    ground: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Decode a game's log rows (``L_*``, ``K_*``; :func:`~dragonsim.lords.engine.
    logged_game`) into event dicts (``teams``: each dragon's side; None: its seat).
    ``ground``: the game's rule ``lords.ground`` (a crash's dice a level, the fall roll that
    kills a rider; None: the rule as shipped)."""
    if ground is None:
        from ...rules import lords_rules

        ground = lords_rules().get("lords.ground")
    per_level = int(ground["crash_dice_per_level"])
    fall_kills = int(ground["rider_fall_kills"])
    out = []
    sides = list(range(len(names))) if teams is None else list(teams)
    phase = "close combat"  # the last combat phase seen (a zeroed part's crash follows it)

    def team_name(t: int) -> str:
        return " + ".join(n for n, s in zip(names, sides, strict=True) if s == t)

    def nm(k: int):
        return None if k < 0 else names[k]

    for row in log:
        turn, kind, i, j = (int(x) for x in row[: S.L_A])
        v = [int(x) for x in row[S.L_A : S.L_A + S.N_LOG_VALUES]]
        snap = row[S.L_SNAP :].reshape(-1, S.N_SNAP)
        e: dict[str, Any] = {
            "turn": turn,
            "phase": PHASES.get(kind, str(kind)),
            "event": EVENTS.get(kind, str(kind)),
            "dragon": nm(i) if kind != S.K_END else None,
            "other": nm(j)
            if kind
            in (
                S.K_ENGAGE,
                S.K_TARGET,
                S.K_BREATH,
                S.K_CC,
                S.K_RTARGET,
                S.K_RIDER,
                S.K_EARLY,
                S.K_SPELL,
                S.K_SPELL_REC,
            )
            else None,
        }
        if kind in (S.K_RIDER, S.K_BREATH, S.K_CC):
            phase = e["phase"]
        if kind == S.K_SETUP:
            q, r, f, alt = (int(x) for x in snap[i, :4])
            e.update(q=q, r=r, facing=f, altitude=ALTITUDES[alt])
        elif kind == S.K_INIT:
            e.update(place=v[0])
        elif kind == S.K_SPEED:
            _speed_event(e, v)
        elif kind == S.K_MOVE:
            _move_event(e, v, snap, i)
        elif kind == S.K_LEAVE:
            e.update(speed=v[0], mr=MRS[v[1]], kind=MOVE_KINDS[v[6]])
        elif kind == S.K_CRASH:
            _crash_event(e, v, snap, i, per_level, fall_kills, phase)
        elif kind == S.K_BREATH:
            _breath_event(e, v)
        elif kind == S.K_SPELL_REC:
            e.update(spell=SPELLS[v[0]], arg=v[1], magic_left=v[2])
        elif kind == S.K_SPELL:
            _spell_event(e, v)
        elif kind == S.K_RIDER:
            _rider_event(e, v)
        elif kind == S.K_EFFECT:
            _effect_event(e, v)
        elif kind == S.K_CC:
            _close_combat_event(e, v, nm)
        elif kind == S.K_END:
            e.update(winner=None if i < 0 else team_name(i), hit_turn_limit=bool(j))
        out.append(e)
    return out


def _speed_event(e, v) -> None:
    """A speed recorded: the speed, last turn's, the streak and cooldown, the limits."""
    e.update(
        speed=v[0],
        last=v[1],
        streak=v[2],
        cooldown=v[3],
        minimum=v[4],
        maximum=v[5],
        allowed=[v[10], v[11]],
        ground=bool(v[12]),  # on the ground: 0 stays there, allowed a take-off's
    )


def _move_event(e, v, snap, i) -> None:
    """A move: its end state and kind (flying, taking off, landing, on the ground), with the
    banks flown and the turn carried when the advanced rules have them."""
    mk = MOVE_KINDS[v[6]]
    e.update(
        speed=v[0],
        mr=MRS[v[1]],
        q=v[2],
        r=v[3],
        facing=v[4],
        altitude=ALTITUDES[v[5]],
        kind=mk,
        ground_roll=(v[7] or None) if mk == "ground" else None,
        flight_end=[v[8], v[9]] if mk == "land" else None,
        took_off_from=[v[8], v[9]] if mk == "take off" else None,
        # where the leap ended (the row's snapshot is after it)
        leap_end=[int(snap[i, 0]), int(snap[i, 1])] if mk == "take off" else None,
    )
    if v[10]:  # banking (advanced rules, p.16): the banks flown, the levels dropped
        e.update(banks=v[10], dropped=v[11])
    if v[12] or v[13]:
        # turning between move phases (p.16): the turn carried into the move (signed
        # 60-degree steps, + to the left; 3 a full 180) and the one it leaves
        e.update(carried_turn=v[12], turn_left=v[13])


def _crash_event(e, v, snap, i, per_level, fall_kills, phase) -> None:
    """A crash (advanced rules, p.17): its cause, the fall, the Rear column's location, the
    damage, the rider's fall roll (p.22); a zeroed part's crash in the combat ``phase`` it
    followed."""
    # p.17: the cause; p.22: the Rear column, 1d6 a level fallen, the rider's 1d6
    cause = CRASH_CAUSES[v[0]]
    if cause == "zeroed":
        e["phase"] = phase
    q, r, _, _ = (int(x) for x in snap[i, :4])
    e.update(
        cause=cause,
        levels=v[1],
        fell_from=ALTITUDES[v[1]] if 0 <= v[1] < len(ALTITUDES) else str(v[1]),
        q=q,
        r=r,
        facing=v[8],  # after the fall (a crashing winner's rolled facing, p.22)
        altitude=ALTITUDES[0],
        side=SIDES[3],
        location_roll=v[2],
        part=PARTS[v[3]].replace("_", " "),
        damage_roll=v[4],
        dice=v[1] * per_level,
        points_lost=v[5],
        rider_roll=v[6] if v[6] > 0 else None,
        rider_killed=(v[6] <= fall_kills) if v[6] > 0 else None,
        facing_roll=v[7] + 1 if v[7] >= 0 else None,
    )


def _breath_event(e, v) -> None:
    """A breath attack: the target number, the rolls, where it hit and the damage; the optional
    rules' critical hit, fumble and three-hit limit (pp. 19-20)."""
    hit = v[2] == 1 and v[0] >= 0
    e.update(
        range=v[9],
        area=AREAS[v[10]] if v[10] >= 0 else None,
        target_number=v[0],
        hit_roll=v[1] if v[0] >= 0 else None,
        hit=hit,
        side=SIDES[v[3]] if hit else None,
        location_roll=v[4] if hit else None,
        part=PARTS[v[5]].replace("_", " ") if hit else None,
        damage_roll=v[6] if hit else None,
        dice=v[8] if hit else None,
        points_lost=v[7] if hit else 0,
        rider_check=v[11] if hit and v[11] > 0 else None,
        # the optional rules (pp. 19-20)
        refused=v[0] == -2,
        critical_roll=v[12] if hit and v[12] > 0 else None,
        critical_rerolls=v[13] if hit and v[12] > 0 else None,
        critical=S.CRITICAL_EFFECTS[v[14]] if hit and v[12] > 0 else None,
        critical_points=v[15] if hit and v[12] > 0 else None,
        fumble_rider_check=v[16] if not hit and v[16] > 0 else None,
        fumble_roll=v[17] if not hit and v[17] > 0 else None,
        fumble_damage_roll=v[18] if not hit and v[17] > 0 else None,
        fumble_points=v[19] if not hit and v[17] > 0 else None,
    )


def _spell_event(e, v) -> None:
    """A spell cast (the Wizard, pp. 24-25), or one not cast: its roll, effect and, for Fireball
    and Lightning Bolt, where it hit."""
    if v[0] < 0:
        e.update(
            spell=SPELLS[v[4]] if v[4] >= 0 else None,
            arg=None,
            saddlesore=v[0] == -2,
            not_cast=v[0] == -1,
        )
    else:
        hit = v[3] == 1
        dmg = SPELLS[v[0]] in ("Fireball", "Lightning Bolt")
        e.update(
            spell=SPELLS[v[0]],
            target_number=v[1],
            hit_roll=v[2],
            hit=hit,
            arg=v[4],
            cost=v[5],
            magic_left=v[6],
            effect=v[7] if hit else 0,
            side=SIDES[v[8]] if hit and dmg else None,
            location_roll=v[9] if hit and dmg else None,
            part=PARTS[v[10]].replace("_", " ") if hit and dmg else None,
            dice_roll=v[11] if hit and (dmg or SPELLS[v[0]] == "Heal") else None,
            rider_check=v[12] if hit and v[12] > 0 else None,
            band=("medium", "long", "own dragon")[v[13]],
            range=v[14],
        )


def _rider_event(e, v) -> None:
    """A rider's shot (advanced rules, p.18): the band, the rolls, where it hit and the damage."""
    hit = v[2] == 1
    e.update(
        range=v[9],
        band=("medium", "long")[v[8]],
        target_number=v[0],
        hit_roll=v[1],
        hit=hit,
        side=SIDES[v[3]] if hit else None,
        location_roll=v[4] if hit else None,
        part=PARTS[v[5]].replace("_", " ") if hit else None,
        rider_check=v[11] if hit and v[11] > 0 else None,
        damage_roll=v[6] if hit and not v[11] == 7 else None,
        plus=v[12] if hit and not v[11] == 7 else None,
        points_lost=v[7] if hit else 0,
    )


def _effect_event(e, v) -> None:
    """Serious damage effects: each value after and before."""
    # serious damage (p.12): breath and claws a step down, MR two steps, maximum
    # speed -2 a wing; removal when a part reaches 0
    for k, now, before in (
        ("breath", BREATHS[v[0]], BREATHS[v[5]]),
        ("claws", CLAWS[v[1]], CLAWS[v[6]]),
        ("mr", MRS[v[2]], MRS[v[7]]),
        ("max_speed", v[3], v[8]),
        ("in_play", bool(v[4]), bool(v[9])),
    ):
        e[k] = now
        e[k + "_before"] = before


def _close_combat_event(e, v, nm) -> None:
    """A close combat: the tactics (optional rules, p.22), the rolls, the column, the location,
    the damage each side took and the facings."""
    won = v[0] >= 0
    tac = v[13] > 0  # the optional tactics (p.22)
    dw = won and tac and v[4] < 0  # a Defend win: no damage rolled
    e.update(
        attacker=nm(v[17]) if tac else None,
        attacker_tactic=TACTICS[v[13] - 1] if tac else None,
        defender_tactic=TACTICS[v[14] - 1] if tac else None,
        tactic_modifier=v[15] if tac else None,
        lunge_roll=v[16] if v[16] > 0 else None,
        defend_win=dw,
        both_defend=tac and v[13] == v[14] == len(TACTICS),
        tactic_resets=v[18] if tac else 0,
    )
    won = won and not dw
    e.update(
        winner=nm(v[0]),
        roll_a=v[1],
        roll_b=v[2],
        modifier_difference=v[3],
        column=v[4] + 1 if won else None,
        location_roll=v[5] if won else None,
        damage_roll=v[6] if won else None,
        loser_points_lost=v[7] if won else 0,
        self_roll=v[8] if won else None,
        winner_points_lost=v[9] if won else 0,
        facing_roll=v[10] + 1 if won or (dw and v[10] >= 0) else None,
        winner_facing=v[11] if won or dw else None,
        rider_check=v[12] if won and v[12] > 0 else None,
    )
