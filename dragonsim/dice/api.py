"""Public Dragon Dice functions: dragon attacks on armies, dragon duels, army-size sweeps,
melee attacks with dragonkin breath.

Each validates names and options, turns the data into plain arrays, runs a kernel of
:mod:`dragonsim.dice.kernel` through :func:`dragonsim.runner.run_blocks` and returns a result
dataclass with ``.summary()``, ``.to_frame()``, ``.to_dict()`` and a manifest.

Examples
--------
>>> from dragonsim.dice import attack
>>> r = attack("red-wyrm", "goblin-thug:6,goblin-pelter:4", n=2000, progress=False)
>>> 0.0 <= r.p_dragon_slain.rate <= 1.0
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..checkpoint import Checkpoint, open_checkpoint
from ..errors import UserError, check_seed, resolve_name
from ..records import RecordsFile, check_path, run_blocks_recorded
from ..report import interrupted_line, manifest, rules_hash, rules_line
from ..rules import RuleSet, dice_rules
from ..rules import registry as _registry
from ..runner import n_or_precision, run_to_precision
from ..stats import Rate, mean_interval
from . import data as D
from . import kernel as K

__all__ = [
    "Options",
    "ArmyArrays",
    "AttackResult",
    "DuelResult",
    "MeleeResult",
    "SweepResult",
    "attack",
    "duel",
    "dragon_table",
    "DragonTable",
    "teams_by_colour",
    "melee",
    "sweep",
    "build_army",
    "resolve_dragons",
    "units_frame",
]

MAX_TURNS = 1000


def dice_registry():
    """The Dragon Dice rules registry (key -> Rule)."""
    return _registry("dice")


#: Options fields named otherwise than their rule (``dice.<rule>``)
_FIELD_RULE = {"policy": "casualty_policy"}
#: API keyword / ``[options]`` spellings of a rule besides its own name
_ALIASES = {"policy": "casualty_policy"}


@dataclass(frozen=True)
class Options:
    """The Dragon Dice rules in force, as the typed values the kernels' option arrays are
    built from. It has no defaults of its own: :meth:`from_rules` reads every field from a
    :class:`~dragonsim.rules.core.RuleSet` of :mod:`dragonsim.rules.dice` (each field is the
    rule ``dice.<field>``, ``policy`` is ``dice.casualty_policy``; the rule's ``source`` says
    what each value means and why it is the default).

    ``policy`` may also be a tuple of unit names (first killed first), which the API takes
    beside the rule's named policies.
    """

    rules: RuleSet = field(repr=False, compare=False)
    id_split: str
    policy: str | tuple[str, ...]
    promotion_supply: str
    damage_carries: bool
    claw_damage: int
    jaws_damage: int
    tail_damage: int
    dragon_health: int
    dragon_saves: int
    flame_health: int
    stone_units: int
    breath_negation_rounds: int
    partial_damage: str
    promotion_rounds: str
    promotion_order: str
    treasure_promotes: str
    frost_halving: str
    kin_not_rolled: str
    kin_in_dragon_attack: str
    kin_removed_counts_as_lost: bool
    stone_same_colour_kin: str
    stone_targeting: str
    dvd_targeting: str
    melee_counter_attack: bool
    kin_black_needs_id: bool

    @classmethod
    def fields(cls) -> list[str]:
        """The rule-valued fields (all but ``rules``)."""
        return [f for f in cls.__dataclass_fields__ if f != "rules"]

    @classmethod
    def from_rules(cls, rules: RuleSet, policy: Sequence[str] | None = None) -> Options:
        """The options of ``rules`` (``policy``: a list of unit names instead of the rule's
        named casualty policy)."""
        vals = {f: rules.get("dice." + _FIELD_RULE.get(f, f)) for f in cls.fields()}
        if policy is not None:
            vals["policy"] = tuple(policy)
        return cls(rules=rules, **vals)

    @classmethod
    def defaults(cls) -> Options:
        """The options of the rules as shipped (``dice_rules()``)."""
        return cls.from_rules(dice_rules())

    @classmethod
    def make(cls, **kw: Any) -> Options:
        """Validated options from keyword arguments over the shipped rules (unknown keys
        refused)."""
        overrides, policy = _rule_overrides(kw)
        return cls.from_rules(dice_rules(overrides), policy)

    def array(self) -> np.ndarray:
        """The army and dragon-vs-dragon kernels' ``opts`` array."""
        a = np.zeros(K.NOPT, np.int64)
        a[K.O_ID_SPLIT] = D.ID_SPLITS.index(self.id_split)
        a[K.O_CARRY] = int(self.damage_carries)
        a[K.O_PROMO_UNLIMITED] = int(self.promotion_supply == "unlimited")
        a[K.O_CLAW] = self.claw_damage
        a[K.O_JAWS] = self.jaws_damage
        a[K.O_TAIL] = self.tail_damage
        a[K.O_DHEALTH] = self.dragon_health
        a[K.O_DSAVES] = self.dragon_saves
        a[K.O_FLAME] = self.flame_health
        a[K.O_STONE] = self.stone_units
        a[K.O_NEGATE] = self.breath_negation_rounds
        a[K.O_ROUND_UP] = int(self.partial_damage == "round-up")
        a[K.O_PROMO_ONCE] = int(self.promotion_rounds == "once")
        a[K.O_TREASURE_FIRST] = int(self.promotion_order == "treasure-then-slaying")
        a[K.O_FROST_PER_UNIT] = int(self.frost_halving == "per-unit")
        a[K.O_KIN_NONE_ROLLED] = int(self.kin_not_rolled == "all")
        a[K.O_KIN_MELEE] = int(self.kin_in_dragon_attack == "melee-and-saves")
        a[K.O_KIN_LOST] = int(self.kin_removed_counts_as_lost)
        a[K.O_DVD_FOCUS] = int(self.dvd_targeting == "focus")
        return a

    def melee_array(self) -> np.ndarray:
        """The melee kernel's ``mopts`` array."""
        a = np.zeros(K.NMOPT, np.int64)
        a[K.MO_COUNTER] = int(self.melee_counter_attack)
        a[K.MO_BLACK_NEEDS_ID] = int(self.kin_black_needs_id)
        a[K.MO_KIN_LOST] = int(self.kin_removed_counts_as_lost)
        return a

    def to_dict(self) -> dict[str, Any]:
        return {
            f: (list(v) if isinstance(v, tuple) else v)
            for f in self.fields()
            for v in [getattr(self, f)]
        }


def _rule_overrides(kw: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...] | None]:
    """API keywords (rule names, or ``policy``) as rule overrides ``{"dice.<name>": value}``;
    a list of unit names given as the policy comes back on its own."""
    names = sorted({k.partition(".")[2] for k in dice_registry()} | set(_ALIASES))
    out: dict[str, Any] = {}
    policy = None
    for key, v in kw.items():
        name = str(key)
        if name.startswith("dice."):
            name = name[5:]
        name = _ALIASES.get(name, name)
        rkey = "dice." + name
        rule = dice_registry().get(rkey)
        if rule is None:
            resolve_name(str(key), names, "option")  # raises, with did-you-mean
            continue
        if name == "casualty_policy" and isinstance(v, list | tuple):
            policy = tuple(str(u) for u in v)
            continue
        if isinstance(rule.value, bool) and isinstance(v, int | np.integer) and v in (0, 1):
            v = bool(v)
        elif isinstance(v, np.integer) and not isinstance(v, bool):
            v = int(v)
        if isinstance(v, str) and rule.choices:
            v = resolve_name(v, rule.choices, name)
        out[rkey] = v
    return out, policy


def _options(
    options: Options | None,
    cat: D.Catalog,
    kw: Mapping[str, Any],
    rules: RuleSet | None = None,
) -> Options:
    """The options in force: ``rules`` (default: the shipped rules; a rules file's
    ``[dice]`` table comes in this way) < an army file's ``[options]`` < ``options`` <
    keyword arguments."""
    if options is not None and not isinstance(options, Options):
        raise UserError(f"options must be dice Options, got {type(options).__name__}")
    if rules is not None and not isinstance(rules, RuleSet):
        raise UserError(
            f"rules must be a RuleSet of the Dice rules (dragonsim.rules.dice_rules(...)), "
            f"got {type(rules).__name__}"
        )
    if options is not None and not kw and not cat.options and rules is None:
        return options
    base = rules if rules is not None else dice_rules()
    merged: dict[str, Any] = {}
    policy = None
    layers: list[Mapping[str, Any]] = [cat.options]
    if options is not None:
        layers.append(options.to_dict())
    layers.append(kw)
    for layer in layers:
        o, p = _rule_overrides(layer)
        merged.update(o)
        if p is not None:
            policy = p
        elif "dice.casualty_policy" in o:
            policy = None
    return Options.from_rules(base.with_overrides(merged), policy)


def _catalog(catalog: D.Catalog | None, army_file: str | Path | None) -> D.Catalog:
    if catalog is not None and not isinstance(catalog, D.Catalog):
        raise UserError(f"catalog must be a dice Catalog, got {type(catalog).__name__}")
    cat = catalog or D.Catalog()
    if army_file is not None:
        if not isinstance(army_file, str | Path):
            raise UserError(f"army file: expected a file path, got {army_file!r}")
        cat = D.load_toml(army_file, cat)
    return cat


