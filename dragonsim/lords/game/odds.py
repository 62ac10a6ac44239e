"""Exact probabilities of Dragon Lords' atomic events, as Fractions.

These are the ground truth the Monte Carlo engine is tested against, and a user's quick
answer. Nothing here samples: distributions are exact convolutions of d6.

Examples
--------
>>> from dragonsim.lords import odds
>>> odds.p_to_hit(8)
Fraction(5, 12)
>>> w, d, l = odds.close_combat("Tankerous", "Zippinchill")
>>> w + d + l
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache

from ...errors import UserError, resolve_name
from ...rules import RuleSet, as_rules
from ...rules.lords import ALTITUDES, DIRECTIONS, PART_CODES, PARTS, RIDERS, TACTICS
from .sheets import Sheet, close_combat_modifier, riders_in_play, sheet

__all__ = [
    "dice_sum",
    "two_d6",
    "p_to_hit",
    "to_hit_number",
    "breath",
    "damage",
    "weapon_damage",
    "location",
    "close_combat",
    "close_combat_by_difference",
    "tactics",
    "rider_attack",
    "spell_on_own_dragon",
    "expected",
    "range_name",
    "spell",
    "breath_at",
    "crash",
    "ground_move",
    "take_off",
    "variance",
    "critical_hit",
    "fumble",
]

AREAS = ("dark", "grey", "light")


@lru_cache(maxsize=64)
def dice_sum(n: int, plus: int = 0) -> dict[int, Fraction]:
    """Exact distribution of ``n`` d6 + ``plus``.

    >>> dice_sum(2)[7]
    Fraction(1, 6)
    """
    if n < 0:
        raise ValueError("n must be >= 0")
    dist = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for s, c in dist.items():
            for f in range(1, 7):
                nxt[s + f] = nxt.get(s + f, 0) + c
        dist = nxt
    total = 6**n
    return {s + plus: Fraction(c, total) for s, c in sorted(dist.items())}


def two_d6() -> dict[int, Fraction]:
    return dice_sum(2)


def p_to_hit(target: int, *, auto_miss: int = 2, auto_hit: int = 12) -> Fraction:
    """P(2d6 >= target), where a roll of ``auto_miss`` always misses and ``auto_hit`` hits.

    "A roll of 2 always misses, and a roll of 12 always hits, even if the target number is
    13 or more." (rulebook p.10)

    >>> p_to_hit(13), p_to_hit(2)
    (Fraction(1, 36), Fraction(35, 36))
    """
    p = Fraction(0)
    for roll, q in two_d6().items():
        if roll <= auto_miss:
            continue
        if roll >= auto_hit or roll >= target:
            p += q
    return p


def range_name(distance: int, rules: RuleSet | None = None) -> str:
    r = as_rules("lords", rules)
    rk = r.get("lords.range_key")
    if distance < 1 or distance > r.get("lords.max_breath_range"):
        raise UserError(
            f"range {distance} is out of breath range; allowed 1..{r.get('lords.max_breath_range')}"
        )
    return rk.get(distance, "Very Long")


def to_hit_number(
    target: Sheet | str,
    *,
    distance: int,
    area: str = "dark",
    altitude_steps: int = 0,
    attacker_on_ground: bool = False,
    range_modifier: bool = True,
    rules: RuleSet | None = None,
) -> int:
    """The modified target number for a breath attack (To-Hit Modifiers Table, p.11).

    ``range_modifier=False`` drops the range row, as the Example of Play does (pp. 36-37:
    at range 5, Long Range +1, it gives 9 and 8 where the tables give 10 and 9).
    """
    r = as_rules("lords", rules)
    t = sheet(target, rules=r)
    area = resolve_name(area, AREAS, "arc area")
    alt = r.get("lords.altitude_mod")
    if not 0 <= altitude_steps < len(alt):
        raise UserError(f"altitude steps must be 0..{len(alt) - 1}, got {altitude_steps}")
    n = r.get("lords.base_to_hit")
    n += r.get("lords.wing_tohit")[t.wings] + r.get("lords.body_tohit")[t.body]
    n += r.get("lords.arc_mod")[area]
    if range_modifier:
        n += r.get("lords.range_mod")[range_name(distance, r)]
    n += alt[altitude_steps]
    if attacker_on_ground:
        n += r.get("lords.ground_attacker_mod")
    return n


def _p_hit(n: int, r: RuleSet) -> Fraction:
    return p_to_hit(n, auto_miss=r.get("lords.auto_miss"), auto_hit=r.get("lords.auto_hit"))


def weapon_damage(step: int, rules: RuleSet | None = None) -> dict[int, Fraction]:
    """Damage distribution of weapon step 0..4 (Weapon Damage Table, p.26)."""
    r = as_rules("lords", rules)
    n, plus = r.get("lords.weapon_damage")[step]
    return dice_sum(n, plus)


def damage(dragon: Sheet | str, weapon: str = "breath", *, rules: RuleSet | None = None):
    """Damage distribution of a dragon's ``breath`` or ``claws`` (healthy sheet)."""
    s = sheet(dragon, rules=rules)
    w = resolve_name(weapon, ("breath", "claws"), "weapon")
    return weapon_damage(s.breath_i if w == "breath" else s.claws_i, rules)


