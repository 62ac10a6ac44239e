"""Exact Warriors of Krynn probabilities (ground truth for the kernels' tests).

Everything here is computed with :class:`fractions.Fraction` by exact convolution of the battle
die: the (hits, Woe) distribution of a dice pool, a conflict's chance of success and of
exceeding the difficulty, the best way to spend a turn's actions on a conflict (dynamic
programming over actions and ability cards left), and the distribution of a line's state after
one fight (a slow, obvious reference for the kernel's hit rules).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ..errors import UserError, check_int
from .data import KrynnRules, default_rules

__all__ = [
    "die_distribution",
    "pool_distribution",
    "hits_distribution",
    "conflict_odds",
    "ConflictPlan",
    "best_conflict_plan",
    "effective_difficulty",
    "apply_hits_reference",
    "fight_distribution",
    "single_line_battle",
]

MAX_DIFFICULTY = 20
MAX_POOL = 40
MAX_ACTIONS = 12
MAX_CARDS = 12


def die_distribution(rules: KrynnRules | None = None) -> dict[tuple[int, int], Fraction]:
    """``{(hits, woe): probability}`` of one battle die."""
    r = rules or default_rules()
    total = sum(f.count for f in r.battle_die)
    out: dict[tuple[int, int], Fraction] = {}
    for f in r.battle_die:
        if f.count:
            key = (f.hits, f.woe)
            out[key] = out.get(key, Fraction(0)) + Fraction(f.count, total)
    return out


def _key(rules: KrynnRules | None) -> tuple:
    r = rules or default_rules()
    return tuple((f.hits, f.woe, f.count) for f in r.battle_die)


@lru_cache(maxsize=256)
def _pool(die_key: tuple, n: int) -> tuple[tuple[tuple[int, int], Fraction], ...]:
    total = sum(c for _, _, c in die_key)
    one: dict[tuple[int, int], Fraction] = {}
    for h, w, c in die_key:
        if c:
            one[h, w] = one.get((h, w), Fraction(0)) + Fraction(c, total)
    dist = {(0, 0): Fraction(1)}
    for _ in range(n):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (h, w), p in dist.items():
            for (dh, dw), q in one.items():
                k = (h + dh, w + dw)
                nxt[k] = nxt.get(k, Fraction(0)) + p * q
        dist = nxt
    return tuple(sorted(dist.items()))


def pool_distribution(n: int, rules: KrynnRules | None = None) -> dict[tuple[int, int], Fraction]:
    """Exact joint distribution ``{(hits, woe): p}`` of ``n`` battle dice."""
    n = check_int(n, "dice pool", 0, MAX_POOL)
    return dict(_pool(_key(rules), int(n)))


def hits_distribution(n: int, rules: KrynnRules | None = None) -> dict[int, Fraction]:
    """Exact distribution of the hits of ``n`` battle dice."""
    out: dict[int, Fraction] = {}
    for (h, _), p in pool_distribution(n, rules).items():
        out[h] = out.get(h, Fraction(0)) + p
    return out


def effective_difficulty(difficulty: int, *, mastered: bool = False) -> int:
    """Printed: "A conflict's difficulty is reduced by 1 if the specified ability is one of your
    hero's mastered abilities." Validates ``1 <= difficulty <= 20``."""
    check_int(difficulty, "difficulty", 1, MAX_DIFFICULTY)
    return max(0, int(difficulty) - (1 if mastered else 0))


def conflict_odds(
    difficulty: int, dice: int, *, mastered: bool = False, rules: KrynnRules | None = None
) -> dict[str, Fraction]:
    """One conflict roll: exact P(success), P(exceeding the difficulty), expected stress.

    Printed: "If the hits equal or exceed the difficulty, you succeed." "If you roll more hits
    than the difficulty against a vile champion, you also draw 1 equipment card." "each Woe
    result causes the hero to take 1 stress".

    >>> conflict_odds(3, 3)["success"]
    Fraction(1, 3)
    """
    d = effective_difficulty(difficulty, mastered=mastered)
    dice = check_int(dice, "dice", 1, MAX_POOL)
    dist = pool_distribution(dice, rules)
    succ = sum((p for (h, _), p in dist.items() if h >= d), Fraction(0))
    exc = sum((p for (h, _), p in dist.items() if h > d), Fraction(0))
    stress = sum((p * w for (_, w), p in dist.items()), Fraction(0))
    return {"success": succ, "exceed": exc, "stress": stress, "difficulty": Fraction(d)}


