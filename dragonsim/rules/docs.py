"""The rules as simulated, as Markdown pages generated from the rules data (``docs/``).

One page per game, ``docs/rules-<game>.md``: every rule with its value, provenance, where it is
used, why it has that value, and how to override it; the assumed values first. The pages are
written by ``python -m dragonsim docs`` and checked by the test suite, which fails when a
committed page no longer matches the data (``python -m dragonsim docs --check``).
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from . import GAMES, registry
from .core import PROVENANCES, Rule, override_line

__all__ = ["TITLES", "render", "pages", "write", "stale"]

#: the rulebook each game's rules come from, as the pages name it
TITLES = {
    "lords": ("Dragon Lords", "the Dragon Lords rulebook"),
    "dice": ("Dragon Dice", "the Dragon Dice Dragon Rules (09/13/96)"),
    "krynn": ("Warriors of Krynn", "the Dragonlance: Warriors of Krynn rulebook"),
}

_PROVENANCE_TEXT = {
    "printed": "stated in the rulebook (the wording is quoted)",
    "derived": "not printed, but forced by printed values (the derivation is given; a test "
    "re-derives it)",
    "published": "not in the rulebook, taken from a cited public source about the same game",
    "assumed": "dragonsim's choice where nothing printed decides; overridable, so a study can "
    "show how much its answer depends on it",
}


def _v(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _override(rule: Rule, row: str | None = None) -> str:
    if row is None:
        return override_line(rule.key, rule.value)
    label = next(k for k in rule.value if str(k) == row)
    return override_line(f"{rule.key}.{row}", rule.value[label])


def _rule_section(game: str, rule: Rule) -> list[str]:
    prov = rule.provenance
    if rule.row_provenance:
        kinds = sorted({rule.provenance, *rule.row_provenance.values()}, key=PROVENANCES.index)
        prov = " / ".join(kinds) + " (by row)"
    out = [f"### `{rule.key}`", "", f"*{prov}* · used in: {rule.used_in}", ""]
    if rule.label is not None:
        kind = "labeled optional by the book" if rule.label == "optional" else rule.label
        out += [f"A rule of play ({kind}, {rule.page}); kernel slot `{rule.slot[0]}`.", ""]
    elif rule.reading_of is not None:
        out += [
            f"A reading of [`{rule.reading_of}`](#{_anchor(rule.reading_of)}); kernel slot "
            f"`{rule.slot[0]}` (`python -m dragonsim sensitivity A B --rule {rule.key}` "
            "measures what it moves).",
            "",
        ]
    out += [f"{rule.source}", ""]
    if isinstance(rule.value, dict):
        out += ["| row | value | provenance |", "|---|---|---|"]
        for label, v in rule.value.items():
            out.append(
                f"| `{_cell(label)}` | `{_cell(_v(v))}` | {rule.provenance_of(str(label))} |"
            )
        out.append("")
        first = str(next(iter(rule.value)))
        out += [
            "Override one row or the whole table in a rules file:",
            "",
            "```toml",
            _override(rule, first),
            "```",
            "",
        ]
    else:
        out += [f"Value: `{_v(rule.value)}`", ""]
        out += ["Override in a rules file:", "", "```toml", _override(rule), "```", ""]
    allowed = []
    if rule.bounds is not None:
        allowed.append(f"whole numbers {rule.bounds[0]}..{rule.bounds[1]}")
    if rule.choices is not None:
        allowed.append("one of " + ", ".join(f"`{c}`" for c in rule.choices))
    if allowed:
        out += ["Allowed: " + "; ".join(allowed) + ".", ""]
    return out


def render(game: str) -> str:
    """The Markdown page of ``game``'s rules as simulated."""
    name, book = TITLES[game]
    rules = list(registry(game).values())
    assumed = [r for r in rules if r.is_assumed]
    rest = [r for r in rules if not r.is_assumed]
    counts = {p: 0 for p in PROVENANCES}
    for r in rules:
        if isinstance(r.value, dict):
            for label in r.value:
                counts[r.provenance_of(str(label))] += 1
        else:
            counts[r.provenance] += 1
    out = [
        f"# {name}: the rules as simulated",
        "",
        "<!-- generated from dragonsim/rules/ by `python -m dragonsim docs`; do not edit -->",
        "",
        f"Every value dragonsim's {name} simulation uses, from {book}, with its provenance:",
        "",
    ]
    out += [f"- **{p}**: {_PROVENANCE_TEXT[p]};" for p in PROVENANCES]
    out[-1] = out[-1][:-1] + "."
    out += [
        "",
        f"{len(rules)} rules ({', '.join(f'{counts[p]} {p}' for p in PROVENANCES)} values, "
        "counting each row of a table). Any of them can be overridden: from the command line "
        "with `--rules FILE` (a TOML file with a `[lords]`, `[dice]` and `[krynn]` table, each "
        'command reading its own game\'s, after an optional `preset = "advanced"`), or from '
        "Python with `rules=` overrides; `--rules basic`, `--rules advanced` and `--rules "
        'advanced+optional` (`rules=` "basic", "advanced" or "advanced+optional") are the '
        "presets, which set the `advanced.*` and `optional.*` switches. A "
        "bad override is refused with a message naming the key and what is allowed. "
        "`python -m dragonsim rules --game " + game + "` prints the same list with the values "
        "in force.",
        "",
        "| rule | provenance | value |",
        "|---|---|---|",
    ]
    for r in assumed + rest:
        short = _v(r.value)
        if len(short) > 60:
            short = short[:57] + "..."
        prov = r.provenance + (" (+ rows)" if r.row_provenance else "")
        out.append(f"| [`{r.key}`](#{_anchor(r.key)}) | {prov} | `{_cell(short)}` |")
    mod = importlib.import_module(f"{__package__}.{game}")
    if hasattr(mod, "preset_rows"):
        out += ["", "## Presets", "", mod.PRESETS_TEXT, ""]
        out += [
            "| rule | page | label | presets | readings (default first) |",
            "|---|---|---|---|---|",
        ]
        for row in mod.preset_rows():
            readings = "; ".join(
                f"`{q['key']}`: {', '.join(map(str, [q['default'], *q['others']]))}"
                for q in row["readings"]
            )
            out.append(
                f"| [`{row['key']}`](#{_anchor(row['key'])}) | {row['page']} | {row['label']} "
                f"| {', '.join(row['presets'])} | {_cell(readings)} |"
            )
    out += ["", "## Assumed values", ""]
    if not assumed:
        out += ["None.", ""]
    for r in assumed:
        out += _rule_section(game, r)
    out += ["## Printed, derived and published values", ""]
    for r in rest:
        out += _rule_section(game, r)
    return "\n".join(out).rstrip() + "\n"


