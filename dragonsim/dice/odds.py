"""Exact Dragon Dice probabilities (fractions), the ground truth the kernels are tested against.

* :func:`tail_chain`: the dragon's roll, tails then a final icon, exactly.
* :func:`exact_attack`: the whole outcome distribution of one attack of one dragon on a small
  army (breath, the army's response roll, ID split, casualties, slaying, promotions, treasure)
  by enumeration: the dragon's tail chain is summed exactly (every chain long enough to kill
  the whole army is one lump of probability ``p_tail**K``), breath rolls by binomials, the
  army's roll by convolving each unit's die.
* :func:`exact_game`: up to T attacks of one dragon on a small army, a Markov chain over the
  army's states (survival by turn, health lost and promotions over the game).
* :func:`exact_duel_round`: one round of one dragon against one dragon of another colour.

This is a second, plain-Python implementation of the rules in :mod:`dragonsim.dice.kernel`,
written from the seed's sentences, not from the kernel.
"""

from __future__ import annotations

import math
import numbers
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..defaults import DICE_EXACT_TURNS
from ..errors import UserError
from ..rules import RuleSet, dice_rules
from . import data as D
from .api.armies import build_army, resolve_dragons
from .api.options import Options, _catalog, _options

#: the most attacks :func:`exact_game` follows (see :data:`dragonsim.defaults.DICE_EXACT_TURNS`)
MAX_EXACT_TURNS = DICE_EXACT_TURNS

__all__ = [
    "tail_chain",
    "exact_attack",
    "ExactAttack",
    "exact_game",
    "ExactGame",
    "exact_duel_round",
    "roll_outcomes",
]


def tail_chain(faces: Sequence[str]) -> dict[str, Any]:
    """The tail rule exactly: ``P(k tails then icon f) = (t/12)**k * c_f/12``.

    Returns ``{'p_tail': t/12, 'final': {icon: P(final icon)}}`` with the final icon
    independent of the number of tails (so tails are geometric with mean ``t/(12-t)``).

    >>> tail_chain(D.DRAGON_DICE["wyrm"].faces)["p_tail"]
    Fraction(1, 4)
    """
    t = sum(1 for f in faces if f == "tail")
    rest = 12 - t
    if rest == 0:
        raise UserError("a dragon die needs a face that is not a tail")
    final = {
        i: Fraction(sum(1 for f in faces if f == i), rest)
        for i in D.DRAGON_ICONS
        if i != "tail" and i in faces
    }
    return {"p_tail": Fraction(t, 12), "final": final}


def roll_outcomes(faces: Sequence[str], opts: Options, kcap: int):
    """Exact ``[(probability, damage, final icon)]`` of one dragon roll; chains of ``kcap``
    tails or more are one lump (damage as for ``kcap`` tails)."""
    tc = tail_chain(faces)
    pt = tc["p_tail"]
    base = {"claw": opts.claw_damage, "jaws": opts.jaws_damage}
    out = []
    if pt == 0 or opts.tail_damage == 0:
        kcap = 0
    for f, pf in tc["final"].items():
        for k in range(kcap):
            out.append((pt**k * (1 - pt) * pf, k * opts.tail_damage + base.get(f, 0), f))
        out.append((pt**kcap * pf, kcap * opts.tail_damage + base.get(f, 0), f))
    return out


