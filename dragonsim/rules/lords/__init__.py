"""Dragon Lords rules data (the Dragon Lords rulebook, Grenadier).

Every table the rulebook has, each tagged printed (stated in the rulebook), derived (not
printed, but forced by printed values: the derivation is in the rule's text and a test
re-derives it) or assumed (our choice where nothing printed decides: overridable, and listed
by ``python -m dragonsim rules --assumed``), with the rulebook's wording or the reasoning
beside it. Several tables of the rulebook's text are cut short; those rows say so.
Component names and orders are the rulebook's "steps" (p.26): index 0 is the weakest.

The declarations are lists of :class:`~dragonsim.rules.core.Rule` by the book's parts:
:mod:`.basic` (the basic game's tables, pp. 6-14), :mod:`.advanced` (the riders and the
advanced rules' switches, pp. 15-18), :mod:`.optional` (the optional rules' switches and
readings, pp. 19-25) and :mod:`.optional_tables`; :mod:`.components` holds the components'
names and the ready-made dragons. Every table the code reads about switches, presets and the
kernel's option slots is :func:`~.registry.derive`'d from :data:`DECLARED` (:mod:`.registry`):
adding a rule is one entry in one list.
"""

from __future__ import annotations

from pathlib import Path

from ..core import Rule
from .advanced import ADVANCED
from .basic import BASIC
from .components import (
    ALTITUDES,
    BODIES,
    BREATHS,
    CLAWS,
    DIRECTIONS,
    MRS,
    PART_CODES,
    PARTS,
    RIDERS,
    ROSTER,
    SPELLS,
    TACTICS,
    TEAM_PAIRINGS,
    WINGS,
)
from .optional import OPTIONAL
from .optional_tables import OPTIONAL_TABLES
from .registry import (
    OPTIONAL_TO_COME,
    PRESETS_TEXT,
    RENAMED,
    RUN_SLOTS,
    TO_COME,
    Tables,
    derive,
    rules_warnings,
)

__all__ = [
    "ADVANCED",
    "ALTITUDES",
    "BASIC",
    "BODIES",
    "BREATHS",
    "CLAWS",
    "DECLARED",
    "DIRECTIONS",
    "KERNEL_SLOTS",
    "MRS",
    "N_OPT",
    "OPTIONAL",
    "OPTIONAL_TABLES",
    "OPTIONAL_TO_COME",
    "PARTS",
    "PART_CODES",
    "PRESETS",
    "PRESETS_TEXT",
    "RENAMED",
    "RIDERS",
    "ROSTER",
    "RULES",
    "RUN_SLOTS",
    "SLOT_RULES",
    "SOURCES",
    "SPELLS",
    "SWITCHES",
    "TABLES",
    "TACTICS",
    "TEAM_PAIRINGS",
    "TO_COME",
    "Tables",
    "WINGS",
    "derive",
    "preset_rows",
    "rules_warnings",
    "slot_entry",
]

#: every rule, in the order the docs list them: the one list the tables below are derived from
DECLARED: list[Rule] = [*BASIC, *ADVANCED, *OPTIONAL, *OPTIONAL_TABLES]

#: the tables of the declared rules (:func:`~.registry.derive`)
TABLES: Tables = derive(DECLARED)

RULES: dict[str, Rule] = TABLES.rules

#: The switches (true/false rules of play) by their book's label: ``advanced`` the rules of
#: the advanced sections (pp. 15-19, 22) that the book does not label optional, ``optional``
#: those it does: "some rules are labeled optional. This means that all players must agree to
#: use them" (p.15).
SWITCHES: dict[str, tuple[str, ...]] = TABLES.switches

#: The rules presets, as the book labels its rules: ``basic`` is the basic game (pp. 6-14);
#: ``advanced`` turns on every advanced rule the book does not label optional (the riders and
#: the Wizard's spells, moving early, the ground and its crashes, banking); ``advanced+optional``
#: adds every rule it labels optional (the initiative modifiers, the new acceleration
#: allowances, turning between move phases, critical hits, fumbles, multiple hits, tactics).
#: Other mixes are rules files (``preset = "advanced"`` and the switches to change), as the
#: presets of dragonsim 0.1 are in ``results/rules/``.
PRESETS: dict[str, dict[str, bool]] = TABLES.presets

#: Every slot of the kernel's int64 options array, name -> index: the run settings and the
#: slot of every switch and reading (``dragonsim.lords.game.state.OPT_*`` are read from here)
KERNEL_SLOTS: dict[str, int] = TABLES.kernel_slots
#: the length of the options array
N_OPT: int = TABLES.n_opt
#: the rule behind each rule slot: slot name -> rule key
SLOT_RULES: dict[str, str] = TABLES.slot_rules

slot_entry = TABLES.slot_entry
preset_rows = TABLES.preset_rows

#: every file of this package, for the numba cache guard
#: (:func:`dragonsim._kernels.guard_caches`): the kernels' option slots are declared here, so a
#: change in any of them recompiles the kernels that read them
SOURCES: tuple[str, ...] = tuple(sorted(str(p) for p in Path(__file__).parent.glob("*.py")))