@dataclass(frozen=True)
class ConflictPlan:
    """The best way to spend ``actions`` actions and up to ``cards`` ability cards on a conflict.

    ``table[(a, c)] = (spend_actions, spend_cards)`` for the next attempt with ``a`` actions and
    ``c`` cards left ((0, 0): stop); ``success`` is the exact chance of succeeding within the
    actions; ``expected_cards`` / ``expected_actions`` / ``expected_stress`` are spent on
    average; ``exceed`` is the chance of succeeding with more hits than the difficulty (an
    equipment card against a vile champion); ``first`` is the opening attempt."""

    difficulty: int
    actions: int
    cards: int
    mastered: bool
    success: Fraction
    exceed: Fraction
    expected_cards: Fraction
    expected_actions: Fraction
    expected_stress: Fraction
    first: tuple[int, int]
    table: dict[tuple[int, ...], tuple[int, int]]
    #: ``krynn.conflict_retry``: ``new-pool`` (``table`` keys ``(a, c)``) or ``carry-over``
    #: (keys ``(a, c, pool)``, the pool of dice carried over, 0 before the first attempt)
    retry: str = "new-pool"

    def steps(self) -> list[str]:
        """The plan in words, attempt by attempt while each attempt fails."""
        out = []
        a, c, pool = self.actions, self.cards, 0
        carry = self.retry == "carry-over"
        while a > 0:
            sa, sc = self.table[(a, c, pool) if carry else (a, c)]
            if sa == 0:
                break
            n = retry_pool(pool, sa, sc) if carry else sa + sc
            out.append(f"spend {sa} action(s) + {sc} card(s): roll {n} dice")
            a, c, pool = a - sa, c - sc, (n if carry else 0)
        return out


def retry_pool(pool: int, actions: int, cards: int) -> int:
    """Dice rolled by an attempt under ``krynn.conflict_retry = "carry-over"``: the first
    (``pool`` 0) rolls 1 die for the action that starts it and 1 per further action and per
    card; a retry rolls the pool again, its first action buying the roll and each further
    action or card adding a die."""
    return actions + cards if pool == 0 else pool + actions + cards - 1


def best_conflict_plan(
    difficulty: int,
    *,
    actions: int = 4,
    cards: int = 0,
    mastered: bool = False,
    rules: KrynnRules | None = None,
) -> ConflictPlan:
    """Exact optimum over every way of splitting actions and cards into attempts.

    Maximises the probability of success; ties go to fewer expected cards, then fewer expected
    actions. Printed: "Initiating a conflict requires spending at least 1 action. You start with
    1 battle die ... spend any number of your remaining actions and discard any number of
    ability cards of the specified type to add that many dice"; "If you roll fewer hits, you
    fail, but you may spend 1 or more actions to try again." A retry is a new attempt
    (``krynn.conflict_retry = "new-pool"``) or rolls the pool carried over (``carry-over``,
    :func:`retry_pool`).

    >>> best_conflict_plan(1, actions=2).success
    Fraction(3, 4)
    """
    d = effective_difficulty(difficulty, mastered=mastered)
    actions = check_int(actions, "actions", 1, MAX_ACTIONS)
    cards = check_int(cards, "cards", 0, MAX_CARDS)
    key = _key(rules)
    if (rules or default_rules()).conflict_retry == "carry-over":
        return _carry_over_plan(difficulty, d, int(actions), int(cards), mastered, key)
    stats: dict[int, tuple[Fraction, Fraction, Fraction]] = {}
    for n in range(1, actions + cards + 1):
        dist = dict(_pool(key, n))
        ps = sum((p for (h, _), p in dist.items() if h >= d), Fraction(0))
        ew = sum((p * w for (_, w), p in dist.items()), Fraction(0))
        pe = sum((p for (h, _), p in dist.items() if h > d), Fraction(0))
        stats[n] = (ps, ew, pe)
    zero = Fraction(0)
    # value[(a, c)] = (p_success, e_cards, e_actions, e_stress, p_exceed)
    value: dict[tuple[int, int], tuple[Fraction, ...]] = {}
    table: dict[tuple[int, int], tuple[int, int]] = {}
    for a in range(0, actions + 1):
        for c in range(0, cards + 1):
            best = (zero, zero, zero, zero, zero)
            choice = (0, 0)
            for sa in range(1, a + 1):
                for sc in range(0, c + 1):
                    ps, ew, pe = stats[sa + sc]
                    rp, rc, ra, rs, rx = value[a - sa, c - sc]
                    q = 1 - ps
                    cand = (ps + q * rp, sc + q * rc, sa + q * ra, ew + q * rs, pe + q * rx)
                    if (cand[0], -cand[1], -cand[2]) > (best[0], -best[1], -best[2]):
                        best, choice = cand, (sa, sc)
            value[a, c] = best
            table[a, c] = choice
    p, ec, ea, es, px = value[actions, cards]
    return ConflictPlan(
        int(difficulty),
        int(actions),
        int(cards),
        bool(mastered),
        p,
        px,
        ec,
        ea,
        es,
        table[actions, cards],
        table,
    )