def location(direction: str | int, rules: RuleSet | None = None) -> dict[str, Fraction]:
    """Hit-location distribution for an attack from ``direction`` (F, FR, RR, R, RL, FL).

    2d6 on the Damage Allocation Table (p.11).
    """
    r = as_rules("lords", rules)
    col = (
        direction
        if isinstance(direction, int)
        else DIRECTIONS.index(resolve_name(direction, DIRECTIONS, "direction"))
    )
    table = r.get("lords.damage_allocation")
    out = {p: Fraction(0) for p in PARTS}
    for roll, q in two_d6().items():
        out[PARTS[PART_CODES.index(table[roll][col])]] += q
    return out


def breath(
    attacker: Sheet | str,
    target: Sheet | str,
    *,
    distance: int,
    area: str = "dark",
    altitude_steps: int = 0,
    range_modifier: bool = True,
    rules: RuleSet | None = None,
) -> dict:
    """Exact odds of one breath attack: target number, P(hit), damage if hit, E[damage]."""
    r = as_rules("lords", rules)
    a = sheet(attacker, rules=r)
    n = to_hit_number(
        target,
        distance=distance,
        area=area,
        altitude_steps=altitude_steps,
        range_modifier=range_modifier,
        rules=r,
    )
    p = _p_hit(n, r)
    dmg = weapon_damage(a.breath_i, r)
    return {
        "target_number": n,
        "p_hit": p,
        "damage": dmg,
        "expected_damage_if_hit": expected(dmg),
        "expected_damage": p * expected(dmg),
    }


