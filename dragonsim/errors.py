"""User-facing errors: one clear line, exit code 2 from the command line, never a traceback."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["UserError", "did_you_mean", "resolve_name", "parse_count"]


class UserError(ValueError):
    """A mistake in the caller's input. The message names what was wrong and what is allowed."""


def _norm(s: str) -> str:
    return "".join(ch for ch in str(s).lower() if ch not in " -_")


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """' (did you mean X?)' for the closest choice, or ''."""
    table = {_norm(c): c for c in choices}
    close = difflib.get_close_matches(_norm(name), list(table), n=1, cutoff=0.6)
    return f" (did you mean {table[close[0]]!r}?)" if close else ""


def resolve_name(name: str, choices: Iterable[str], what: str, hint: str = "") -> str:
    """Match ``name`` case-insensitively (spaces, '-' and '_' ignored) against ``choices``.

    >>> resolve_name("razor-sharp", ["Blunt", "Razor Sharp"], "claws")
    'Razor Sharp'
    """
    choices = list(choices)
    table = {_norm(c): c for c in choices}
    key = _norm(name)
    if key in table:
        return table[key]
    raise UserError(
        f"unknown {what} {name!r}{did_you_mean(name, choices)}; allowed: {', '.join(choices)}"
        + (f"; {hint}" if hint else "")
    )


def parse_count(text: str | int | float, what: str = "n") -> int:
    """Parse a positive game count such as ``1e6``, ``250000`` or ``1_000_000``.

    >>> parse_count("1e6")
    1000000
    """
    if isinstance(text, bool):
        raise UserError(f"{what} must be a positive whole number, got {text!r}")
    try:
        value = float(str(text).replace("_", "")) if not isinstance(text, int) else text
    except ValueError:
        raise UserError(
            f"{what} must be a positive whole number such as 1000 or 1e6, got {text!r}"
        ) from None
    if value != value or value in (float("inf"), float("-inf")) or value != int(value):
        raise UserError(f"{what} must be a positive whole number, got {text!r}")
    value = int(value)
    if value < 1:
        raise UserError(f"{what} must be at least 1, got {text!r}")
    if value > 10**12:
        raise UserError(f"{what} must be at most 1e12, got {text!r}")
    return value