def resolve_dragons(
    spec: str | D.Dragon | Sequence[str | D.Dragon], catalog: D.Catalog
) -> list[D.Dragon]:
    """Dragons from a name, ``'red-wyrm,red-drake'``, a list of names, or Dragon objects."""
    if isinstance(spec, D.Dragon):
        return [spec]
    if not isinstance(spec, str | Sequence):
        raise UserError(
            f"dragons must be a name such as 'red-wyrm', 'red-wyrm:2', a list of names or "
            f"Dragon objects; got {spec!r}"
        )
    if isinstance(spec, str):
        parts = [p.strip() for p in spec.split(",") if p.strip()]
        if not parts:
            raise UserError(f"no dragon given; allowed: {', '.join(catalog.dragons)}")
        spec = parts
    out = []
    for s in spec:
        if isinstance(s, D.Dragon):
            out.append(s)
            continue
        name, sep, cnt = str(s).partition(":")
        c = 1
        if sep:
            try:
                c = int(cnt)
            except ValueError:
                raise UserError(f"bad dragon entry {s!r}: write NAME or NAME:COUNT") from None
            if not 1 <= c <= 16:
                raise UserError(f"dragon count must be 1..16, got {c} in {s!r}")
        out += [catalog.dragon(name)] * c
    if len(out) > 16:
        raise UserError(f"at most 16 dragons, got {len(out)}")
    return out


@dataclass
class ArmyArrays:
    """An army as the kernel's arrays (see :func:`dragonsim.dice.kernel.army_kernel`)."""

    names: list[str]
    fk: np.ndarray
    fc: np.ndarray
    health: np.ndarray
    kin: np.ndarray
    promo: np.ndarray
    count0: np.ndarray
    dua0: np.ndarray
    kill_order: np.ndarray
    gold_order: np.ndarray
    treasure_order: np.ndarray
    hcap: int

    def record(self) -> K.Army:
        """The army as the kernels' :class:`~dragonsim.dice.kernel.layout.Army` record."""
        return K.Army(
            self.fk,
            self.fc,
            self.health,
            self.kin,
            self.promo,
            self.count0,
            self.dua0,
            self.kill_order,
            self.gold_order,
            self.treasure_order,
        )

    def kernel_args(
        self, dragons: Sequence[D.Dragon], colour: int, opts: Options, turns: int
    ) -> tuple:
        """The arguments of :func:`dragonsim.dice.kernel.army_kernel` after
        ``start, stop, seed``."""
        return (
            K.Dragons(_dragon_faces(dragons), colour),
            self.record(),
            opts.array(),
            K.Shape(turns, self.hcap),
        )


def build_army(
    army: Mapping[str, int],
    catalog: D.Catalog,
    *,
    colour: int,
    policy: str | Sequence[str] | None = None,
    dead_area: Mapping[str, int] | None = None,
    options: Options | None = None,
) -> ArmyArrays:
    """Unit types of ``army`` plus their promotion targets (count 0) as plain arrays.

    The casualty order follows ``policy`` (default: the options' policy); the gold-breath
    and treasure orders follow the options' ``stone_targeting``, ``stone_same_colour_kin``,
    ``kin_not_rolled`` and ``treasure_promotes`` (default: the shipped rules)."""
    opts = options if options is not None else Options.defaults()
    if policy is None:
        policy = opts.policy
    names: list[str] = []

    def add(name: str) -> None:
        if name in names:
            return
        names.append(name)
        up = catalog.units[name].promotes_to
        if up is not None:
            if up not in catalog.units:
                raise UserError(f"unit {name!r} promotes to unknown unit {up!r}")
            add(up)

    for name in army:
        add(catalog.unit(name).name)
    if dead_area is not None and not isinstance(dead_area, Mapping):
        raise UserError(f"dead_area must be a mapping of unit names to counts, got {dead_area!r}")
    dead_area = {catalog.unit(k).name: v for k, v in (dead_area or {}).items()}
    for name in dead_area:
        add(name)
    T = len(names)
    us = [catalog.units[nm] for nm in names]
    fk = np.array([[D.FACE_KINDS.index(k) for k, _ in u.faces] for u in us], np.int64)
    fc = np.array([[c for _, c in u.faces] for u in us], np.int64)
    health = np.array([u.health for u in us], np.int64)
    for u in us:  # the kernel packs a die's results in K.RB-bit fields
        if (
            not all(0 <= c <= K.MAX_FACE_VALUE for _, c in u.faces)
            or not 0 <= u.health <= K.MAX_FACE_VALUE
        ):
            raise UserError(
                f"unit {u.name!r}: face counts and health must be 0.."
                f"{K.MAX_FACE_VALUE} for the simulator"
            )
    kin = np.array([D.COLOURS.index(u.kin_colour) if u.is_kin else -1 for u in us], np.int64)
    promo = np.array([names.index(u.promotes_to) if u.promotes_to else -1 for u in us], np.int64)
    count0 = np.zeros(T, np.int64)
    for name, c in army.items():
        count0[names.index(catalog.unit(name).name)] += int(c)
    dua0 = np.zeros(T, np.int64)
    for name, c in dead_area.items():
        if isinstance(c, bool) or not isinstance(c, int) or c < 0:
            raise UserError(f"dead_area count for {name!r} must be a whole number >= 0")
        dua0[names.index(name)] = c
    idx = list(range(T))
    if isinstance(policy, str):
        pol = resolve_name(policy, D.POLICIES, "casualty policy")
        if pol == "cheapest":
            order = sorted(idx, key=lambda t: (us[t].health, us[t].results(), t))
        elif pol == "largest":
            order = sorted(idx, key=lambda t: (-us[t].health, us[t].results(), t))
        elif pol == "army-order":
            order = idx
        else:  # kin-first
            order = sorted(idx, key=lambda t: (not us[t].is_kin, us[t].health, us[t].results(), t))
    else:
        first = [names.index(catalog.unit(p).name) for p in policy if catalog.unit(p).name in names]
        order = first + [t for t in idx if t not in first]
    # gold breath: the owner's targets. Units that are not rolled during this dragon's attack
    # (dragonkin, see kin_not_rolled) are killed if targeted, so by default they come last.
    not_rolled = [
        bool(kin[t] >= 0 and (kin[t] == colour or opts.kin_not_rolled == "all")) for t in idx
    ]
    gold = list(order)
    if opts.stone_targeting == "best-savers-first":
        savers = [sum(_saves_from_stone(us[t], f) for f in range(6)) for t in idx]
        gold = sorted(gold, key=lambda t: -savers[t])  # stable: casualty order within
    if opts.stone_same_colour_kin == "targeted-last":
        gold = [t for t in gold if not not_rolled[t]] + [t for t in gold if not_rolled[t]]
    # treasure: the one unit the owner promotes, the first in this order that can be
    treasure = {
        "army-order": idx,
        "casualty-order": list(order),
        "last-casualty": list(reversed(order)),
    }[opts.treasure_promotes]

    # most health a game can lose: every unit promoted as far as its chain goes
    def top(t: int) -> int:
        seen = 0
        while promo[t] >= 0 and seen < T:
            t = int(promo[t])
            seen += 1
        return int(health[t])

    hcap = int(sum((count0[t] + dua0[t]) * top(t) for t in idx)) + 1
    return ArmyArrays(
        names,
        fk,
        fc,
        health,
        kin,
        promo,
        count0,
        dua0,
        np.array(order, np.int64),
        np.array(gold, np.int64),
        np.array(treasure, np.int64),
        hcap,
    )


def _saves_from_stone(u: D.UnitDie, f: int) -> int:
    """1 when face ``f`` of ``u`` saves it from gold breath (a save result, ID, or a
    dragonkin's armor on any face but the belly), as the kernel's ``aux`` bit 1."""
    kd, c = u.faces[f]
    return int(kd == "id" or (kd == "save" and c > 0) or (u.is_kin and kd != "belly"))


def _identity(command: str, seed, n, opts: Options, **what: Any) -> dict[str, Any]:
    """What a Dice checkpoint belongs to (the kernel's arguments are checked as well)."""
    return {"command": command, "seed": seed, "n": n, "rules_hash": opts.rules.hash, **what}