def expected(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((v * q for v, q in dist.items()), Fraction(0))


def close_combat(
    a: Sheet | str,
    b: Sheet | str,
    *,
    tactics: tuple[str, str] | None = None,
    rules: RuleSet | None = None,
) -> tuple[Fraction, Fraction, Fraction]:
    """P(a wins), P(draw), P(b wins) of one close combat of two healthy dragons (p.13).

    Each rolls 2d6 + its close combat modifier
    (:func:`~dragonsim.lords.game.sheets.close_combat_modifier`: the sheet's, +2 for a Lancer
    when riders are in play, p.18, rule ``lords.riders_in_play``; the engine uses the same
    values); higher wins, ties draw. ``tactics=(a's, b's)`` adds the optional Tactics Result
    Table's modifier to ``a``'s score, ``a`` being the attacker (p.22).
    """
    r = as_rules("lords", rules)
    sa, sb = sheet(a, rules=r), sheet(b, rules=r)
    ma = close_combat_modifier(sa, r)
    mb = close_combat_modifier(sb, r)
    if tactics is not None:
        ta = resolve_name(tactics[0], TACTICS, "tactic")
        tb = resolve_name(tactics[1], TACTICS, "tactic")
        ma += r.get("lords.tactics")[ta][TACTICS.index(tb)]
    return close_combat_by_difference(ma - mb)


@lru_cache(maxsize=64)
def close_combat_by_difference(diff: int) -> tuple[Fraction, Fraction, Fraction]:
    """P(win), P(draw), P(loss) of a dragon whose close-combat modifier exceeds its
    opponent's by ``diff``: "Both ... roll 2d6 and add the close combat modifiers ... The
    highest modified result wins the combat. If the numbers are tied, the combat is a draw"
    (p.13).

    >>> close_combat_by_difference(0)[1]
    Fraction(73, 648)
    """
    d = two_d6()
    win = draw = loss = Fraction(0)
    for x, px in d.items():
        for y, py in d.items():
            if x + diff > y:
                win += px * py
            elif x + diff == y:
                draw += px * py
            else:
                loss += px * py
    return win, draw, loss


def solve_matrix_game(m) -> tuple[float, list[float], list[float]]:
    """Value and optimal mixtures of the zero-sum game ``m`` (rows maximise) by two linear
    programs (``scipy.optimize.linprog``): the row player's ``max v`` subject to
    ``x^T m >= v``, ``sum(x) = 1``, ``x >= 0``, and the column player's ``min u`` subject to
    ``m y <= u``, ``sum(y) = 1``, ``y >= 0``. The close-combat tactics (p.22) and the styles
    at equilibrium (:mod:`dragonsim.lords.analysis.equilibrium`) are both solved here."""
    import numpy as np
    from scipy.optimize import linprog

    m = np.asarray(m, dtype=float)
    nr, nc = m.shape
    free = [(0, None)] * nr + [(None, None)]
    rx = linprog(
        np.r_[np.zeros(nr), -1.0],
        A_ub=np.hstack([-m.T, np.ones((nc, 1))]),
        b_ub=np.zeros(nc),
        A_eq=np.r_[np.ones(nr), 0.0][None, :],
        b_eq=[1.0],
        bounds=free,
        method="highs",
    )
    ry = linprog(
        np.r_[np.zeros(nc), 1.0],
        A_ub=np.hstack([m, -np.ones((nr, 1))]),
        b_ub=np.zeros(nr),
        A_eq=np.r_[np.ones(nc), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * nc + [(None, None)],
        method="highs",
    )
    if not (rx.success and ry.success):  # a finite game always has a solution
        raise RuntimeError(f"linprog failed on {m.tolist()}: {rx.message} / {ry.message}")
    return float(-rx.fun), [float(v) for v in rx.x[:nr]], [float(v) for v in ry.x[:nc]]


def tactics(
    a: Sheet | str,
    b: Sheet | str,
    *,
    attacker_tactics=None,
    defender_tactics=None,
    rules: RuleSet | None = None,
) -> dict:
    """The close-combat tactics game (optional rules, p.22) of attacker ``a`` (the dragon that
    engaged) against defender ``b``, both healthy, as the planning bots play it
    (:mod:`dragonsim.lords.bots.tactics`): the attacker's payoff for each pair (its tactic,
    the defender's) is ``P(win) * (D_a - S_a) - P(loss) * (D_b - S_b)``, ``P`` exact from 2d6
    against 2d6 with the Tactics Result Table's entry added to the attacker's modifier, ``D``
    the winner's expected tooth-and-claw damage (claws' dice and plus, the Lancer's +4 when
    riders are in play, Lunge's "additional +1d6"; 0 after a Defend win: "no damage is
    inflicted on either dragon") and ``S`` its own 1d6 (0 after a Defend win).
    ``attacker_tactics`` / ``defender_tactics``: the tactics each may still use (default all
    six). Returns the names, modifiers, tactics offered, the payoff matrix, both optimal
    mixtures and the value to the attacker, solved with ``scipy.optimize.linprog``.
    """
    r = as_rules("lords", rules)
    sa, sb = sheet(a, rules=r), sheet(b, rules=r)
    ma, mb = close_combat_modifier(sa, r), close_combat_modifier(sb, r)
    rows = [resolve_name(t, TACTICS, "tactic") for t in (attacker_tactics or TACTICS)]
    cols = [resolve_name(t, TACTICS, "tactic") for t in (defender_tactics or TACTICS)]
    rows = [t for t in TACTICS if t in rows]
    cols = [t for t in TACTICS if t in cols]
    table = r.get("lords.tactics")
    wd = r.get("lords.weapon_damage")
    lancer = r.get("lords.lancer")["damage"] if riders_in_play(r) else 0
    own = 3.5 * r.get("lords.close_combat")["winner_self_damage_dice"]

    def gain(s: Sheet, t: str) -> float:
        if t == "Defend":
            return 0.0
        n, plus = wd[s.claws_i]
        g = 3.5 * n + plus + (lancer if s.rider == "Lancer" else 0)
        return g + (3.5 if t == "Lunge" else 0.0) - own

    m = []
    for x in rows:
        row = []
        for y in cols:
            w, _, lo = close_combat_by_difference(ma - mb + table[x][TACTICS.index(y)])
            row.append(float(w) * gain(sa, x) - float(lo) * gain(sb, y))
        m.append(row)
    v, px, py = solve_matrix_game(m)
    return {
        "attacker": sa.name,
        "defender": sb.name,
        "modifier_attacker": ma,
        "modifier_defender": mb,
        "attacker_tactics": rows,
        "defender_tactics": cols,
        "payoff": m,
        "attacker_mixture": px,
        "defender_mixture": py,
        "value": v,
    }


def _rider_target_number(t: Sheet, band: str, altitude_steps: int, r: RuleSet) -> int:
    """Riders and spells roll "just like a dragon's breath weapon attack" with a 360 deg arc:
    base, the target's size and altitude modifiers, and the assumed medium/long modifier."""
    alt = r.get("lords.altitude_mod")
    if not 0 <= altitude_steps < len(alt):
        raise UserError(f"altitude steps must be 0..{len(alt) - 1}, got {altitude_steps}")
    n = r.get("lords.base_to_hit") + r.get("lords.wing_tohit")[t.wings]
    n += r.get("lords.body_tohit")[t.body] + alt[altitude_steps]
    return n + r.get("lords.rider_to_hit")[band]


def rider_attack(
    attacker: Sheet | str,
    target: Sheet | str,
    *,
    distance: int,
    altitude_steps: int = 0,
    rules: RuleSet | None = None,
) -> dict:
    """Exact odds of a rider's missile attack (assumed to-hit, rule ``lords.rider_to_hit``)."""
    r = as_rules("lords", rules)
    a, t = sheet(attacker, rules=r), sheet(target, rules=r)
    if a.rider not in RIDERS[2:5]:
        raise UserError(
            f"{a.name}'s rider ({a.rider}) has no ranged attack; "
            "allowed: Javelin Thrower, Archer, Crossbow Shooter"
        )
    mrng, md, mp, lrng, ld, lp = r.get("lords.riders")[a.rider]
    if distance < 1 or distance > lrng:
        raise UserError(f"{a.rider} reaches 1..{lrng} hexes, got {distance}")
    band = "medium" if distance <= mrng else "long"
    n = _rider_target_number(t, band, altitude_steps, r)
    dmg = dice_sum(md, mp) if band == "medium" else dice_sum(ld, lp)
    p = _p_hit(n, r)
    return {
        "band": band,
        "target_number": n,
        "p_hit": p,
        "damage": dmg,
        "expected_damage": p * expected(dmg),
    }


def spell_on_own_dragon(rules: RuleSet | None = None) -> Fraction:
    """ "the Wizard must simply roll a 7 or more to cast a spell on its own dragon" (p.18)."""
    r = as_rules("lords", rules)
    return _p_hit(r.get("lords.wizard")["self_target"], r)


def spell(
    caster: Sheet | str,
    target: Sheet | str,
    spell_name: str,
    *,
    distance: int,
    altitude_steps: int = 0,
    rules: RuleSet | None = None,
) -> dict:
    """Exact chance a Wizard's spell lands on another dragon (p.18 and the Spellbook, p.25).

    "To cast a spell, the Wizard must roll to hit just like the other riders": base 8, the
    target's size and altitude modifiers, +0 within the spell's medium range and the assumed
    long-range modifier beyond it (rules ``lords.rider_to_hit`` and, for the spell rows the
    rulebook's text cuts off, ``lords.spells``: both assumed).
    """
    from ...rules.lords import SPELLS

    r = as_rules("lords", rules)
    c, t = sheet(caster, rules=r), sheet(target, rules=r)
    if c.rider != "Wizard":
        raise UserError(f"{c.name}'s rider is {c.rider}; only a Wizard casts spells")
    name = resolve_name(spell_name, SPELLS, "spell")
    cost, med, far = r.get("lords.spells")[name]
    if distance < 1 or distance > far:
        raise UserError(f"{name} reaches 1..{far} hexes, got {distance}")
    band = "medium" if distance <= med else "long"
    n = _rider_target_number(t, band, altitude_steps, r)
    return {"spell": name, "cost": cost, "band": band, "target_number": n, "p_hit": _p_hit(n, r)}


def breath_at(
    attacker: Sheet | str,
    target: Sheet | str,
    *,
    attacker_at: tuple[int, int, int, int],
    target_at: tuple[int, int, int, int],
    rules: RuleSet | None = None,
) -> dict:
    """Exact odds of a breath attack between two placed dragons.

    Positions are ``(q, r, facing, altitude)`` in the axial coordinates of
    :mod:`dragonsim.lords.game.hexes` (altitude 1 Very Low .. 5 Very High). Applies the arc of fire,
    the 6-hex range, the neck-bend rule, the to-hit modifiers and the direction template
    (where the line runs through a corner, "the attacker gets to choose": the side whose hit
    locations take the larger expected fraction of their points, an assumed choice of the bots).
    Returns ``allowed=False`` with the reason when the attack may not be made.
    """
    from . import hexes

    r = as_rules("lords", rules)
    a, t = sheet(attacker, rules=r), sheet(target, rules=r)
    aq, ar, af, aalt = attacker_at
    tq, tr, tf, talt = target_at
    dist = int(hexes.distance(aq, ar, tq, tr))
    steps = abs(aalt - talt)
    lim = r.get("lords.arc_degrees")
    area = int(hexes.arc_area(aq, ar, af, tq, tr, lim["dark"], lim["grey"], lim["light"]))
    why = None
    if dist == 0:
        why = "same hex"
    elif dist > r.get("lords.max_breath_range"):
        why = f"out of range ({dist} hexes > {r.get('lords.max_breath_range')})"
    elif area < 0:
        why = "not in the arc of fire"
    elif not hexes.may_breathe_angle(dist, steps):
        why = f"neck cannot bend: {dist} hexes away but {steps} altitude steps apart"
    if why is not None:
        return {"allowed": False, "why": why, "distance": dist, "altitude_steps": steps}
    res = breath(a, t, distance=dist, area=AREAS[area], altitude_steps=steps, rules=r)
    d1, d2 = (int(x) for x in hexes.direction_template(aq, ar, tq, tr, tf))
    choices = [d1] + ([d2] if d2 >= 0 else [])
    dp = t.damage_points
    # the attacker's choice: equal damage either way, so the side that puts it on the parts
    # with fewest points (largest expected fraction of a part destroyed)
    loc = max(
        (location(c, r) for c in choices), key=lambda ld: sum(q / dp[p] for p, q in ld.items())
    )
    return {
        "allowed": True,
        "distance": dist,
        "range": range_name(dist, r),
        "area": AREAS[area],
        "altitude_steps": steps,
        "direction": [DIRECTIONS[c] for c in choices],
        "location": loc,
        **res,
    }


def variance(dist: Mapping[int, Fraction]) -> Fraction:
    """Exact variance of a distribution given as value -> probability.

    >>> variance(dice_sum(1))
    Fraction(35, 12)
    """
    m = expected(dist)
    return sum(((v - m) ** 2 * q for v, q in dist.items()), Fraction(0))


#: the Rear column of the Damage Allocation Table (``tables.SIDE_REAR``): a crash's hit location
REAR = DIRECTIONS.index("R")


def crash(levels: int, rules: RuleSet | None = None) -> dict:
    """Exact odds of a crash from ``levels`` altitude levels above the ground (advanced rules,
    p.22; the engine plays crashes behind ``lords.advanced.crash_very_low``, ``crash_slow``
    and ``crash_zeroed``, p.17).

    "A crashing dragon must roll on the Rear column of the Damage Allocation Table. The body
    part rolled will take 1d6 points of crash damage for each altitude the dragon fell" and
    "If the dragon has a rider, roll 1d6. If the result is a 1, 2 or 3, the rider has been
    killed in the fall" (rule ``lords.ground``: ``crash_dice_per_level``,
    ``rider_fall_kills``). ``levels`` is 1 (Very Low) .. 5 (Very High). The damage is the
    roll, before any cap by the part's points; ``expected_points`` is the roll's mean on each
    part (a healthy dragon: no zeroed tail or wing passing it to the body).

    >>> c = crash(1)
    >>> c["mean"], c["p_rider_killed"]
    (Fraction(7, 2), Fraction(1, 2))
    >>> crash(4)["mean"]
    Fraction(14, 1)
    """
    r = as_rules("lords", rules)
    top = r.get("lords.altitude_levels")
    if isinstance(levels, bool) or not isinstance(levels, int) or not 1 <= levels <= top:
        allowed = ", ".join(f"{k} ({ALTITUDES[k]})" for k in range(1, top + 1))
        raise UserError(f"altitude levels fallen must be one of {allowed}; got {levels!r}")
    g = r.get("lords.ground")
    dice = levels * g["crash_dice_per_level"]
    dist = dice_sum(dice)
    mean = expected(dist)
    loc = location(REAR, r)
    return {
        "levels": levels,
        "altitude": ALTITUDES[levels],
        "dice": dice,
        "damage": dist,
        "mean": mean,
        "variance": variance(dist),
        "location": loc,
        "expected_points": {p: q * mean for p, q in loc.items()},
        "p_rider_killed": Fraction(g["rider_fall_kills"], 6),
    }


def ground_move(rules: RuleSet | None = None) -> dict:
    """Exact distribution of the hexes a dragon on the ground may move: "roll 1d6+3. The
    dragon can move up to this number of hexes along the ground" (advanced rules, p.17; rule
    ``lords.ground``: ``move_dice``, ``move_plus``).

    >>> g = ground_move()
    >>> g["distribution"][4], g["mean"]
    (Fraction(1, 6), Fraction(13, 2))
    """
    r = as_rules("lords", rules)
    g = r.get("lords.ground")
    dist = dice_sum(g["move_dice"], g["move_plus"])
    return {
        "dice": g["move_dice"],
        "plus": g["move_plus"],
        "distribution": dist,
        "mean": expected(dist),
        "variance": variance(dist),
    }


def take_off(dragon: Sheet | str, rules: RuleSet | None = None) -> dict:
    """A take-off of a healthy ``dragon`` (ready-made name, inline design or Sheet): "it must
    record a speed of at least 1 point more than the dragon's minimum speed and no higher than
    7 ... the dragon must climb to Very Low altitude and move a number of hexes in a straight
    line equal to its minimum speed. This always costs a number of movement points equal to
    its minimum speed plus 1" (advanced rules, p.17; rule ``lords.ground``). The speeds are
    also capped by the dragon's maximum speed under the reading ``lords.takeoff_speed``'s
    default, as in the engine (``takeoff_limits``);
    ``speeds`` maps each speed it may record to the points left after the leap, empty when it
    cannot take off at all.

    >>> t = take_off("Tankerous")
    >>> t["leap_hexes"], t["cost"], t["speeds"]
    (5, 6, {6: 0, 7: 1})
    """
    r = as_rules("lords", rules)
    s = sheet(dragon, rules=r)
    g = r.get("lords.ground")
    cost = s.min_speed + g["takeoff_min_over_min"]
    hi = g["takeoff_max_speed"]
    if r.get("lords.takeoff_speed") == "max-and-7":
        hi = min(hi, s.max_speed)
    return {
        "dragon": s.name,
        "min_speed": s.min_speed,
        "max_speed": s.max_speed,
        "leap_hexes": s.min_speed,
        "cost": cost,
        "speeds": {v: v - cost for v in range(cost, hi + 1)},
    }


def critical_hit(target_number: int, rules: RuleSet | None = None) -> dict:
    """The exact odds of a critical hit on one breath roll at ``target_number`` (optional
    rules, p.19): "If, when breathing at an opponent, you roll an unmodified 12 on your 2d6,
    you have scored a critical hit. This can only happen if the modified to-hit number was 11
    or less" (lords.optional_combat's critical_max_target, the 12 lords.auto_hit); then the
    Critical Hit Table's 2d6 (lords.critical_hits), before any reroll.

    >>> c = critical_hit(7)
    >>> c["p"], c["table"][7]
    (Fraction(1, 36), (Fraction(1, 6), 'double body'))
    >>> critical_hit(12)["p"]
    Fraction(0, 1)
    """
    r = as_rules("lords", rules)
    cmax = r.get("lords.optional_combat")["critical_max_target"]
    p = two_d6().get(r.get("lords.auto_hit"), Fraction(0)) if target_number <= cmax else Fraction(0)
    table = r.get("lords.critical_hits")
    return {"p": p, "table": {k: (q, table[k]) for k, q in two_d6().items()}}


def fumble(rules: RuleSet | None = None) -> dict:
    """The exact odds of a fumble on one breath roll (optional rules, p.20): "If you roll an
    unmodified 2 when rolling to hit with a breath weapon, your dragon has breathed on
    itself" (the 2 is lords.auto_miss), then the Fumble Table's 2d6 (lords.fumbles): each
    row's probability, its d6 of damage and location, and the mean damage to the attacker
    (no rider check).

    >>> f = fumble()
    >>> f["p"], f["table"][2], f["mean_damage"]
    (Fraction(1, 36), (Fraction(1, 36), 3, 'B'), Fraction(175, 36))
    """
    r = as_rules("lords", rules)
    p = two_d6().get(r.get("lords.auto_miss"), Fraction(0))
    table = r.get("lords.fumbles")
    rows = {k: (q, int(table[k][0]), table[k][1]) for k, q in two_d6().items()}
    mean = sum((q * Fraction(7, 2) * n for q, n, _ in rows.values()), Fraction(0))
    return {"p": p, "table": rows, "mean_damage": mean}
