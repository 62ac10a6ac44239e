"""A slow, readable pure-Python reference of the Dragon Lords basic rules, for tests.

Nothing here is fast or clever: each function follows the rulebook's wording step by step, so
that the numba engine (:mod:`dragonsim.lords.engine`) can be checked against it with the same
random numbers (DESIGN.md "kernels checked against slow, obvious references"), and so that
recorded games can be replayed by an independent legality checker (:func:`check_log`).

Dragons are plain dicts here (see :func:`dragon_from_row` / :func:`row_update`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from dragonsim.lords.game import state as S
from dragonsim.lords.game import tables as T
from dragonsim.lords.game.hexes import DQ, DR
from dragonsim.lords.game.tables import S_MAX_RANGE
from dragonsim.rules.lords import PART_CODES, SPELLS, TACTICS

PARTS = ("head", "body", "tail", "left_wing", "right_wing")


# ------------------------------------------------------------------------------------------------
# dragons as dicts
# ------------------------------------------------------------------------------------------------


def dragon_from_row(row) -> dict:
    """A dict copy of one engine state row (only the fields the reference uses)."""

    d = {
        "q": int(row[S.F_Q]),
        "r": int(row[S.F_R]),
        "facing": int(row[S.F_F]),
        "alt": int(row[S.F_ALT]),
        "speed": int(row[S.F_SPEED]),
        "last": int(row[S.F_LAST]),
        "points": [int(row[S.F_DP + p]) for p in range(5)],
        "start_points": [int(row[S.F_DP0 + p]) for p in range(5)],
        "breath_sheet": int(row[S.F_BREATH0]),
        "claws_sheet": int(row[S.F_CLAW0]),
        "mr_sheet": int(row[S.F_MR0]),
        "max_sheet": int(row[S.F_MAX0]),
        "min_speed": int(row[S.F_MIN]),
        "rider": int(row[S.F_RIDER]),
        "dealt": int(row[S.F_DEALT]),
        "alive": int(row[S.F_ALIVE]),
    }
    serious_effects(d, _DefaultScal())
    return d


class _DefaultScal:
    """The serious-damage numbers of the printed rules (used when no tables are given)."""

    serious = (1, 2)
    breath_steps = 1
    claw_steps = 1
    speed_per_wing = 2
    mr_steps = 2


def scal_from_tables(tables):
    """The serious-damage numbers from ``KernelTables.scalars``."""

    s = tables.scalars
    o = _DefaultScal()
    o.serious = (int(s[T.S_SERIOUS_NUM]), int(s[T.S_SERIOUS_DEN]))
    o.breath_steps = int(s[T.S_BREATH_STEPS_LOST])
    o.claw_steps = int(s[T.S_CLAW_STEPS_LOST])
    o.speed_per_wing = int(s[T.S_SPEED_LOST_PER_WING])
    o.mr_steps = int(s[T.S_MR_STEPS_LOST])
    return o


def is_serious(d: dict, part: int, sc=None) -> bool:
    """ "reduced to less than half of its original damage points" (p.12: strictly less, so
    exactly half is not yet serious)."""
    num, den = (sc or _DefaultScal()).serious
    return d["points"][part] * den < d["start_points"][part] * num


def unclamped_ratings(d: dict, sc=None) -> tuple[int, int, int]:
    """Breath, claws and MR index from the damage points (p.12) and the critical hits'
    lasting effects (optional rules, p.19: "Critical hit results can add up"), not clamped."""
    sc = sc or _DefaultScal()
    head, body, tail = (is_serious(d, p, sc) for p in range(3))
    b = d["breath_sheet"] - (sc.breath_steps if head else 0) - d.get("crit_breath", 0)
    c = d["claws_sheet"] - (sc.claw_steps if body else 0) - d.get("legs", 0)
    if d.get("spell_claw"):
        # Dull / Sharpen (p.25): "No sharpness rating may be forced below Dull" (the reading
        # lords.dull_floor), "never be sharper than Razor Sharp"
        c = max(0, c)
        floor = d.get("dull_floor", 1)
        if d["spell_claw"] < 0:
            c = max(c + d["spell_claw"], min(c, floor))
        else:
            c = min(4, c + d["spell_claw"])
    m = d["mr_sheet"] + (sc.mr_steps if tail else 0) + d.get("crit_mr", 0)
    return b, c, m


def serious_effects(d: dict, sc=None) -> None:
    """The Serious Damage Effects Table, recomputed from the damage points, with the critical
    hits' effects added (both clamp at Cold, the lowest tooth-and-claw step and MR I)."""
    sc = sc or _DefaultScal()
    lw, rw = (is_serious(d, p, sc) for p in (3, 4))
    b, c, m = unclamped_ratings(d, sc)
    d["breath"] = max(0, b)
    d["claws"] = max(0, c)
    d["max_speed"] = d["max_sheet"] - sc.speed_per_wing * (int(lw) + int(rw))
    d["mr"] = min(8, m)
    if d.get("crit_killed"):
        d["alive"] = 0  # "Killed! Remove dragon from play." (p.19)
    if d.get("crash_zeroed"):
        # "If its head or body are reduced to 0 damage points, the dragon has been killed"
        # (advanced rules, p.17); a zeroed tail or wing crashes it instead
        if min(d["points"][:2]) <= 0:
            d["alive"] = 0
    elif any(p <= 0 for p in d["points"]):
        d["alive"] = 0  # "if any ... is reduced to 0 points, the dragon ... is removed"


def take_damage(d: dict, part: int, amount: int) -> int:
    """ "tick from the damage track of that body part"; never below 0. Returns points taken.
    With the advanced crash rule (``d["crash_zeroed"]``) "Any additional damage to a tail or
    wing after that part has been reduced to 0 transfers to the body instead" (p.17)."""
    if d.get("crash_zeroed") and part >= 2 and d["points"][part] <= 0:
        part = 1
    if d.get("shield", 0) > 0 and amount > 0:
        # Force Shield (p.24): "absorb 10 points of damage inflicted upon the target dragon
        # before it fails. Any additional damage is inflicted as normal"
        absorbed = min(d["shield"], amount)
        d["shield"] -= absorbed
        amount -= absorbed
    took = max(0, min(amount, d["points"][part]))
    d["points"][part] -= took
    return took


# ------------------------------------------------------------------------------------------------
# breath combat
# ------------------------------------------------------------------------------------------------


def hits(roll2d6: int, target_number: int, auto_miss: int = 2, auto_hit: int = 12) -> bool:
    """ "If the result is equal to or higher than your final modified target number, you hit
    your target. A roll of 2 always misses, and a roll of 12 always hits"."""
    if roll2d6 <= auto_miss:
        return False
    return roll2d6 >= auto_hit or roll2d6 >= target_number


def breath_damage(
    attacker: dict, target: dict, side: int, loc_roll: int, dice_sum: int, alloc, weapon
) -> int:
    """Location then damage of a breath hit; returns the part hit."""
    part = int(alloc[loc_roll][side])
    amount = dice_sum + int(weapon[attacker["breath"]][1])
    attacker["dealt"] += take_damage(target, part, amount)
    return part


# ------------------------------------------------------------------------------------------------
# close combat
# ------------------------------------------------------------------------------------------------


def close_combat_start(a: dict, b: dict, speed_loss: int = 2, drop: int = 1) -> None:
    """ "both dragons automatically drop one altitude level"; speed -2, never below minimum."""
    for d in (a, b):
        d["alt"] = max(1, d["alt"] - drop)
        d["last"] = max(d["min_speed"], d["speed"] - speed_loss)


def close_combat_winner(a: dict, b: dict, roll_a: int, roll_b: int, cc_by_mr) -> str | None:
    """'a', 'b' or None (draw): 2d6 + close combat modifier, highest wins, ties draw."""
    sa = roll_a + int(cc_by_mr[a["mr"]])
    sb = roll_b + int(cc_by_mr[b["mr"]])
    if sa == sb:
        return None
    return "a" if sa > sb else "b"


def spread_self_damage(d: dict, points: int, sc=None) -> None:
    """The assumed self-damage spread (rule ``lords.self_damage_policy``): one point at a time
    on the part with most points left, preferring parts that stay healthy (or are already
    seriously damaged) and never destroying a part when another choice exists."""
    num, den = (sc or _DefaultScal()).serious
    for _ in range(points):
        choices = []
        for p in range(5):
            left = d["points"][p]
            if left <= 0:
                continue
            after = left - 1
            if after <= 0:
                tier = 0  # would destroy the part
            elif (
                after * den >= d["start_points"][p] * num or left * den < d["start_points"][p] * num
            ):
                tier = 2  # stays out of serious damage, or is already there
            else:
                tier = 1  # would become seriously damaged
            choices.append((tier, left, -p, p))
        if not choices:
            return
        choices.sort(reverse=True)
        take_damage(d, choices[0][3], 1)


def close_combat_rest(
    w: dict,
    l: dict,
    col: int,
    loc_roll: int,
    dice_sum: int,
    self_points: int,
    facing_roll: int,
    winner_facing: int,
    alloc,
    weapon,
    sc=None,
    *,
    lancer_damage=0,
    spared=False,
) -> int:
    """Column, location, tooth and claw damage (plus ``lancer_damage`` when the winner's
    Lancer rides and riders act, p.18; none when ``spared``: the rider check killed the
    loser's rider instead, p.18), the winner's own damage, new facings."""
    part = int(alloc[loc_roll][col])
    if not spared:
        amount = dice_sum + int(weapon[w["claws"]][1])
        if w.get("rider") == 1:
            amount += lancer_damage
        w["dealt"] += take_damage(l, part, amount)
    spread_self_damage(w, self_points, sc)
    l["facing"] = (l["facing"] - facing_roll) % 6  # template hexside relative to old facing
    w["facing"] = winner_facing
    serious_effects(w, sc)
    serious_effects(l, sc)
    return part


# ------------------------------------------------------------------------------------------------
# movement: an independent search over the rulebook's actions
# ------------------------------------------------------------------------------------------------


def on_board(q: int, r: int, width: int = 33, depth: int = 24) -> bool:
    col = q + (r - (r & 1)) // 2
    return 0 <= r < depth and 0 <= col < width


def hex_distance(q1, r1, q2, r2) -> int:
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def action_cost(actions: list[str], turn_cost_row) -> int:
    """Points spent by a list of actions: 'F' forward (1), 'C' climb (2), 'D' dive (0),
    'L1' 'L2' 'R1' 'R2' turns of 60/120 degrees left/right and 'T3' 180 degrees
    (maneuver diagram). Raises ValueError for two turns in a row."""
    cost = 0
    last_turn = False
    for a in actions:
        if a in ("F", "C", "D"):
            cost += {"F": 1, "C": 2, "D": 0}[a]
            last_turn = False
        else:
            if last_turn:
                raise ValueError("two turns in a row")
            cost += int(turn_cost_row[int(a[1])])
            last_turn = True
    return cost