#: what each column of a dragon attack's records holds (``records=``, ``--records``)
ATTACK_COLUMNS = {
    "game": "game index (its random streams are (seed, game): replayable)",
    "winner_side": "0: the dragons (the army destroyed, a dragon left), 1: the army (no dragon "
    "left, slain or flown away, the army still there), -1: neither (both gone, or still "
    "fighting)",
    "winner": "dragons, army or none (as winner_side)",
    "attacks": "attacks made",
    "dragons_slain": "dragons slain",
    "all_dragons_slain": "true when every dragon was slain",
    "army_destroyed": "true when the army was destroyed",
    "dragon_flew_away": "true when no dragon was left and one flew away",
    "still_fighting": "true when dragons and army were both still there after the last attack",
    "army_health_lost": "health-worth of the army's units lost (killed, buried, dragonkin removed)",
    "army_health_buried": "health-worth buried (black and red breath)",
    "promotions": "units promoted (slaying and treasure)",
}
#: a dragon fight's records (``dice duel``)
DUEL_COLUMNS = {
    "game": ATTACK_COLUMNS["game"],
    "winner_side": "the team left alone (0 for the first colour given, 1 the next, ...), -1: "
    "none (all gone, or still fighting)",
    "winner": "the winning colour, 'all gone' or 'still fighting'",
    "rounds": "rounds fought",
    "all_gone": "true when no dragon was left at all",
    "still_fighting": "true when two or more colours were left after the last round",
}
#: a melee's records (``dice melee``)
MELEE_COLUMNS = {
    "game": ATTACK_COLUMNS["game"],
    "winner_side": "0: the attacker (the defender destroyed, the attacker not), 1: the "
    "defender (the other way round), -1: neither or both destroyed",
    "winner": "attacker, defender or none (as winner_side)",
    "defender_destroyed": "true when the defending army was destroyed",
    "attacker_destroyed": "true when the attacking army was destroyed (by the counter-attack)",
    "defender_health_lost": "health-worth the defender lost",
    "attacker_health_lost": "health-worth the attacker lost",
    "attacker_breaths": "dragonkin breath icons the attacker rolled",
}


def _sides(first: np.ndarray, second: np.ndarray, names: tuple[str, str]) -> dict:
    """winner_side / winner from two per-game booleans (side 0 won / side 1 won)."""
    side = np.where(first & ~second, 0, np.where(second & ~first, 1, -1)).astype(np.int64)
    label = np.array([*names, "none"], dtype=str)
    return {"winner_side": side, "winner": label[np.where(side < 0, 2, side)]}


def _attack_columns(rows: np.ndarray) -> dict:
    destroyed = rows[:, K.C_DESTROYED] > 0
    gone = (rows[:, K.C_ALL_SLAIN] > 0) | (rows[:, K.C_FLEW] > 0)
    return {
        **_sides(destroyed, gone, ("dragons", "army")),
        "attacks": rows[:, K.C_TURNS],
        "dragons_slain": rows[:, K.C_SLAIN_SUM],
        "all_dragons_slain": rows[:, K.C_ALL_SLAIN] > 0,
        "army_destroyed": destroyed,
        "dragon_flew_away": rows[:, K.C_FLEW] > 0,
        "still_fighting": rows[:, K.C_TIMEOUT] > 0,
        "army_health_lost": rows[:, K.C_LOST],
        "army_health_buried": rows[:, K.C_BURIED],
        "promotions": rows[:, K.C_PROMO],
    }


def _duel_columns(colours: Sequence[str]):
    def cols(rows: np.ndarray) -> dict:
        wins = np.stack(
            [rows[:, K.VHEAD + K.VT * i + K.VT_WINS] for i in range(len(colours))], axis=1
        )
        side = np.where(wins.any(axis=1), wins.argmax(axis=1), -1).astype(np.int64)
        gone = rows[:, K.V_ALL_GONE] > 0
        label = np.array([*colours, "all gone", "still fighting"], dtype=str)
        out = {
            "winner_side": side,
            "winner": label[
                np.where(side >= 0, side, np.where(gone, len(colours), len(colours) + 1))
            ],
            "rounds": rows[:, K.V_ROUNDS],
            "all_gone": gone,
            "still_fighting": rows[:, K.V_TIMEOUT] > 0,
        }
        for i, c in enumerate(colours):
            out[f"slain_{c}"] = rows[:, K.VHEAD + K.VT * i + K.VT_SLAIN]
            out[f"flew_{c}"] = rows[:, K.VHEAD + K.VT * i + K.VT_FLEW]
        return out

    return cols


def _melee_columns(rows: np.ndarray) -> dict:
    bd = rows[:, K.M_B_DESTROYED] > 0
    ad = rows[:, K.M_A_DESTROYED] > 0
    return {
        **_sides(bd, ad, ("attacker", "defender")),
        "defender_destroyed": bd,
        "attacker_destroyed": ad,
        "defender_health_lost": rows[:, K.M_B_LOST],
        "attacker_health_lost": rows[:, K.M_A_LOST],
        "attacker_breaths": rows[:, K.M_BREATHS_A],
    }


def _records_manifest(command: str, seed, n, opts: Options, **what: Any) -> dict[str, Any]:
    return manifest(
        command=command,
        game="dragon-dice",
        seed=int(seed),
        requested=int(n),
        rules_hash=opts.rules.hash,
        rules_overrides=opts.rules.overrides,
        options=opts.to_dict(),
        **what,
    )


def _dragon_faces(ds: Sequence[D.Dragon]) -> np.ndarray:
    return np.array([d.die.icon_codes() for d in ds], np.int64)


def _turns(turns: int) -> int:
    if isinstance(turns, bool) or not isinstance(turns, int | np.integer):
        raise UserError(f"turns must be a whole number 1..{MAX_TURNS}, got {turns!r}")
    if not 1 <= turns <= MAX_TURNS:
        raise UserError(f"turns must be 1..{MAX_TURNS}, got {turns}")
    return int(turns)


def _n(n: int | float | str) -> int:
    from ..errors import parse_count

    return parse_count(n)


