"""A battle tile's starting position: units per line (:func:`parse_lines`) and :class:`Tile`,
turned into the arrays of the engine's :class:`~dragonsim.krynn.engine.state.Setup`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import UserError, check_int, did_you_mean, resolve_name
from ..data import LINES, MAX_UNITS, SIDES, Commander, commander_array, resolve_commander

MAX_TACTICS = 20
MAX_FLANK = 20

LineSpec = str | Mapping[str, int] | None


def parse_lines(spec: LineSpec, what: str, *, upper: int = MAX_UNITS) -> dict[str, int]:
    """Parse ``"foot=3,missile=2"`` (or a mapping) into ``{line: count}`` for all 3 lines.

    >>> parse_lines("foot=3, Mounted=1", "--alliance")
    {'foot': 3, 'missile': 0, 'mounted': 1}
    """
    out = dict.fromkeys(LINES, 0)
    if spec is None:
        return out
    if isinstance(spec, str):
        items = []
        for part in spec.split(","):
            part = part.strip()
            if not part:
                continue
            name, sep, val = part.partition("=")
            if not sep:
                name, sep, val = part.partition(":")
            if not sep:
                raise UserError(
                    f"{what}: expected LINE=COUNT items such as 'foot=3,missile=2', got {part!r}"
                )
            items.append((name.strip(), val.strip()))
    elif isinstance(spec, Mapping):
        items = list(spec.items())
    else:
        raise UserError(f"{what}: expected 'foot=3,missile=2' or a mapping, got {spec!r}")
    seen = set()
    for name, val in items:
        line = resolve_name(str(name), LINES, f"line in {what}")
        if line in seen:
            raise UserError(f"{what}: line {line!r} given twice")
        seen.add(line)
        try:
            v = int(val)
            if isinstance(val, float | str) and float(val) != v:
                raise ValueError
        except (TypeError, ValueError):
            raise UserError(
                f"{what}: {line} must be a whole number, got {val!r} (expected LINE=COUNT items"
                " separated by commas, e.g. 'foot=3,missile=2')"
            ) from None
        if not 0 <= v <= upper:
            raise UserError(f"{what}: {line} must be between 0 and {upper}, got {v}")
        out[line] = v
    return out


@dataclass(frozen=True)
class Tile:
    """One battle tile's starting position.

    ``alliance`` / ``army``: units per line (``"foot=3,missile=2"`` or a mapping, 0..6 each);
    ``*_shaken``: how many of them start shaken; ``*_barricades``: barricade tokens (at most
    one per unit; placed under ready units first); ``*_tactics``: tactic tokens (only on lines
    with units); commanders by name (:data:`dragonsim.krynn.data.COMMANDERS`) or
    :class:`~dragonsim.krynn.data.Commander`; ``flank``: flank tokens on the tile.
    """

    alliance: LineSpec = None
    army: LineSpec = None
    alliance_shaken: LineSpec = None
    army_shaken: LineSpec = None
    alliance_barricades: LineSpec = None
    army_barricades: LineSpec = None
    alliance_tactics: LineSpec = None
    army_tactics: LineSpec = None
    alliance_commander: str | Commander | None = None
    army_commander: str | Commander | None = None
    alliance_commander_shaken: bool = False
    flank: int = 1

    def arrays(
        self, commanders: Mapping[str, Commander] | None = None, capacity: int = MAX_UNITS
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(u[2, 3, 5], cmd[2], cmd_tab[2, 3])`` for the kernels (validated); commander
        names are looked up in ``commanders`` (the rules' ``krynn.commanders``; default the
        shipped ones), at most ``capacity`` units a line (``krynn.line_capacity``)."""
        u = np.zeros((2, 3, 5), np.int64)
        cmd = np.zeros(2, np.int64)
        for s, side in enumerate(SIDES):
            units = parse_lines(getattr(self, side), f"--{side}", upper=capacity)
            shaken = parse_lines(getattr(self, f"{side}_shaken"), f"{side} shaken")
            bars = parse_lines(getattr(self, f"{side}_barricades"), f"{side} barricades")
            tacs = parse_lines(
                getattr(self, f"{side}_tactics"), f"{side} tactics", upper=MAX_TACTICS
            )
            if sum(units.values()) == 0:
                raise UserError(f"the {side} needs at least one unit on the tile")
            for li, line in enumerate(LINES):
                n, sh, b, tc = units[line], shaken[line], bars[line], tacs[line]
                if sh > n:
                    raise UserError(f"{side} {line}: {sh} shaken units but only {n} units")
                if b > n:
                    raise UserError(
                        f"{side} {line}: {b} barricades but {n} units (each unit can have only"
                        " 1 barricade, and barricades can't be placed on spaces without units)"
                    )
                if tc > 0 and n == 0:
                    raise UserError(
                        f"{side} {line}: tactic tokens can't be added to a battle line with no"
                        " units"
                    )
                r = n - sh
                br = min(b, r)
                u[s, li] = (r, sh, br, b - br, tc)
            c = resolve_commander(getattr(self, f"{side}_commander"), commanders)
            cmd[s] = 0 if c.hook == "none" else 1
        if self.alliance_commander_shaken and cmd[0] == 1:
            cmd[0] = 2
        tab = commander_array([self.alliance_commander, self.army_commander], commanders)
        check_int(self.flank, "flank tokens", 0, MAX_FLANK)
        return u, cmd, tab

    def describe(
        self, commanders: Mapping[str, Commander] | None = None, capacity: int = MAX_UNITS
    ) -> dict[str, Any]:
        u, cmd, _ = self.arrays(commanders, capacity)
        out: dict[str, Any] = {}
        for s, side in enumerate(SIDES):
            out[side] = {line: int(u[s, li, 0] + u[s, li, 1]) for li, line in enumerate(LINES)}
            out[f"{side}_shaken"] = {line: int(u[s, li, 1]) for li, line in enumerate(LINES)}
            out[f"{side}_barricades"] = {
                line: int(u[s, li, 2] + u[s, li, 3]) for li, line in enumerate(LINES)
            }
            out[f"{side}_tactics"] = {line: int(u[s, li, 4]) for li, line in enumerate(LINES)}
            c = resolve_commander(getattr(self, f"{side}_commander"), commanders)
            out[f"{side}_commander"] = c.name
        out["flank"] = int(self.flank)
        return out


def as_tile(t: Tile | Mapping[str, Any], i: int) -> Tile:
    """A :class:`Tile`, or one from a mapping of its fields (unknown keys refused)."""
    if isinstance(t, Tile):
        return t
    if not isinstance(t, Mapping):
        raise UserError(f"tile {i}: expected a Tile or a mapping of its fields, got {t!r}")
    allowed = list(Tile.__dataclass_fields__)
    for k in t:
        if k not in allowed:
            raise UserError(
                f"tile {i}: unknown key {k!r}{did_you_mean(str(k), allowed)}; "
                f"allowed: {', '.join(allowed)}"
            )
    return Tile(**t)
