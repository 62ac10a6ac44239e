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

The script (JSON; a Python dict of the same shape)
--------------------------------------------------
::

    {
      "title": "Example of Play",
      "range_modifier": false,          # optional: the Range Key's row (default true)
      "rules": {"lords.altitude_mod": [0, 0, 1, 1, 2]},   # optional rule overrides
      "dragons": [
        {"dragon": "Kelvinight", "name": "Nick's", "team": 0,   # name, team optional
         "hex": [32, 12],               # the map's (column, row); or "axial": [q, r]
         "facing": "W", "altitude": "Low",
         "last_speed": 9}               # optional: limits turn 1's speed (default: free)
      ],
      "turns": [
        {"dice": [8, 8, 9, 5],
         "moves": {
           "Kelvinight": {"speed": 13, "path": "7F 3C"},
           "Lectronist": {"speed": 9, "path": "9F", "target": "Kelvinight"}}}
      ]
    }

A move gives ``speed`` and either ``path`` or ``end``:

* ``path``: the rulebook's actions, in order, separated by spaces or commas, each optionally
  with a count (``3F``): ``F`` one hex forward (1 point), ``C`` climb (1 hex forward and a
  level up, 2 points), ``D`` dive (1 hex forward and a level down, free), ``L1`` / ``R1``
  turn 60 degrees left / right, ``L2`` / ``R2`` 120 degrees, ``T3`` (or ``L3``, ``R3``) 180
  degrees, at the maneuver diagram's costs (pp. 8-9); with the advanced banking rule (p.16)
  ``BL`` / ``BR`` bank to the hex forward-left / forward-right keeping the facing, for twice
  the 60-degree cost (at least 1), the second bank of each two in sequence dropping a level.
  The path must cost exactly the speed, never turn twice in a row, and stay on the board and
  within Very Low..Very High (no bank after a bank at Very Low that would crash it). With
  turning between move phases (p.16, rule ``lords.advanced.turn_between``) a path that begins
  with a turn continues the turn the dragon's last path left in its hex, the same way and for
  the balance of the whole turn's cost, 180 degrees at most, and the turn this path leaves is
  carried into the next move.
* ``end``: ``{"hex": [col, row] or "axial": [q, r], "facing": "SE", "altitude": "High"}``
  (altitude optional: unchanged); some legal path of exactly that speed must end there.

and optionally ``target`` (the dragon it records as its breath target; none when absent),
``engage`` (true: engage the dragon in front after moving, p.9), ``side`` (when its breath
hits through a corner of the target's hex, the side the attacker chooses: F, FR, RR, R, RL,
FL), ``facing`` (the facing it turns to after winning a close combat; it keeps its facing
when absent) and ``rider`` (with the advanced rider rules, the dragon its Javelin Thrower,
Archer or Crossbow Shooter shoots at in the rider actions phase, p.18; none when absent) and
``early`` (true, with the advanced rule: the dragon announces at its first chance that it
moves earlier in the phase, p.15) and ``land`` (true, with the advanced landing rule: the
move's ``path`` or ``end`` is its flight of speed less 1 points, ending at Very Low, and the
dragon then lands in the hex ahead, p.17), ``tactic`` (with the optional tactics, p.22,
the tactic it uses if it fights a close combat this turn: Lunge, Slash, Bite, Tail Swing, Fake
or Defend; each at most five times a game), and with the Wizard (rule
``lords.advanced.wizard``) ``spell`` (the spell its Wizard records, by name), ``spell_target``
(the dragon it is cast at: its own dragon's name for its own dragon) and ``spell_arg`` (Distort
Range: ``"farther"`` or ``"nearer"``; Spin: the degrees, -120..120 in steps of 60, positive
to the left, counter-clockwise as facings count, negative to the right; Heal: the part its
first points go to, ``head``, ``body``, ``tail``, ``left_wing`` or ``right_wing``, the rest
to the part with the fewest points left).

On the ground (advanced rules, p.17) a dragon records ``speed`` 0 to stay there, and its move
is the hex and facing it moves to on the ground (``end`` with altitude ``Ground`` or none, or a
``path`` of ``F`` and turns, which cost nothing there); or it records a take-off speed, and its
``path`` or ``end`` is the move of the points left after the take-off's leap (its minimum
speed in hexes straight ahead at Very Low, for its minimum speed plus 1 points).