# ---------------------------------------------------------------- attack
@dataclass
class AttackResult:
    """Counters of dragons attacking an army, with rates, intervals and curves."""

    counters: np.ndarray
    n: int
    turns: int
    hcap: int
    dragons: list[str]
    army: dict[str, int]
    options: Options
    seconds: float
    seed: int
    interrupted: bool = False
    meta: dict[str, Any] = field(default_factory=dict)
    requested: int | None = None
    #: how a ``precision=`` run went (:class:`~dragonsim.runner.PrecisionRun`), else None
    precision: Any = None

    def _c(self, i: int) -> int:
        return int(self.counters[i])

    def _rate(self, i: int) -> Rate:
        """Counter ``i`` as a rate: Wilson 95%, or a precision run's confidence sequence."""
        from ..runner import precision_rates

        return precision_rates(self.precision)[0](self._c(i), self.n)

    def _lay(self, key: str) -> np.ndarray:
        return self.counters[K.army_layout(self.hcap, self.turns)[key]]

    @property
    def p_dragon_slain(self) -> Rate:
        """At least one dragon slain."""
        return self._rate(K.C_ANY_SLAIN)

    @property
    def p_all_slain(self) -> Rate:
        return self._rate(K.C_ALL_SLAIN)

    @property
    def p_army_destroyed(self) -> Rate:
        return self._rate(K.C_DESTROYED)

    @property
    def p_flew(self) -> Rate:
        return self._rate(K.C_FLEW)

    @property
    def p_destroyed_by_breath(self) -> Rate:
        """The army destroyed by a breath before it could respond."""
        return self._rate(K.C_DESTROYED_BY_BREATH)

    @property
    def p_timeout(self) -> Rate:
        return self._rate(K.C_TIMEOUT)

    @property
    def p_promotion(self) -> Rate:
        return self._rate(K.C_PROMO_ANY)

    def _mean(self, i: int, j: int) -> tuple[float, float, float]:
        return mean_interval(float(self._c(i)), float(self._c(j)), self.n)

    @property
    def health_lost(self) -> tuple[float, float, float]:
        """Mean health-worth of units lost, with its 95% interval."""
        return self._mean(K.C_LOST, K.C_LOST_SQ)

    @property
    def promotions(self) -> tuple[float, float, float]:
        return self._mean(K.C_PROMO, K.C_PROMO_SQ)

    @property
    def turns_played(self) -> tuple[float, float, float]:
        return self._mean(K.C_TURNS, K.C_TURNS_SQ)

    @property
    def lost_hist(self) -> np.ndarray:
        """Games by health-worth lost (last bin: that much or more)."""
        return self._lay("lost_hist").copy()

    @property
    def dice_per_attack(self) -> tuple[float, float]:
        """Mean dragon dice and unit dice rolled per attack."""
        att = max(1, self._c(K.C_TURNS))
        return self._c(K.C_DICE_DRAGON) / att, self._c(K.C_DICE_ARMY) / att

    def survival(self) -> dict[str, np.ndarray]:
        """Per turn 0..turns: fraction of games with the army still there, with a dragon still
        there, and with no dragon slain yet."""
        n = max(1, self.n)
        out = {}
        for key, lay in (
            ("army", "army_gone_at"),
            ("dragon", "dragons_gone_at"),
            ("unslain", "first_slain_at"),
        ):
            gone = np.cumsum(self._lay(lay))
            out[key] = 1.0 - gone / n
        return out

    def to_frame(self):
        """Metrics with 95% intervals as a pandas DataFrame (metric, value, lo, hi)."""
        import pandas as pd

        rows = []
        for name, r in (
            ("p_dragon_slain", self.p_dragon_slain),
            ("p_all_dragons_slain", self.p_all_slain),
            ("p_army_destroyed", self.p_army_destroyed),
            ("p_army_destroyed_by_breath", self.p_destroyed_by_breath),
            ("p_dragon_flew_away", self.p_flew),
            ("p_still_fighting", self.p_timeout),
            ("p_any_promotion", self.p_promotion),
        ):
            rows.append((name, r.rate, r.lo, r.hi))
        for name, m in (
            ("mean_health_lost", self.health_lost),
            ("mean_promotions", self.promotions),
            ("mean_turns", self.turns_played),
        ):
            rows.append((name, *m))
        return pd.DataFrame(rows, columns=["metric", "value", "lo", "hi"])

    def lost_frame(self):
        """Distribution of health-worth lost (health, games, probability)."""
        import pandas as pd

        h = self.lost_hist
        return pd.DataFrame(
            {"health_lost": np.arange(h.size), "games": h, "probability": h / max(1, self.n)}
        )

    def survival_frame(self):
        import pandas as pd

        s = self.survival()
        return pd.DataFrame({"turn": np.arange(self.turns + 1), **s})

    def to_dict(self) -> dict[str, Any]:
        def rate(prefix: str, r: Rate) -> dict[str, Any]:
            return {f"p_{prefix}": r.rate, f"ci_{prefix}": [r.lo, r.hi]}

        hl = self.health_lost
        pm = self.promotions
        tp = self.turns_played
        h = self.lost_hist
        last = int(np.max(np.nonzero(h)[0])) if h.any() else 0
        out: dict[str, Any] = {
            "n": self.n,
            "requested": self.requested,
            "dragons": self.dragons,
            "army": self.army,
            "turns": self.turns,
        }
        out.update(rate("dragon_slain", self.p_dragon_slain))
        out.update(rate("all_dragons_slain", self.p_all_slain))
        out.update(rate("army_destroyed", self.p_army_destroyed))
        out.update(rate("army_destroyed_by_breath", self.p_destroyed_by_breath))
        out.update(rate("dragon_flew_away", self.p_flew))
        out.update(rate("still_fighting", self.p_timeout))
        out.update(rate("any_promotion", self.p_promotion))
        out.update(
            {
                "mean_health_lost": hl[0],
                "ci_health_lost": [hl[1], hl[2]],
                "mean_promotions": pm[0],
                "ci_promotions": [pm[1], pm[2]],
                "mean_turns": tp[0],
                "ci_turns": [tp[1], tp[2]],
                "health_lost_distribution": (h[: last + 1] / max(1, self.n)).tolist(),
                "survival": {k: v.tolist() for k, v in self.survival().items()},
                "dice_per_attack": list(self.dice_per_attack),
                "seconds": self.seconds,
                "interrupted": self.interrupted,
                "interval": self.p_army_destroyed.method,
                "precision": None if self.precision is None else self.precision.to_dict(),
                "options": self.options.to_dict(),
                "manifest": self.manifest(),
            }
        )
        return out

    def manifest(self) -> dict[str, Any]:
        return manifest(
            game="dragon-dice",
            mode="army",
            seed=self.seed,
            n=self.n,
            turns=self.turns,
            dragons=self.dragons,
            army=self.army,
            options=self.options.to_dict(),
            policy=self.options.policy,
            rules_hash=rules_hash({"rules": self.options.rules.hash, **self.meta}),
            rules_overrides=self.options.rules.overrides,
            seconds=self.seconds,
            precision=None if self.precision is None else self.precision.to_dict(),
            **self.meta,
        )

    def summary(self) -> str:
        hl = self.health_lost
        pm = self.promotions
        tp = self.turns_played
        lines = [
            f"Dragon Dice attack: {' + '.join(self.dragons)} attacking "
            f"{', '.join(f'{u} x{c}' for u, c in self.army.items())}",
            f"  {self.n:,} games, up to {self.turns} attack(s) each, {self.seconds:.2f} s",
            *interrupted_line(self),
            f"  {'a dragon slain   ' if len(self.dragons) > 1 else 'dragon slain     '} "
            f"{self.p_dragon_slain}",
        ]
        if len(self.dragons) > 1:
            lines.append(f"  all dragons slain {self.p_all_slain}")
        lines += [
            f"  army destroyed    {self.p_army_destroyed}",
            f"  dragon flew away  {self.p_flew}",
            f"  still fighting    {self.p_timeout}",
            f"  army health lost  {hl[0]:.3f} [{hl[1]:.3f}, {hl[2]:.3f}]  (mean health-worth of "
            "the army's units lost, per game)",
            f"  promotions        {pm[0]:.3f} [{pm[1]:.3f}, {pm[2]:.3f}]  (mean units "
            "promoted, per game)",
            f"  attacks made      {tp[0]:.3f} [{tp[1]:.3f}, {tp[2]:.3f}]  (mean, of at most "
            f"{self.turns})",
            "  (a share of games with its 95% "
            + ("interval" if self.precision is None else "confidence sequence")
            + "; means with their 95% intervals)",
        ]
        if self.precision is not None:
            lines.append(self.precision.line())
        rs = self.options.rules
        lines.append("  " + rules_line(rs.hash, rs.overrides))
        return "\n".join(lines)

    def plot(self, ax=None):
        """Survival curves by attack (matplotlib axes): the share of games with the army
        still there, with a dragon still there and with no dragon slain yet, each with its
        own line style and marker; two curves that are the same (no dragon ever flew away)
        are drawn once, under both labels."""
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator, PercentFormatter

        from ..report import plot_style

        with plot_style():
            if ax is None:
                _, ax = plt.subplots()
            s = self.survival()
            x = np.arange(self.turns + 1)
            curves = [
                (s["army"], "army still there", "-", "o"),
                (s["dragon"], "a dragon still there", "--", "s"),
                (s["unslain"], "no dragon slain yet", ":", "^"),
            ]
            if np.array_equal(s["dragon"], s["unslain"]):
                curves = [
                    curves[0],
                    (s["dragon"], "a dragon still there = no dragon slain yet", "--", "s"),
                ]
            for y, label, ls, mk in curves:
                ax.step(x, y, where="post", ls=ls, label=label)
                ax.plot(x, y, ls="none", marker=mk, ms=4, color=ax.lines[-1].get_color())
            ax.set_xlabel("attacks made")
            ax.set_ylabel("share of games")
            ax.set_ylim(0, 1.02)
            ax.yaxis.set_major_formatter(PercentFormatter(1.0))
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_title(
                f"{' + '.join(self.dragons)} attacking "
                f"{', '.join(f'{u} x{c}' for u, c in self.army.items())}\n{self.n:,} games, "
                f"up to {self.turns} attacks",
                fontsize=9,
            )
            ax.legend(loc="lower left")
        return ax


