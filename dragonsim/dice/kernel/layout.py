"""The Dragon Dice kernels' layouts: stream purposes, option slots, counter slots, and the
records the kernels take (built once per run in Python, passed down unchanged).

Every rule value and option reaches the kernels as an argument: ``opts`` (int64, indexed by
the ``O_*`` slots) for the army and dragon-vs-dragon kernels, ``mopts`` (``MO_*``) for the
melee kernel. The counters a kernel returns add over games; their slots are the ``C_*``
(army), ``V_*`` / ``VT_*`` (dragon vs dragon) and ``M_*`` (melee) constants, followed by
histograms (:func:`army_layout`, :func:`dvd_size`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "P_DRAGON",
    "P_ARMY",
    "O_ID_SPLIT",
    "O_CARRY",
    "O_PROMO_UNLIMITED",
    "O_CLAW",
    "O_JAWS",
    "O_TAIL",
    "O_DHEALTH",
    "O_DSAVES",
    "O_FLAME",
    "O_STONE",
    "O_NEGATE",
    "O_ROUND_UP",
    "O_PROMO_ONCE",
    "O_TREASURE_FIRST",
    "O_FROST_PER_UNIT",
    "O_KIN_NONE_ROLLED",
    "O_KIN_MELEE",
    "O_KIN_LOST",
    "O_DVD_FOCUS",
    "NOPT",
    "C_GAMES",
    "C_ANY_SLAIN",
    "C_ALL_SLAIN",
    "C_SLAIN_SUM",
    "C_DESTROYED",
    "C_FLEW",
    "C_TIMEOUT",
    "C_LOST",
    "C_LOST_SQ",
    "C_PROMO",
    "C_PROMO_SQ",
    "C_PROMO_ANY",
    "C_TURNS",
    "C_TURNS_SQ",
    "C_BURIED",
    "C_DICE_DRAGON",
    "C_DICE_ARMY",
    "C_DESTROYED_BY_BREATH",
    "NHEAD",
    "V_GAMES",
    "V_ALL_GONE",
    "V_TIMEOUT",
    "V_ROUNDS",
    "V_ROUNDS_SQ",
    "V_MULTI_ANY_SLAIN",
    "V_DICE",
    "VHEAD",
    "VT_WINS",
    "VT_SLAIN",
    "VT_FLEW",
    "VT_ANY_SLAIN",
    "VT",
    "V_A_WINS",
    "V_A_SLAIN",
    "V_A_FLEW",
    "V_A_ANY_SLAIN",
    "V_B_WINS",
    "V_B_SLAIN",
    "V_B_FLEW",
    "V_B_ANY_SLAIN",
    "V_BOTH_GONE",
    "V_BOTH_ANY_SLAIN",
    "MO_COUNTER",
    "MO_BLACK_NEEDS_ID",
    "MO_KIN_LOST",
    "NMOPT",
    "M_GAMES",
    "M_B_LOST",
    "M_B_LOST_SQ",
    "M_A_LOST",
    "M_A_LOST_SQ",
    "M_B_DESTROYED",
    "M_A_DESTROYED",
    "M_BREATHS_A",
    "M_BREATHS_B",
    "M_B_BURIED",
    "M_A_MELEE",
    "M_B_SAVES",
    "MHEAD",
    "Army",
    "Dragons",
    "Shape",
    "army_layout",
    "dvd_size",
]


# stream purposes
P_DRAGON = 10
P_ARMY = 11

# options (int64 array)
O_ID_SPLIT = 0  # 0 slay-first, 1 save-first
O_CARRY = 1  # 1: damage to a dragon carries over between attacks
O_PROMO_UNLIMITED = 2  # 1: a promotion target is always available in the dead unit area
O_CLAW = 3
O_JAWS = 4
O_TAIL = 5
O_DHEALTH = 6
O_DSAVES = 7
O_FLAME = 8
O_STONE = 9
O_NEGATE = 10  # dragon vs dragon: extra rounds a breath negates the target's saves
O_ROUND_UP = 11  # 1: damage left over that covers no whole unit still kills one more unit
O_PROMO_ONCE = 12  # 1: one round of slaying promotions per attack, however many dragons died
O_TREASURE_FIRST = 13  # 1: a treasure promotes before the slaying promotions (promotion_order)
O_FROST_PER_UNIT = 14  # 1: frost halves each unit's roll, not each result type's sum
O_KIN_NONE_ROLLED = 15  # 1: no dragonkin is rolled during a dragon attack (kin_not_rolled=all)
O_KIN_MELEE = 16  # 1: rolled dragonkin count their melee against a dragon (kin_in_dragon_attack)
O_KIN_LOST = 17  # 1: dragonkin removed with the last other unit count in the health lost
O_DVD_FOCUS = 18  # 1: a team targets an enemy whose saves a breath negated first (dvd_targeting)
NOPT = 19

# army-mode counters
C_GAMES = 0
C_ANY_SLAIN = 1  # games in which at least one dragon was slain
C_ALL_SLAIN = 2  # games in which every dragon was slain
C_SLAIN_SUM = 3  # dragons slain, summed over games
C_DESTROYED = 4  # army destroyed
# no dragon left at the end, at least one flew away and the army still there (an army destroyed
# takes precedence: it ends the game whatever the dragon's wing shows), so a game ends in
# exactly one of C_ALL_SLAIN, C_DESTROYED, C_FLEW, C_TIMEOUT, but for the army destroyed and
# every dragon slain by the same attack (counted in both; AttackResult.p_slain_and_destroyed)
C_FLEW = 5
C_TIMEOUT = 6  # dragons and army both still there after `turns` attacks
C_LOST = 7  # health-worth of units lost (killed, buried, dragonkin removed)
C_LOST_SQ = 8
C_PROMO = 9  # promotions (slaying and treasure)
C_PROMO_SQ = 10
C_PROMO_ANY = 11
C_TURNS = 12  # attacks that happened
C_TURNS_SQ = 13
C_BURIED = 14  # health-worth buried (black and red breath)
C_DICE_DRAGON = 15  # dragon dice rolled
C_DICE_ARMY = 16  # unit dice rolled (response and breath rolls)
C_DESTROYED_BY_BREATH = 17  # attacks whose breath left no army to respond
NHEAD = 18


def army_layout(hcap: int, turns: int) -> dict[str, slice]:
    """Where each histogram lives in :func:`army_kernel`'s counter array."""
    a = NHEAD
    b = a + hcap + 1
    c = b + turns + 1
    d = c + turns + 1
    e = d + turns + 1
    return {
        "lost_hist": slice(a, b),
        "army_gone_at": slice(b, c),
        "dragons_gone_at": slice(c, d),
        "first_slain_at": slice(d, e),
    }


