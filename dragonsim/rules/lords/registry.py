"""The machinery of the Dragon Lords rules registry: what the code reads about the rules'
switches, readings and kernel slots, derived from the one list of declarations.

:func:`derive` turns a list of :class:`~dragonsim.rules.core.Rule` (the declarations of
:mod:`.basic`, :mod:`.advanced`, :mod:`.optional` and :mod:`.optional_tables`, in that order)
into :class:`Tables`: the rules by key, the switches by their book's label, the presets, the
kernel's option slots and the preset table's rows. Adding a rule is one entry in one
declaration list; every table here follows from it. The run settings' slots
(:data:`RUN_SLOTS`), the fumbles warning and the renamed keys live here too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..core import Rule

#: the book's labels of the switches, in the order the presets add them
SWITCH_LABELS = ("advanced", "optional")

#: The kernel's options that are settings of a run, not rules: name -> index in the options
#: array (the rules' own slots are declared with each rule, :attr:`Rule.slot`)
RUN_SLOTS: dict[str, int] = {
    "turn_limit": 0,
    "plan_samples": 3,
    "range_mod": 4,
    "scenario": 6,
    "spell_policy": 25,
}

#: what the presets are, for the docs page
PRESETS_TEXT = (
    "The presets follow the rulebook's labels: 'some rules are labeled optional. This means "
    "that all players must agree to use them' (p.15). `basic` is the basic game (pp. 6-14); "
    "`advanced` plays every rule of the advanced rules the book does not label optional (the "
    "eight-phase sequence with its riders and the Wizard's spells, moving early, the ground "
    "and its crashes, banking); `advanced+optional` adds every rule it labels optional. Any "
    'other mix is a rules file: `preset = "advanced"` and the switches to change. The presets '
    "of dragonsim 0.1 (initiative and acceleration in `advanced`, the Wizard's spells only in "
    "`advanced+optional`, the three-hit limit resolved lowest initiative first) are the rules "
    "files `results/rules/advanced-0.1.toml` and `results/rules/advanced+optional-0.1.toml`."
)


def rules_warnings(values: dict) -> list[str]:
    """What is allowed but goes against the book's advice, for the rules ``values`` (key ->
    value): fumbles without critical hits ("If you use the rules for fumbles, you should also
    use the rules for critical hits", p.20)."""
    out = []
    if values.get("lords.optional.fumbles") and not values.get("lords.optional.critical_hits"):
        out.append(
            "fumbles are on without critical hits; the rulebook advises against it: 'If you "
            "use the rules for fumbles, you should also use the rules for critical hits' "
            "(Dragon Lords, p.20)"
        )
    return out


#: The advanced rules (pp. 15-19, 22) not yet in the engine: ``--rules advanced`` does not
#: play them, and ``python -m dragonsim rules`` lists them.
TO_COME: tuple[tuple[str, str], ...] = ()

#: The optional rules (pp. 19-25) not yet in the engine: ``--rules advanced+optional`` does
#: not play them, and ``python -m dragonsim rules`` lists them.
OPTIONAL_TO_COME: tuple[tuple[str, str], ...] = ()

#: switches renamed since earlier versions: old key (0 or 1) -> new key (false or true); the
#: old name is still read, and recorded under the new one
RENAMED: dict[str, str] = {
    "lords.riders_in_play": "lords.advanced.lancer",
    # the Wizard is no optional rule (pp. 18, 24-25): its switch sits with the advanced ones
    "lords.optional.wizard": "lords.advanced.wizard",
}


@dataclass(frozen=True)
class Tables:
    """What the code reads about a list of rules (:func:`derive` builds it; the package's
    ``RULES``, ``SWITCHES``, ``PRESETS``, ``KERNEL_SLOTS``, ``N_OPT`` and ``SLOT_RULES`` are
    the fields of the declared rules' tables)."""

    #: every rule by key, in the order declared (the docs list them in this order)
    rules: dict[str, Rule]
    #: the switches (true/false rules of play) by their book's label
    switches: dict[str, tuple[str, ...]]
    #: the switches each preset turns on
    presets: dict[str, dict[str, bool]]
    #: every slot of the kernel's int64 options array, name -> index
    kernel_slots: dict[str, int]
    #: the length of the options array
    n_opt: int
    #: the rule behind each rule slot: slot name -> rule key
    slot_rules: dict[str, str]

    def slot_entry(self, key: str, value: int) -> int | bool:
        """A slot's kernel ``value`` as the options and manifests name it: a switch's or a
        two-way reading's as a bool, a reading with more values as its index."""
        choices = self.rules[key].choices
        return bool(value) if choices is None or len(choices) == 2 else int(value)

    def preset_rows(self) -> list[dict]:
        """One row per switch, for ``python -m dragonsim rules presets`` and the docs: its key,
        the book's page and label, the presets that turn it on, and its readings (key, default,
        the other values)."""
        rows = []
        for label in SWITCH_LABELS:
            for key in self.switches[label]:
                r = self.rules[key]
                readings = [
                    {
                        "key": q.key,
                        "default": q.value,
                        "others": [c for c in q.choices if c != q.value],
                    }
                    for q in self.rules.values()
                    if q.reading_of == key
                ]
                rows.append(
                    {
                        "key": key,
                        "page": r.page,
                        "label": label,
                        "presets": [name for name, on in self.presets.items() if on.get(key)],
                        "readings": readings,
                    }
                )
        return rows


def derive(declared: Iterable[Rule]) -> Tables:
    """The tables of the rules ``declared`` (in the order the docs list them).

    The switches are the rules whose value is true or false, by their ``label``: ``advanced``
    the rules of the advanced sections (pp. 15-19, 22) that the book does not label optional,
    ``optional`` those it does: "some rules are labeled optional. This means that all players
    must agree to use them" (p.15). The presets follow: ``basic`` is the basic game (pp. 6-14),
    ``advanced`` turns on every advanced switch, ``advanced+optional`` adds every optional one.
    The kernel's slots are :data:`RUN_SLOTS` and every rule's ``slot``.

    Raises ``ValueError`` when two rules share a key, or two slots a name or an index.
    """
    declared = list(declared)
    rules: dict[str, Rule] = {r.key: r for r in declared}
    if len(rules) != len(declared):
        raise ValueError("two rules share a key")
    switches = {
        label: tuple(k for k, r in rules.items() if isinstance(r.value, bool) and r.label == label)
        for label in SWITCH_LABELS
    }
    presets = {
        "basic": {},
        "advanced": dict.fromkeys(switches["advanced"], True),
        "advanced+optional": dict.fromkeys(switches["advanced"] + switches["optional"], True),
    }
    kernel_slots = {
        **RUN_SLOTS,
        **{r.slot[0]: r.slot[1] for r in rules.values() if r.slot is not None},
    }
    slot_rules = {r.slot[0]: k for k, r in rules.items() if r.slot is not None}
    if len(set(kernel_slots.values())) != len(kernel_slots) or len(slot_rules) + len(
        RUN_SLOTS
    ) != len(kernel_slots):
        raise ValueError("two kernel slots share a name or an index")
    return Tables(
        rules=rules,
        switches=switches,
        presets=presets,
        kernel_slots=kernel_slots,
        n_opt=max(kernel_slots.values()) + 1,
        slot_rules=slot_rules,
    )