def attack(
    dragon: str | D.Dragon | Sequence[str | D.Dragon],
    army: str | Mapping[str, int],
    *,
    n: int | float | str | None = None,
    precision: float | None = None,
    max_n: int | float | str | None = None,
    seed: int = 1,
    turns: int = 1,
    options: Options | None = None,
    rules: RuleSet | None = None,
    catalog: D.Catalog | None = None,
    army_file: str | Path | None = None,
    dead_area: Mapping[str, int] | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    checkpoint=None,
    records=None,
    _records_context: Mapping[str, Any] | None = None,
    **option_kw: Any,
) -> AttackResult:
    """Dragons of one colour attacking an army, ``turns`` attacks at most.

    Parameters
    ----------
    dragon
        A dragon name (``'red-wyrm'``), several of one colour (``'red-wyrm,red-drake'`` or
        ``'red-wyrm:2'``), or :class:`~dragonsim.dice.data.Dragon` objects.
    army
        ``'goblin-thug:6,goblin-pelter:4'``, a ready-made army name, or ``{unit: count}``.
    n, seed, threads, progress
        Games (default 100,000), seed, numba threads, progress bar.
    precision, max_n
        Instead of ``n``: play until every reported rate (dragon slain, all dragons slain,
        army destroyed, by breath, dragon flew away, still fighting, any promotion) has a 95%
        confidence-sequence half-width of at most ``precision``, at most ``max_n`` games
        (default 1e8); see :func:`~dragonsim.runner.run_to_precision` (Bonferroni over a
        fixed geometric schedule of looks, Clopper-Pearson at each). Not with ``records``
        or ``checkpoint``.
    turns
        Attacks at most (one per turn of the army's owner); the game also ends when the
        dragons are gone (slain or flown away) or the army is destroyed.
    options, rules, option_kw
        :class:`Options`, a :class:`~dragonsim.rules.core.RuleSet` of the Dice rules (e.g.
        ``dice_rules(file="house.toml")``), or rules by name as keywords (e.g.
        ``id_split='save-first'``; every ``dice.<name>`` of :mod:`dragonsim.rules.dice`, and
        ``policy`` for ``casualty_policy``). Keywords win over ``options``, which wins over an
        army file's ``[options]``, which wins over ``rules``.
    catalog, army_file
        Extra units, dragons and armies (a :class:`~dragonsim.dice.data.Catalog` or a TOML
        file, see :func:`~dragonsim.dice.data.load_toml`).
    dead_area
        Units in the army's dead unit area at the start (for ``promotion_supply='dead-area'``).
    records
        A ``.parquet`` or ``.csv`` path: one row per game (:data:`ATTACK_COLUMNS`) and the
        run's manifest (:mod:`dragonsim.records`). The kernel keeps no per-game rows, so each
        game is played on its own: the counters are the same, the run slower.

    Returns
    -------
    AttackResult
    """
    cat = _catalog(catalog, army_file)
    opts = _options(options, cat, option_kw, rules)
    cat = cat.under(opts.rules)
    ds = resolve_dragons(dragon, cat)
    cols = {d.colour for d in ds}
    if len(cols) > 1:
        raise UserError(
            f"dragons of different colours ({', '.join(sorted(cols))}) attack each other, not "
            "the army (seed: 'Dragon vs. Dragon'); use the duel command / dice.duel()"
        )
    armyd = D.parse_army(army, cat)
    nn, cap = n_or_precision(n, precision, max_n, default_n=100_000)
    T = _turns(turns)
    colour = ds[0].colour_code
    arr = build_army(armyd, cat, colour=colour, dead_area=dead_area, options=opts)
    args = arr.kernel_args(ds, colour, opts, T)
    prun = None
    if precision is not None:
        if records is not None or checkpoint is not None:
            raise UserError("records and checkpoints are not supported with a precision target")
        out, prun = run_to_precision(
            K.army_kernel,
            check_seed(seed),
            args,
            precision=precision,
            cap=cap,
            rates=lambda c, _n: [
                c[i]
                for i in (
                    K.C_ANY_SLAIN,
                    K.C_ALL_SLAIN,
                    K.C_DESTROYED,
                    K.C_DESTROYED_BY_BREATH,
                    K.C_FLEW,
                    K.C_TIMEOUT,
                    K.C_PROMO_ANY,
                )
            ],
            progress=progress,
            threads=threads,
            label="games",
            compiled=K._army_kernel,
            game="Dragon Dice",
        )
        return _attack_result(out, T, arr, ds, armyd, opts, seed, cat, out.n, prun)
    section = open_checkpoint(
        checkpoint,
        _identity("dice attack", seed, nn, opts, dragons=[d.name for d in ds], army=armyd),
    )
    if records is not None and not isinstance(records, RecordsFile):
        check_path(records)
    out = run_blocks_recorded(
        K.army_kernel,
        nn,
        check_seed(seed),
        args,
        records=records,
        manifest=lambda: _records_manifest(
            "dice attack", seed, nn, opts, dragons=[d.name for d in ds], army=armyd, turns=T
        ),
        columns=ATTACK_COLUMNS,
        to_columns=_attack_columns,
        context=_records_context,
        progress=progress,
        threads=threads,
        label="games",
        checkpoint=section,
        compiled=K._army_kernel,
        game="Dragon Dice",
    )
    return _attack_result(out, T, arr, ds, armyd, opts, seed, cat, nn, None)


def _attack_result(out, T, arr, ds, armyd, opts, seed, cat, requested, prun) -> AttackResult:
    meta = {
        "unit_faces": {nm: list(cat.units[nm].faces) for nm in arr.names},
        "dragon_faces": {d.name: list(d.die.faces) for d in ds},
    }
    return AttackResult(
        out.counters,
        out.n,
        T,
        arr.hcap,
        [d.name for d in ds],
        armyd,
        opts,
        out.seconds,
        check_seed(seed),
        out.interrupted,
        meta,
        requested,
        prun,
    )


# ---------------------------------------------------------------- dragon vs dragon
@dataclass
class DuelResult:
    """Counters of dragons of different colours fighting each other (one team per colour)."""

    counters: np.ndarray
    n: int
    turns: int
    teams: list[list[str]]
    colours: list[str]
    options: Options
    seconds: float
    seed: int
    interrupted: bool = False
    requested: int | None = None
    #: how a ``precision=`` run went (:class:`~dragonsim.runner.PrecisionRun`), else None
    precision: Any = None

    @property
    def team_a(self) -> list[str]:
        return self.teams[0]

    @property
    def team_b(self) -> list[str]:
        return self.teams[1]

    def _r(self, i: int) -> Rate:
        """Counter ``i`` as a rate: Wilson 95%, or a precision run's confidence sequence."""
        from ..runner import precision_rates

        return precision_rates(self.precision)[0](int(self.counters[i]), self.n)

    def _t(self, team: int, what: int) -> int:
        return K.VHEAD + K.VT * team + what

    def p_team_wins(self, team: int) -> Rate:
        """Only this team's dragons are left."""
        return self._r(self._t(team, K.VT_WINS))

    def p_team_slain(self, team: int) -> Rate:
        """Some dragon of this team was slain."""
        return self._r(self._t(team, K.VT_ANY_SLAIN))

    @property
    def p_a_wins(self) -> Rate:
        return self.p_team_wins(0)

    @property
    def p_b_wins(self) -> Rate:
        return self.p_team_wins(1)

    @property
    def p_all_gone(self) -> Rate:
        return self._r(K.V_ALL_GONE)

    p_both_gone = p_all_gone

    @property
    def p_timeout(self) -> Rate:
        return self._r(K.V_TIMEOUT)

    @property
    def p_a_slain(self) -> Rate:
        return self.p_team_slain(0)

    @property
    def p_b_slain(self) -> Rate:
        return self.p_team_slain(1)

    @property
    def rounds(self) -> tuple[float, float, float]:
        return mean_interval(
            float(self.counters[K.V_ROUNDS]), float(self.counters[K.V_ROUNDS_SQ]), self.n
        )

    def _labels(self) -> list[str]:
        return ["a", "b"] if len(self.teams) == 2 else list(self.colours)

    def to_frame(self):
        import pandas as pd

        rows = []
        for i, lab in enumerate(self._labels()):
            for what, r in (("wins", self.p_team_wins(i)), ("dragon_slain", self.p_team_slain(i))):
                rows.append((f"p_{lab}_{what}", r.rate, r.lo, r.hi))
        for nm, r in (("p_all_gone", self.p_all_gone), ("p_still_fighting", self.p_timeout)):
            rows.append((nm, r.rate, r.lo, r.hi))
        rows.append(("mean_rounds", *self.rounds))
        return pd.DataFrame(rows, columns=["metric", "value", "lo", "hi"])

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n,
            "requested": self.requested,
            "interrupted": self.interrupted,
            "teams": self.teams,
            "colours": self.colours,
            "turns": self.turns,
        }
        if len(self.teams) == 2:
            out["team_a"], out["team_b"] = self.teams
        for _, row in self.to_frame().iterrows():
            m = row["metric"]
            key = m[2:] if m.startswith("p_") else m[5:]
            out[m] = row["value"]
            out[f"ci_{key}"] = [row["lo"], row["hi"]]
        if len(self.teams) == 2:
            out["p_both_gone"] = out["p_all_gone"]
            out["ci_both_gone"] = out["ci_all_gone"]
        out["seconds"] = self.seconds
        out["interval"] = self.p_timeout.method
        out["precision"] = None if self.precision is None else self.precision.to_dict()
        out["options"] = self.options.to_dict()
        out["manifest"] = manifest(
            game="dragon-dice",
            mode="dragon-vs-dragon",
            seed=self.seed,
            n=self.n,
            turns=self.turns,
            teams=self.teams,
            options=self.options.to_dict(),
            rules_hash=self.options.rules.hash,
            seconds=self.seconds,
        )
        return out

    def summary(self) -> str:
        r = self.rounds
        lines = [
            "Dragon Dice dragon fight: " + "  vs  ".join(" + ".join(t) for t in self.teams),
            f"  {self.n:,} games, up to {self.turns} round(s), {self.seconds:.2f} s",
            *interrupted_line(self),
        ]
        for i, col in enumerate(self.colours):
            lines.append(f"  {col + ' wins':<24}{self.p_team_wins(i)}")
        lines += [
            f"  {'all gone':<24}{self.p_all_gone}",
            f"  {'still fighting':<24}{self.p_timeout}",
        ]
        for i, col in enumerate(self.colours):
            lines.append(f"  {'a ' + col + ' dragon slain':<24}{self.p_team_slain(i)}")
        lines.append(f"  {'rounds played':<24}{r[0]:.3f} [{r[1]:.3f}, {r[2]:.3f}]  (mean)")
        rs = self.options.rules
        if self.precision is not None:
            lines.append(self.precision.line())
        lines.append("  " + rules_line(rs.hash, rs.overrides))
        return "\n".join(lines)


def teams_by_colour(
    spec: str | Sequence[str | D.Dragon], catalog: D.Catalog | None = None
) -> list[list[D.Dragon]]:
    """Group dragons into teams by colour ('dragons of the same color team up').

    >>> [[d.name for d in t] for t in teams_by_colour("red-wyrm,blue-drake,red-drake")]
    [['red-wyrm', 'red-drake'], ['blue-drake']]
    """
    cat = catalog or D.Catalog()
    teams: dict[str, list[D.Dragon]] = {}
    for d in resolve_dragons(spec, cat):
        teams.setdefault(d.colour, []).append(d)
    return list(teams.values())