# ---------------------------------------------------------------- one attack on an army
@dataclass
class ExactAttack:
    """Exact distribution of one attack: ``dist[(slain, destroyed, lost, promotions)]``."""

    dragon: str
    army: dict[str, int]
    options: Options
    dist: dict[tuple[int, int, int, int], Fraction]

    def _p(self, pred) -> Fraction:
        return sum((p for k, p in self.dist.items() if pred(k)), Fraction(0))

    @property
    def p_dragon_slain(self) -> Fraction:
        return self._p(lambda k: k[0] == 1)

    @property
    def p_army_destroyed(self) -> Fraction:
        return self._p(lambda k: k[1] == 1)

    @property
    def p_any_promotion(self) -> Fraction:
        return self._p(lambda k: k[3] > 0)

    def lost(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = defaultdict(Fraction)
        for k, p in self.dist.items():
            out[k[2]] += p
        return dict(sorted(out.items()))

    def promotions(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = defaultdict(Fraction)
        for k, p in self.dist.items():
            out[k[3]] += p
        return dict(sorted(out.items()))

    @property
    def mean_health_lost(self) -> Fraction:
        return sum((h * p for h, p in self.lost().items()), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        return {
            "dragon": self.dragon,
            "army": self.army,
            "exact": True,
            "p_dragon_slain": float(self.p_dragon_slain),
            "p_army_destroyed": float(self.p_army_destroyed),
            "p_any_promotion": float(self.p_any_promotion),
            "mean_health_lost": float(self.mean_health_lost),
            "health_lost_distribution": {str(h): float(p) for h, p in self.lost().items()},
            "p_dragon_slain_fraction": str(self.p_dragon_slain),
            "options": self.options.to_dict(),
        }

    def summary(self) -> str:
        lines = [
            f"exact: one attack of {self.dragon} on "
            + ", ".join(f"{u} x{c}" for u, c in self.army.items()),
            "  probabilities, exact:",
            f"    dragon slain      {float(self.p_dragon_slain):.6f}",
            f"    army destroyed    {float(self.p_army_destroyed):.6f}",
            f"    any promotion     {float(self.p_any_promotion):.6f}",
            f"  army health lost (units' health killed): mean {float(self.mean_health_lost):.6f}",
            f"    {'health':>6}  P(lost exactly)",
        ]
        for h, p in self.lost().items():
            lines.append(f"    {h:>6}  {float(p):.6f}")
        return "\n".join(lines)


def _plain(arr) -> dict[str, Any]:
    """The army as plain lists; face kinds by name; ``top``: health at the end of each
    unit's promotion chain."""
    T = len(arr.names)
    promo = [int(x) for x in arr.promo]
    health = [int(x) for x in arr.health]

    def top(t: int) -> int:
        for _ in range(T):
            if promo[t] < 0:
                break
            t = promo[t]
        return health[t]

    return {
        "fk": [[D.FACE_KINDS[k] for k in row] for row in arr.fk.tolist()],
        "fc": arr.fc.tolist(),
        "health": health,
        "kin": [int(x) for x in arr.kin],
        "promo": promo,
        "count0": [int(x) for x in arr.count0],
        "dua0": [int(x) for x in arr.dua0],
        "kill_order": [int(x) for x in arr.kill_order],
        "gold_order": [int(x) for x in arr.gold_order],
        "treasure_order": [int(x) for x in arr.treasure_order],
        "top": [top(t) for t in range(T)],
    }


def _binom(n: int, q: Fraction):
    for k in range(n + 1):
        yield k, math.comb(n, k) * q**k * (1 - q) ** (n - k)


def _kill(
    alive: list[int], dead: list[int], a, amount: int, bury: bool, round_up: bool = False
) -> int:
    """Kill whole units, in the casualty order, while the amount left covers one; with
    ``round_up`` a remainder kills one more unit."""
    rem = amount
    lost = 0
    for t in a["kill_order"]:
        while alive[t] > 0 and a["health"][t] <= rem:
            alive[t] -= 1
            rem -= a["health"][t]
            lost += a["health"][t]
            if not bury and a["kin"][t] < 0:
                dead[t] += 1
    if round_up and rem > 0:
        for t in a["kill_order"]:
            if alive[t] > 0:
                alive[t] -= 1
                lost += a["health"][t]
                if not bury and a["kin"][t] < 0:
                    dead[t] += 1
                break
    return lost


def _no_regular_units(alive, a) -> bool:
    return all(alive[t] == 0 for t in range(len(alive)) if a["kin"][t] < 0)


def _drop_kin(alive, a, counts: bool = True) -> int:
    """Remove the dragonkin (no other unit is left); their health-worth, when it ``counts``
    as lost (``kin_removed_counts_as_lost``)."""
    lost = 0
    for t in range(len(alive)):
        if a["kin"][t] >= 0:
            lost += alive[t] * a["health"][t]
            alive[t] = 0
    return lost if counts else 0


def _not_rolled(a, colour: int, opts: Options) -> list[bool]:
    """Types not rolled during this dragon's attack: 'During a dragon attack, the dragonkin
    are not rolled' (of the dragon's colour, or all of them: ``kin_not_rolled``)."""
    return [k >= 0 and (k == colour or opts.kin_not_rolled == "all") for k in a["kin"]]


def _breath(colour: int, alive, dead, a, opts: Options):
    """Exact ``[(p, alive, dead, lost)]`` after one breath (black, gold, red)."""
    T = len(alive)
    fk = a["fk"]
    skip = _not_rolled(a, colour, opts)
    if colour == D.RED:
        al, de = list(alive), list(dead)
        lost = _kill(al, de, a, opts.flame_health, True, opts.partial_damage == "round-up")
        return [(Fraction(1), al, de, lost)]
    states = [(Fraction(1), list(alive), list(dead), 0)]
    if colour == D.BLACK:
        for t in range(T):
            if alive[t] == 0 or skip[t]:
                continue
            q = Fraction(sum(1 for k in fk[t] if k == "id"), 6)
            new = []
            for p, al, de, lo in states:
                for killed, pk in _binom(alive[t], q):
                    if pk == 0:
                        continue
                    al2 = list(al)
                    al2[t] -= killed
                    new.append((p * pk, al2, list(de), lo + killed * a["health"][t]))
            states = new
        return states
    # gold: the owner's targets, then each rolls for a save on its own
    remaining = opts.stone_units
    for t in a["gold_order"]:
        m = min(alive[t], remaining)
        remaining -= m
        if m == 0:
            continue
        if skip[t]:
            q = Fraction(1)
        else:
            saved = 0
            for kind, cnt in zip(fk[t], a["fc"][t], strict=True):
                if (
                    kind == "id"
                    or (kind == "save" and cnt > 0)
                    or (a["kin"][t] >= 0 and kind != "belly")
                ):
                    saved += 1
            q = Fraction(6 - saved, 6)
        new = []
        for p, al, de, lo in states:
            for killed, pk in _binom(m, q):
                if pk == 0:
                    continue
                al2, de2 = list(al), list(de)
                al2[t] -= killed
                if a["kin"][t] < 0:
                    de2[t] += killed
                new.append((p * pk, al2, de2, lo + killed * a["health"][t]))
        states = new
    return states


def _response(alive: tuple[int, ...], a, colour: int, frost: bool, paralysed: bool, opts: Options):
    """Exact distribution of the army's roll: ``{(attack, saves, id): count}`` out of
    ``6**units`` where attack is melee or missile, whichever is higher."""
    dist: dict[tuple[int, int, int, int, int], int] = {(0, 0, 0, 0, 0): 1}
    skip = _not_rolled(a, colour, opts)
    kin_melee = opts.kin_in_dragon_attack == "melee-and-saves"
    per_unit = frost and opts.frost_halving == "per-unit"
    for t, c in enumerate(alive):
        if c == 0 or skip[t]:
            continue
        isk = a["kin"][t] >= 0
        one: dict[tuple[int, int, int, int, int], int] = defaultdict(int)
        for kind, cnt in zip(a["fk"][t], a["fc"][t], strict=True):
            mel = cnt if kind == "melee" and (kin_melee or not isk) else 0
            mis = cnt if kind == "missile" and not isk else 0
            sav = cnt if kind == "save" else 0
            idr = cnt if kind == "id" else 0
            arm = a["health"][t] if isk and kind != "belly" else 0
            if per_unit:  # frost halves this unit's own roll (armor is not rolled)
                mel, mis, sav, idr = mel // 2, mis // 2, sav // 2, idr // 2
            one[(mel, mis, sav, idr, arm)] += 1
        for _ in range(c):
            new: dict[tuple[int, int, int, int, int], int] = defaultdict(int)
            for k1, w1 in dist.items():
                for k2, w2 in one.items():
                    new[tuple(x + y for x, y in zip(k1, k2, strict=True))] += w1 * w2
            dist = new
    out: dict[tuple[int, int, int], int] = defaultdict(int)
    for (mel, mis, sav, idr, arm), w in dist.items():
        if frost and not per_unit:
            mel, mis, sav, idr = mel // 2, mis // 2, sav // 2, idr // 2
        if paralysed:
            mel = mis = 0
        out[(max(mel, mis), sav + arm, idr)] += w
    return dict(out)


def _promote_all(alive, dead, a, unlimited: bool) -> int:
    snap = list(alive)
    count = 0
    for t, u in enumerate(a["promo"]):
        if u < 0 or snap[t] == 0:
            continue
        m = snap[t] if unlimited else min(snap[t], dead[u])
        if not unlimited:
            dead[u] -= m
        alive[t] -= m
        alive[u] += m
        dead[t] += m
        count += m
    return count


def _promote_one(alive, dead, a, unlimited: bool) -> int:
    for t in a["treasure_order"]:
        u = a["promo"][t]
        if u >= 0 and alive[t] > 0 and (unlimited or dead[u] > 0):
            if not unlimited:
                dead[u] -= 1
            alive[t] -= 1
            alive[u] += 1
            dead[t] += 1
            return 1
    return 0


def exact_attack(
    dragon: str | D.Dragon,
    army: str | Mapping[str, int],
    *,
    options: Options | None = None,
    rules: RuleSet | None = None,
    catalog: D.Catalog | None = None,
    army_file: str | Path | None = None,
    dead_area: Mapping[str, int] | None = None,
    max_units: int = 14,
    **option_kw: Any,
) -> ExactAttack:
    """The exact outcome distribution of one attack of one dragon on an army.

    Parameters
    ----------
    dragon, army, options, catalog, army_file, dead_area, option_kw
        As for :func:`dragonsim.dice.api.attack` (one dragon only).
    max_units
        Refuse armies larger than this (the enumeration grows quickly).

    Examples
    --------
    >>> r = exact_attack("red-wyrm", "goblin-thug:4,goblin-pelter:2")
    >>> 0 < r.p_dragon_slain < 1
    True
    """
    cat = _catalog(catalog, army_file)
    opts = _options(options, cat, option_kw, rules)
    cat = cat.under(opts.rules)
    ds = resolve_dragons(dragon, cat)
    if len(ds) != 1:
        raise UserError("exact answers are for one dragon; give a single dragon name")
    dr = ds[0]
    armyd = D.parse_army(army, cat)
    if sum(armyd.values()) > max_units:
        raise UserError(
            f"exact enumeration is for armies of at most {max_units} units, got "
            f"{sum(armyd.values())}; use 'dice attack' (Monte Carlo) instead"
        )
    colour = dr.colour_code
    a = _plain(build_army(armyd, cat, colour=colour, dead_area=dead_area, options=opts))
    kcap = _kcap(a, opts)
    dist: dict[tuple[int, int, int, int], Fraction] = defaultdict(Fraction)
    start = (tuple(a["count0"]), tuple(a["dua0"]))
    for key, p in _attack_from(a, dr, opts, start, kcap, {}).items():
        slain, destroyed, _flew, lost, promos, _al, _de = key
        dist[(slain, destroyed, lost, promos)] += p
    return ExactAttack(dr.name, armyd, opts, dict(dist))


def _kcap(a, opts: Options) -> int:
    """Tail chains this long or longer kill the whole army whatever it rolls."""
    T = len(a["health"])
    total_h = sum((a["count0"][t] + a["dua0"][t]) * a["top"][t] for t in range(T))
    max_saves = sum(
        (a["count0"][t] + a["dua0"][t]) * (max(a["fc"][t]) + a["top"][t]) for t in range(T)
    )
    return 0 if opts.tail_damage == 0 else -(-(total_h + max_saves + 1) // opts.tail_damage)


def _attack_from(a, dr: D.Dragon, opts: Options, state, kcap: int, cache: dict):
    """Exact distribution of one attack from army ``state = (alive, dead)``:
    ``{(slain, destroyed, flew, lost, promotions, alive, dead): p}``."""
    colour = dr.colour_code
    unlimited = opts.promotion_supply == "unlimited"
    treasure_first = opts.promotion_order == "treasure-then-slaying"
    out: dict[tuple, Fraction] = defaultdict(Fraction)
    for pr, dmg, f in roll_outcomes(dr.die.faces, opts, kcap):
        alive0, dead0 = list(state[0]), list(state[1])
        frost = paralysed = False
        if f == "breath" and colour in (D.BLACK, D.GOLD, D.RED):
            states = _breath(colour, alive0, dead0, a, opts)
        else:
            states = [(Fraction(1), alive0, dead0, 0)]
            frost = f == "breath" and colour == D.GREEN
            paralysed = f == "breath" and colour == D.BLUE
        for ps, al, de, lost0 in states:
            if _no_regular_units(al, a):
                al = list(al)
                lost = lost0 + _drop_kin(al, a, opts.kin_removed_counts_as_lost)
                out[(0, 1, 0, lost, 0, tuple(al), tuple(de))] += pr * ps
                continue
            key = (tuple(al), frost, paralysed)
            if key not in cache:
                rd = _response(tuple(al), a, colour, frost, paralysed, opts)
                cache[key] = (rd, sum(rd.values()))
            rd, tot = cache[key]
            th = opts.dragon_health + (0 if f == "belly" else opts.dragon_saves)
            for (att, sav, idr), w in rd.items():
                id_att = idr
                if opts.id_split == "save-first":
                    id_att = idr - min(idr, max(0, dmg - sav))
                if paralysed:
                    id_att = 0
                need = max(0, th - att)
                slain = need <= id_att
                used = need if slain else 0
                saves = sav + idr - used
                al2, de2 = list(al), list(de)
                lost = lost0
                if dmg - saves > 0:
                    lost += _kill(
                        al2, de2, a, dmg - saves, False, opts.partial_damage == "round-up"
                    )
                destroyed = _no_regular_units(al2, a)
                if destroyed:
                    lost += _drop_kin(al2, a, opts.kin_removed_counts_as_lost)
                promos = 0
                treasure = f == "treasure" and not destroyed
                if treasure and treasure_first:
                    promos += _promote_one(al2, de2, a, unlimited)
                if slain and not destroyed:
                    promos += _promote_all(al2, de2, a, unlimited)
                if treasure and not treasure_first:
                    promos += _promote_one(al2, de2, a, unlimited)
                flew = int(f == "wing" and not slain)
                if unlimited:
                    de2 = [0] * len(de2)  # the dead area does not matter then
                out[(int(slain), int(destroyed), flew, lost, promos, tuple(al2), tuple(de2))] += (
                    pr * ps * Fraction(w, tot)
                )
    return out


@dataclass
class ExactGame:
    """Exact multi-turn game of one dragon against an army.

    ``slain_at[t]``, ``destroyed_at[t]``, ``flew_at[t]``: probability that the dragon is
    slain, the army destroyed, the dragon flies away with the army still there at attack
    ``t`` (1-based; index 0 unused); ``still_fighting``: both still there after ``turns``
    attacks; ``lost`` and ``promotions``: distributions over the whole game. The game ends in
    exactly one of slain, destroyed, flew and still fighting but for the dragon slain by the
    attack that destroys the army (``p_slain_and_destroyed``, in both).
    """

    dragon: str
    army: dict[str, int]
    turns: int
    slain_at: list[Fraction]
    destroyed_at: list[Fraction]
    flew_at: list[Fraction]
    gone_at: list[Fraction]
    still_fighting: Fraction
    lost: dict[int, Fraction]
    promotions: dict[int, Fraction]
    turns_dist: dict[int, Fraction]
    #: the dragon slain by the attack that destroys the army (the one overlap of the ends)
    p_slain_and_destroyed: Fraction = Fraction(0)

    @property
    def p_dragon_slain(self) -> Fraction:
        return sum(self.slain_at, Fraction(0))

    @property
    def p_army_destroyed(self) -> Fraction:
        return sum(self.destroyed_at, Fraction(0))

    @property
    def p_flew(self) -> Fraction:
        return sum(self.flew_at, Fraction(0))


def exact_game(
    dragon: str | D.Dragon,
    army: str | Mapping[str, int],
    *,
    turns: int = 3,
    options: Options | None = None,
    rules: RuleSet | None = None,
    catalog: D.Catalog | None = None,
    max_units: int = 8,
    **option_kw: Any,
) -> ExactGame:
    """Exact distribution of up to ``turns`` attacks (1..:data:`MAX_EXACT_TURNS`) of one dragon
    on a small army (a Markov chain over the army's state; damage to the dragon does not carry
    over).

    >>> g = exact_game("red-drake", "goblin-thug:2,goblin-pelter:1", turns=2)
    >>> g.p_dragon_slain + g.p_army_destroyed - g.p_slain_and_destroyed + g.p_flew + (
    ...     g.still_fighting) == 1
    True
    """
    cat = catalog or D.Catalog()
    opts = _options(options, cat, option_kw, rules)
    cat = cat.under(opts.rules)
    if opts.damage_carries:
        raise UserError("exact_game needs damage_carries=False")
    ok = isinstance(turns, numbers.Integral) and not isinstance(turns, bool)
    if not ok or not 1 <= turns <= MAX_EXACT_TURNS:
        raise UserError(
            f"exact games follow 1..{MAX_EXACT_TURNS} attacks, got {turns!r}: every army state "
            "is carried with exact fractions and each attack costs more than the last; for "
            "more, 'dice attack --turns' (Monte Carlo) plays up to 1000"
        )
    dr = resolve_dragons(dragon, cat)
    if len(dr) != 1:
        raise UserError("exact answers are for one dragon")
    dr = dr[0]
    armyd = D.parse_army(army, cat)
    if sum(armyd.values()) > max_units:
        raise UserError(
            f"exact games are for armies of at most {max_units} units, got "
            f"{sum(armyd.values())}; use 'dice attack --turns' (Monte Carlo) instead"
        )
    a = _plain(build_army(armyd, cat, colour=dr.colour_code, options=opts))
    kcap = _kcap(a, opts)
    z = [Fraction(0)] * (turns + 1)
    slain_at, destroyed_at, flew_at, gone_at = list(z), list(z), list(z), list(z)
    lost: dict[int, Fraction] = defaultdict(Fraction)
    promos: dict[int, Fraction] = defaultdict(Fraction)
    tdist: dict[int, Fraction] = defaultdict(Fraction)
    unlimited = opts.promotion_supply == "unlimited"
    dead0 = tuple(0 for _ in a["dua0"]) if unlimited else tuple(a["dua0"])
    live = {(tuple(a["count0"]), dead0, 0, 0): Fraction(1)}  # (alive, dead, lost, promos)
    cache: dict = {}
    still = both = Fraction(0)
    for t in range(1, turns + 1):
        nxt: dict[tuple, Fraction] = defaultdict(Fraction)
        for (al, de, lo, pm), p in live.items():
            for key, q in _attack_from(a, dr, opts, (al, de), kcap, cache).items():
                slain, destroyed, flew, dl, dp, al2, de2 = key
                pq = p * q
                L, P = lo + dl, pm + dp
                if slain:
                    slain_at[t] += pq
                if destroyed:
                    destroyed_at[t] += pq
                if flew and not destroyed:  # an army destroyed ends the game first
                    flew_at[t] += pq
                if slain and destroyed:
                    both += pq
                if slain or flew:
                    gone_at[t] += pq
                if slain or flew or destroyed:
                    lost[L] += pq
                    promos[P] += pq
                    tdist[t] += pq
                else:
                    nxt[(al2, de2, L, P)] += pq
        live = nxt
    for (_al, _de, lo, pm), p in live.items():
        lost[lo] += p
        promos[pm] += p
        tdist[turns] += p
        still += p
    return ExactGame(
        dr.name,
        armyd,
        turns,
        slain_at,
        destroyed_at,
        flew_at,
        gone_at,
        still,
        dict(sorted(lost.items())),
        dict(sorted(promos.items())),
        dict(tdist),
        both,
    )


# ---------------------------------------------------------------- dragon against dragon
def exact_duel_round(
    a: str | D.Dragon,
    b: str | D.Dragon,
    *,
    options: Options | None = None,
    rules: RuleSet | None = None,
    catalog: D.Catalog | None = None,
) -> dict[str, Fraction]:
    """One round of one dragon against one dragon of another colour, exactly.

    Returns probabilities of ``a_slain``, ``b_slain``, ``both_slain``, ``a_wins`` (B slain or
    flown away, A still there), ``b_wins``, ``both_gone`` and ``neither_gone``.
    """
    cat = catalog or D.Catalog()
    opts = options or Options.from_rules(rules if rules is not None else dice_rules())
    da = resolve_dragons(a, cat)[0]
    db = resolve_dragons(b, cat)[0]
    kcap = -(-(opts.dragon_health + opts.dragon_saves) // max(1, opts.tail_damage)) + 1
    ra = roll_outcomes(da.die.faces, opts, kcap)
    rb = roll_outcomes(db.die.faces, opts, kcap)
    out = defaultdict(Fraction)
    for pa, dmg_a, fa in ra:
        for pb, dmg_b, fb in rb:
            p = pa * pb
            sa = 0 if (fa == "belly" or fb == "breath") else opts.dragon_saves
            sb = 0 if (fb == "belly" or fa == "breath") else opts.dragon_saves
            a_slain = dmg_b >= opts.dragon_health + sa
            b_slain = dmg_a >= opts.dragon_health + sb
            a_gone = a_slain or fa == "wing"
            b_gone = b_slain or fb == "wing"
            out["a_slain"] += p * a_slain
            out["b_slain"] += p * b_slain
            out["both_slain"] += p * (a_slain and b_slain)
            out["a_wins"] += p * (b_gone and not a_gone)
            out["b_wins"] += p * (a_gone and not b_gone)
            out["both_gone"] += p * (a_gone and b_gone)
            out["neither_gone"] += p * (not a_gone and not b_gone)
    return dict(out)
