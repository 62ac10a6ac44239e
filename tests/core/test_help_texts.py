"""Every command's help says what the command does today: no phrase left from when the engine
played only part of the rules ('basic-rules games', 'the advanced rules implemented so far',
'none of them on in a preset yet'), and a help text that says switches are on in
``--rules advanced`` names only switches that preset turns on."""

from __future__ import annotations

import argparse
import re

import pytest

from dragonsim.cli import build_parser
from dragonsim.rules import presets

#: phrases of help texts written while the rules were being implemented
STALE = (
    "implemented so far",
    "basic-rules",
    "basic rules only",
    "only the basic",
    "still to come",
    "not yet",
    "in a preset yet",
    "no preset plays",
)


def _texts(parser, path=()):
    """(command, text) of every description and option help under ``parser``."""
    yield " ".join(path) or "python -m dragonsim", parser.description or ""
    for a in parser._actions:
        yield " ".join(path), a.help or ""
        if isinstance(a, argparse._SubParsersAction):
            for choice in a._choices_actions:
                yield " ".join(path), choice.help or ""
            for name, sub in a.choices.items():
                yield from _texts(sub, (*path, name))


TEXTS = list(_texts(build_parser()))


@pytest.mark.parametrize("phrase", STALE)
def test_no_help_text_keeps_a_stale_phrase(phrase):
    found = [cmd for cmd, text in TEXTS if phrase in " ".join(text.split()).lower()]
    assert not found, f"{phrase!r} in the help of {found}"


def test_switches_said_to_be_on_in_advanced_are():
    on = {k for k, v in presets("lords")["advanced"].items() if v}
    checked = 0
    for cmd, text in TEXTS:
        text = " ".join(text.split())
        if "on in --rules advanced" not in text and "under --rules advanced" not in text:
            continue
        first = re.findall(r"lords\.advanced\.(\w+)", text)
        # "lords.advanced.crash_very_low, crash_slow and crash_zeroed": the names that follow
        names = set(first)
        for m in re.finditer(r"lords\.advanced\.\w+((?:, \w+)*(?:,? and \w+)?)", text):
            names |= set(re.findall(r"\w+", m.group(1).replace(" and ", " "))) - {"and"}
        assert names, cmd
        missing = sorted(f"lords.advanced.{n}" for n in names if f"lords.advanced.{n}" not in on)
        assert not missing, f"{cmd}: {missing} are not on in --rules advanced"
        checked += 1
    assert checked >= 3  # odds rider, crash and takeoff