def duel(
    *teams: str | Sequence[str | D.Dragon],
    n: int | float | str | None = None,
    precision: float | None = None,
    max_n: int | float | str | None = None,
    seed: int = 1,
    turns: int = 1,
    options: Options | None = None,
    rules: RuleSet | None = None,
    catalog: D.Catalog | None = None,
    army_file: str | Path | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    checkpoint=None,
    records=None,
    **option_kw: Any,
) -> DuelResult:
    """Dragons of different colours fighting each other, one team per colour.

    Each team focuses on one dragon of another colour (one whose saves a breath negated
    first, else the first listed); all dragons roll at once; a dragon is slain by 5 damage
    (its health) plus 5 (its saves, unless it rolled belly or an enemy breath negated them
    for this round and the next ``breath_negation_rounds``). ``turns`` is the most rounds; a
    game ends when at most one colour is left.

    Parameters
    ----------
    teams
        Two or more teams, e.g. ``duel("red-wyrm", "blue-drake:2")``; or one spec holding
        several colours (``duel("red-wyrm,blue-drake,green-wyrm")``), grouped by colour.
    n, precision, max_n
        Games (default 100,000), or instead a precision target: play until every reported
        rate (each team's wins and a dragon of it slain, all gone, still fighting) has a 95%
        confidence-sequence half-width of at most ``precision``, at most ``max_n`` games
        (see :func:`attack`). Not with ``records`` or ``checkpoint``.
    records
        A ``.parquet`` or ``.csv`` path: one row per game (:data:`DUEL_COLUMNS`, and each
        colour's dragons slain and flown away), played one game at a time (see
        :func:`attack`).
    """
    cat = _catalog(catalog, army_file)
    opts = _options(options, cat, option_kw, rules)
    cat = cat.under(opts.rules)
    if len(teams) == 1:
        groups = teams_by_colour(teams[0], cat)
    else:
        groups = [resolve_dragons(t, cat) for t in teams]
    if len(groups) < 2:
        raise UserError(
            "a dragon fight needs dragons of at least two colours; dragons of the "
            "same colour do not fight each other (they attack the army together; "
            "use attack)"
        )
    cols = []
    for i, team in enumerate(groups):
        c = {d.colour for d in team}
        if len(c) > 1:
            raise UserError(
                f"team {i + 1} mixes colours {sorted(c)}; dragons of one colour "
                "team up, so give each team one colour"
            )
        cols.append(c.pop())
    if len(set(cols)) < len(cols):
        raise UserError(
            f"two teams share a colour ({', '.join(cols)}): dragons of the same "
            "colour do not fight each other (they team up)"
        )
    dragons_all = [d for t in groups for d in t]
    if len(dragons_all) > 16:
        raise UserError("at most 16 dragons in a fight")
    T = _turns(turns)
    faces = _dragon_faces(dragons_all)
    side = np.array([i for i, t in enumerate(groups) for _ in t], np.int64)
    nn, cap = n_or_precision(n, precision, max_n, default_n=100_000)
    if precision is not None:
        if records is not None or checkpoint is not None:
            raise UserError("records and checkpoints are not supported with a precision target")
        k = len(groups)
        rated = [K.VHEAD + K.VT * t + w for t in range(k) for w in (K.VT_WINS, K.VT_ANY_SLAIN)]
        out, prun = run_to_precision(
            K.dvd_kernel,
            check_seed(seed),
            (faces, side, len(groups), opts.array(), T),
            precision=precision,
            cap=cap,
            rates=lambda c, _n: [c[i] for i in (*rated, K.V_ALL_GONE, K.V_TIMEOUT)],
            progress=progress,
            threads=threads,
            label="games",
            game="Dragon Dice",
        )
        return DuelResult(
            out.counters,
            out.n,
            T,
            [[d.name for d in t] for t in groups],
            cols,
            opts,
            out.seconds,
            check_seed(seed),
            out.interrupted,
            out.n,
            prun,
        )
    section = open_checkpoint(
        checkpoint,
        _identity("dice duel", seed, nn, opts, teams=[[d.name for d in t] for t in groups]),
    )
    if records is not None:
        check_path(records)
    colcols = dict(DUEL_COLUMNS)
    for c in cols:
        colcols[f"slain_{c}"] = f"{c} dragons slain"
        colcols[f"flew_{c}"] = f"{c} dragons flown away"
    out = run_blocks_recorded(
        K.dvd_kernel,
        nn,
        check_seed(seed),
        (faces, side, len(groups), opts.array(), T),
        records=records,
        manifest=lambda: _records_manifest(
            "dice duel", seed, nn, opts, teams=[[d.name for d in t] for t in groups], turns=T
        ),
        columns=colcols,
        to_columns=_duel_columns(cols),
        progress=progress,
        threads=threads,
        label="games",
        checkpoint=section,
        game="Dragon Dice",
    )
    return DuelResult(
        out.counters,
        out.n,
        T,
        [[d.name for d in t] for t in groups],
        cols,
        opts,
        out.seconds,
        check_seed(seed),
        out.interrupted,
        nn,
    )


# ---------------------------------------------------------------- sweep
@dataclass
class SweepResult:
    """Smallest army size (copies of a base army) that slays each dragon with probability p."""

    p: float
    base: dict[str, int]
    turns: int
    n: int
    rows: list[dict[str, Any]]
    seconds: float
    seed: int
    options: Options
    interrupted: bool = False
    dragons_requested: int | None = None

    @property
    def requested(self) -> int | None:
        return self.dragons_requested

    @property
    def finished(self) -> int:
        return len(self.rows)

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame(self.rows)

    def to_dict(self) -> dict[str, Any]:
        return {
            "p": self.p,
            "base_army": self.base,
            "turns": self.turns,
            "n": self.n,
            "rows": self.rows,
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "dragons_requested": self.dragons_requested,
            "manifest": manifest(
                game="dragon-dice",
                mode="sweep",
                seed=self.seed,
                n=self.n,
                p=self.p,
                base_army=self.base,
                turns=self.turns,
                options=self.options.to_dict(),
                rules_hash=self.options.rules.hash,
                seconds=self.seconds,
            ),
        }

    def summary(self) -> str:
        base = ", ".join(f"{u}:{c}" for u, c in self.base.items())
        lines = [
            f"Dragon Dice sweep: army size (copies of {base}) to slay the dragon with "
            "probability >= "
            f"{self.p:g} within {self.turns} attack(s); {self.n:,} games per size, "
            f"{self.seconds:.1f} s",
            *(
                [f"  INTERRUPTED: {len(self.rows)} of {self.dragons_requested} dragons finished"]
                if self.interrupted
                else []
            ),
            f"  {'dragon':<14}{'copies':>7}{'units':>7}{'health':>8}   P(slain) at that size "
            "[95% interval]",
        ]
        for r in self.rows:
            if r["copies"] is None:
                lines.append(
                    f"  {r['dragon']:<14}{'>' + str(r['max_copies']):>7}"
                    f"{'':>7}{'':>8}   best {r['p_slain']:.3f} (not reached)"
                )
            else:
                lines.append(
                    f"  {r['dragon']:<14}{r['copies']:>7}{r['units']:>7}"
                    f"{r['health']:>8}   {r['p_slain']:.3f} "
                    f"[{r['ci_slain'][0]:.3f}, {r['ci_slain'][1]:.3f}]"
                )
        lines.append(
            "  (copies: of the army; units, health: the army at that size; "
            f"{self.n:,} games per size on the same game indices)"
        )
        lines.append("  " + rules_line(self.options.rules.hash, self.options.rules.overrides))
        return "\n".join(lines)