``dice`` are the rolls each turn asks for, as the rulebook prints them (a roll of several dice
is their sum): the initiative rolls (2d6 a dragon in play, in the script's dragon order, then
any roll-offs, tied dragons in that order), then in the movement phase the 1d6 of each move on
the ground (advanced rules, p.17: "roll 1d6+3"; none for a dragon a zeroed tail or wing keeps
in its hex), in the order the dragons move, then with the advanced rider rules each rider
attack in initiative order (its 2d6 hit roll; on a hit the 2d6 location roll, the 2d6 rider
check when the body of a dragon with a rider is hit and riders can be killed, then the 1d6
damage unless that check was the 7 that killed the rider), then each breath attack in
initiative order (its 2d6 hit roll; on a hit the 2d6 location roll, the rider check as
before, and the damage roll of its breath's dice; with the optional critical hits, p.19, a 12
at a target number of 11 or less then rolls the 2d6 Critical Hit Table, again for each result
that is rerolled; with the optional fumbles, p.20, a 2 rolls the attacker's own rider check as
before, then the 2d6 Fumble Table and its damage dice; a breath refused by the three-hit limit,
p.20, rolls nothing), then each close combat (each dragon's
2d6, the winner's 1d6 column, 2d6 location, the rider check as before, tooth-and-claw damage
roll, its own 1d6 damage, the loser's 1d6 new facing; with the optional tactics, p.22, a
Lunge winner's extra 1d6 comes after its tooth-and-claw roll, a Defend winner rolls none of
column, location, damage and own damage, and when both Defend nothing is rolled). With the
advanced crash rules (p.17)
each crash rolls, where it happens, the 2d6 location on the Rear column, the damage roll (1d6 a
level fallen) and, for a dragon with a rider, the rider's 1d6 in the fall (1-3 kills it,
p.22): a Very Low engagement's two crashes (the earlier in initiative first) come before that
fight's rolls; after a fight in the air the crashes below the minimum speed or with a tail or
wing at 0 come loser first, and a crashing winner first rolls its 1d6 facing (p.22); a tail or
wing zeroed by breath or a rider crashes after the breath attacks (or the rider attacks), in
the script's dragon order. They may be given turn by turn
(``"dice"`` in each turn: a turn reads only its own) or as one list for the game (``"dice"``
beside ``"turns"``). Rolls a turn does not ask for are reported, not an error (the Example of
Play's location and damage rolls are not asked for when its hit roll misses under the
rulebook's own range modifier). Running out of rolls, a roll the dice cannot show, a speed
outside the limits, a move that no legal path makes, an engagement or target the rules do not
allow: each is one :class:`~dragonsim.errors.UserError` naming the turn, the dragon and the
roll or decision.

The game is as long as the script: it ends after the last scripted turn (or when a side has
won). ``python -m dragonsim replay --script example`` plays the Example of Play (rulebook pp.
36-37), shipped as ``dragonsim/lords/views/scripts/example_of_play.json``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import UserError, read_json, resolve_name
from ...rules.lords import ALTITUDES, TACTICS
from ..game import state as S
from ..game.hexes import DIRECTION_NAMES, DQ, DR, from_offset, on_board
from ..game.sheets import rule_switches
from .replay import SIDES, Replay, turn_words

#: the scripts shipped with the package, by name (``--script example``)
SCRIPTS_DIR = Path(__file__).with_name("scripts")
SHIPPED = {"example": "example_of_play.json", "example-of-play": "example_of_play.json"}
#: the most turns a script may give
MAX_TURNS = 200
#: the most forced rolls a script may give
MAX_ROLLS = 20_000

_TOKEN = re.compile(r"^(\d*)(F|C|D|L1|L2|L3|R1|R2|R3|T3|BL|BR)$")


# =================================================================================================
# the script, read and checked
# =================================================================================================


@dataclass(frozen=True)
class Move:
    """One dragon's decisions in one turn."""

    speed: int
    path: tuple[str, ...] | None  # the actions, one per entry (counts expanded)
    end: tuple[int, int, int, int] | None  # axial q, r, facing, altitude index (-1 unchanged)
    target: int  # -1 none
    engage: bool
    side: int  # -1 not given
    facing: int  # -1 keep
    rider: int = -1  # the rider's target (advanced rules, p.18), -1 none
    early: bool = False  # move earlier in the phase (advanced rules, p.15)
    land: bool = False  # land after the move's flight (advanced rules, p.17)
    tactic: int = -1  # the close-combat tactic (optional rules, p.22), -1 not given
    spell: int = -1  # the Wizard's spell (index in SPELLS), -1 none (advanced rules, p.24)
    spell_target: int = -1
    spell_arg: int = 0


@dataclass(frozen=True)
class Script:
    """A checked script (:func:`load_script`): the dragons, their start, each turn's moves
    (``moves[t][i]``: turn ``t + 1``, dragon ``i``, or None) and dice."""

    title: str
    dragons: list[str]  # what :func:`~dragonsim.lords.game.sheets.sheet` reads
    names: list[str]
    teams: list[int]
    scenario: list[tuple[int, int, int, int, int]]  # q, r, facing, altitude, last speed
    moves: list[list[Move | None]]
    dice: list[list[int]] | list[int]  # per turn, or one list for the game
    per_turn: bool
    range_modifier: bool
    rules: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    digest: str = ""

    @property
    def turns(self) -> int:
        return len(self.moves)


def _err(where: str, msg: str) -> UserError:
    return UserError(f"script{': ' + where if where else ''}: {msg}")


def _whole(v, where: str, what: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise _err(where, f"{what} must be a whole number {lo}..{hi}, got {v!r}")
    return v


def _direction(v, where: str, what: str, names=DIRECTION_NAMES) -> int:
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(names):
        return v
    if not isinstance(v, str):
        raise _err(where, f"{what} must be one of {', '.join(names)}, got {v!r}")
    try:
        return list(names).index(resolve_name(v, names, what))
    except UserError as e:
        raise _err(where, str(e)) from None


def _altitude(v, where: str) -> int:
    levels = ALTITUDES  # Ground .. Very High (Ground only under the advanced rules, p.17)
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(ALTITUDES):
        return v
    if not isinstance(v, str):
        raise _err(where, f"altitude must be one of {', '.join(levels)}, got {v!r}")
    try:
        return ALTITUDES.index(resolve_name(v, levels, "altitude"))
    except UserError as e:
        raise _err(where, str(e)) from None


def _hex(spec: Mapping, where: str) -> tuple[int, int]:
    if "hex" in spec and "axial" in spec:
        raise _err(where, "give 'hex' (column, row) or 'axial' (q, r), not both")
    for key in ("hex", "axial"):
        if key in spec:
            v = spec[key]
            if (
                not isinstance(v, Sequence)
                or isinstance(v, str)
                or len(v) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
            ):
                raise _err(where, f"'{key}' must be two whole numbers, got {v!r}")
            return from_offset(*v) if key == "hex" else (int(v[0]), int(v[1]))
    raise _err(where, "say where: 'hex': [column, row] (as on the map) or 'axial': [q, r]")


def parse_path(text, where: str = "") -> tuple[str, ...]:
    """A path's actions, counts expanded: ``"F L1 4F R1"`` -> ``("F", "L1", "F", "F", "F",
    "F", "R1")`` (``T3``, ``L3`` and ``R3`` are all the half turn, written ``T3``). A
    UserError names a token that is not an action, and two turns in a row ("may not turn
    twice in a row", the maneuver diagram, p.9)."""
    if isinstance(text, Sequence) and not isinstance(text, str):
        text = " ".join(str(t) for t in text)
    if not isinstance(text, str) or not text.strip():
        raise _err(where, f"'path' must be actions such as \"F L1 4F R1\", got {text!r}")
    out: list[str] = []
    for tok in re.split(r"[\s,]+", text.strip().upper()):
        m = _TOKEN.match(tok)
        if not m:
            raise _err(
                where,
                f"{tok!r} is not a move action; use F (forward), C (climb), D (dive), L1/R1 "
                f"(60 degrees), L2/R2 (120), T3 (180), BL/BR (bank), each with an optional "
                f"count, e.g. 4F",
            )
        n = int(m.group(1) or 1)
        act = "T3" if m.group(2) in ("L3", "R3") else m.group(2)
        if act[0] in "LRT" and (n != 1 or (out and out[-1][0] in "LRT")):
            raise _err(where, f"path {text!r} turns twice in a row (p.9: one turn at a time)")
        out.extend([act] * n)
    return tuple(out)


def path_end(path: Sequence[str]) -> tuple[int, int, int, int]:
    """Where a path leads a dragon at (0, 0) facing E: ``(dq, dr, facing change, altitude
    change)`` (the altitude after the drops of its banks, :func:`path_banks`)."""
    q = r = f = alt = 0
    run = 0
    for a in path:
        if a in ("F", "C", "D"):
            q, r = q + int(DQ[f]), r + int(DR[f])
            alt += {"F": 0, "C": 1, "D": -1}[a]
        elif a in ("BL", "BR"):
            d = (f + (1 if a == "BL" else -1)) % 6
            q, r = q + int(DQ[d]), r + int(DR[d])
            run += 1
            alt -= 1 if run % 2 == 0 else 0
            continue
        else:
            f = (f + {"L1": 1, "L2": 2, "R1": -1, "R2": -2, "T3": 3}[a]) % 6
        run = 0
    return q, r, f, alt


def path_banks(path: Sequence[str], each: bool = False) -> tuple[int, int]:
    """A path's banks and the levels they drop: "for every two banks in sequence, the
    dragon's altitude drops by one level. However, a dragon may bank, move forward or turn,
    and then bank again with no altitude change" (p.16); with ``each`` (the reading
    ``lords.bank_run = each``) every bank after the first of a run drops a level.

    >>> path_banks(("BL", "BR", "BL", "F", "BL", "L1", "BR"))
    (5, 1)
    >>> path_banks(("BL", "BL", "BR", "BR"))
    (4, 2)
    >>> path_banks(("BL", "BL", "BR", "BR"), each=True)
    (4, 3)
    """
    banks = drops = run = 0
    for a in path:
        if a in ("BL", "BR"):
            banks += 1
            run += 1
            drops += 1 if _drops(run, each) else 0
        else:
            run = 0
    return banks, drops


def _drops(run: int, each: bool) -> bool:
    """Does the ``run``-th bank in a row drop a level (p.16; reading ``lords.bank_run``)?"""
    return run >= 2 if each else run % 2 == 0


_SIXTHS = {"L1": 1, "L2": 2, "R1": -1, "R2": -2, "T3": 3}


def path_cost(path: Sequence[str], turn_cost_row, bank_cost: int = 0, carry: int = 0) -> int:
    """Movement points a path spends: 1 a hex forward, 2 a climb, 0 a dive, a turn its
    maneuver-diagram cost at the dragon's rating (``turn_cost_row``: 0, 60, 120, 180
    degrees; p.8), a bank ``bank_cost`` (p.16). With a turn ``carry`` (signed 60-degree steps)
    carried from the last move, a first turn continues it for "the balance of the points for
    the total turn" (turning between move phases, p.16; :func:`path_carry_error` says whether
    it may).

    >>> path_cost(("R1", "F"), [0, 1, 3, 5], carry=-2)  # MR E: 180 deg in all, 5 - 3
    3
    """
    step = {"F": 1, "C": 2, "D": 0, "BL": bank_cost, "BR": bank_cost}
    total = 0
    for n, a in enumerate(path):
        if a in step:
            total += step[a]
        elif n == 0 and carry:
            a0 = abs(carry)
            total += int(turn_cost_row[a0 + abs(_SIXTHS[a])]) - int(turn_cost_row[a0])
        else:
            total += int(turn_cost_row[abs(_SIXTHS[a])])
    return total


def path_carry_error(path: Sequence[str], carry: int) -> str:
    """Why a path may not begin as it does after a move that left the dragon turned ``carry``
    in its hex (turning between move phases, p.16: "it may only turn in the same direction
    (left or right) as in the previous movement phase", 180 degrees at most in that hex), or
    "" when it may."""
    if not carry or not path or path[0] not in _SIXTHS:
        return ""
    k = _SIXTHS[path[0]]
    if abs(carry) == 3:
        return (
            f"begins with {path[0]}, but its last move ended with a full 180-degree turn in "
            "that hex, which it may not turn past (p.16; reading lords.turn_between_180)"
        )
    if k == 3 or (k > 0) != (carry > 0):
        return (
            f"begins with {path[0]}, but its last move left it with {turn_words(carry)} in "
            "its hex, and it may only continue that turn the same way (p.16)"
        )
    if abs(carry) + abs(k) > 3:
        return (
            f"begins with {path[0]}, which after {turn_words(carry)} left by its last move "
            "would turn past 180 degrees in that hex (p.16)"
        )
    return ""


def path_turn_left(path: Sequence[str]) -> tuple[int, int]:
    """The turn a path leaves in its last hex, for turning between move phases (p.16: "If a
    dragon ends its move by turning 60 deg or 120 deg in a hex"): ``(SRT_LEFT, t)`` when it
    ends with a turn after a step (``t`` its signed 60-degree steps, 3 the half turn) or
    with a step (``t`` 0), ``(SRT_ONLY, t)`` when it is one turn, which continues the turn
    the dragon carries."""
    if path and path[-1] in _SIXTHS:
        return (S.SRT_ONLY if len(path) == 1 else S.SRT_LEFT), _SIXTHS[path[-1]]
    return S.SRT_LEFT, 0


def _move(spec, where: str, names: list[str]) -> Move:
    if not isinstance(spec, Mapping):
        raise _err(where, f"a move must be a table (speed, path or end, ...), got {spec!r}")
    allowed = {
        "speed",
        "path",
        "end",
        "target",
        "engage",
        "side",
        "facing",
        "rider",
        "early",
        "land",
        "tactic",
        "spell",
        "spell_target",
        "spell_arg",
        "note",
    }
    extra = sorted(set(spec) - allowed)
    if extra:
        raise _err(where, f"unknown key {extra[0]!r}; a move has {', '.join(sorted(allowed))}")
    if "speed" not in spec:
        raise _err(where, "a move needs its 'speed'")
    speed = _whole(spec["speed"], where, "speed", 0, 99)
    if ("path" in spec) == ("end" in spec):
        raise _err(where, "give the move as 'path' (actions) or 'end' (where it ends), one")
    path = end = None
    if "path" in spec:
        path = parse_path(spec["path"], where)
    else:
        e = spec["end"]
        if not isinstance(e, Mapping):
            raise _err(where, f"'end' must be a table (hex, facing, altitude), got {e!r}")
        q, r = _hex(e, where)
        if "facing" not in e:
            raise _err(where, "'end' needs the 'facing' it ends with")
        f = _direction(e["facing"], where, "facing")
        alt = _altitude(e["altitude"], where) if "altitude" in e else -1
        end = (q, r, f, alt)
    target = -1
    if spec.get("target") is not None:
        target = names.index(_name(spec["target"], names, where))
    engage = spec.get("engage", False)
    if not isinstance(engage, bool):
        raise _err(where, f"'engage' must be true or false, got {engage!r}")
    side = _direction(spec["side"], where, "side", SIDES) if spec.get("side") is not None else -1
    facing = -1
    if spec.get("facing") is not None:
        facing = _direction(spec["facing"], where, "facing")
    rider = -1
    if spec.get("rider") is not None:
        rider = names.index(_name(spec["rider"], names, where))
    early = spec.get("early", False)
    if not isinstance(early, bool):
        raise _err(where, f"'early' must be true or false, got {early!r}")
    land = spec.get("land", False)
    if not isinstance(land, bool):
        raise _err(where, f"'land' must be true or false, got {land!r}")
    tactic = -1
    if spec.get("tactic") is not None:
        v = spec["tactic"]
        if not isinstance(v, str):
            raise _err(where, f"'tactic' must name one of {', '.join(TACTICS)}, got {v!r}")
        try:
            tactic = TACTICS.index(resolve_name(v, TACTICS, "tactic"))
        except UserError as e:
            raise _err(where, str(e)) from None
    spell, spell_target, spell_arg = _spell(spec, where, names)
    return Move(
        speed,
        path,
        end,
        target,
        engage,
        side,
        facing,
        rider,
        early,
        land,
        tactic,
        spell,
        spell_target,
        spell_arg,
    )


def _spell(spec, where: str, names: list[str]) -> tuple[int, int, int]:
    """A move's ``spell``, ``spell_target`` and ``spell_arg`` as (spell, target, argument)."""
    from ...rules.lords import PARTS, SPELLS

    if spec.get("spell") is None:
        for k in ("spell_target", "spell_arg"):
            if spec.get(k) is not None:
                raise _err(where, f"'{k}' goes with a 'spell'")
        return -1, -1, 0
    if not isinstance(spec["spell"], str):
        raise _err(where, f"'spell' must be a spell's name, got {spec['spell']!r}")
    try:
        name = resolve_name(spec["spell"], SPELLS, "spell")
    except UserError as e:
        raise _err(where, str(e)) from None
    sp = SPELLS.index(name)
    if spec.get("spell_target") is None:
        raise _err(where, f"a spell needs its 'spell_target' (a dragon, or its own for {name})")
    target = names.index(_name(spec["spell_target"], names, where))
    arg = spec.get("spell_arg")
    if name == "Distort Range":
        if arg not in ("farther", "nearer"):
            raise _err(where, f"Distort Range needs 'spell_arg' farther or nearer, got {arg!r}")
        return sp, target, 1 if arg == "farther" else -1
    if name == "Spin":
        if isinstance(arg, bool) or not isinstance(arg, int) or arg % 60 or not arg:
            raise _err(where, f"Spin needs 'spell_arg' degrees: -120, -60, 60 or 120, got {arg!r}")
        return sp, target, arg // 60  # (the kernel refuses beyond 120 degrees)
    if name == "Heal":
        if arg is None:
            return sp, target, -1
        if arg not in PARTS:
            raise _err(where, f"Heal's 'spell_arg' is a part ({', '.join(PARTS)}), got {arg!r}")
        return sp, target, PARTS.index(arg)
    if arg is not None:
        raise _err(where, f"{name} takes no 'spell_arg', got {arg!r}")
    return sp, target, 0


def _name(v, names: list[str], where: str) -> str:
    if not isinstance(v, str):
        raise _err(where, f"name a dragon of the script ({', '.join(names)}), got {v!r}")
    try:
        return resolve_name(v, names, "dragon")
    except UserError as e:
        raise _err(where, str(e)) from None


def _dice_list(v, where: str) -> list[int]:
    if not isinstance(v, Sequence) or isinstance(v, str):
        raise _err(where, f"'dice' must be a list of rolls, got {v!r}")
    return [_whole(x, where, "a roll", 0, 6 * 99) for x in v]


def load_script(source) -> Script:
    """Read and check a script: a shipped name (``"example"``), a JSON file's path, or a
    mapping of the same shape (see the module docstring). A UserError names the first thing
    that is wrong, and where."""
    origin = ""
    if isinstance(source, str | Path):
        key = str(source).strip().lower()
        if key in SHIPPED:
            path = SCRIPTS_DIR / SHIPPED[key]
            origin = f"{SHIPPED[key]} (shipped)"
        else:
            path = Path(source)
            if path.suffix.lower() != ".json":
                raise UserError(
                    f"script {str(source)!r}: name a JSON file (.json) or a shipped script "
                    f"({', '.join(sorted(SHIPPED))})"
                )
            origin = str(source)
        data = read_json(path, "script")
    elif isinstance(source, Mapping):
        data = source
    else:
        raise UserError(f"a script is a shipped name, a .json path or a mapping, got {source!r}")
    if not isinstance(data, Mapping):
        raise _err("", f"the script must be a JSON object (a table), got {type(data).__name__}")
    allowed = {"title", "source", "note", "dragons", "turns", "dice", "range_modifier", "rules"}
    extra = sorted(set(data) - allowed)
    if extra:
        raise _err("", f"unknown key {extra[0]!r}; a script has {', '.join(sorted(allowed))}")
    dragons = data.get("dragons")
    if not isinstance(dragons, Sequence) or isinstance(dragons, str) or not dragons:
        raise _err("", "'dragons' must list the dragons (dragon, hex, facing, altitude)")
    if not 2 <= len(dragons) <= S.MAXD:
        raise _err("", f"a game needs 2..{S.MAXD} dragons, got {len(dragons)}")
    kinds, names, teams, scen = [], [], [], []
    for k, d in enumerate(dragons):
        where = f"dragon {k + 1}"
        if not isinstance(d, Mapping) or "dragon" not in d:
            raise _err(where, "each dragon needs 'dragon' (a ready-made name or a design)")
        keys = {"dragon", "name", "team", "hex", "axial", "facing", "altitude", "last_speed"}
        extra = sorted(set(d) - keys)
        if extra:
            raise _err(where, f"unknown key {extra[0]!r}")
        kinds.append(d["dragon"])
        names.append(str(d.get("name") or d["dragon"]))
        teams.append(_whole(d.get("team", k), where, "team", 0, S.MAXD - 1))
        q, r = _hex(d, where)
        if "facing" not in d or "altitude" not in d:
            raise _err(where, "each dragon needs its 'facing' and 'altitude'")
        last = d.get("last_speed")
        scen.append(
            (
                q,
                r,
                _direction(d["facing"], where, "facing"),
                _altitude(d["altitude"], where),
                -1 if last is None else _whole(last, where, "last_speed", 0, 99),
            )
        )
    if len(set(n.lower() for n in names)) < len(names):
        raise _err("", f"two dragons share a name ({', '.join(names)}); give each a 'name'")
    turns = data.get("turns")
    if not isinstance(turns, Sequence) or isinstance(turns, str) or not turns:
        raise _err("", "'turns' must list the turns, each with its 'moves' (and 'dice')")
    if len(turns) > MAX_TURNS:
        raise _err("", f"at most {MAX_TURNS} turns, got {len(turns)}")
    per_turn = "dice" not in data
    moves, dice = [], []
    for t, turn in enumerate(turns):
        where = f"turn {t + 1}"
        if not isinstance(turn, Mapping) or "moves" not in turn:
            raise _err(where, "each turn needs its 'moves' (and, turn by turn, its 'dice')")
        extra = sorted(set(turn) - {"moves", "dice", "note"})
        if extra:
            raise _err(where, f"unknown key {extra[0]!r}; a turn has moves, dice, note")
        if per_turn:
            if "dice" not in turn:
                raise _err(where, "give this turn's 'dice' (or one 'dice' list for the game)")
            dice.append(_dice_list(turn["dice"], where))
        elif "dice" in turn:
            raise _err(where, "the dice are one list for the game: no 'dice' in a turn")
        mv = turn["moves"]
        if not isinstance(mv, Mapping):
            raise _err(where, "'moves' must map each dragon's name to its move")
        row: list[Move | None] = [None] * len(names)
        for who, spec in mv.items():
            name = _name(who, names, where)
            row[names.index(name)] = _move(spec, f"{where}, {name}", names)
        moves.append(row)
    if not per_turn:
        dice = _dice_list(data["dice"], "dice")
    n_rolls = sum(len(d) for d in dice) if per_turn else len(dice)
    if n_rolls > MAX_ROLLS:
        raise _err("", f"at most {MAX_ROLLS:,} rolls, got {n_rolls:,}")
    rm = data.get("range_modifier", True)
    if not isinstance(rm, bool):
        raise _err("", f"'range_modifier' must be true or false, got {rm!r}")
    rules = data.get("rules") or {}
    if not isinstance(rules, Mapping):
        raise _err("", f"'rules' must map rule keys to values, got {rules!r}")
    digest = hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()
    return Script(
        title=str(data.get("title") or "scripted game"),
        dragons=kinds,
        names=names,
        teams=teams,
        scenario=scen,
        moves=moves,
        dice=dice,
        per_turn=per_turn,
        range_modifier=rm,
        rules=dict(rules),
        source=origin or str(data.get("source") or ""),
        digest=digest[:16],
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
    from .replay import MAX_EVENTS, events

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
    "Script",
    "Move",
    "load_script",
    "play_script",
    "parse_path",
    "path_banks",
    "path_end",
    "path_cost",
    "path_carry_error",
    "path_turn_left",
    "dice_array",
    "decisions_array",
    "SHIPPED",
]
