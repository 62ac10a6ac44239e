"""Rules as data: every value a kernel uses, with its provenance, and checked overrides.

A :class:`Rule` holds one value or table, tagged

- ``printed``: stated in a seed (the wording is in ``source``),
- ``derived``: forced by printed values (the derivation is in ``source``; a test re-derives it),
- ``published``: from a cited public source about the same game,
- ``assumed``: dragonsim's choice where nothing printed decides; overridable.

A table whose rows differ in provenance says so per row (``row_provenance``).

A :class:`RuleSet` is an immutable view of the defaults plus a user's overrides. Overrides come
from keyword arguments or a TOML file; a key is either a whole rule (``lords.altitude_mod``) or
one row of a table (``lords.damage_allocation.6``). Every override is checked against the
default's shape: unknown keys, wrong types, out-of-range values and tables with missing or extra
rows are refused with a :class:`~dragonsim.errors.UserError` naming the key and what is allowed.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UserError, did_you_mean, read_text
from ..report import rules_hash

PROVENANCES = ("printed", "derived", "published", "assumed")
#: how a rulebook labels a rule of play: the basic game, the advanced rules, or a rule the book
#: calls optional ("This means that all players must agree to use them", Dragon Lords p.15)
LABELS = ("basic", "advanced", "optional")

__all__ = [
    "Rule",
    "RuleSet",
    "PROVENANCES",
    "LABELS",
    "PRESET_NAMES",
    "check_preset",
    "load_overrides_file",
    "load_rules_file",
    "read_toml",
    "override_line",
]


@dataclass(frozen=True)
class Rule:
    """One rule value or table.

    Parameters
    ----------
    key
        Dotted name, ``game.rule`` (e.g. ``lords.turn_cost``).
    value
        An int, a str, a list of ints/strs, or a dict of rows (row label -> int/str/list).
    provenance
        One of :data:`PROVENANCES` (for the whole rule; see ``row_provenance``).
    source
        The seed's wording, the derivation, or the reason for the assumption.
    used_in
        Where dragonsim uses the value.
    bounds
        ``(lo, hi)`` for every number in the value, inclusive.
    choices
        Allowed strings for every str in the value.
    row_provenance
        Per-row provenance where rows differ from ``provenance``.
    lengths
        ``(lo, hi)``: a list (or each list row of a table) may have any length in this range,
        each entry checked like the default's first entry; ``None`` (the default): exactly the
        default's length.
    label
        A rule of play's label in its book (:data:`LABELS`): ``basic``, ``advanced`` or
        ``optional``; the presets are built from it. None for values, tables and readings.
    page
        Where the book prints the rule (``"p.16"``).
    slot
        ``(name, index)``: the rule's place in a kernel's int64 options array, and the name
        of that place (the keyword of the game's options builder and the key in every
        manifest). A switch puts 0 or 1 there, a reading the index of its value in
        ``choices``. Every slot is declared here and nowhere else.
    reading_of
        For a reading (an assumed choice where a rule's text is ambiguous): the key of the
        rule it reads.
    """

    key: str
    value: Any
    provenance: str
    source: str
    used_in: str
    bounds: tuple[int, int] | None = None
    choices: tuple[str, ...] | None = None
    row_provenance: Mapping[str, str] = field(default_factory=dict)
    #: an extra check of a whole value: returns what is wrong, or None
    validate: Callable[[Any], str | None] | None = None
    lengths: tuple[int, int] | None = None
    label: str | None = None
    page: str | None = None
    slot: tuple[str, int] | None = None
    reading_of: str | None = None

    def __post_init__(self):
        if self.provenance not in PROVENANCES:
            raise ValueError(f"{self.key}: bad provenance {self.provenance!r}")
        if self.label is not None and self.label not in LABELS:
            raise ValueError(f"{self.key}: bad label {self.label!r}")
        if self.slot is not None and not (
            isinstance(self.value, bool) or (isinstance(self.value, str) and self.choices)
        ):
            raise ValueError(f"{self.key}: only a switch or a reading has a kernel slot")
        object.__setattr__(
            self, "row_provenance", {str(r): p for r, p in self.row_provenance.items()}
        )
        for r, p in self.row_provenance.items():
            if p not in PROVENANCES:
                raise ValueError(f"{self.key}.{r}: bad provenance {p!r}")
        # the defaults themselves must pass their own checks
        _check(self, self.value, self.key)
        _validate(self, self.value, self.key)

    def kernel_value(self, value: Any) -> int:
        """What ``value`` of this rule puts in its kernel slot: 0 or 1 for a switch, the
        index of the value in ``choices`` for a reading."""
        if isinstance(self.value, bool):
            return int(bool(value))
        return self.choices.index(value)

    def provenance_of(self, row: str | None = None) -> str:
        if row is not None and str(row) in self.row_provenance:
            return self.row_provenance[str(row)]
        return self.provenance

    @property
    def is_assumed(self) -> bool:
        return self.provenance == "assumed" or "assumed" in self.row_provenance.values()

    def assumed_rows(self) -> list[str]:
        if isinstance(self.value, dict):
            return [str(r) for r in self.value if self.provenance_of(str(r)) == "assumed"]
        return [] if self.provenance != "assumed" else [""]


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, str):
        return "str"
    if isinstance(v, list | tuple):
        return "list"
    if isinstance(v, dict):
        return "table"
    return type(v).__name__


def _describe(default: Any) -> str:
    k = _kind(default)
    if k == "list":
        return f"a list of {len(default)} {_kind(default[0]) if default else 'item'}s"
    if k == "table":
        return f"a table with rows {', '.join(map(str, default))}"
    return {"int": "a whole number", "str": "a name", "bool": "true or false"}.get(k, k)


def _check_scalar(rule: Rule, v: Any, like: Any, where: str) -> None:
    # a whole number is a fine value for a float rule (TOML writes 1 for 1.0)
    if _kind(v) != _kind(like) and not (_kind(like) == "float" and _kind(v) == "int"):
        raise UserError(f"{where}: expected {_describe(like)}, got {v!r}")
    if isinstance(v, int | float) and not isinstance(v, bool) and rule.bounds is not None:
        lo, hi = rule.bounds
        if not lo <= v <= hi:
            raise UserError(f"{where}: {v} is out of range; allowed {lo}..{hi}")
    if isinstance(v, str) and rule.choices is not None and v not in rule.choices:
        raise UserError(
            f"{where}: {v!r} is not allowed{did_you_mean(v, rule.choices)}; "
            f"allowed: {', '.join(rule.choices)}"
        )


def _check_shape(rule: Rule, v: Any, like: Any, where: str) -> None:
    if _kind(like) == "list":
        if _kind(v) != "list":
            raise UserError(f"{where}: expected {_describe(like)}, got {v!r}")
        if rule.lengths is not None:
            lo, hi = rule.lengths
            if not lo <= len(v) <= hi:
                raise UserError(f"{where}: expected {lo} to {hi} entries, got {len(v)}")
            for i, x in enumerate(v):
                _check_scalar(rule, x, like[0], f"{where}[{i}]")
            return
        if len(v) != len(like):
            raise UserError(f"{where}: expected {len(like)} entries, got {len(v)}")
        for i, (x, y) in enumerate(zip(v, like, strict=True)):
            _check_scalar(rule, x, y, f"{where}[{i}]")
    else:
        _check_scalar(rule, v, like, where)


def _check(rule: Rule, value: Any, where: str) -> None:
    default = rule.value
    if _kind(default) == "table":
        if _kind(value) != "table":
            raise UserError(f"{where}: expected {_describe(default)}, got {value!r}")
        rows = {str(k) for k in default}
        given = {str(k) for k in value}
        missing = [str(r) for r in default if str(r) not in given]
        extra = sorted(given - rows)
        if missing:
            raise UserError(
                f"{where}: table is missing row(s) {', '.join(missing)}; "
                f"a whole table must give every row ({', '.join(map(str, default))}), "
                f"or override one row as {where}.ROW"
            )
        if extra:
            raise UserError(
                f"{where}: unknown row(s) {', '.join(extra)}; "
                f"allowed rows: {', '.join(map(str, default))}"
            )
        by = {str(k): v for k, v in value.items()}
        for r, like in default.items():
            _check_shape(rule, by[str(r)], like, f"{where}.{r}")
    else:
        _check_shape(rule, value, default, where)


def _validate(rule: Rule, value: Any, where: str) -> None:
    if rule.validate is not None:
        problem = rule.validate(value)
        if problem:
            raise UserError(f"{where}: {problem}")


def _normalise(rule: Rule, value: Any) -> Any:
    """Tuples to lists, row labels to the default's label type."""
    if isinstance(value, tuple):
        value = list(value)
    if isinstance(rule.value, float) and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(rule.value, dict) and isinstance(value, dict):
        keymap = {str(k): k for k in rule.value}
        return {keymap[str(k)]: (list(v) if isinstance(v, tuple) else v) for k, v in value.items()}
    return value


class RuleSet:
    """The rules in force: defaults plus checked overrides. Immutable.

    >>> from dragonsim.rules import lords_rules
    >>> r = lords_rules(overrides={"lords.altitude_mod": [0, 0, 1, 1, 2]})
    >>> r.get("lords.altitude_mod")
    [0, 0, 1, 1, 2]
    """

    def __init__(
        self,
        registry: Mapping[str, Rule],
        overrides: Mapping[str, Any] | None = None,
        *,
        preset: str | None = None,
    ):
        #: the preset the rules started from (``basic``, ``advanced``), or None; its switches
        #: are among ``overrides``, so they are recorded and hashed like any other value
        self.preset = preset
        self._registry = dict(registry)
        self._values = {k: r.value for k, r in self._registry.items()}
        self._overrides: dict[str, Any] = {}
        for key, value in (overrides or {}).items():
            self._apply(str(key), value)
        self.hash = rules_hash(self._values)

    # -- lookup ---------------------------------------------------------------------------
    def _resolve(self, key: str) -> tuple[Rule, str | None]:
        if key in self._registry:
            return self._registry[key], None
        head, _, row = key.rpartition(".")
        if head in self._registry and isinstance(self._registry[head].value, dict):
            rule = self._registry[head]
            if row not in {str(r) for r in rule.value}:
                raise UserError(
                    f"unknown row {row!r} in rule {head}; "
                    f"allowed rows: {', '.join(map(str, rule.value))}"
                )
            return rule, row
        game, _, name = key.partition(".")
        names = {k.partition(".")[2]: k for k in self._registry if k.startswith(game + ".")}
        hint = did_you_mean(name, names)
        if hint:
            hint = f" (did you mean {names[hint.split(chr(39))[1]]!r}?)"
        raise UserError(f"unknown rule {key!r}{hint}; `python -m dragonsim rules` lists them")

    def _apply(self, key: str, value: Any) -> None:
        rule, row = self._resolve(key)
        if row is None:
            _check(rule, value, key)
            new = _normalise(rule, value)
        else:
            label = next(r for r in rule.value if str(r) == row)
            _check_shape(rule, value, rule.value[label], key)
            new = dict(self._values[rule.key])
            new[label] = list(value) if isinstance(value, tuple) else value
        _validate(rule, new, key)
        self._values[rule.key] = new
        self._overrides[key] = value

    def get(self, key: str) -> Any:
        """The value in force for ``key`` (a whole rule, or one row as ``rule.ROW``)."""
        if key in self._values:
            return self._values[key]
        rule, row = self._resolve(key)  # raises with did-you-mean
        table = self._values[rule.key]
        return next(v for k, v in table.items() if str(k) == row)

    def __getitem__(self, key: str) -> Any:
        return self.get(key)

    def rule(self, key: str) -> Rule:
        return self._resolve(key)[0]

    def __iter__(self):
        return iter(self._registry.values())

    @property
    def overrides(self) -> dict[str, Any]:
        return dict(self._overrides)

    def with_overrides(self, overrides: Mapping[str, Any]) -> RuleSet:
        merged = dict(self._overrides)
        merged.update(overrides)
        return RuleSet(self._registry, merged, preset=self.preset)

    def assumed(self) -> list[Rule]:
        return [r for r in self._registry.values() if r.is_assumed]

    def to_dict(self) -> dict[str, Any]:
        return {
            "hash": self.hash,
            "preset": self.preset,
            "overrides": self.overrides,
            "values": dict(self._values),
        }


def read_toml(path: str | Path, what: str = "rules file") -> dict[str, Any]:
    """Parse a TOML file; a missing, unreadable, empty, oversized or malformed file is a
    UserError naming it (see :func:`~dragonsim.errors.read_text`)."""
    text = read_text(path, what)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{what} {str(path)!r} is not valid TOML: {e}") from None


#: the top-level tables a rules file may hold, one per game
RULES_FILE_TABLES = ("lords", "dice", "krynn")

#: the rules presets: ``basic`` (the basic game, every default), ``advanced`` (every
#: advanced rule the book does not label optional) and ``advanced+optional`` (those and every
#: optional rule); each game's switches per preset are its ``PRESETS``
PRESET_NAMES = ("basic", "advanced", "advanced+optional")


def check_preset(name: Any, where: str = "rules preset") -> str:
    """``name`` if it is a preset (:data:`PRESET_NAMES`), else a UserError."""
    if not isinstance(name, str) or name not in PRESET_NAMES:
        hint = did_you_mean(name, PRESET_NAMES) if isinstance(name, str) else ""
        raise UserError(
            f"{where}: unknown preset {name!r}{hint}; allowed: {', '.join(PRESET_NAMES)}"
        )
    return name


def load_rules_file(path: str | Path) -> tuple[str | None, dict[str, Any]]:
    """A rules file's preset (top-level ``preset = "advanced"``, or None) and its overrides
    (see :func:`load_overrides_file`), which apply on top of the preset."""
    data = read_toml(path)
    preset = None
    if "preset" in data:
        preset = check_preset(data.pop("preset"), f"rules file {str(path)!r}")
    return preset, _overrides_of(data, Path(path))


def load_overrides_file(path: str | Path) -> dict[str, Any]:
    """Read overrides from a rules file, for every game: ``{"game.key": value}``.

    Top-level tables name the game (``[lords]``, ``[dice]``, ``[krynn]``); keys inside are
    rules or ``rule.ROW`` (quoted)::

        [lords]
        altitude_mod = [0, 0, 1, 1, 2]
        "damage_allocation.6" = ["B", "B", "B", "B", "B", "B"]

        [dice]
        id_split = "save-first"

    A top-level ``preset = "basic"`` or ``"advanced"`` may name the preset the overrides
    apply to (:func:`load_rules_file` reads it; this function ignores it).
    """
    return load_rules_file(path)[1]


def _overrides_of(data: dict[str, Any], p: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for game, body in data.items():
        if game not in RULES_FILE_TABLES:
            allowed = ", ".join(f"[{g}]" for g in RULES_FILE_TABLES)
            hint = did_you_mean(game, RULES_FILE_TABLES)
            raise UserError(
                f"rules file {str(p)!r}: unknown table [{game}]{hint}; allowed: {allowed} "
                'and preset = "basic", "advanced" or "advanced+optional"'
            )
        if not isinstance(body, dict):
            raise UserError(
                f"rules file {str(p)!r}: top-level key {game!r} must be a table such as [{game}]"
            )
        import importlib

        keys = importlib.import_module(f"{__package__}.{game}").RULES
        for k, v in body.items():
            _flatten(out, f"{game}.{k}", v, keys)
    return out


def _flatten(out: dict[str, Any], key: str, v: Any, keys: Mapping[str, Rule]) -> None:
    """A TOML dotted key (``advanced.lancer = true``) or sub-table (``[lords.advanced]``)
    reads as nested tables: a table under a name that is no rule but the head of rules'
    names is opened into those rules; every other value is kept as given."""
    if isinstance(v, dict) and key not in keys and any(r.startswith(key + ".") for r in keys):
        for k2, v2 in v.items():
            _flatten(out, f"{key}.{k2}", v2, keys)
    else:
        out[key] = v


def override_line(key: str, value: Any) -> str:
    """How to set ``key`` (``game.rule`` or ``game.rule.ROW``) to ``value`` in a rules file:
    ``[game] rule = value``, a dotted name quoted (TOML)."""
    import json

    game, _, name = key.partition(".")
    if "." in name:
        name = json.dumps(name)
    return f"[{game}] {name} = {json.dumps(value, ensure_ascii=False)}"


def rows_of(rules: RuleSet | Iterable[Rule]) -> list[dict[str, Any]]:
    """Flat rows (one per rule or table row) for printing and DataFrames.

    Given a :class:`RuleSet`, the values shown are those in force (overrides applied), and a
    value an override set has provenance ``"override"``, with the shipped value and its
    provenance beside it (``default``, ``default_provenance``).
    """
    current = rules.get if isinstance(rules, RuleSet) else None
    overridden = set(rules.overrides) if isinstance(rules, RuleSet) else set()
    rows = []

    def row(key, value, default, prov, r, whole):
        out = {
            "key": key,
            "value": value,
            "provenance": prov,
            "used_in": r.used_in,
            "source": r.source,
        }
        if key in overridden or whole:
            out.update(provenance="override", default=default, default_provenance=prov)
        return out

    for r in rules:
        value = current(r.key) if current else r.value
        whole = r.key in overridden
        if isinstance(r.value, dict):
            for label, v in value.items():
                prov = r.provenance_of(str(label))
                rows.append(row(f"{r.key}.{label}", v, r.value.get(label), prov, r, whole))
        else:
            rows.append(row(r.key, value, r.value, r.provenance, r, whole))
    return rows
