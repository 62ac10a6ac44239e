"""A game script: its format (JSON, or a Python dict of the same shape), read and checked
(:func:`load_script`, a :class:`Script` of :class:`Move` rows), and the arithmetic of a
move's path (:func:`parse_path`, :func:`path_end`, :func:`path_cost`, ...).

:func:`~dragonsim.lords.views.script.play_script` plays a script through the game loop.

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

from ...errors import UserError, read_json, resolve_name
from ...rules.lords import ALTITUDES, TACTICS
from ..game import state as S
from ..game.hexes import DIRECTION_NAMES, DQ, DR, from_offset
from .eventlog import SIDES, turn_words

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


__all__ = [
    "Script",
    "Move",
    "load_script",
    "parse_path",
    "path_banks",
    "path_end",
    "path_cost",
    "path_carry_error",
    "path_turn_left",
    "SHIPPED",
    "SCRIPTS_DIR",
]