def apply_actions(q, r, f, alt, actions):
    """Where the actions lead: returns (q, r, facing, altitude, hexes entered)."""
    path = []
    for a in actions:
        if a in ("F", "C", "D"):
            q, r = q + int(DQ[f]), r + int(DR[f])
            alt += {"F": 0, "C": 1, "D": -1}[a]
            path.append((q, r, alt))
        elif a[0] == "L":
            f = (f + int(a[1])) % 6
        elif a[0] == "R":
            f = (f - int(a[1])) % 6
        else:
            f = (f + 3) % 6
    return q, r, f, alt, path


_TURNS = (("L1", 1, 1), ("R1", -1, 1), ("L2", 2, 2), ("R2", -2, 2), ("T3", 3, 3))


class Bank(NamedTuple):
    """Banking (advanced rules, p.16) for the searches: "spending points equal to twice its
    60 deg turn cost, with a minimum of 1 point spent" (re-derived here from the turn costs),
    and the two readings (rules lords.bank_very_low, lords.bank_hex)."""

    on: bool = False
    very_low_any: bool = False  # no bank after a bank at Very Low (else: no dropping one)
    hex_forward: bool = False  # a bank's hex may climb (+1 point) or dive (-1 point)
    each: bool = False  # lords.bank_run = each: every bank after a bank drops a level

    def cost(self, turn_cost_row) -> int:
        return max(1, 2 * int(turn_cost_row[1]))


#: banking off (the basic game)
NO_BANK = Bank()


def bank_of(options) -> Bank:
    """The :class:`Bank` of a kernel's options array (off without ``OPT_BANKING``)."""
    if options is None or options[S.OPT_BANKING] != 1:
        return NO_BANK
    return Bank(
        True,
        options[S.OPT_BANK_VERY_LOW_ANY] == 1,
        options[S.OPT_BANK_HEX_FORWARD] == 1,
        options[S.OPT_BANK_EACH] == 1,
    )


# the last action of a search state: forward (or the start), a turn, a bank odd / even in its run
_FWD, _TURN, _BANK_ODD, _BANK_EVEN = range(4)


def _search(
    start, speed, turn_cost_row, goal, hopeless, width, depth, levels, bank=NO_BANK, carry=0
):
    """Depth-first search over the rulebook's actions from ``start`` (``(q, r, facing,
    altitude)``) spending exactly ``speed`` points on the board: the first action sequence
    whose end ``goal(q, r, f, alt, drops, turned)`` accepts, or None. ``hopeless(q, r, alt, left)``
    prunes; dead states are memoised. With ``bank`` on, the banks too (p.16): 'BL' / 'BR' to
    the hex forward-left / forward-right keeping the facing, for the bank cost; "for every two
    banks in sequence, the dragon's altitude drops by one level" (``drops`` counts them);
    "A dragon can't bank twice in a row at Very Low altitude" (the dropping bank, or with
    ``very_low_any`` any bank after a bank); with ``hex_forward`` 'BLC', 'BLD', ... climb or
    dive in the bank's hex. ``carry`` (turning between move phases, p.16): the signed 60-degree
    steps the last move left turned in the start hex; then no fresh turn there, only 'K1',
    'K2' continuing it ("only turn in the same direction ... spend the balance of the points
    for the total turn", never past 180 degrees). ``goal`` also gets the turn the path leaves
    in its last hex (0 after a step or a bank; 3 a full 180)."""
    dead = set()
    path: list[str] = []
    bcost = bank.cost(turn_cost_row) if bank.on else 0
    bank_alts = ((0, 0), (1, 1), (-1, -1)) if bank.hex_forward else ((0, 0),)

    def rec(q, r, f, alt, last, left, drops, tih=carry, first=True):
        if left == 0 and goal(q, r, f, alt, drops, tih):
            return True
        key = (q, r, f, alt, last, left, drops, tih, first)
        if key in dead:
            return False
        if left < 0 or hopeless(q, r, alt, left):
            dead.add(key)
            return False
        for act, dalt, cost in (("F", 0, 1), ("C", 1, 2), ("D", -1, 0)):
            if cost > left:
                continue
            na = alt + dalt
            if not 1 <= na <= levels:
                continue
            nq, nr = q + int(DQ[f]), r + int(DR[f])
            if not on_board(nq, nr, width, depth):
                continue
            path.append(act)
            if rec(nq, nr, f, na, _FWD, left - cost, drops, 0, False):
                return True
            path.pop()
        if first and carry != 0:
            # the carried turn continued (its sign is its direction; a full 180 has none left)
            a, sg = abs(carry), (1 if carry > 0 else -1)
            for k in range(1, 4 - a):
                c = int(turn_cost_row[a + k]) - int(turn_cost_row[a])
                if c <= left:
                    path.append(f"K{k}")
                    tot = a + k
                    if rec(
                        q,
                        r,
                        (f + sg * k) % 6,
                        alt,
                        _TURN,
                        left - c,
                        drops,
                        tot if tot == 3 else sg * tot,
                        False,
                    ):
                        return True
                    path.pop()
        elif last != _TURN:
            for act, k, col in _TURNS:
                c = int(turn_cost_row[col])
                if c <= left:
                    path.append(act)
                    if rec(q, r, (f + k) % 6, alt, _TURN, left - c, drops, k, False):
                        return True
                    path.pop()
        if bank.on:
            after_bank = last in (_BANK_ODD, _BANK_EVEN)
            drop = 1 if last == _BANK_ODD or (bank.each and after_bank) else 0
            crash = alt == 1 and after_bank and (drop == 1 or bank.very_low_any)
            nlast = _BANK_EVEN if last == _BANK_ODD else _BANK_ODD
            for side, name in ((1, "BL"), (-1, "BR")):
                d = (f + side) % 6
                nq, nr = q + int(DQ[d]), r + int(DR[d])
                if crash or not on_board(nq, nr, width, depth):
                    continue
                for dalt, extra in bank_alts:
                    c = bcost + extra
                    na = alt + dalt - drop
                    if c > left or not 1 <= na <= levels:
                        continue
                    path.append(name + {0: "", 1: "C", -1: "D"}[dalt])
                    if rec(nq, nr, f, na, nlast, left - c, drops + drop, 0, False):
                        return True
                    path.pop()
        dead.add(key)
        return False

    q0, r0, f0, a0 = start
    if rec(q0, r0, f0, a0, _TURN if carry else _FWD, speed, 0):
        return list(path)
    return None


def find_move(
    start,
    end,
    speed,
    turn_cost_row,
    *,
    width=33,
    depth=24,
    levels=5,
    bank=NO_BANK,
    drops=None,
    carry=0,
    turned=None,
    reset_180=False,
):
    """A legal action sequence from ``start`` to ``end`` (each ``(q, r, facing, altitude)``)
    spending exactly ``speed`` points and staying on the board, or None; with ``bank`` the
    banks too, and ``drops`` (when given) the levels its banks must drop; from a start that
    carries the turn ``carry`` (turning between move phases), and ``turned`` (when given) the
    turn it must leave in its last hex (with ``reset_180`` a full 180 leaves none).

    Depth-first search over the rulebook's actions with memoised dead ends; prunes with the
    fact that each remaining hex costs at least one point net of the altitude it must still
    gain (dives are free but every level dived must be climbed back; a bank's hex costs at
    least 1 and its drops only lose altitude).
    """
    q1, r1, f1, a1 = end
    return _search(
        start,
        speed,
        turn_cost_row,
        lambda q, r, f, alt, dr, t: (
            (q, r, f, alt) == (q1, r1, f1, a1)
            and (drops is None or dr == drops)
            and (turned is None or (0 if reset_180 and abs(t) == 3 else t) == turned)
        ),
        lambda q, r, alt, left: hex_distance(q, r, q1, r1) + (a1 - alt) > left,
        width,
        depth,
        levels,
        bank,
        carry,
    )


def any_move_stays(
    start, speed, turn_cost_row, occupied, *, width=33, depth=24, levels=5, bank=NO_BANK, carry=0
):
    """True when some legal move from ``start`` (``(q, r, facing, altitude)``) spending exactly
    ``speed`` points stays on the board and ends in a hex not in ``occupied``: the proof
    that a dragon which flew off the board had to. The same search as :func:`find_move`,
    with no target; it stops at the first move that stays.
    """
    return (
        _search(
            start,
            speed,
            turn_cost_row,
            lambda q, r, f, alt, dr, t: (q, r) not in occupied,
            lambda q, r, alt, left: False,
            width,
            depth,
            levels,
            bank,
            carry,
        )
        is not None
    )


def ground_reach(start, end, reach, occupied, *, width=33, depth=24) -> bool:
    """Can a dragon on the ground walk from ``start`` to ``end`` (each ``(q, r)``) in at most
    ``reach`` hexes without leaving the board (advanced rules, p.17: "move up to this number
    of hexes along the ground ... it may turn any number of times at no cost"), ending in a
    hex not in ``occupied``? A breadth-first search over board hexes, independent of the
    engine's distance test."""
    if end in occupied or not on_board(*end, width, depth):
        return False
    seen = {start}
    frontier = [start]
    for _ in range(reach):  # every hex within reach steps on the board
        nxt = []
        for q, r in frontier:
            for d in range(6):
                h = (q + int(DQ[d]), r + int(DR[d]))
                if h not in seen and on_board(*h, width, depth):
                    seen.add(h)
                    nxt.append(h)
        frontier = nxt
    return end in seen


def leap(start, steps):
    """The hexes of a take-off's straight leap (p.17: "move a number of hexes in a straight
    line equal to its minimum speed") from ``start`` (``(q, r, facing)``)."""
    q, r, f = start
    out = []
    for _ in range(steps):
        q, r = q + int(DQ[f]), r + int(DR[f])
        out.append((q, r))
    return out


#: the crash causes as the log numbers them (``CR_*``)
CRASH_CAUSES = ("Very Low engagement", "speed below minimum", "zeroed tail or wing")


# ------------------------------------------------------------------------------------------------
# the legality checker
# ------------------------------------------------------------------------------------------------


#: the Rider Abilities Table (p.18) as printed: rider code -> (medium range, long range) in
#: hexes, and (d6, plus) at medium and at long range (codes: 1 Lancer .. 5 Wizard)
RIDER_REACH = {2: (1, 2), 3: (2, 4), 4: (3, 6)}
RIDER_DAMAGE = {2: ((1, 3), (1, 0)), 3: ((1, 4), (1, 1)), 4: ((1, 6), (1, 3))}