def sweep(
    army: str | Mapping[str, int] = "goblin-thug:1",
    *,
    dragons: str | Sequence[str] = "all",
    p: float = 0.5,
    n: int | float | str = 20_000,
    seed: int = 1,
    turns: int = 1,
    max_copies: int = 60,
    options: Options | None = None,
    rules: RuleSet | None = None,
    catalog: D.Catalog | None = None,
    army_file: str | Path | None = None,
    threads: int | None = None,
    progress: bool | None = False,
    checkpoint=None,
    records=None,
    **option_kw: Any,
) -> SweepResult:
    """Smallest number of copies of ``army`` that slays each dragon with probability >= p.

    Every size is played on the same game indices (common random numbers), and the search
    is a bisection over 1..``max_copies`` on the estimated probability (slaying chance grows
    with the army; the estimate's own interval is reported). ``records``: a ``.parquet`` or
    ``.csv`` path for one row per game of every size tried (``dragon``, ``copies``, then
    :data:`ATTACK_COLUMNS`).
    """
    import time

    cat = _catalog(catalog, army_file)
    opts = _options(options, cat, option_kw, rules)
    cat = cat.under(opts.rules)
    if not isinstance(p, int | float) or not 0.0 < float(p) < 1.0:
        raise UserError(f"p must be a probability strictly between 0 and 1, got {p!r}")
    if (
        isinstance(max_copies, bool)
        or not isinstance(max_copies, int)
        or not 1 <= max_copies <= 500
    ):
        raise UserError(f"max_copies must be 1..500, got {max_copies!r}")
    base = D.parse_army(army, cat)
    if isinstance(dragons, str) and dragons.strip().lower() == "all":
        names = list(D.dragons())
    elif isinstance(dragons, str):
        names = [cat.dragon(s.strip()).name for s in dragons.split(",") if s.strip()]
    elif isinstance(dragons, Sequence):
        names = [cat.dragon(s).name for s in dragons]
    else:
        raise UserError(
            f"dragons must be names (comma-separated or a list) or 'all', got {dragons!r}"
        )
    if not names:
        raise UserError("no dragons to sweep; give names or 'all'")
    nn = _n(n)
    T = _turns(turns)
    ck = _study_checkpoint(
        checkpoint,
        _identity("dice sweep", seed, nn, opts, army=base, dragons=names, p=float(p), turns=T),
    )
    file = None
    if records is not None:
        check_path(records)
        file = RecordsFile(
            records,
            _records_manifest(
                "dice sweep", seed, nn, opts, army=base, dragons=names, p=float(p), turns=T
            ),
            {
                "dragon": "the attacking dragon",
                "copies": "copies of the army in these games (the bisection's sizes)",
                **ATTACK_COLUMNS,
            },
        )
    t0 = time.perf_counter()
    rows = []
    interrupted = False
    for name in names:
        memo: dict[int, AttackResult] = {}

        def run(m: int, name=name, memo=memo) -> AttackResult:
            if m not in memo:
                r = attack(
                    name,
                    {u: c * m for u, c in base.items()},
                    n=nn,
                    seed=seed,
                    turns=T,
                    options=opts,
                    catalog=cat,
                    threads=threads,
                    progress=progress,
                    checkpoint=None if ck is None else ck.section(f"{name} x{m}"),
                    records=file,
                    _records_context={"dragon": name, "copies": m},
                )
                if r.interrupted:
                    raise KeyboardInterrupt
                memo[m] = r
            return memo[m]

        try:
            row = _sweep_row(run, name, p, max_copies, base, cat)
        except KeyboardInterrupt:
            if not rows:
                if file is not None:
                    file.close(dragons_finished=0, interrupted=True)
                raise
            interrupted = True
            break
        rows.append(row)
    if file is not None:
        file.close(dragons_finished=len(rows), interrupted=interrupted)
    return SweepResult(
        float(p),
        base,
        T,
        nn,
        rows,
        time.perf_counter() - t0,
        check_seed(seed),
        opts,
        interrupted,
        len(names),
    )


def _study_checkpoint(checkpoint, identity) -> Checkpoint | None:
    """A checkpoint of several kernel runs (one section each), from a path or a Checkpoint."""
    if checkpoint is None or isinstance(checkpoint, Checkpoint):
        return checkpoint
    return Checkpoint(checkpoint, identity)


def _sweep_row(run, name, p, max_copies, base, cat) -> dict[str, Any]:
    """The bisection of :func:`sweep` for one dragon (``run(m)``: the attack of m copies)."""
    if run(max_copies).p_dragon_slain.rate < p:
        r = run(max_copies).p_dragon_slain
        return {
            "dragon": name,
            "copies": None,
            "max_copies": max_copies,
            "units": None,
            "health": None,
            "p_slain": r.rate,
            "ci_slain": [r.lo, r.hi],
        }
    lo, hi = 0, max_copies  # p(lo) < p <= p(hi); p(0) = 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if run(mid).p_dragon_slain.rate >= p:
            hi = mid
        else:
            lo = mid
    r = run(hi).p_dragon_slain
    units_n = sum(c * hi for c in base.values())
    health = sum(c * hi * cat.units[u].health for u, c in base.items())
    prev = run(hi - 1).p_dragon_slain.rate if hi > 1 else 0.0
    return {
        "dragon": name,
        "copies": hi,
        "max_copies": max_copies,
        "units": units_n,
        "health": health,
        "p_slain": r.rate,
        "ci_slain": [r.lo, r.hi],
        "p_slain_one_less": prev,
    }


def units_frame(catalog: D.Catalog | None = None):
    """The unit table (name, race, health, faces, dragonkin colour, promotes to, provenance)."""
    import pandas as pd

    cat = catalog or D.Catalog()
    rows = []
    for u in cat.units.values():
        faces = ", ".join(
            "ID" if k == "id" else (k.title() if k in ("belly", "breath") else f"{k.title()} {c}")
            for k, c in u.faces
        )
        rows.append(
            {
                "name": u.name,
                "race": u.race,
                "health": u.health,
                "faces": faces,
                "dragonkin": u.kin_colour or "",
                "promotes_to": u.promotes_to or "",
                "provenance": u.provenance,
                "source": u.source,
            }
        )
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- melee with dragonkin
@dataclass
class MeleeResult:
    """One melee attack of army A on army B (B counter-attacks), dragonkin breath included."""

    counters: np.ndarray
    n: int
    hcap: int
    attacker: dict[str, int]
    defender: dict[str, int]
    counter: bool
    policy: Any
    seconds: float
    seed: int
    interrupted: bool = False
    options: Options | None = None
    requested: int | None = None

    def _r(self, i: int) -> Rate:
        return Rate.of(int(self.counters[i]), self.n)

    def _m(self, i: int, j: int) -> tuple[float, float, float]:
        return mean_interval(float(self.counters[i]), float(self.counters[j]), self.n)

    @property
    def p_defender_destroyed(self) -> Rate:
        return self._r(K.M_B_DESTROYED)

    @property
    def p_attacker_destroyed(self) -> Rate:
        return self._r(K.M_A_DESTROYED)

    @property
    def defender_lost(self) -> tuple[float, float, float]:
        return self._m(K.M_B_LOST, K.M_B_LOST_SQ)

    @property
    def attacker_lost(self) -> tuple[float, float, float]:
        return self._m(K.M_A_LOST, K.M_A_LOST_SQ)

    @property
    def defender_lost_hist(self) -> np.ndarray:
        return self.counters[K.MHEAD : K.MHEAD + self.hcap + 1].copy()

    def to_frame(self):
        import pandas as pd

        rows = [
            ("p_defender_destroyed", *self._rr(self.p_defender_destroyed)),
            ("p_attacker_destroyed", *self._rr(self.p_attacker_destroyed)),
            ("mean_defender_health_lost", *self.defender_lost),
            ("mean_attacker_health_lost", *self.attacker_lost),
        ]
        return pd.DataFrame(rows, columns=["metric", "value", "lo", "hi"])

    @staticmethod
    def _rr(r: Rate) -> tuple[float, float, float]:
        return (r.rate, r.lo, r.hi)

    def to_dict(self) -> dict[str, Any]:
        d = self.p_defender_destroyed
        a = self.p_attacker_destroyed
        bl = self.defender_lost
        al = self.attacker_lost
        return {
            "n": self.n,
            "requested": self.requested,
            "interrupted": self.interrupted,
            "attacker": self.attacker,
            "defender": self.defender,
            "counter_attack": self.counter,
            "p_defender_destroyed": d.rate,
            "ci_defender_destroyed": [d.lo, d.hi],
            "p_attacker_destroyed": a.rate,
            "ci_attacker_destroyed": [a.lo, a.hi],
            "mean_defender_health_lost": bl[0],
            "ci_defender_health_lost": [bl[1], bl[2]],
            "mean_attacker_health_lost": al[0],
            "ci_attacker_health_lost": [al[1], al[2]],
            "breaths_by_attacker_per_game": int(self.counters[K.M_BREATHS_A]) / self.n,
            "seconds": self.seconds,
            "manifest": manifest(
                game="dragon-dice",
                mode="melee",
                seed=self.seed,
                n=self.n,
                attacker=self.attacker,
                defender=self.defender,
                counter_attack=self.counter,
                policy=str(self.policy),
                rules_hash=self.options.rules.hash if self.options else dice_rules().hash,
                seconds=self.seconds,
            ),
        }

    def summary(self) -> str:
        bl = self.defender_lost
        al = self.attacker_lost
        fmt = ", ".join
        return "\n".join(
            [
                f"Dragon Dice melee: {fmt(f'{u} x{c}' for u, c in self.attacker.items())}  "
                "attacks  "
                f"{fmt(f'{u} x{c}' for u, c in self.defender.items())}",
                f"  {self.n:,} games, {'with' if self.counter else 'without'} counter-attack, "
                f"{self.seconds:.2f} s",
                *interrupted_line(self),
                f"  defender destroyed   {self.p_defender_destroyed}",
                f"  attacker destroyed   {self.p_attacker_destroyed}",
                f"  defender health lost {bl[0]:.3f} [{bl[1]:.3f}, {bl[2]:.3f}]  (mean "
                "health-worth of its units lost)",
                f"  attacker health lost {al[0]:.3f} [{al[1]:.3f}, {al[2]:.3f}]  (mean)",
                *(
                    ["  " + rules_line(self.options.rules.hash, self.options.rules.overrides)]
                    if self.options
                    else []
                ),
            ]
        )