# dragon vs dragon counters
V_GAMES = 0
V_ALL_GONE = 1  # no dragon left at all
V_TIMEOUT = 2  # two or more teams still there after `turns` rounds
V_ROUNDS = 3
V_ROUNDS_SQ = 4
V_MULTI_ANY_SLAIN = 5  # games in which dragons of two or more teams were slain
V_DICE = 6
VHEAD = 7
# per team i, at VHEAD + VT * i + ...
VT_WINS = 0  # only team i left
VT_SLAIN = 1  # team i's dragons slain, summed
VT_FLEW = 2  # team i's dragons flown away, summed
VT_ANY_SLAIN = 3  # games in which some dragon of team i was slain
VT = 4
# two teams (A = 0, B = 1)
V_A_WINS = VHEAD + VT_WINS
V_A_SLAIN = VHEAD + VT_SLAIN
V_A_FLEW = VHEAD + VT_FLEW
V_A_ANY_SLAIN = VHEAD + VT_ANY_SLAIN
V_B_WINS = VHEAD + VT + VT_WINS
V_B_SLAIN = VHEAD + VT + VT_SLAIN
V_B_FLEW = VHEAD + VT + VT_FLEW
V_B_ANY_SLAIN = VHEAD + VT + VT_ANY_SLAIN
V_BOTH_GONE = V_ALL_GONE
V_BOTH_ANY_SLAIN = V_MULTI_ANY_SLAIN


def dvd_size(nteams: int, turns: int) -> int:
    """Length of :func:`dvd_kernel`'s counter array."""
    return VHEAD + VT * nteams + turns + 1


# options of the melee kernel (int64 array)
MO_COUNTER = 0  # 1: the defender's survivors counter-attack (the normal melee sequence)
MO_BLACK_NEEDS_ID = 1  # printed: the targeted unit "must roll its ID icon to avoid being killed"
MO_KIN_LOST = 2  # 1: dragonkin removed with the last other unit count in the health lost
NMOPT = 3

# melee counters
M_GAMES = 0
M_B_LOST = 1  # defender health-worth lost
M_B_LOST_SQ = 2
M_A_LOST = 3  # attacker health-worth lost (counter-attack)
M_A_LOST_SQ = 4
M_B_DESTROYED = 5
M_A_DESTROYED = 6
M_BREATHS_A = 7  # dragonkin breath icons rolled by the attacker
M_BREATHS_B = 8
M_B_BURIED = 9
M_A_MELEE = 10  # attacker's melee results, summed
M_B_SAVES = 11  # defender's save results, summed
MHEAD = 12


class Army(NamedTuple):
    """An army as the kernels read it: one entry per unit type (``T`` types), int64."""

    fk: np.ndarray  # [T, 6]: face kinds (F_*)
    fc: np.ndarray  # [T, 6]: face counts (at most MAX_FACE_VALUE)
    health: np.ndarray  # [T]
    kin: np.ndarray  # [T]: dragonkin colour, -1 for other units
    promo: np.ndarray  # [T]: promotion target type, -1 for none
    count0: np.ndarray  # [T]: units at the start
    dua0: np.ndarray  # [T]: units in the dead unit area at the start
    kill_order: np.ndarray  # [T]: casualty order
    gold_order: np.ndarray  # [T]: gold-breath targeting order
    treasure_order: np.ndarray  # [T]: the order a treasure promotes in


class Dragons(NamedTuple):
    """The dragons of an army-mode game: all of one colour."""

    faces: np.ndarray  # int64 [k, 12]: icons of each dragon's die (D_*)
    colour: int  # BLACK .. RED


class Shape(NamedTuple):
    """How long an army-mode game may last and how far its loss histogram reaches."""

    turns: int  # most attacks per game
    hcap: int  # last bin of the health-lost histogram