@dataclass
class Violation:
    turn: int
    kind: str
    dragon: int
    why: str


def _snap(row, d):

    b = S.L_SNAP + S.N_SNAP * d
    return tuple(int(x) for x in row[b : b + S.N_SNAP])  # q, r, f, alt, alive, eng, moved


def _arc_ok(q, r, f, tq, tr, max_range, alt_diff):
    """In the 180-degree arc, within range, and within the neck bend (float geometry, an
    independent check of the engine's integer version; boundaries get a tolerance)."""
    dist = hex_distance(q, r, tq, tr)
    if dist < 1 or dist > max_range or dist < abs(alt_diff):
        return False
    x0, y0 = math.sqrt(3) * (q + r / 2), 1.5 * r
    x1, y1 = math.sqrt(3) * (tq + tr / 2), 1.5 * tr
    fx, fy = math.sqrt(3) * (int(DQ[f]) + int(DR[f]) / 2), 1.5 * int(DR[f])
    return (x1 - x0) * fx + (y1 - y0) * fy >= -1e-9


def check_log(
    log, nd: int, sheets_rows, tables, *, width=33, depth=24, options=None
) -> list[Violation]:
    """Replay a game's decision log (from :func:`dragonsim.lords.engine.logged_game`) and
    return every rule it breaks (an empty list for a legal game).

    Independently of the engine it checks: the recorded speed (minimum, maximum less 2 per
    seriously damaged wing, +3 over last turn, or with the advanced acceleration in
    ``options`` Huge 6 ... Tiny 2, p.16, the speed-10 streak and cool-down), that every
    move is reachable by the rulebook's actions at exactly that speed without leaving the board
    and ends in an empty hex, engagement conditions, and breath targets (not engaged, in arc,
    range and neck bend). Flying off the board (``K_LEAVE``, a legal if fatal choice) is
    flagged when a search finds a move that stays on the board: the bots leave only when
    forced.
    ``sheets_rows`` are the kernel's dragon rows (``engine.D_*`` columns).
    """

    out: list[Violation] = []
    # the Wizard (optional rules, pp. 18, 24-25): magic points, this turn's records and casts,
    # Quicken / Slow for the next record-speed phase, Saddlesore's lost action (the turn it
    # falls in)
    magic = {i: int(tables.scalars[T.S_MAGIC_POINTS]) for i in range(nd)}
    spell_rec: dict[int, tuple] = {}
    cast: set[int] = set()
    acted = False
    quick: set[int] = set()
    slowed: set[int] = set()
    sore: dict[int, int] = {}
    actions: set[int] = set()  # the riders that recorded an action this turn
    lost: set[int] = set()
    last = {}
    streak = {i: 0 for i in range(nd)}
    cool = {i: 0 for i in range(nd)}
    cur_speed = {}

    maxr = int(tables.scalars[S_MAX_RANGE])
    early_on = options is not None and options[S.OPT_MOVE_EARLY] == 1

    def on(key):
        return options is not None and options[key] == 1

    bank = bank_of(options)  # banking (advanced rules, p.16)
    # turning between move phases (p.16): the turn each dragon's last move left in its hex
    turning = on(S.OPT_TURN_BETWEEN)
    reset_180 = on(S.OPT_TURN_180_RESET)
    cc_facing = on(S.OPT_TURN_CC_FACING)
    carried: dict[int, int] = {}
    fought: set[int] = set()  # (reading "facing") fought since its last move: may have none

    # the ground (advanced rules, p.17): its numbers from the rules tables
    sc_ = tables.scalars
    g_dice, g_plus = int(sc_[T.S_GROUND_MOVE_DICE]), int(sc_[T.S_GROUND_MOVE_PLUS])
    tko_over, tko_max = int(sc_[T.S_TAKEOFF_OVER_MIN]), int(sc_[T.S_TAKEOFF_MAX_SPEED])
    speed_loss = int(sc_[T.S_CC_SPEED_LOSS])
    immobile = {}  # dragon -> a zeroed tail or wing at its last speed record
    # the reading lords.crash_stuck = every-crash: a dragon that crashed never leaves its hex
    crashed: set[int] = set()
    stuck_every = on(S.OPT_CRASH_STUCK_EVERY)
    takeoff_over_max = on(S.OPT_TAKEOFF_OVER_MAX)  # lords.takeoff_speed = 7
    due_slow: set[int] = set()  # dragons that must crash after this close combat (p.17)
    place: dict[int, int] = {}  # this turn's initiative places (K_INIT rows)
    early: set[int] = set()  # the dragons that announced this turn that they move early
    last_early = None  # (the dragon whose turn it was, the place of the last announcer)
    this_turn = None
    for row in log:
        turn, kind, i, j = (int(x) for x in row[:4])
        vals = [int(x) for x in row[S.L_A : S.L_A + S.N_LOG_VALUES]]
        snaps = [_snap(row, d) for d in range(nd)]
        if turn != this_turn:
            for d, t_ in sore.items():
                if t_ == this_turn and d in actions and d not in lost:
                    out.append(Violation(this_turn, "spell", d, "Saddlesore: the action not lost"))
            sore = {d: t_ for d, t_ in sore.items() if t_ > (this_turn or 0)}
            this_turn, place, early, last_early = turn, {}, set(), None
            spell_rec, cast, acted, actions, lost = {}, set(), False, set(), set()
        if kind == S.K_RIDER:
            acted = True
        if due_slow and kind not in (S.K_CRASH, S.K_EFFECT):
            for d in sorted(due_slow):
                if snaps[d][4] == 1:
                    out.append(Violation(turn, "crash", d, "speed below minimum, no crash"))
            due_slow = set()
        if kind == S.K_INIT:
            place[i] = vals[0]
        elif kind == S.K_EARLY:
            # "A dragon with a high initiative may ... move earlier in the phase ... If more
            # than one player would like to move at a particular time, the one with the
            # higher initiative roll moves first" (p.15)
            if not early_on:
                out.append(Violation(turn, "early", i, "moved early without the rule"))
            if not place.get(i, -1) > place.get(j, 99) or snaps[i][6] or snaps[j][6]:
                out.append(Violation(turn, "early", i, "only a later dragon not yet moved"))
            if last_early is not None and last_early[0] == j and place[i] >= last_early[1]:
                out.append(Violation(turn, "early", i, "the higher roll announces first"))
            last_early = (j, place.get(i, -1))
            early.add(i)
        if kind in (S.K_MOVE, S.K_LEAVE) and i not in early and i in place:
            # in initiative order: every dragon in play with a lower roll has moved
            for d, p in place.items():
                if p < place[i] and snaps[d][4] == 1 and snaps[d][6] == 0:
                    out.append(Violation(turn, "order", i, f"moved before dragon {d}"))
        if kind == S.K_SETUP:
            q, r, f, alt = snaps[i][:4]
            if not on_board(q, r, width, depth) or not 1 <= alt <= 5:
                out.append(Violation(turn, "setup", i, "placed off the board or altitude"))
            last[i] = vals[0]
        elif kind == S.K_SPEED:
            s, _, _, _, mn, mx, lw, rw, lw0, rw0 = vals[:10]
            body = int(sheets_rows[i][S.D_BODY])
            wings = int(sheets_rows[i][S.D_WINGS])
            lo = int(tables.min_speed[body])
            # "As each wing is reduced to less than half damage, the dragon's maximum speed is
            # reduced by 2" -- recomputed here from the wings' damage points
            hi = int(tables.max_speed[wings]) - 2 * (int(2 * lw < lw0) + int(2 * rw < rw0))
            if (mn, mx) != (lo, hi):
                out.append(Violation(turn, "speed", i, "minimum/maximum speed wrong"))
            grounded = snaps[i][3] == 0
            if vals[12] != int(grounded):
                out.append(Violation(turn, "speed", i, "ground flag and altitude disagree"))
            immobile[i] = min(lw, rw, vals[13]) <= 0 or (stuck_every and i in crashed)
            if grounded:
                # "note ground or GR" (0), or take off: "a speed of no less than its minimum
                # speed plus 1 and no greater than 7" (p.15); never with a zeroed tail or wing
                # (p.22); not above its maximum (the reading lords.takeoff_speed)
                t_lo, t_hi = lo + tko_over, tko_max if takeoff_over_max else min(tko_max, hi)
                if s != 0 and (immobile[i] or not t_lo <= s <= t_hi):
                    out.append(Violation(turn, "speed", i, f"take-off speed {s} not allowed"))
                if (vals[10], vals[11]) != (t_lo, t_hi):
                    out.append(Violation(turn, "speed", i, "take-off limits wrong"))
            elif last.get(i, -1) >= 0:
                # "can't be more than 3 points faster than you moved last turn" (p.7); the
                # Advanced Acceleration Allowance by wing size (p.16)
                advanced = options is not None and options[S.OPT_ACCEL_WINGS] == 1
                up = (2, 3, 4, 5, 6)[wings] if advanced else 3
                if i in quick:
                    # Quicken (p.25): "5 points greater than its previous turn's speed ... +2
                    # to the dragon's acceleration allowance ... up to 2 greater than its
                    # maximum speed"
                    up = up + 2 if advanced else 5
                    hi += 2
                hi = min(hi, last[i] + up)
            elif i in quick:
                hi += 2
            if streak[i] >= 3 or cool[i] > 0:
                hi = min(hi, 9)
            if i in slowed and not grounded:
                hi = min(hi, lo + 2)  # Slow (p.25): "only up to 2 greater than its minimum"
            quick.discard(i)
            slowed.discard(i)
            if not grounded and not lo <= s <= max(lo, hi):
                out.append(Violation(turn, "speed", i, f"speed {s} outside {lo}..{hi}"))
            if s >= 10:
                streak[i] += 1
            else:
                if streak[i] > 0:
                    cool[i] = 2 * streak[i] - 1
                    streak[i] = 0
                elif cool[i] > 0:
                    cool[i] -= 1
            last[i] = s
            cur_speed[i] = s
        elif kind in (S.K_MOVE, S.K_LEAVE) and (vals[12] or vals[13]) and not turning:
            out.append(Violation(turn, "turn", i, "a turn carried without the rule"))
        if kind in (S.K_MOVE, S.K_LEAVE) and vals[6] != S.MK_GROUND and turning:
            # "If a dragon ends its move by turning 60 deg or 120 deg in a hex, it may continue
            # to turn in that hex at the beginning of the next movement phase" (p.16): the
            # turn it starts with is the one its last move left, unless it has been on the
            # ground or (reading lords.turn_between_close_combat) fought since
            want = carried.get(i, 0)
            ok_in = vals[12] == want or (i in fought and cc_facing and vals[12] == 0)
            if vals[6] == S.MK_TAKE_OFF:
                ok_in = vals[12] == 0
            if not ok_in:
                out.append(
                    Violation(turn, "turn", i, f"carried {vals[12]}, its last move left {want}")
                )
            fought.discard(i)
            carried[i] = vals[13] if vals[6] in (S.MK_FLY, S.MK_TAKE_OFF) else 0
        if kind == S.K_MOVE:
            speed, mr, q1, r1, f1, a1, mk = vals[:7]
            q0, r0, f0, a0 = snaps[i][:4]
            for d in range(nd):
                if d != i and snaps[d][4] == 1 and snaps[d][:2] == (q1, r1):
                    out.append(Violation(turn, "move", i, "ended in an occupied hex"))
            occupied = {snaps[d][:2] for d in range(nd) if d != i and snaps[d][4] == 1}
            if mk == S.MK_TAKE_OFF:
                # the row's snapshot is after the leap; the leap began at L_A + 8, 9
                q0, r0, a0 = vals[8], vals[9], 0
            if (mk in (S.MK_FLY, S.MK_LAND)) == (a0 == 0):
                out.append(Violation(turn, "move", i, f"move kind {mk} at altitude {a0}"))
                continue
            mn = int(tables.min_speed[int(sheets_rows[i][S.D_BODY])])
            if mk == S.MK_GROUND:
                # "roll 1d6+3. The dragon can move up to this number of hexes along the
                # ground ... it may turn any number of times at no cost" (p.17); a zeroed
                # tail or wing: "it may turn in that hex but it may not move from it"
                roll = vals[7]
                ok_roll = (
                    roll == 0 if immobile.get(i) else g_dice + g_plus <= roll <= 6 * g_dice + g_plus
                )
                if speed != 0 or cur_speed.get(i) != 0 or a1 != 0 or not ok_roll:
                    out.append(Violation(turn, "ground", i, f"speed {speed}, roll {roll}"))
                elif not ground_reach((q0, r0), (q1, r1), roll, occupied, width=width, depth=depth):
                    out.append(Violation(turn, "ground", i, f"cannot walk there in {roll}"))
                continue
            if mk == S.MK_LAND:
                # "A dragon may land on the ground from Very Low altitude by moving forward 1
                # hex and spending 1 point. This must be the dragon's last point" (p.17)
                fq, fr = vals[8], vals[9]
                if not (options is not None and options[S.OPT_LANDING] == 1):
                    out.append(Violation(turn, "land", i, "landed without the rule"))
                if speed != cur_speed.get(i) or a1 != 0:
                    out.append(Violation(turn, "land", i, "landing speed or altitude wrong"))
                if (fq + int(DQ[f1]), fr + int(DR[f1])) != (q1, r1):
                    out.append(Violation(turn, "land", i, "the landing hex is not ahead"))
                if (
                    find_move(
                        (q0, r0, f0, a0),
                        (fq, fr, f1, 1),
                        speed - 1,
                        tables.turn_cost[mr],
                        width=width,
                        depth=depth,
                        bank=bank,
                        carry=vals[12],
                    )
                    is None
                ):
                    out.append(Violation(turn, "land", i, "no flight to Very Low before it"))
                continue
            if mk == S.MK_TAKE_OFF:
                # "climb to Very Low altitude and move a number of hexes in a straight line
                # equal to its minimum speed. This always costs ... its minimum speed plus 1"
                # (p.17), then the rest of its points normally
                hexes = leap((q0, r0, f0), mn)
                if speed != cur_speed.get(i, -99) - mn - tko_over:
                    out.append(Violation(turn, "take-off", i, "points after the leap wrong"))
                if not all(on_board(q, r, width, depth) for q, r in hexes):
                    out.append(Violation(turn, "take-off", i, "the leap leaves the board"))
                if (*hexes[-1], 1) != (snaps[i][0], snaps[i][1], snaps[i][3]):
                    out.append(Violation(turn, "take-off", i, "the leap did not end there"))
                q0, r0, a0 = hexes[-1][0], hexes[-1][1], 1
            elif speed != cur_speed.get(i):
                out.append(Violation(turn, "move", i, "moved at a speed it did not record"))
            banks, drops = vals[10], vals[11]
            if not bank.on and (banks or drops):
                out.append(Violation(turn, "bank", i, "banked without the rule"))
            elif drops > (max(banks - 1, 0) if bank.each else banks // 2):
                # "for every two banks in sequence, the dragon's altitude drops by one level"
                # (with the reading lords.bank_run = each: every bank after the first of a run)
                out.append(Violation(turn, "bank", i, f"{drops} levels dropped by {banks} banks"))
            if (
                find_move(
                    (q0, r0, f0, a0),
                    (q1, r1, f1, a1),
                    speed,
                    tables.turn_cost[mr],
                    width=width,
                    depth=depth,
                    bank=bank,
                    drops=drops,
                    carry=vals[12],
                    turned=vals[13] if turning else None,
                    reset_180=reset_180,
                )
                is None
            ):
                out.append(
                    Violation(
                        turn,
                        "move",
                        i,
                        f"no legal path {(q0, r0, f0, a0)} -> {(q1, r1, f1, a1)} "
                        f"at speed {speed}, MR {'ABCDEFGHI'[mr]}",
                    )
                )
        elif kind == S.K_LEAVE:
            # leaving is legal (assumed, rule lords.board: the dragon is out of the game), but the
            # bots promise to leave only when no move stays on the board
            speed, mr = vals[:2]
            occupied = {snaps[d][:2] for d in range(nd) if d != i and snaps[d][4] == 1}
            start = snaps[i][:4]
            if vals[6] == S.MK_TAKE_OFF:
                mn = int(tables.min_speed[int(sheets_rows[i][S.D_BODY])])
                hexes = leap((vals[8], vals[9], start[2]), mn)
                if not all(on_board(q, r, width, depth) for q, r in hexes):
                    continue  # the leap itself left the board
                start = (*hexes[-1], start[2], 1)
            if any_move_stays(
                start,
                speed,
                tables.turn_cost[mr],
                occupied,
                width=width,
                depth=depth,
                bank=bank,
                carry=vals[12],
            ):
                out.append(
                    Violation(turn, "leave", i, "flew off the board although a move stays on it")
                )
        elif kind == S.K_ENGAGE:
            qi, ri, fi, ai = snaps[i][:4]
            qj, rj, _, aj = snaps[j][:4]
            # Very Low: only with the crash rule (p.17); the ground: two dragons on it (p.17)
            alt_ok = ai > 1 or ai == 0 or (ai == 1 and on(S.OPT_CRASH_VERY_LOW))
            ok = (
                snaps[j][6] == 1
                and ai == aj
                and alt_ok
                and snaps[i][5] < 0
                and snaps[j][5] < 0
                and (qi + int(DQ[fi]), ri + int(DR[fi])) == (qj, rj)
            )
            if not ok:
                out.append(Violation(turn, "engage", i, "engagement conditions not met"))
        elif kind == S.K_TARGET:
            qi, ri, fi, ai = snaps[i][:4]
            qj, rj, _, aj = snaps[j][:4]
            if snaps[i][5] >= 0 or snaps[j][5] >= 0:
                out.append(Violation(turn, "breath", i, "engaged dragons may not breathe"))
            if not _arc_ok(qi, ri, fi, qj, rj, maxr, ai - aj):
                out.append(Violation(turn, "breath", i, "target not in arc/range/neck bend"))
        elif kind == S.K_SPELL_REC:
            # "Wizards must also record on their player's game log which spell they will cast
            # during the upcoming rider actions phase" (p.15); "A Wizard can only try to cast
            # one spell each turn"; "If there aren't enough spell points, the spell cannot be
            # cast" (p.18)
            sp, arg, left = vals[:3]
            cost, _, far = (int(x) for x in tables.spells[sp])
            if not on(S.OPT_WIZARD) or int(sheets_rows[i][S.D_RIDER]) != S.RIDER_WIZARD:
                out.append(Violation(turn, "spell", i, "a spell without the Wizard"))
            if i in spell_rec or acted:
                out.append(Violation(turn, "spell", i, "a second spell, or after riders acted"))
            if left != magic[i] or cost > magic[i]:
                out.append(Violation(turn, "spell", i, f"{cost} points of {magic[i]} ({left})"))
            qi, ri = snaps[i][:2]
            qj, rj = snaps[j][:2]
            foe = j != i and int(sheets_rows[j][S.D_TEAM]) != int(sheets_rows[i][S.D_TEAM])
            if snaps[j][4] != 1 or (j != i and not 1 <= hex_distance(qi, ri, qj, rj) <= far):
                out.append(Violation(turn, "spell", i, "target not in play within reach"))
            if SPELLS[sp] in ("Fireball", "Lightning Bolt") and not foe:
                out.append(Violation(turn, "spell", i, f"{SPELLS[sp]} not at an opponent"))
            spell_rec[i] = (sp, j, arg)
            actions.add(i)
        elif kind == S.K_SPELL:
            acted = True
            if vals[0] == -2:
                if sore.get(i) != turn:
                    out.append(Violation(turn, "spell", i, "an action lost without Saddlesore"))
                lost.add(i)
                continue
            if i in cast or (sore.get(i) == turn and i in actions):
                out.append(Violation(turn, "spell", i, "a second cast, or cast when saddlesore"))
            cast.add(i)
            rec = spell_rec.get(i)
            if vals[0] == -1:
                if rec is None:
                    out.append(
                        Violation(turn, "spell", i, "a spell not cast that was not recorded")
                    )
                continue
            sp = vals[0]
            if rec != (sp, j, vals[4]):
                out.append(Violation(turn, "spell", i, f"cast {sp, j, vals[4]}, recorded {rec}"))
            cost = int(tables.spells[sp][0])
            magic[i] -= cost  # "immediately deduct the cost"; lost on a miss
            if vals[5] != cost or vals[6] != magic[i] or magic[i] < 0:
                out.append(Violation(turn, "spell", i, f"magic {vals[6]}, rules {magic[i]}"))
            if vals[3] == 1:
                name = SPELLS[sp]
                if name == "Quicken":
                    quick.add(j)
                elif name == "Slow":
                    slowed.add(j)
                elif name == "Saddlesore" and int(sheets_rows[j][S.D_RIDER]) > 0:
                    # "If the rider has not yet performed its action this turn, it loses it ...
                    # it loses its action next turn instead" (p.25)
                    later = place.get(j, -1) > place.get(i, -1)
                    sore[j] = turn if later else turn + 1
        elif kind == S.K_RTARGET:
            actions.add(i)
            # "Riders may shoot their weapons ... at any target within range" with "a full
            # 360 deg arc of fire", "either at its dragon's opponent or at any other target"
            # (p.18); a dragon engaged with another is out of reach (p.10) unless the
            # reading lords.rider_engaged_targets = "any" is in force
            rider = int(sheets_rows[i][S.D_RIDER])
            reach = int(RIDER_REACH.get(rider, (0, 0))[1])
            qi, ri = snaps[i][:2]
            qj, rj = snaps[j][:2]
            any_engaged = options is not None and options[S.OPT_RIDER_AT_ENGAGED] == 1
            if reach == 0:
                out.append(Violation(turn, "rider", i, "a rider without a ranged attack shot"))
            elif not 1 <= hex_distance(qi, ri, qj, rj) <= reach:
                out.append(Violation(turn, "rider", i, f"target beyond {reach} hexes"))
            if snaps[j][4] != 1 or int(sheets_rows[j][S.D_TEAM]) == int(sheets_rows[i][S.D_TEAM]):
                out.append(Violation(turn, "rider", i, "target not an enemy in play"))
            if snaps[j][5] >= 0 and snaps[j][5] != i and not any_engaged:
                out.append(Violation(turn, "rider", i, "target engaged with another dragon"))
        elif kind == S.K_RIDER and sore.get(i) == turn:
            out.append(Violation(turn, "spell", i, "a saddlesore rider shot"))
        elif kind == S.K_CC:
            # close combat changes the speed that limits next turn's acceleration; in the air
            # with the crash rule a dragon 2 points from below its minimum crashes (p.17)
            # (the row's snapshot is after the fight's drop: altitude 0 only on the ground)
            for d in (i, j):
                # turning between move phases: the fight ends the carried turn (reading
                # "ends"), or may ("facing": the checker accepts the turn or none)
                if cc_facing:
                    fought.add(d)
                else:
                    carried[d] = 0
                mn = int(tables.min_speed[int(sheets_rows[d][S.D_BODY])])
                air = snaps[d][3] > 0
                if air:
                    last[d] = max(mn, cur_speed.get(d, 0) - speed_loss)
                if on(S.OPT_CRASH_SLOW) and air and cur_speed.get(d, 0) - speed_loss < mn:
                    due_slow.add(d)
        elif kind == S.K_CRASH:
            carried[i] = 0  # on the ground: turning between move phases is flight's
            crashed.add(i)
            cause, levels = vals[0], vals[1]
            a0 = snaps[i][3]
            if levels != a0 or a0 < 1:
                out.append(Violation(turn, "crash", i, f"fell {levels} levels from {a0}"))
            if cause == S.CR_VERY_LOW:
                # "When two dragons engage in close combat at Very Low altitude ... crash to
                # the ground before the combat has taken place" (p.17)
                if not on(S.OPT_CRASH_VERY_LOW) or a0 != 1 or snaps[i][5] < 0:
                    out.append(Violation(turn, "crash", i, "a Very Low crash out of place"))
            elif cause == S.CR_SLOW:
                if i not in due_slow:
                    out.append(Violation(turn, "crash", i, "crashed for speed, not due"))
                due_slow.discard(i)
            elif cause == S.CR_ZEROED:
                if not on(S.OPT_CRASH_ZEROED):
                    out.append(Violation(turn, "crash", i, "zeroed-part crash without the rule"))
                due_slow.discard(i)  # already falling for its damage: one crash
            else:
                out.append(Violation(turn, "crash", i, f"unknown cause {cause}"))
    return out


# ------------------------------------------------------------------------------------------------
# combat events: an independent replay of the dice the log records
# ------------------------------------------------------------------------------------------------


#: the kinds of row logged from the rider actions phase on (a turn's first of them: the
#: Wizard's spells of the turn before end, p.24)
LATE_KINDS = frozenset(
    (
        S.K_RTARGET,
        S.K_SPELL_REC,
        S.K_SPELL,
        S.K_RIDER,
        S.K_TARGET,
        S.K_BREATH,
        S.K_EFFECT,
        S.K_CC,
        S.K_CRASH,
        S.K_END,
    )
)


def _effect_tuple(d: dict) -> tuple[int, int, int, int, int]:
    return (d["breath"], d["claws"], d["mr"], d["max_speed"], d["alive"])


def check_events(
    log, sheets, tables, counters=None, *, rules=None, range_modifier=True
) -> list[Violation]:
    """Replay a game's combat events (``K_BREATH``, ``K_CC``, ``K_EFFECT`` rows of
    :func:`dragonsim.lords.engine.logged_game`) with this module's own damage tracks, and
    return every step the rules do not give.

    From the sheets (``sheets``: the :class:`~dragonsim.lords.game.sheets.Sheet` of each dragon,
    in seat order) and the dice the log records, it recomputes: whether each breath roll hits
    (p.10), the weapon's dice (p.11, one step fewer after serious head damage), the part from
    the Damage Allocation Table and the points taken (never below 0), each close combat's
    winner (2d6 plus the modifier difference, ties a draw, p.13), the tooth-and-claw location
    and damage and the winner's own damage spread (rule ``lords.self_damage_policy``), and
    after each breath phase and each close combat the serious damage effects and removals
    (p.12): a change the log does not show, or shows wrongly, is a violation. With the
    game's ``counters``, the damage each dragon dealt must be what the replay credits.
    With the game's ``rules`` (a :class:`~dragonsim.rules.RuleSet`) each breath's target
    number, range and arc area are recomputed too (:func:`check_to_hit`, the run's
    ``range_modifier`` option); without, the roll is held against the logged number only.
    """
    sc = scal_from_tables(tables)
    alloc, weapon = tables.alloc, tables.weapon
    # the advanced rules' riders (p.18): the Lancer's +4 when riders act, the body hit's 2d6 = 7
    lancer = 0
    deaths = False
    if rules is not None and rules.get("lords.advanced.lancer"):
        lancer = int(rules.get("lords.lancer")["damage"])
    zeroed = False
    crash_dice, fall_kills = 1, 3
    if rules is not None:
        deaths = bool(rules.get("lords.advanced.rider_deaths"))
        zeroed = bool(rules.get("lords.advanced.crash_zeroed"))
        crash_dice = int(rules.get("lords.ground")["crash_dice_per_level"])
        fall_kills = int(rules.get("lords.ground")["rider_fall_kills"])
    # the optional rules (pp. 19-20)
    crits = fumbles = limit = in_place = rider_only = False
    if rules is not None:
        crits = bool(rules.get("lords.optional.critical_hits"))
        fumbles = bool(rules.get("lords.optional.fumbles"))
        limit = bool(rules.get("lords.optional.multiple_hits"))
        in_place = rules.get("lords.critical_body_damage") == "in-place"
        rider_only = rules.get("lords.fumble_rider") == "rider-only"
        oc = rules.get("lords.optional_combat")
        crit_max, max_legs, hit_limit = (
            oc["critical_max_target"],
            oc["broken_legs"],
            oc["hit_limit"],
        )
        crit_table = rules.get("lords.critical_hits")
        fumble_table = rules.get("lords.fumbles")
    # the optional tactics (p.22): the table, the uses, who engaged whom
    tactics_on = bool(rules is not None and rules.get("lords.optional.tactics"))
    if tactics_on:
        tac_table = rules.get("lords.tactics")
        tac_uses = rules.get("lords.tactic_uses")
    used: dict[int, list[int]] = {}  # check marks by dragon and tactic since the last reset
    engaged_by: dict[tuple[int, int], int] = {}  # (turn, dragon) -> the dragon that engaged
    hit_by: dict[int, int] = {}  # damaging breath attacks suffered this turn, by dragon
    hit_turn = -1
    no_rider_check = (
        rules is not None and rules.get("lords.rider_check_rider_hits") == "breath-and-close-combat"
    )
    # "resolve all attacks in order of initiative" (p.20): with the three-hit limit the
    # highest initiative first (reading lords.hit_limit_order), otherwise the lowest first
    high_first = limit and rules.get("lords.hit_limit_order") == "high-first"
    init_place: dict[int, int] = {}  # this turn's initiative places (K_INIT rows)
    last_breath = (-1, -1)  # (turn, place) of the last breath row
    # the Wizard's spells (optional rules, pp. 24-25)
    wizard = rules is not None and bool(rules.get("lords.advanced.wizard"))
    fx = rules.get("lords.spell_effects") if wizard else {}
    dull_floor = 0 if rules is not None and rules.get("lords.dull_floor") == "Blunt" else 1
    spell_turn = -1  # the turn whose rider actions phase has begun (spells expire then)
    ds = []
    for s in sheets:
        d = {
            "points": [int(s.damage_points[p]) for p in PARTS],
            "start_points": [int(s.damage_points[p]) for p in PARTS],
            "breath_sheet": s.breath_i,
            "claws_sheet": s.claws_i,
            "mr_sheet": s.mr_i,
            "max_sheet": s.max_speed,
            "min_speed": s.min_speed,
            "dealt": 0,
            "alive": 1,
            "facing": 0,
            "rider": int(s.rider_i),
            "crash_zeroed": zeroed,
            "dull_floor": dull_floor,
        }
        serious_effects(d, sc)
        ds.append(d)
    shown = [_effect_tuple(d) for d in ds]
    out: list[Violation] = []
    block, rows = None, {}

    def rider_check(turn, who, t, part, roll, what):
        """The rider check of a hit on ``t``'s ``part`` (p.18): rolled exactly when the body
        of a dragon whose rider lives is hit and the rule is on; a 7 kills the rider and
        spares the dragon. Returns whether the dragon was spared."""
        due = deaths and part == 1 and t["rider"] > 0
        if no_rider_check and what in ("rider attack", "spell"):
            due = False  # the reading lords.rider_check_rider_hits = breath-and-close-combat
        if due != (roll != 0) or (due and not 2 <= roll <= 12):
            out.append(Violation(turn, "rider check", who, f"{what}: roll {roll}, due {due}"))
            return False
        if due and roll == 7:
            t["rider"] = 0
            return True
        return False

    def check_critical(turn, i, a, t, v, dmg, before) -> int:
        """A critical hit (optional rules, p.19): "an unmodified 12 ... This can only happen
        if the modified to-hit number was 11 or less"; the table's result (Rider thrown is a
        broken leg without a rider), never one that "would reduce a statistic below the
        lowest possible rating" or break a fourth leg (those are rerolled), and its effect.
        Returns the points the body lost to a double or triple damage beyond the hit's."""
        due = crits and v[1] == 12 and v[0] <= crit_max
        if due != (v[12] != 0):
            out.append(Violation(turn, "critical", i, f"table roll {v[12]}, due {due}"))
            return 0
        if not due:
            if any(v[13:16]):
                out.append(Violation(turn, "critical", i, "critical values without a critical"))
            return 0
        effect = S.CRITICAL_EFFECTS.index(crit_table[v[12]])
        if effect == S.CE_RIDER and t["rider"] == 0:
            effect = S.CE_LEG
        if v[14] != effect:
            out.append(Violation(turn, "critical", i, f"effect {v[14]}, table gives {effect}"))
        b, c, m = unclamped_ratings(t, sc)
        if (
            (effect == S.CE_HEAD and b <= 0)
            or (effect == S.CE_LEG and (c <= 0 or t.get("legs", 0) + 1 >= max_legs))
            or (effect == S.CE_WING and m >= 8)
        ):
            out.append(Violation(turn, "critical", i, f"effect {effect} should be rerolled"))
        extra = 0
        if effect in (S.CE_DOUBLE, S.CE_TRIPLE):
            mult = 2 if effect == S.CE_DOUBLE else 3
            if in_place:
                # "x2 / x3 to the body in place of the hit": the hit's own damage undone
                normal = sum(before[0]) - sum(t["points"])
                t["points"][:] = before[0]
                a["dealt"] = before[1]
                extra = take_damage(t, 1, dmg * mult)
                a["dealt"] += extra
                if v[15] != extra:
                    out.append(Violation(turn, "critical", i, f"body took {v[15]}, {extra}"))
                return extra - normal
            extra = take_damage(t, 1, dmg * (mult - 1))
            a["dealt"] += extra
        elif effect == S.CE_KILLED:
            t["crit_killed"] = 1
        elif effect == S.CE_HEAD:
            t["crit_breath"] = t.get("crit_breath", 0) + 1
        elif effect == S.CE_LEG:
            t["legs"] = t.get("legs", 0) + 1
        elif effect == S.CE_WING:
            t["crit_mr"] = t.get("crit_mr", 0) + 1
        elif effect == S.CE_DAZED:
            t["dazed"] = t.get("dazed", 0) + 1
        elif effect == S.CE_RIDER:
            t["rider"] = 0
        if v[15] != extra:
            out.append(Violation(turn, "critical", i, f"body took {v[15]}, rules {extra}"))
        return extra

    def check_fumble(turn, i, a, v):
        """A fumble (optional rules, p.20): "an unmodified 2 ... your dragon has breathed on
        itself! If you have a rider, check for rider damage. Otherwise roll on the Fumble
        Table": the rider check (a 7 kills the rider, no damage), then the table's dice on
        its location of ``a`` itself (reading lords.fumble_rider)."""
        if not (fumbles and v[1] == 2):
            if any(v[16:20]):
                out.append(Violation(turn, "fumble", i, "fumble rolls without a fumble"))
            return
        checked = deaths and a["rider"] > 0
        spared = rider_check(turn, i, a, 1, v[16], "fumble") if checked else False
        if not checked and v[16] != 0:
            out.append(Violation(turn, "fumble", i, f"rider check {v[16]} without a rider"))
        table = not spared and not (checked and rider_only)
        if not table:
            if any(v[17:20]):
                out.append(Violation(turn, "fumble", i, "the Fumble Table after the check"))
            return
        if not 2 <= v[17] <= 12:
            out.append(Violation(turn, "fumble", i, f"table roll {v[17]}"))
            return
        n, where = fumble_table[v[17]]
        if not n <= v[18] <= 6 * n:
            out.append(Violation(turn, "fumble", i, f"damage roll {v[18]} for {n}d6"))
        took = take_damage(a, PART_CODES.index(where), v[18])
        if v[19] != took:
            out.append(Violation(turn, "fumble", i, f"{v[19]} points lost, rules {took}"))

    def sync(turn):
        for k, d in enumerate(ds):
            if d["alive"]:
                serious_effects(d, sc)
            now = _effect_tuple(d)
            if k in rows and rows[k] != now:
                out.append(Violation(turn, "effect", k, f"logged {rows[k]}, rules give {now}"))
            elif k not in rows and now != shown[k]:
                out.append(Violation(turn, "effect", k, f"serious damage {now} not applied"))
            elif k in rows and now == shown[k]:
                out.append(Violation(turn, "effect", k, "an effect without its damage"))
            shown[k] = now

    def expire(turn):
        """ "each spell lasts until the beginning of the next rider actions phase" (p.24):
        Force Shields fail, Dull and Sharpen end (silently, as they began)."""
        for k, d in enumerate(ds):
            d["shield"] = 0
            if d.get("spell_claw"):
                d["spell_claw"] = 0
                if d["alive"]:
                    serious_effects(d, sc)
                shown[k] = _effect_tuple(d)

    def check_spell(turn, i, j, v):
        """A spell cast (``K_SPELL``): the roll against its number, then its effect."""
        if v[0] < 0:
            return
        if v[3] != int(hits(v[2], v[1])):
            out.append(Violation(turn, "to-hit", i, f"spell roll {v[2]} against {v[1]}"))
        if not v[3]:
            return
        a, t = ds[i], ds[j]
        name = SPELLS[v[0]]
        if name in ("Fireball", "Lightning Bolt"):
            # "Resolve damage as for a breath attack" (p.24): the location, the rider check
            key = "fireball" if name == "Fireball" else "bolt"
            n, plus = fx[f"{key}_dice"], fx[f"{key}_plus"]
            part = int(alloc[v[9]][v[8]])
            if v[10] != part:
                out.append(Violation(turn, "location", i, f"spell part {v[10]}, table {part}"))
            if rider_check(turn, i, t, part, v[12], "spell"):
                if v[7] != 0:
                    out.append(Violation(turn, "spell", i, "damage although the rider died"))
                return
            if not n <= v[11] <= 6 * n:
                out.append(Violation(turn, "damage", i, f"{name} roll {v[11]} ({n}d6)"))
            took = take_damage(t, part, v[11] + plus)
            a["dealt"] += took
            if v[7] != took:
                out.append(Violation(turn, "damage", i, f"{name}: {v[7]} taken, rules {took}"))
        elif name == "Heal":
            # "restores 1d6+3 damage points ... allocated to one or many body parts": never
            # above the starting points; the first part given, then the fewest points left
            n = fx["heal_dice"]
            if not n <= v[11] <= 6 * n:
                out.append(Violation(turn, "spell", i, f"Heal roll {v[11]} ({n}d6)"))
            restored = 0
            for _ in range(v[11] + fx["heal_plus"]):
                hurt = [p for p in range(5) if t["points"][p] < t["start_points"][p]]
                if not hurt:
                    break
                p = v[4] if v[4] in hurt else min(hurt, key=lambda q: (t["points"][q], q))
                t["points"][p] += 1
                restored += 1
            if v[7] != restored:
                out.append(Violation(turn, "spell", i, f"Heal restored {v[7]}, rules {restored}"))
        elif name == "Force Shield":
            t["shield"] = t.get("shield", 0) + fx["shield"]
        elif name in ("Lethargy", "Vigor"):
            # "drop two maneuverability steps during the next movement phase"; "as if its
            # maneuverability rating were 2 steps higher" (p.25): the moves of the next turn
            if t.get("spell_mr_turn") != turn:
                t["spell_mr"], t["spell_mr_turn"] = 0, turn
            t["spell_mr"] += fx["mr_steps"] * (1 if name == "Lethargy" else -1)
        elif name in ("Dull", "Sharpen"):
            step = fx["claw_steps"] * (-1 if name == "Dull" else 1)
            before = t["claws"]
            t["spell_claw"] = t.get("spell_claw", 0) + step
            serious_effects(t, sc)
            shown[j] = _effect_tuple(t)
            if v[7] != abs(t["claws"] - before):
                out.append(Violation(turn, "spell", i, f"{name}: {v[7]} steps, rules differ"))

    for row in log:
        turn, kind, i, j = (int(x) for x in row[:4])
        v = [int(x) for x in row[S.L_A : S.L_A + S.N_LOG_VALUES]]
        if wizard and turn != spell_turn and kind in LATE_KINDS:
            spell_turn = turn
            expire(turn)
        if kind == S.K_EFFECT:
            rows[i] = tuple(v[:5])
            continue
        if kind == S.K_MOVE and v[6] != S.MK_GROUND and ds[i]["alive"]:
            # a move turns at the dragon's rating (p.8): its damage, its torn wings and, for
            # the movement phase after them, Lethargy and Vigor, within A..I (p.25)
            steps = ds[i]["spell_mr"] if ds[i].get("spell_mr_turn") == turn - 1 else 0
            want = min(8, max(0, min(8, ds[i]["mr"]) + steps))
            if v[1] != want:
                out.append(Violation(turn, "move", i, f"flew at MR {v[1]}, rules {want}"))
        if block is not None and not (block == "breath" and kind == S.K_BREATH):
            if not (block == "rider" and kind in (S.K_RIDER, S.K_SPELL)):
                sync(turn)
                block, rows = None, {}
        if kind == S.K_INIT:
            init_place[i] = v[0]
        if kind == S.K_BREATH:
            p = init_place.get(i, -1)
            if last_breath[0] == turn and (p > last_breath[1]) == high_first:
                out.append(Violation(turn, "breath order", i, f"place {p} after {last_breath[1]}"))
            last_breath = (turn, p)
        if kind == S.K_INIT and zeroed:
            # "If a dragon is reduced to 0 damage points in its tail or either of its wings,
            # it will crash to the ground as it can no longer fly" (p.17): none still flies
            b = S.L_SNAP + S.N_SNAP * i
            if ds[i]["alive"] and min(ds[i]["points"][2:]) <= 0 and int(row[b + 3]) > 0:
                out.append(Violation(turn, "crash", i, "flies with a zeroed tail or wing"))
        if kind == S.K_CRASH:
            # "A crashing dragon must roll on the Rear column of the Damage Allocation Table.
            # The body part rolled will take 1d6 points of crash damage for each altitude the
            # dragon fell"; "If the dragon has a rider, roll 1d6. If the result is a 1, 2 or 3,
            # the rider has been killed in the fall" (p.22)
            block = "crash"
            d = ds[i]
            if v[0] == S.CR_ZEROED and min(d["points"][2:]) > 0:
                out.append(Violation(turn, "crash", i, "crashed with no zeroed tail or wing"))
            part = int(alloc[v[2]][3])
            n = crash_dice * v[1]
            if v[3] != part or not n <= v[4] <= 6 * n:
                out.append(Violation(turn, "crash", i, f"part {v[3]} roll {v[4]} ({n}d6)"))
            took = take_damage(d, part, v[4])
            if v[5] != took:
                out.append(Violation(turn, "crash", i, f"{v[5]} points taken, rules {took}"))
            if d["rider"] > 0:
                if not 1 <= v[6] <= 6:
                    out.append(Violation(turn, "crash", i, f"rider's fall roll {v[6]}"))
                elif v[6] <= fall_kills:
                    d["rider"] = 0
            elif v[6] != 0:
                out.append(Violation(turn, "crash", i, "a fall roll without a rider"))
            continue
        if kind == S.K_SPELL:
            block = "rider"
            check_spell(turn, i, j, v)
            continue
        if kind == S.K_RIDER:
            block = "rider"
            a, t = ds[i], ds[j]
            if a["rider"] not in RIDER_REACH:
                out.append(Violation(turn, "rider", i, "no rider that shoots"))
                continue
            if v[2] != int(hits(v[1], v[0])):
                out.append(Violation(turn, "to-hit", i, f"rider roll {v[1]} against {v[0]}"))
            if not v[2]:
                continue
            part = int(alloc[v[4]][v[3]])
            if v[5] != part:
                out.append(Violation(turn, "location", i, f"part {v[5]}, table gives {part}"))
            if rider_check(turn, i, t, part, v[11], "rider attack"):
                if v[7] != 0:
                    out.append(Violation(turn, "rider", i, "damage although the rider died"))
                continue
            dice, plus = RIDER_DAMAGE[a["rider"]][v[8]]
            if v[12] != plus or not dice <= v[6] <= 6 * dice:
                out.append(Violation(turn, "damage", i, f"roll {v[6]} + {v[12]}, rules {plus}"))
            took = take_damage(t, part, v[6] + plus)
            a["dealt"] += took
            if v[7] != took:
                out.append(Violation(turn, "damage", i, f"{v[7]} points taken, rules {took}"))
        elif kind == S.K_BREATH:
            block = "breath"
            if turn != hit_turn:
                hit_by, hit_turn = {}, turn
            if limit and hit_by.get(j, 0) >= hit_limit and v[0] != -2:
                # "limited to suffering damage from up to 3 breath attacks per turn ... any
                # other players that recorded that dragon as a target may not breathe on it"
                out.append(Violation(turn, "hit limit", i, f"breathed at {j} past the limit"))
            if v[0] == -2:
                if not limit or hit_by.get(j, 0) < hit_limit:
                    out.append(Violation(turn, "hit limit", i, f"refused at {hit_by.get(j, 0)}"))
                continue
            if v[0] < 0:
                continue  # a wasted breath: nothing rolled
            a, t = ds[i], ds[j]
            if v[2] != int(hits(v[1], v[0])):
                out.append(Violation(turn, "to-hit", i, f"roll {v[1]} against {v[0]}: {v[2]}"))
            if not v[2]:
                check_fumble(turn, i, a, v)
                continue
            if any(v[16:20]):
                out.append(Violation(turn, "fumble", i, "fumble rolls on a hit"))
            part = int(alloc[v[4]][v[3]])
            spared = rider_check(turn, i, t, part, v[11], "breath")
            if spared and (v[8] != 0 or v[7] != v[15]):
                out.append(Violation(turn, "breath", i, "damage although the rider died"))
            n = 0 if spared else int(weapon[a["breath"]][0])
            if v[8] != n or not n <= v[6] <= 6 * n:
                out.append(Violation(turn, "damage", i, f"{v[8]} dice, roll {v[6]}; rules {n}d6"))
            if v[5] != part:
                out.append(Violation(turn, "location", i, f"part {v[5]}, table gives {part}"))
            before = list(t["points"]), a["dealt"]
            dmg = 0 if spared else v[6] + int(weapon[a["breath"]][1])
            took = take_damage(t, part, dmg)
            a["dealt"] += took
            took += check_critical(turn, i, a, t, v, dmg, before)
            if v[7] != took:
                out.append(Violation(turn, "damage", i, f"{v[7]} points taken, rules {took}"))
            if v[7] > 0:
                hit_by[j] = hit_by.get(j, 0) + 1  # "only those attacks that do damage"
        elif kind == S.K_ENGAGE:
            engaged_by[(turn, i)] = engaged_by[(turn, j)] = i
        elif kind == S.K_CC:
            block = "cc"
            wt = -1  # the winner's tactic
            if tactics_on != (v[13] > 0):
                out.append(
                    Violation(turn, "tactics", i, f"tactics logged {v[13]}, rule {tactics_on}")
                )
                continue
            if tactics_on:
                ta, td, att = v[13] - 1, v[14] - 1, v[17]
                dfn = j if att == i else i
                # "The dragon that instigated the close combat is referred to as the attacker"
                if att not in (i, j) or engaged_by.get((turn, i)) != att:
                    out.append(Violation(turn, "tactics", i, f"attacker {att} did not engage"))
                # "The result is the adjustment to the attacker's modified close combat score"
                if not (0 <= ta < 6 and 0 <= td < 6):
                    out.append(Violation(turn, "tactics", i, f"tactics {ta}, {td}"))
                    continue
                if v[15] != tac_table[TACTICS[ta]][td]:
                    out.append(Violation(turn, "tactics", att, f"adjustment {v[15]}"))
                # "You may only use each tactic five times ... erase your check marks and
                # start over" after 30
                resets = 0
                for bit, d, t in ((1, att, ta), (2, dfn, td)):
                    u = used.setdefault(d, [0] * 6)
                    u[t] += 1
                    if u[t] > tac_uses["per_tactic"]:
                        out.append(Violation(turn, "tactics", d, f"{TACTICS[t]} used {u[t]} times"))
                    if sum(u) >= tac_uses["reset_after"]:
                        used[d] = [0] * 6
                        resets |= bit
                if resets != v[18]:
                    out.append(Violation(turn, "tactics", i, f"resets {v[18]}, rules {resets}"))
                if ta == td == 5:
                    # "if both dragons use a Defend tactic ... no combat rolls are necessary"
                    if v[0] != -1 or v[1] or v[2]:
                        out.append(Violation(turn, "tactics", i, "both Defend, yet rolled"))
                    continue
            sa, sb = v[1] + v[3], v[2]
            want = -1 if sa == sb else (i if sa > sb else j)
            if v[0] != want:
                out.append(Violation(turn, "close combat", i, f"winner {v[0]}, rolls say {want}"))
                continue
            if want < 0:
                continue
            if tactics_on:
                wt = ta if want == att else td
            if (wt == 5) != (v[4] < 0):
                out.append(Violation(turn, "tactics", want, f"Defend win {wt}, column {v[4]}"))
                continue
            if wt == 5:
                # "no damage is inflicted on either dragon" (p.22): the facings only
                lo = ds[j if want == i else i]
                if v[10] >= 0:
                    lo["facing"] = (lo["facing"] - v[10]) % 6
                    ds[want]["facing"] = v[11]
                if v[7] or v[9] or v[16]:
                    out.append(Violation(turn, "tactics", want, "damage after a Defend win"))
                continue
            w, lo = ds[want], ds[j if want == i else i]
            before_l, before_w = sum(lo["points"]), sum(w["points"])
            spared = rider_check(turn, want, lo, int(alloc[v[5]][v[4]]), v[12], "close combat")
            # "If a dragon used a Lunge tactic and won ... an additional +1d6" (p.22)
            if (wt == 0 and not spared) != (1 <= v[16] <= 6) or (v[16] and wt != 0):
                out.append(Violation(turn, "tactics", want, f"Lunge roll {v[16]}, tactic {wt}"))
            close_combat_rest(
                w,
                lo,
                v[4],
                v[5],
                v[6] + v[16],
                v[8],
                v[10],
                v[11],
                alloc,
                weapon,
                sc,
                lancer_damage=lancer,
                spared=spared,
            )
            if before_l - sum(lo["points"]) != v[7] or before_w - sum(w["points"]) != v[9]:
                out.append(
                    Violation(
                        turn,
                        "close combat",
                        want,
                        f"points lost {v[7]} / own {v[9]}, rules "
                        f"{before_l - sum(lo['points'])} / {before_w - sum(w['points'])}",
                    )
                )
    if block is not None:
        sync(-1)
    if rules is not None:
        out += check_to_hit(log, sheets, rules, range_modifier=range_modifier)
    if counters is not None:
        for k, d in enumerate(ds):
            if int(counters[S.C_DEALT + k]) != d["dealt"]:
                out.append(
                    Violation(
                        -1, "dealt", k, f"engine {counters[S.C_DEALT + k]}, replay {d['dealt']}"
                    )
                )
    return out


# ------------------------------------------------------------------------------------------------
# breath geometry and to-hit numbers: recomputed from positions tracked through the log
# ------------------------------------------------------------------------------------------------

#: the facings' unit steps in axial (q, r), counter-clockwise from east, as the log numbers
#: them (0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE)
FACING_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
#: the arc of fire's areas as the log numbers them (0 dark, 1 grey, 2 light; -1 out of arc)
ARC_AREAS = ("dark", "grey", "light")


def _centre(q: int, r: int) -> tuple[float, float]:
    """A pointy-top hex centre in the plane (hex size 1)."""
    return math.sqrt(3) * (q + r / 2), 1.5 * r


def arc_area_of(q, r, facing, tq, tr, degrees) -> int:
    """The area of the arc of fire of a dragon at ``(q, r)`` facing ``facing`` that hex
    ``(tq, tr)`` lies in: "an arc of fire ... which covers the 180 degree arc the dragon is
    facing" (p.10), dark, grey and light by the angle between the facing and the line to the
    target's centre up to ``degrees`` (rule ``lords.arc_degrees``; a boundary counts in the
    better area). -1 outside the arc or for the dragon's own hex. Float geometry with a
    tolerance: an independent check of the engine's integer one."""
    if (q, r) == (tq, tr):
        return -1
    x0, y0 = _centre(q, r)
    x1, y1 = _centre(tq, tr)
    dq, dr = FACING_STEPS[facing]
    fx, fy = _centre(dq, dr)
    vx, vy = x1 - x0, y1 - y0
    c = (vx * fx + vy * fy) / (math.hypot(vx, vy) * math.hypot(fx, fy))
    angle = math.degrees(math.acos(max(-1.0, min(1.0, c))))
    for k, name in enumerate(ARC_AREAS):
        if angle <= degrees[name] + 1e-6:
            return k
    return -1


def to_hit_of(
    rules, target_sheet, distance, area, alt_steps, *, range_modifier=True, grounded=False
) -> int:
    """The breath target number from the rules in force (pp. 10-11): "Start with the base
    number 8" (``lords.base_to_hit``), then the To-Hit Modifiers Table: the target's wings and
    body (``lords.wing_tohit``, ``lords.body_tohit``), its area of the arc (``lords.arc_mod``),
    the Range Key's row (``lords.range_key``, ``lords.range_mod``; off when
    ``range_modifier`` is False, as the Example of Play reads, pp. 36-37) and the altitude
    difference in steps (``lords.altitude_mod``)."""
    n = rules.get("lords.base_to_hit")
    n += rules.get("lords.wing_tohit")[target_sheet.wings]
    n += rules.get("lords.body_tohit")[target_sheet.body]
    n += rules.get("lords.arc_mod")[ARC_AREAS[area]]
    if range_modifier:
        key = rules.get("lords.range_key").get(distance, "Very Long")
        n += rules.get("lords.range_mod")[key]
    alt = rules.get("lords.altitude_mod")
    n += alt[min(alt_steps, len(alt) - 1)]
    if grounded:
        n += rules.get("lords.ground_attacker_mod")  # "Attacker is on the Ground" (p.19)
    return n


def rider_to_hit_of(rules, target_sheet, band, alt_steps, *, grounded=False) -> int:
    """A rider attack's target number (p.18: "handled like a dragon's breath weapon
    attack", a 360 deg arc): base 8, the target's wings and body, the altitude difference,
    and the band's modifier (``lords.rider_to_hit``: medium, long; no Range Key row)."""
    n = rules.get("lords.base_to_hit")
    n += rules.get("lords.wing_tohit")[target_sheet.wings]
    n += rules.get("lords.body_tohit")[target_sheet.body]
    n += rules.get("lords.rider_to_hit")["medium" if band == 0 else "long"]
    alt = rules.get("lords.altitude_mod")
    n += alt[min(alt_steps, len(alt) - 1)]
    if grounded and rules.get("lords.rider_ground_attacker") == "as-breath":
        n += rules.get("lords.ground_attacker_mod")  # as for breath (the reading, p.19)
    return n


def check_to_hit(log, sheets, rules, *, range_modifier=True) -> list[Violation]:
    """Track every dragon's hex, facing and altitude through a game's event log and recompute
    each breath attack's range, arc area and target number from the rules in force; return
    every mismatch with what the log shows (an empty list when all agree).

    The positions come from the log's own steps, never from the engine's snapshots: each
    dragon's placement (its ``K_SETUP`` row), every move's end hex, facing and altitude
    (``K_MOVE``), close combat's "both dragons automatically drop one altitude level" (rule
    ``lords.close_combat``; never below Very Low), the loser turned by its direction-template
    roll "relative to its original facing" (hexside 1 front, counted clockwise) and the winner
    "may then turn to face any hexside it wishes" (the facing it chose; a draw turns neither;
    p.13), and removals (a ``K_EFFECT`` row out of play, p.12, or leaving the board).

    Each ``K_BREATH`` row is then checked: the range in hexes ("range"), the arc area
    ("arc", :func:`arc_area_of`) and the target number ("to-hit number", :func:`to_hit_of`),
    -1 (a wasted breath) exactly when the target is out of arc, beyond
    ``lords.max_breath_range`` or beyond the neck bend ("If the horizontal distance to the
    target is less than the vertical distance, the dragon may not breathe on it", p.10). The
    tracked positions are also held against every row's snapshot of the dragons in play
    ("position"), so a mis-logged step shows where it happened.

    ``sheets``: each dragon's :class:`~dragonsim.lords.game.sheets.Sheet`, in seat order;
    ``rules``: the :class:`~dragonsim.rules.RuleSet` the game was played under;
    ``range_modifier``: the run's option (``OPT_RANGE_MOD``).
    """
    nd = len(sheets)
    degrees = rules.get("lords.arc_degrees")
    max_range = rules.get("lords.max_breath_range")
    drop = rules.get("lords.close_combat")["altitude_drop"]
    pos: dict[int, list[int]] = {}  # dragon -> [q, r, facing, altitude], while in play
    before_fight: dict[int, int] = {}  # a close-combat winner's facing before it turned
    out: list[Violation] = []
    told: set = set()
    wizard = bool(rules.get("lords.advanced.wizard"))
    distort: dict[int, int] = {}  # Distort Range's steps on a dragon's breath this turn
    spell_turn = -1
    steps_ = ("Very Short", "Short", "Medium", "Long", "Very Long")
    for row in log:
        turn, kind, i, j = (int(x) for x in row[:4])
        v = [int(x) for x in row[S.L_A : S.L_A + S.N_LOG_VALUES]]
        snaps = [_snap(row, d) for d in range(nd)]
        if wizard and turn != spell_turn and kind in LATE_KINDS:
            spell_turn, distort = turn, {}
        if kind == S.K_SETUP:
            pos[i] = list(snaps[i][:4])
        elif kind == S.K_EFFECT and v[4] == 0:
            pos.pop(i, None)  # removed from play (p.12): its snapshot no longer matters
        elif kind == S.K_CC:
            for d in (i, j):
                if d in pos and pos[d][3] > 0:  # on the ground: "No altitude ... loss" (p.17)
                    pos[d][3] = max(1, pos[d][3] - drop)
            if v[0] >= 0:
                loser = j if v[0] == i else i
                if loser in pos and v[10] >= 0:  # -1: a Defend win that turns no one (p.22)
                    pos[loser][2] = (pos[loser][2] - v[10]) % 6
                if v[0] in pos:
                    before_fight[v[0]] = pos[v[0]][2]
                    pos[v[0]][2] = v[11] % 6
        elif kind in (S.K_MOVE, S.K_LEAVE) and v[6] == S.MK_TAKE_OFF and i in pos:
            # a take-off's row shows the dragon after its straight leap (p.17)
            (q, r), f = leap(tuple(pos[i][:3]), int(sheets[i].min_speed))[-1], pos[i][2]
            pos[i] = [q, r, f, 1]
        # the snapshot: before a move, a departure or a breath; after setup, effects, combat
        for d, p in pos.items():
            seen = (d, tuple(p), snaps[d][:4])
            if snaps[d][4] == 1 and seen[1] != seen[2] and seen not in told:
                told.add(seen)  # one report per disagreement, not one per row after it
                out.append(Violation(turn, "position", d, f"tracked {seen[1]}, logged {seen[2]}"))
        if kind == S.K_MOVE:
            if i in pos:
                pos[i] = v[2:6]
        elif kind == S.K_CRASH and i in pos:
            # "leave it in the same hex but replace its altitude marker with a Ground counter"
            # (p.17); a crashing winner "must also roll for facing after the loser does"
            pos[i][3] = 0
            if v[7] >= 0:
                pos[i][2] = (before_fight.get(i, pos[i][2]) - v[7]) % 6
            if v[8] != pos[i][2]:
                out.append(Violation(turn, "crash", i, f"facing {v[8]}, rules {pos[i][2]}"))
        elif kind == S.K_LEAVE:
            pos.pop(i, None)
        elif kind == S.K_SPELL and v[0] >= 0:
            # "To cast a spell, the Wizard must roll to hit just like the other riders";
            # "on its own dragon ... roll a 7 or more" (p.18), the spell's ranges (p.25)
            if i not in pos or j not in pos:
                out.append(Violation(turn, "spell", i, "caster or target not in play"))
                continue
            name = SPELLS[v[0]]
            if i == j:
                want, band = rules.get("lords.wizard")["self_target"], 2
            else:
                qa, ra, _, aa = pos[i]
                qt, rt, _, at = pos[j]
                dist = hex_distance(qa, ra, qt, rt)
                _, med, far = rules.get("lords.spells")[name]
                band = 0 if dist <= med else 1
                if v[14] != dist or not 1 <= dist <= far:
                    out.append(Violation(turn, "range", i, f"{name} at {v[14]} / {dist} hexes"))
                want = rider_to_hit_of(rules, sheets[j], band, abs(aa - at), grounded=aa == 0)
            if v[13] != band or v[1] != want:
                out.append(Violation(turn, "to-hit number", i, f"{name} {v[1]}, rules {want}"))
            if v[3] == 1 and name == "Spin":
                # "turn the target up to 120 deg" (p.25)
                if not 1 <= abs(v[4]) <= 2:
                    out.append(Violation(turn, "spell", i, f"Spin by {v[4]} hexsides"))
                pos[j][2] = (pos[j][2] + v[4]) % 6
            elif v[3] == 1 and name == "Distort Range":
                if abs(v[4]) != 1:
                    out.append(Violation(turn, "spell", i, f"Distort Range by {v[4]} steps"))
                distort[j] = distort.get(j, 0) + v[4]
        elif kind == S.K_RIDER:
            if i not in pos or j not in pos:
                out.append(Violation(turn, "rider", i, "attacker or target not in play"))
                continue
            qa, ra, _, aa = pos[i]
            qt, rt, _, at = pos[j]
            dist = hex_distance(qa, ra, qt, rt)
            medium, reach = RIDER_REACH.get(int(sheets[i].rider_i), (0, 0))
            band = 0 if dist <= medium else 1
            if v[9] != dist or not 1 <= dist <= reach or v[8] != band:
                out.append(Violation(turn, "range", i, f"rider: logged {v[9]} hexes / band {v[8]}"))
            want = rider_to_hit_of(rules, sheets[j], band, abs(aa - at), grounded=aa == 0)
            if v[0] != want:
                out.append(Violation(turn, "to-hit number", i, f"rider {v[0]}, rules {want}"))
        elif kind == S.K_BREATH:
            if i not in pos or j not in pos:
                out.append(Violation(turn, "breath", i, "attacker or target not in play"))
                continue
            qa, ra, fa, aa = pos[i]
            qt, rt, _, at = pos[j]
            dist = hex_distance(qa, ra, qt, rt)
            area = arc_area_of(qa, ra, fa, qt, rt, degrees)
            steps = abs(aa - at)
            if v[9] != dist:
                out.append(Violation(turn, "range", i, f"logged {v[9]} hexes, positions {dist}"))
            if v[10] != area:
                out.append(Violation(turn, "arc", i, f"logged area {v[10]}, positions {area}"))
            if area < 0 or not 1 <= dist <= max_range or dist < steps:
                want = -1
            else:
                want = to_hit_of(
                    rules,
                    sheets[j],
                    dist,
                    area,
                    steps,
                    range_modifier=range_modifier,
                    grounded=aa == 0,
                )
                if distort.get(i) and range_modifier:
                    # Distort Range (p.24): "alter the range by which it perceives its target
                    # by one step ... The affected dragon's to-hit roll is altered"
                    rm = rules.get("lords.range_mod")
                    key = rules.get("lords.range_key").get(dist, "Very Long")
                    k = min(4, max(0, steps_.index(key) + distort[i]))
                    want += rm[steps_[k]] - rm[key]
            if v[0] != want and v[0] != -2:  # -2: refused by the three-hit limit (p.20)
                out.append(
                    Violation(
                        turn,
                        "to-hit number",
                        i,
                        f"logged {v[0]}, rules give {want} (range {dist}, area {area}, "
                        f"{steps} altitude steps)",
                    )
                )
    return out
