"""Dragon Lords play sheets, computed from components; design points; the ready-made roster.

A sheet is never typed in: it is computed from body, wings, breath, tooth and claw and rider
by the rulebook's tables (pages 26-27, "Step 4: Fill Out a Play Sheet"), so a study that
overrides a table gets consistent sheets. The twelve ready-made dragons (pages 30-35) are
defined by their components and tested against every printed value.

Examples
--------
>>> s = sheet("Reaper")
>>> s.mr, s.cc, s.min_speed, s.max_speed, s.breath_damage, s.cost
('E', 5, 5, 15, '4d6', 20)
>>> design(body="Heavy", wings="Large", breath="Ice", claws="Sharp", rider="Archer").cost
18
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from ...errors import UserError, resolve_name
from ...rules import RuleSet, as_rules
from ...rules.lords import (
    BODIES,
    BREATHS,
    CLAWS,
    MRS,
    PARTS,
    RIDERS,
    ROSTER,
    SLOT_RULES,
    WINGS,
    slot_entry,
)

__all__ = [
    "Sheet",
    "sheet",
    "design",
    "parse_design",
    "roster",
    "legion",
    "dice_text",
    "riders_in_play",
    "rule_switches",
    "close_combat_modifier",
    "ROSTER",
]

_COMPONENTS = {"body": BODIES, "wings": WINGS, "breath": BREATHS, "claws": CLAWS, "rider": RIDERS}
_ALIASES = {
    "body": "body",
    "weight": "body",
    "body_weight": "body",
    "wings": "wings",
    "wing": "wings",
    "wing_size": "wings",
    "breath": "breath",
    "breath_weapon": "breath",
    "claws": "claws",
    "claw": "claws",
    "teeth": "claws",
    "tooth_and_claw": "claws",
    "tc": "claws",
    "rider": "rider",
    "name": "name",
}


def dice_text(n: int, plus: int) -> str:
    """'3d6+2' from (3, 2)."""
    return f"{n}d6" + (f"+{plus}" if plus > 0 else (f"{plus}" if plus < 0 else ""))


@dataclass(frozen=True)
class Sheet:
    """A computed Dragon Lords play sheet (rulebook p.5 and pp.26-27)."""

    name: str
    body: str
    wings: str
    breath: str
    claws: str
    rider: str
    body_i: int
    wings_i: int
    breath_i: int
    claws_i: int
    rider_i: int
    mr: str
    mr_i: int
    cc: int
    min_speed: int
    max_speed: int
    breath_damage: str
    claw_damage: str
    damage_points: dict[str, int]
    damage_halves: dict[str, tuple[int, int]]
    maneuver_diagram: dict[str, int]
    initiative_mod: int
    accel: int
    cost: int
    rider_ability: dict[str, Any] = field(default_factory=dict)
    magic_points: int = 0
    rules_hash: str = ""

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["damage_halves"] = {k: list(v) for k, v in self.damage_halves.items()}
        return d

    def render(self) -> str:
        """The play sheet as text."""
        dp = self.damage_points
        hv = self.damage_halves
        md = self.maneuver_diagram
        lines = [
            f"Name: {self.name}  ({self.cost} design points)",
            f"Body weight: {self.body:<11} Wing size: {self.wings}",
            f"Breath weapon: {self.breath:<9} Tooth & claw: {self.claws}",
            f"Maneuverability rating: {self.mr}    Close combat modifier: {self.cc}",
            f"Breath damage: {self.breath_damage:<8} Tooth & claw damage: {self.claw_damage}",
            f"Minimum speed: {self.min_speed:<8} Maximum speed: {self.max_speed}",
            f"Initiative modifier (optional): {self.initiative_mod:+d}   "
            f"Acceleration allowance (optional): {self.accel}",
            f"Maneuver diagram {self.mr}: 60 deg {md['60']}, 120 deg {md['120']}, "
            f"180 deg {md['180']}",
            "Damage tracks (above / below the half-way line):",
        ]
        for p in PARTS:
            a, b = hv[p]
            lines.append(f"  {p.replace('_', ' '):<11} {dp[p]:>3}  ({a} / {b})")
        lines.append(f"Rider: {self.rider}")
        ra = self.rider_ability
        if ra.get("medium_range"):
            lines.append(
                f"  medium range {ra['medium_range']} hexes: {ra['medium_effect']}; "
                f"long range {ra['long_range']} hexes: {ra['long_effect']}"
            )
        elif self.rider == "Lancer":
            lines.append("  close combat: +2 to close combat, +4 to damage")
        elif self.rider == "Wizard":
            lines.append(f"  magic points: {self.magic_points}")
        return "\n".join(lines)


def _rules(rules: RuleSet | None) -> RuleSet:
    """None (the defaults), a RuleSet, a mapping of overrides or a preset's name."""
    return rules if isinstance(rules, RuleSet) else as_rules("lords", rules)