def _carry_over_plan(difficulty, d, actions, cards, mastered, key) -> ConflictPlan:
    """:func:`best_conflict_plan` when a retry rolls the pool carried over: the same search,
    over states ``(actions left, cards left, pool)`` reachable from the start."""
    zero = Fraction(0)
    stats: dict[int, tuple[Fraction, Fraction, Fraction]] = {}

    def stat(n):
        if n not in stats:
            dist = dict(_pool(key, n))
            stats[n] = (
                sum((p for (h, _), p in dist.items() if h >= d), zero),
                sum((p * w for (_, w), p in dist.items()), zero),
                sum((p for (h, _), p in dist.items() if h > d), zero),
            )
        return stats[n]

    value: dict[tuple[int, int, int], tuple[Fraction, ...]] = {}
    table: dict[tuple[int, int, int], tuple[int, int]] = {}

    def solve(a, c, pool):
        if (a, c, pool) in value:
            return value[a, c, pool]
        best = (zero, zero, zero, zero, zero)
        choice = (0, 0)
        for sa in range(1, a + 1):
            for sc in range(0, c + 1):
                n = retry_pool(pool, sa, sc)
                ps, ew, pe = stat(n)
                rp, rc, ra, rs, rx = solve(a - sa, c - sc, n)
                q = 1 - ps
                cand = (ps + q * rp, sc + q * rc, sa + q * ra, ew + q * rs, pe + q * rx)
                if (cand[0], -cand[1], -cand[2]) > (best[0], -best[1], -best[2]):
                    best, choice = cand, (sa, sc)
        value[a, c, pool] = best
        table[a, c, pool] = choice
        return best

    p, ec, ea, es, px = solve(actions, cards, 0)
    return ConflictPlan(
        int(difficulty),
        actions,
        cards,
        bool(mastered),
        p,
        px,
        ec,
        ea,
        es,
        table[actions, cards, 0],
        table,
        "carry-over",
    )


# --- one fight: a slow, obvious reference ----------------------------------------------------
def apply_hits_reference(
    state: tuple[int, int, int, int],
    hits: int,
    *,
    ready_first: bool,
    barricades_ready_first: bool = False,
) -> tuple[int, int, int, int]:
    """Apply ``hits`` to a line ``(ready, shaken, barricades under ready, under shaken)`` with
    no heroes: barricades first (under shaken units first unless ``barricades_ready_first``),
    then one unit per hit, shaken units first (removing them) unless ``ready_first``."""
    r, s, br, bs = state
    for _ in range(hits):
        if r + s == 0:
            break
        if br > 0 and (barricades_ready_first or bs == 0):
            br -= 1
        elif bs > 0:
            bs -= 1
        elif r > 0 and (ready_first or s == 0):
            r, s = r - 1, s + 1
        else:
            s -= 1
    return (r, s, br, bs)


def fight_distribution(
    defender: tuple[int, int, int, int],
    attacker: tuple[int, int, int, int],
    dice: int,
    *,
    defender_ready_first: bool,
    attacker_ready_first: bool,
    rules: KrynnRules | None = None,
) -> dict[tuple[tuple[int, int, int, int], tuple[int, int, int, int]], Fraction]:
    """Exact distribution of (defending line, attacking line) after a unit card that rolls
    ``dice`` battle dice at the defending line: hits to the defender, then each Woe as a hit
    to the attacking line."""
    out: dict = {}
    for (h, w), p in pool_distribution(dice, rules).items():
        k = (
            apply_hits_reference(defender, h, ready_first=defender_ready_first),
            apply_hits_reference(attacker, w, ready_first=attacker_ready_first),
        )
        out[k] = out.get(k, Fraction(0)) + p
    return out


