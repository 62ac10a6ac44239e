"""Dragons and armies as the kernels take them: :func:`resolve_dragons` (dragons from names),
:func:`build_army` (an army as :class:`ArmyArrays`, with its casualty, gold-breath and treasure
orders), and :func:`units_frame` (the unit table)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ...errors import UserError, resolve_name
from .. import data as D
from .. import kernel as K
from .options import Options


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


def _dragon_faces(ds: Sequence[D.Dragon]) -> np.ndarray:
    return np.array([d.die.icon_codes() for d in ds], np.int64)


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