def melee(
    attacker: str | Mapping[str, int],
    defender: str | Mapping[str, int],
    *,
    n: int | float | str = 100_000,
    seed: int = 1,
    counter_attack: bool | None = None,
    policy: str | Sequence[str] | None = None,
    black_needs_id: bool | None = None,
    rules: RuleSet | None = None,
    catalog: D.Catalog | None = None,
    army_file: str | Path | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    checkpoint=None,
    records=None,
    **option_kw: Any,
) -> MeleeResult:
    """One melee attack of ``attacker`` on ``defender``, with dragonkin breath in melee.

    The attacker rolls for melee (ID as melee); each dragonkin breath icon applies its
    colour's weaker effect to one defending unit at once (black: must roll ID or be killed
    and buried; blue: rolls only for saves until the end of its next turn, so it does not
    counter-attack; gold: killed unless it rolls a save; green: halves its results; red:
    killed and buried), the defending owner choosing the unit by ``policy``. The defender
    rolls for saves (ID as saves, dragonkin armor unless belly); damage kills health-worth.
    With ``counter_attack`` the defender's survivors then attack the same way.

    ``counter_attack``, ``policy`` and ``black_needs_id`` are the rules
    ``dice.melee_counter_attack``, ``dice.casualty_policy`` and ``dice.kin_black_needs_id``
    (``None``: the value in ``rules``, default the shipped rules); ``option_kw`` takes any
    other rule by name. ``records``: a ``.parquet`` or ``.csv`` path for one row per game
    (:data:`MELEE_COLUMNS`), played one game at a time (see :func:`attack`).
    """
    cat = _catalog(catalog, army_file)
    kw = dict(option_kw)
    for name, v in (
        ("melee_counter_attack", counter_attack),
        ("policy", policy),
        ("kin_black_needs_id", black_needs_id),
    ):
        if v is not None:
            kw[name] = bool(v) if name != "policy" else v
    opts = _options(None, cat, kw, rules)
    cat = cat.under(opts.rules)
    a = D.parse_army(attacker, cat)
    b = D.parse_army(defender, cat)
    aa = build_army(a, cat, colour=-1, options=opts)
    bb = build_army(b, cat, colour=-1, options=opts)
    hcap = int(sum(int(bb.count0[t]) * int(bb.health[t]) for t in range(len(bb.names))))
    args = (aa.record(), bb.record(), opts.melee_array(), hcap)
    nn = _n(n)
    section = open_checkpoint(
        checkpoint, _identity("dice melee", seed, nn, opts, attacker=a, defender=b)
    )
    if records is not None:
        check_path(records)
    out = run_blocks_recorded(
        K.melee_kernel,
        nn,
        check_seed(seed),
        args,
        records=records,
        manifest=lambda: _records_manifest("dice melee", seed, nn, opts, attacker=a, defender=b),
        columns=MELEE_COLUMNS,
        to_columns=_melee_columns,
        progress=progress,
        threads=threads,
        label="games",
        checkpoint=section,
        game="Dragon Dice",
    )
    return MeleeResult(
        out.counters,
        out.n,
        hcap,
        a,
        b,
        opts.melee_counter_attack,
        opts.policy,
        out.seconds,
        check_seed(seed),
        out.interrupted,
        opts,
        nn,
    )


# ---------------------------------------------------------------- every dragon against one army
@dataclass
class DragonTable:
    """Each dragon (colour and variant) against the same army, on the same game indices."""

    army: dict[str, int]
    turns: int
    n: int
    results: list[AttackResult]
    seconds: float
    interrupted: bool = False
    dragons_requested: int | None = None

    @property
    def requested(self) -> int | None:
        return self.dragons_requested

    @property
    def finished(self) -> int:
        return len(self.results)

    def to_frame(self):
        """One row per dragon: slain, army destroyed, flew away, mean health lost, with
        95% intervals."""
        import pandas as pd

        rows = []
        for r in self.results:
            hl = r.health_lost
            rows.append(
                {
                    "dragon": r.dragons[0],
                    "p_dragon_slain": r.p_dragon_slain.rate,
                    "ci_dragon_slain": r.p_dragon_slain.ci,
                    "p_army_destroyed": r.p_army_destroyed.rate,
                    "ci_army_destroyed": r.p_army_destroyed.ci,
                    "p_dragon_flew_away": r.p_flew.rate,
                    "mean_health_lost": hl[0],
                    "ci_health_lost": (hl[1], hl[2]),
                    "mean_promotions": r.promotions[0],
                }
            )
        return pd.DataFrame(rows)

    def to_dict(self) -> dict[str, Any]:
        return {
            "army": self.army,
            "turns": self.turns,
            "n": self.n,
            "rows": self.to_frame().to_dict(orient="records"),
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "dragons_requested": self.dragons_requested,
            "manifest": manifest(
                game="dragon-dice",
                mode="dragon-table",
                n=self.n,
                army=self.army,
                turns=self.turns,
                seed=self.results[0].seed if self.results else None,
                rules_hash=self.results[0].options.rules.hash
                if self.results
                else dice_rules().hash,
                seconds=self.seconds,
            ),
        }

    def summary(self) -> str:
        lines = [
            "Dragon Dice table: every dragon against "
            f"{', '.join(f'{u} x{c}' for u, c in self.army.items())}"
            f", up to {self.turns} attack(s), {self.n:,} games each, {self.seconds:.1f} s",
            *(
                [f"  INTERRUPTED: {len(self.results)} of {self.dragons_requested} dragons finished"]
                if self.interrupted
                else []
            ),
            f"  {'dragon':<13}{'slain':>8}{'destroyed':>11}{'flew':>8}{'health lost':>13}",
        ]
        for r in self.results:
            lines.append(
                f"  {r.dragons[0]:<13}{r.p_dragon_slain.rate:>8.4f}"
                f"{r.p_army_destroyed.rate:>11.4f}{r.p_flew.rate:>8.4f}"
                f"{r.health_lost[0]:>13.3f}"
            )
        lines.append(
            "  (slain, destroyed, flew: share of games the dragon was slain, the army destroyed, "
            "the dragon flew away; health lost: mean health-worth of the army's units lost)"
        )
        if self.results:
            rs = self.results[0].options.rules
            lines.append("  " + rules_line(rs.hash, rs.overrides))
        return "\n".join(lines)


def dragon_table(
    army: str | Mapping[str, int],
    *,
    dragons: str | Sequence[str] = "all",
    n: int | float | str = 100_000,
    seed: int = 1,
    turns: int = 1,
    options: Options | None = None,
    rules: RuleSet | None = None,
    catalog: D.Catalog | None = None,
    army_file: str | Path | None = None,
    threads: int | None = None,
    checkpoint=None,
    records=None,
    **option_kw: Any,
) -> DragonTable:
    """Every dragon (default: all colours and both variants) attacking the same army.

    All dragons play the same game indices, so the army rolls the same dice against each
    (common random numbers): 'wyrm or drake?' differences are paired. ``records``: a
    ``.parquet`` or ``.csv`` path for one row per game of every dragon (``dragon``, then
    :data:`ATTACK_COLUMNS`).
    """
    import time

    cat = _catalog(catalog, army_file)
    opts = _options(options, cat, option_kw, rules)
    cat = cat.under(opts.rules)
    if isinstance(dragons, str) and dragons.strip().lower() == "all":
        names = list(D.dragons())
    elif isinstance(dragons, str):
        names = [cat.dragon(s.strip()).name for s in dragons.split(",") if s.strip()]
    elif isinstance(dragons, Sequence):
        names = [cat.dragon(s).name for s in dragons]
    else:
        raise UserError(
            f"dragons must be names (comma-separated or a list) or 'all', got {dragons!r}"
        )
    if not names:
        raise UserError("no dragons given; give names or 'all'")
    nn = _n(n)
    ck = _study_checkpoint(
        checkpoint,
        _identity(
            "dice table", seed, nn, opts, army=D.parse_army(army, cat), dragons=names, turns=turns
        ),
    )
    file = None
    if records is not None:
        check_path(records)
        file = RecordsFile(
            records,
            _records_manifest(
                "dice table",
                seed,
                nn,
                opts,
                army=D.parse_army(army, cat),
                dragons=names,
                turns=turns,
            ),
            {"dragon": "the attacking dragon", **ATTACK_COLUMNS},
        )
    t0 = time.perf_counter()
    res: list[AttackResult] = []
    interrupted = False
    for nm in names:
        try:
            r = attack(
                nm,
                army,
                n=nn,
                seed=seed,
                turns=turns,
                options=opts,
                catalog=cat,
                threads=threads,
                progress=False,
                checkpoint=None if ck is None else ck.section(nm),
                records=file,
                _records_context={"dragon": nm},
            )
        except KeyboardInterrupt:
            r = None
        if r is None or r.interrupted:
            if not res:
                if file is not None:
                    file.close(dragons_finished=0, interrupted=True)
                raise KeyboardInterrupt
            interrupted = True
            break
        res.append(r)
    if file is not None:
        file.close(dragons_finished=len(res), interrupted=interrupted)
    return DragonTable(
        res[0].army,
        res[0].turns,
        res[0].n,
        res,
        time.perf_counter() - t0,
        interrupted,
        len(names),
    )