def design(
    *,
    body: str,
    wings: str,
    breath: str,
    claws: str,
    rider: str = "None",
    name: str | None = None,
    budget: int | None = None,
    rules: RuleSet | None = None,
) -> Sheet:
    """Build the play sheet of any legal dragon (rulebook "Dragon Design", pp.26-27).

    Names are matched case-insensitively; a near-miss gets "did you mean". A dragon costing
    outside the printed 4..25 points, or over ``budget``, is refused.
    """
    r = _rules(rules)
    comp = {
        "body": resolve_name(body, BODIES, "body weight"),
        "wings": resolve_name(_wing_alias(wings), WINGS, "wing size"),
        "breath": resolve_name(breath, BREATHS, "breath weapon"),
        "claws": resolve_name(claws, CLAWS, "tooth and claw sharpness"),
        "rider": resolve_name("None" if rider in (None, "", "none") else rider, RIDERS, "rider"),
    }
    idx = {k: _COMPONENTS[k].index(v) for k, v in comp.items()}
    costs = r.get("lords.design_cost")
    cost = sum(costs[k][idx[k]] for k in comp)
    lo, hi = r.get("lords.design_bounds")["min"], r.get("lords.design_bounds")["max"]
    label = name or _design_label(comp)
    if not lo <= cost <= hi:
        raise UserError(
            f"{label} costs {cost} design points; a dragon must cost {lo}..{hi} (rulebook p.26)"
        )
    if budget is not None and cost > budget:
        raise UserError(f"{label} costs {cost} design points, over the budget of {budget}")

    mr = r.get("lords.maneuverability")[comp["body"]][idx["wings"]]
    mr_i = MRS.index(mr)
    cc = r.get("lords.close_combat_modifier")[mr]
    if name in ROSTER and r.get("lords.printed_sheet_values"):
        cc = ROSTER[name]["cc"]  # the sheet as printed (Tankerous's 9, though MR I gives 1)
    wd = r.get("lords.weapon_damage")
    dp_table = r.get("lords.damage_points")
    dp = {
        "head": dp_table["head"],
        "body": dp_table[comp["body"]],
        "tail": dp_table["tail"],
        "left_wing": dp_table[comp["wings"]],
        "right_wing": dp_table[comp["wings"]],
    }
    # "split them evenly across the lines. Leave odd points above the line." (p.27)
    halves = {p: ((v + 1) // 2, v // 2) for p, v in dp.items()}
    tc = r.get("lords.turn_cost")[mr]
    rider_ability: dict[str, Any] = {}
    if comp["rider"] in ("Javelin Thrower", "Archer", "Crossbow Shooter"):
        mrng, md, mp, lrng, ld, lp = r.get("lords.riders")[comp["rider"]]
        rider_ability = {
            "medium_range": mrng,
            "medium_effect": f"{dice_text(md, mp)} damage",
            "long_range": lrng,
            "long_effect": f"{dice_text(ld, lp)} damage",
        }
    elif comp["rider"] == "Lancer":
        ln = r.get("lords.lancer")
        rider_ability = {"close_combat": ln["close_combat"], "damage": ln["damage"]}
    return Sheet(
        name=label,
        **comp,
        body_i=idx["body"],
        wings_i=idx["wings"],
        breath_i=idx["breath"],
        claws_i=idx["claws"],
        rider_i=idx["rider"],
        mr=mr,
        mr_i=mr_i,
        cc=cc,
        min_speed=r.get("lords.min_speed_by_body")[comp["body"]],
        max_speed=r.get("lords.max_speed_by_wings")[comp["wings"]],
        breath_damage=dice_text(*wd[idx["breath"]]),
        claw_damage=dice_text(*wd[idx["claws"]]),
        damage_points=dp,
        damage_halves=halves,
        maneuver_diagram={"60": tc[0], "120": tc[1], "180": tc[2]},
        initiative_mod=r.get("lords.initiative_modifier")[mr],
        accel=r.get("lords.acceleration_by_wings")[comp["wings"]],
        cost=cost,
        rider_ability=rider_ability,
        magic_points=r.get("lords.wizard")["magic_points"] if comp["rider"] == "Wizard" else 0,
        rules_hash=r.hash,
    )


def riders_in_play(rules: RuleSet | None = None) -> bool:
    """Whether riders act under ``rules`` (switch ``lords.advanced.lancer``): not in the basic
    rules, whose sequence of play has no rider phase (p.7); yes in the advanced rules' (p.15).
    This switch is the Lancer's; the other riders' attacks and rider deaths have their own
    (``lords.advanced.rider_attacks``, ``lords.advanced.rider_deaths``).

    The exact odds and the engine's options (``OPT_RIDERS``) both read it here.

    >>> riders_in_play(), riders_in_play("advanced")
    (False, True)
    """
    return bool(_rules(rules).get("lords.advanced.lancer"))


def rule_switches(rules: RuleSet | None = None) -> dict[str, int | bool]:
    """The rules the engine plays under ``rules``, as the keyword arguments of
    :func:`dragonsim.lords.game.state.default_options`: one entry per rule slot of the registry
    (:attr:`dragonsim.rules.core.Rule.slot`), a switch's true or false and a two-way
    reading's (true: the reading that is not the default). Every place that builds a kernel's
    options, and every manifest, reads them here.

    >>> on = sorted(k for k, v in rule_switches("advanced").items() if v)
    >>> on[:6]
    ['banking', 'crash_slow', 'crash_very_low', 'crash_zeroed', 'landing', 'move_early']
    >>> on[6:]
    ['rider_attacks', 'rider_deaths', 'riders', 'wizard']
    >>> sorted(k for k, v in rule_switches("advanced+optional").items() if v)[:4]
    ['accel_wings', 'banking', 'crash_slow', 'crash_very_low']
    """
    r = _rules(rules)
    return {
        name: slot_entry(key, r.rule(key).kernel_value(r.get(key)))
        for name, key in SLOT_RULES.items()
    }


def close_combat_modifier(s: Sheet, rules: RuleSet | None = None) -> int:
    """What a healthy ``s`` adds to its 2d6 in a close combat under ``rules``.

    "add the close combat modifiers listed on their respective play sheets" (p.13): the
    sheet's ``cc`` (the Close Combat Ability Table by maneuverability, or the printed value
    with ``lords.printed_sheet_values``), plus "The Lancer adds +2 to the dragon's close
    combat roll" (p.18) when riders are in play. The kernel gets the same terms: ``s.cc`` in
    the dragon row (``D_CC``, see :func:`dragonsim.lords.api.dragon_row`), the Lancer's bonus
    from ``lords.lancer`` switched on by :func:`riders_in_play`.

    >>> close_combat_modifier(sheet("Tankerous"))
    1
    >>> close_combat_modifier(sheet("Tankerous"), lords_rules({"advanced.lancer": True}))
    3
    """
    r = _rules(rules)
    m = s.cc
    if s.rider == "Lancer" and riders_in_play(r):
        m += r.get("lords.lancer")["close_combat"]
    return m


def _wing_alias(w: str) -> str:
    # Stalwyrm's sheet prints "Very Large"; MR E and speed 15 force Huge (p.27)
    return "Huge" if str(w).strip().lower() == "very large" else w


def _design_label(comp: Mapping[str, str]) -> str:
    parts = [f"{k}={v}" for k, v in comp.items() if not (k == "rider" and v == "None")]
    return ",".join(parts)


def parse_design(text: str) -> dict[str, str]:
    """Parse an inline design ``body=Heavy,wings=Large,breath=Ice,claws=Sharp[,rider=Archer]``."""
    out: dict[str, str] = {}
    for item in str(text).split(","):
        if not item.strip():
            continue
        if "=" not in item:
            raise UserError(
                f"bad design item {item.strip()!r}: write KEY=VALUE, e.g. "
                "body=Heavy,wings=Large,breath=Ice,claws=Sharp"
            )
        k, v = (s.strip() for s in item.split("=", 1))
        key = _ALIASES.get(k.lower().replace(" ", "_").replace("-", "_"))
        if key is None:
            raise UserError(
                f"unknown design key {k!r}; allowed: body, wings, breath, claws, rider, name"
            )
        if key in out:
            raise UserError(f"design key {key!r} given twice")
        out[key] = v
    missing = [k for k in ("body", "wings", "breath", "claws") if k not in out]
    if missing:
        raise UserError(
            f"design {text!r} is missing {', '.join(missing)}; "
            "a design needs body, wings, breath and claws (rider optional)"
        )
    return out


def sheet(dragon: str | Sheet | Mapping[str, str], *, rules: RuleSet | None = None) -> Sheet:
    """A play sheet from a ready-made name, an inline design, a mapping, or a Sheet.

    >>> sheet("tankerous").mr
    'I'
    >>> sheet("body=Light,wings=Medium,breath=Ice,claws=Sharp").cost
    12
    """
    if isinstance(dragon, Sheet):
        if rules is not None and dragon.rules_hash != rules.hash:
            return design(**_components(dragon), name=dragon.name, rules=rules)
        return dragon
    if isinstance(dragon, Mapping):
        # the same checks as an inline design: known keys, each once, the four components
        return design(
            **parse_design(",".join(f"{k}={v}" for k, v in dragon.items())),
            rules=rules,
        )
    if not isinstance(dragon, str):
        raise UserError(
            f"a dragon is a ready-made name, an inline design such as "
            f"'body=Heavy,wings=Large,breath=Ice,claws=Sharp', a mapping of its components or "
            f"a Sheet; got {dragon!r}"
        )
    text = str(dragon).strip()
    if "=" in text:
        return design(**parse_design(text), rules=rules)
    name = resolve_name(
        text,
        ROSTER,
        "dragon",
        hint="or write a design such as body=Heavy,wings=Large,breath=Ice,"
        "claws=Sharp[,rider=Archer]",
    )
    spec = ROSTER[name]
    return design(**{k: spec[k] for k in _COMPONENTS}, name=name, rules=rules)


def _components(s: Sheet) -> dict[str, str]:
    return {k: getattr(s, k) for k in _COMPONENTS}


def roster(*, rules: RuleSet | None = None) -> list[Sheet]:
    """The twelve ready-made dragons (pages 30-35), computed."""
    return [sheet(n, rules=rules) for n in ROSTER]


def legion(
    budget: int,
    dragons: Iterable[str | Sheet | Mapping[str, str]],
    *,
    rules: RuleSet | None = None,
) -> list[Sheet]:
    """The Legion Method (p.26): several dragons whose costs add up to at most ``budget``.

    (The Single Dragon Method is ``design(..., budget=B)``.)
    """
    sheets = [sheet(d, rules=rules) for d in dragons]
    if not sheets:
        raise UserError("a legion needs at least one dragon")
    total = sum(s.cost for s in sheets)
    if total > budget:
        detail = " + ".join(f"{s.name} {s.cost}" for s in sheets)
        raise UserError(
            f"legion costs {total} design points ({detail}), over the budget of {budget}"
        )
    return sheets
