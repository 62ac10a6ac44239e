"""User-facing errors: one clear line, exit code 2 from the command line, never a traceback."""

from __future__ import annotations

import difflib
import json
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = [
    "UserError",
    "RulesWarning",
    "did_you_mean",
    "resolve_name",
    "parse_count",
    "check_int",
    "check_seed",
    "read_text",
    "read_json",
    "check_output",
    "MAX_FILE_BYTES",
]

#: the largest rules, army, scenario or baseline file read (they are small text files)
MAX_FILE_BYTES = 1024 * 1024


class UserError(ValueError):
    """A mistake in the caller's input. The message names what was wrong and what is allowed."""


class RulesWarning(UserWarning):
    """Rules that are allowed but that the rulebook advises against (the message quotes it);
    the command line prints it as one line, ``warning: ...``."""


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


def check_int(value: Any, what: str, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..hi``: a real whole number (an int or a numpy integer; not a
    bool, a float such as 1.5 or a string), else a UserError naming the limits.

    >>> check_int(4, "threads", 1, 8)
    4
    """
    import numpy as np

    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise UserError(f"{what} must be a whole number {lo}..{hi}, got {value!r}")
    if not lo <= int(value) <= hi:
        raise UserError(f"{what} must be {lo}..{hi}, got {value!r}")
    return int(value)


def check_seed(seed: Any) -> int:
    """A run's seed: a whole number ``0..2**63-1``."""
    import numpy as np

    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= seed < 2**63:
        raise UserError(f"seed must be a whole number between 0 and 2**63-1, got {seed!r}")
    return int(seed)


def read_text(path: Any, what: str, *, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a user's file; every way it can be wrong is one UserError naming it:
    an empty or non-path argument, no such file, a directory or other non-regular file (a
    FIFO, ``/dev/zero``), a file over ``limit`` bytes, not UTF-8, or empty."""
    if not isinstance(path, str | os.PathLike):
        raise UserError(f"{what}: expected a file path, got {path!r}")
    if str(path) == "":
        raise UserError(f"{what}: an empty path was given; name a file")
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise UserError(f"{what} {str(p)!r} not found (no such file)") from None
    except OSError as e:
        raise UserError(f"{what} {str(p)!r} cannot be read: {e.strerror or e}") from None
    if stat.S_ISDIR(st.st_mode):
        raise UserError(f"{what} {str(p)!r} is a directory; name a file")
    if not stat.S_ISREG(st.st_mode):
        raise UserError(f"{what} {str(p)!r} is not a regular file")
    if st.st_size > limit:
        raise UserError(f"{what} {str(p)!r} is {st.st_size:,} bytes; the limit is {limit:,} bytes")
    try:
        data = p.read_bytes()
    except OSError as e:
        raise UserError(f"{what} {str(p)!r} cannot be read: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{what} {str(p)!r} is not UTF-8 text") from None
    if not text.strip():
        raise UserError(f"{what} {str(p)!r} is empty")
    return text


def read_json(path: Any, what: str, *, limit: int = MAX_FILE_BYTES) -> Any:
    """A user's JSON file (see :func:`read_text`); invalid JSON is a UserError naming it."""
    text = read_text(path, what, limit=limit)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise UserError(f"{what} {str(path)!r} is not valid JSON: {e}") from None


def check_output(
    path: Any, what: str, suffixes: Iterable[str] = (), *, make_folder: bool = False
) -> str:
    """A file a command will write, checked before any game is played, so a long run never
    ends in a traceback at the write: every way it can be wrong is one UserError naming it
    (not a path, another suffix than ``suffixes`` (e.g. ``(".png",)``), a directory, no
    such folder (with ``make_folder``: no folder above it that could hold one), a folder or
    file that cannot be written). Returns the path as a string."""
    if not isinstance(path, str | os.PathLike) or str(path) == "":
        raise UserError(f"{what}: expected a file path, got {path!r}")
    p = Path(path)
    ends = tuple(s.lower() for s in suffixes)
    if ends and not str(p).lower().endswith(ends):
        raise UserError(f"{what} {str(p)!r} must end in {' or '.join(ends)}")
    if p.is_dir():
        raise UserError(f"{what} {str(p)!r} is a directory; name a file")
    folder = p.parent
    if make_folder:  # the writer creates the folders missing: the first one that exists
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
    if not folder.exists():
        raise UserError(f"{what} {str(p)!r}: no folder {str(folder)!r}")
    if not folder.is_dir():
        raise UserError(f"{what} {str(p)!r}: {str(folder)!r} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"{what} {str(p)!r}: the folder {str(folder)!r} is not writable")
    if p.exists() and not os.access(p, os.W_OK):
        raise UserError(f"{what} {str(p)!r} exists and is not writable")
    return str(p)