def single_line_battle(
    *,
    alliance: int,
    army: int,
    alliance_dice: int,
    army_dice: int,
    alliance_barricades: int = 0,
    army_barricades: int = 0,
    alliance_tactics: int = 0,
    army_tactics: int = 0,
    heroes: int = 0,
    hero_policy: str | None = None,
    rules: KrynnRules | None = None,
) -> dict[str, Fraction]:
    """Exact outcome of battles between two Foot lines fought until the tile is controlled.

    The setting the kernel can be checked against over many turns: each side has only a Foot
    line (``alliance`` / ``army`` ready units, barricades, tactic tokens for the first fight),
    every skirmish is on Foot, each side's Foot deck is one card rolling ``*_dice`` battle dice
    at the opposing Foot line, no commanders, and ``heroes`` heroes absorbing hits by
    ``hero_policy`` (default: the rules'). The least-stressed hero absorbs, so only the heroes'
    total stress matters. Each battle strictly lowers ``2 * ready + shaken + barricades`` of
    both lines plus the heroes' stress capacity left, unless nothing happens, so each outcome's
    chance follows by recursion with the no-change chance divided out.

    Returns ``{"alliance": p, "army": p, "turns": expected battles, "stress": expected stress
    the heroes take}``.
    """
    r = rules or default_rules()
    if r.stress_recovery != 0:
        raise UserError(
            "single_line_battle models heroes who keep their stress between battles "
            f"(krynn.stress_recovery = 0), got {r.stress_recovery}"
        )
    for name, v in (("alliance", alliance), ("army", army)):
        if not 1 <= v <= 6:
            raise UserError(f"{name} units must be between 1 and 6, got {v}")
    a_rf = r.alliance_hits == "ready-first"
    d_rf = r.army_hits == "ready-first"
    policy = hero_policy or r.hero_policy
    cap = int(heroes) * int(r.max_stress)
    mutual = r.mutual_control
    dists = {k: pool_distribution(k, r) for k in {alliance_dice, army_dice}}

    def army_hits(line, hits):
        rr, s, b = line
        out = apply_hits_reference((rr, s, 0, b), hits, ready_first=d_rf)
        return (out[0], out[1], out[2] + out[3])

    def alliance_hits(line, hits, tau):
        rr, s, b = line
        for _ in range(hits):
            if rr + s == 0:
                break
            if b > 0:
                b -= 1
                continue
            removal = rr == 0 or (not a_rf and s > 0)
            want = (
                policy == "all"
                or (policy == "removals" and removal)
                or (policy == "last" and not removal and rr == 1)
            )
            if heroes and policy != "never" and want and tau < cap:
                tau += 1
                continue
            if removal:
                s -= 1
            else:
                rr, s = rr - 1, s + 1
        return (rr, s, b), tau

    def outcome(a_line, d_line):
        ar, dr = a_line[0], d_line[0]
        if ar > 0 and dr > 0:
            return None
        if ar == 0 and dr == 0:
            return {"army": "army", "alliance": "alliance", "none": None}[mutual]
        return "alliance" if dr == 0 else "army"

    memo: dict = {}

    def value(a_line, d_line, ta, td, tau):
        key = (a_line, d_line, ta, td, tau)
        if key in memo:
            return memo[key]
        sa = a_line[0] + a_line[1] + ta
        sd = d_line[0] + d_line[1] + td
        atk_alliance = sa > sd
        dice = alliance_dice if atk_alliance else army_dice
        p_self = Fraction(0)
        pa = pd = et = es = Fraction(0)
        for (h, w), p in dists[dice].items():
            if atk_alliance:
                nd = army_hits(d_line, h)
                na, nt = alliance_hits(a_line, w, tau)
            else:
                na, nt = alliance_hits(a_line, h, tau)
                nd = army_hits(d_line, w)
            won = outcome(na, nd)
            if won == "alliance":
                pa += p
                es += p * nt
            elif won == "army":
                pd += p
                es += p * nt
            elif (na, nd, nt) == (a_line, d_line, tau) and ta == 0 and td == 0:
                p_self += p
            else:
                va, vd, vt, vs = value(na, nd, 0, 0, nt)
                pa += p * va
                pd += p * vd
                et += p * vt
                es += p * vs
        q = 1 - p_self
        if q == 0:
            raise UserError("this battle can never be decided (no dice can hit)")
        res = (pa / q, pd / q, (1 + et) / q, es / q)
        memo[key] = res
        return res

    pa, pd, turns, stress = value(
        (alliance, 0, min(alliance_barricades, alliance)),
        (army, 0, min(army_barricades, army)),
        alliance_tactics,
        army_tactics,
        0,
    )
    return {"alliance": pa, "army": pd, "turns": turns, "stress": stress}