def _anchor(key: str) -> str:
    return "".join(c for c in key.lower() if c.isalnum() or c in "-_ ").replace(" ", "-")


def pages() -> dict[str, str]:
    """File name -> content of every generated page."""
    return {f"rules-{g}.md": render(g) for g in GAMES}


def write(folder: str | Path) -> list[Path]:
    """Write every page into ``folder``; returns the paths written. A ``folder`` that is a
    file, or that cannot be made, is a :class:`~dragonsim.errors.UserError`."""
    from ..errors import UserError

    d = Path(folder)
    if d.exists() and not d.is_dir():
        raise UserError(f"--out {folder}: is a file; give a folder to write the pages into")
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"--out {folder}: cannot make the folder ({e.strerror})") from None
    out = []
    for name, text in pages().items():
        p = d / name
        p.write_text(text, encoding="utf-8")
        out.append(p)
    return out


def stale(folder: str | Path) -> list[str]:
    """The generated pages in ``folder`` that are missing or differ from the rules data."""
    from ..errors import UserError

    d = Path(folder)
    if d.exists() and not d.is_dir():
        raise UserError(f"--out {folder}: is a file; give the folder the pages were written to")
    return [
        name
        for name, text in pages().items()
        if not (d / name).exists() or (d / name).read_text(encoding="utf-8") != text
    ]
