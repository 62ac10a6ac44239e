"""Checkpoints: a run's finished blocks in a file, so a killed run resumes where it stopped.

One JSON file per command (``--checkpoint FILE``). It records what it belongs to (the
*identity*: command, the arguments that change results, seed, rules hash, dragonsim version)
and, per *section* (one kernel run of the command: a duel, one pair of a tournament, one value
of a sweep), the games finished, their summed counters and any per-game bytes (a sensitivity
study's outcomes), with a digest of the kernel's every argument array. A file is rewritten
whole after each block, to a temporary file first and then renamed over the old one
(``os.replace``), so a kill at any moment leaves the previous or the new state, never half of
one. Because every game plays from its own streams, resuming from a finished block gives the
same counters as a run that was never stopped.

A file that belongs to another run (a different identity, or a section whose arguments
differ) is refused with one line; nothing is overwritten.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .errors import UserError, check_output, read_json

__all__ = ["Checkpoint", "Section", "open_checkpoint", "digest"]

#: the layout of what a checkpoint holds; raised whenever a game's counters change, so that a
#: checkpoint of another layout is refused in one line instead of resumed into the wrong counts
#: (2: Dragon Lords counts speed gains above the basic acceleration; 3: Dragon Dice counts a
#: dragon flown away only when the army is still there)
FORMAT = 3
#: checkpoints hold per-game outcomes of sensitivity studies: allow big files
MAX_CHECKPOINT_BYTES = 1 << 30


def digest(obj: Any) -> str:
    """A stable hash of a kernel's arguments: arrays (dtype, shape, bytes), tuples and named
    tuples (each field), numbers and strings."""
    h = hashlib.sha256()

    def feed(o: Any) -> None:
        if isinstance(o, np.ndarray):
            a = np.ascontiguousarray(o)
            h.update(f"A{a.dtype.str}{a.shape}".encode())
            h.update(a.tobytes())
        elif isinstance(o, tuple | list):
            h.update(f"T{len(o)}(".encode())
            for x in o:
                feed(x)
            h.update(b")")
        elif isinstance(o, Mapping):
            h.update(f"M{len(o)}(".encode())
            for k in sorted(o, key=str):
                h.update(str(k).encode())
                feed(o[k])
            h.update(b")")
        else:
            h.update(f"S{type(o).__name__}:{o!r};".encode())

    feed(obj)
    return h.hexdigest()[:32]


#: kernels whose checkpoints know them by a published name and the inputs they read (see
#: :func:`fingerprint_as`), keyed by the name the runner gives them (module.qualname)
_FINGERPRINTS: dict[str, tuple[str, Callable[[tuple], Any]]] = {}


def fingerprint_as(kernel: Any, name: str, inputs: Callable[[tuple], Any]) -> None:
    """Fingerprint ``kernel``'s checkpoints as ``name`` and ``inputs(args)`` (``args``: the
    kernel's arguments after ``start, stop, seed``) instead of its module path and arguments.

    A checkpoint describes a run's games and inputs, not how the code is laid out: a kernel
    that moves to another module, or takes its inputs in records, registers the name and the
    inputs it had, and checkpoints written before still resume."""
    f = getattr(kernel, "py_func", kernel)
    _FINGERPRINTS[f"{f.__module__}.{f.__qualname__}"] = (name, inputs)


def _differences(mine: Mapping[str, Any], theirs: Any) -> list[str]:
    if not isinstance(theirs, Mapping):
        return ["it is not a dragonsim checkpoint"]
    out = []
    for k in sorted(set(mine) | set(theirs)):
        if mine.get(k) != theirs.get(k):
            a, b = json.dumps(mine.get(k)), json.dumps(theirs.get(k))
            if len(a) + len(b) > 120:
                out.append(f"{k} differs")
            else:
                out.append(f"{k}: {a} here, {b} in the file")
    return out


#: what a checkpoint file holds at the top, and in each section
FILE_FIELDS = ("identity", "sections")
SECTION_FIELDS = ("key", "done", "counters", "extra")
#: what a section's key holds: the kernel's name and its games, and a digest of its arguments
KEY_FIELDS = {"kernel": str, "n": int, "seed": int, "first": int, "args": str}


def _kind(value: Any) -> str:
    """A JSON value's kind as a reader knows it: 'a list', 'the string "x"', ..."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    text = json.dumps(value)
    return f"{text[:40]}..." if len(text) > 40 else text


def _fields(where: str, old: Any) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """``(identity, sections)`` of a checkpoint file's JSON, both objects; anything else (a
    list, a field missing or unknown, a field of another kind) is one UserError naming it."""
    if not isinstance(old, dict):
        raise UserError(
            f"{where} is not a dragonsim checkpoint: expected a JSON object with the fields "
            f"identity and sections, got {_kind(old)}"
        )
    unknown = sorted(set(old) - set(FILE_FIELDS))
    if unknown:
        raise UserError(
            f"{where}: unknown field {unknown[0]!r}; a checkpoint holds identity and sections "
            "(not a dragonsim checkpoint? name a new file)"
        )
    for f in FILE_FIELDS:
        if f not in old:
            raise UserError(f"{where}: the field {f!r} is missing (not a dragonsim checkpoint?)")
        if not isinstance(old[f], dict):
            raise UserError(f"{where}: the field {f!r} must be an object, got {_kind(old[f])}")
    return old["identity"], old["sections"]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_section(where: str, s: Any) -> None:
    """One section of a checkpoint file, field by field (``where``: the file and the
    section); what is wrong is one UserError naming the field."""
    if not isinstance(s, dict):
        raise UserError(f"{where} must be an object, got {_kind(s)}")
    unknown = sorted(set(s) - set(SECTION_FIELDS))
    if unknown:
        raise UserError(
            f"{where}: unknown field {unknown[0]!r}; allowed: {', '.join(SECTION_FIELDS)}"
        )
    for f in SECTION_FIELDS:
        if f not in s:
            raise UserError(f"{where}: the field {f!r} is missing")
    key = s["key"]
    if not isinstance(key, dict) or set(key) != set(KEY_FIELDS):
        raise UserError(
            f"{where}.key must be an object with the fields {', '.join(KEY_FIELDS)}, got "
            f"{_kind(key) if not isinstance(key, dict) else 'the fields ' + ', '.join(key)}"
        )
    for f, kind in KEY_FIELDS.items():
        if not (_whole(key[f]) if kind is int else isinstance(key[f], kind)):
            what = "a whole number" if kind is int else "a string"
            raise UserError(f"{where}.key.{f} must be {what}, got {_kind(key[f])}")
    done = s["done"]
    if not _whole(done) or not 0 <= done <= key["n"]:
        raise UserError(
            f"{where}.done must be a whole number 0..{key['n']} (the games of key.n), got "
            f"{_kind(done)}"
        )
    counters = s["counters"]
    if not isinstance(counters, list) or not all(_whole(c) for c in counters):
        raise UserError(f"{where}.counters must be a list of whole numbers, got {_kind(counters)}")
    if not isinstance(s["extra"], str):
        raise UserError(f"{where}.extra must be a string (base64), got {_kind(s['extra'])}")


class Checkpoint:
    """The checkpoint file of one command run (see the module docstring)."""

    def __init__(self, path: str | os.PathLike, identity: Mapping[str, Any]):
        from . import __version__

        # a file path, not a folder, in a folder that exists and can be written (the file is
        # rewritten through a temporary file beside it)
        self.path = Path(check_output(path, "checkpoint"))
        self.identity = json.loads(
            json.dumps({"format": FORMAT, "dragonsim": __version__, **identity}, default=str)
        )
        self.sections: dict[str, dict[str, Any]] = {}
        if self.path.exists():
            old = read_json(self.path, "checkpoint", limit=MAX_CHECKPOINT_BYTES)
            where = f"checkpoint {str(self.path)!r}"
            theirs, sections = _fields(where, old)
            diff = _differences(self.identity, theirs)
            if diff:
                raise UserError(
                    f"{where} belongs to another run ({'; '.join(diff)}); "
                    "resume with the same command and arguments, or name a new file"
                )
            for name, s in sections.items():
                _check_section(f"{where}: sections.{name}", s)
            self.sections = dict(sections)

    def section(self, name: str) -> Section:
        return Section(self, str(name))

    def done(self, name: str) -> bool:
        """Whether section ``name`` holds a finished run."""
        s = self.sections.get(str(name))
        return bool(s) and s.get("done", 0) >= s.get("key", {}).get("n", -1)

    def write(self) -> None:
        """Write the file atomically (a temporary file in the same folder, then a rename)."""
        blob = json.dumps({"identity": self.identity, "sections": self.sections})
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(blob)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except OSError as e:
            raise UserError(
                f"cannot write checkpoint {str(self.path)!r}: {e.strerror or e}"
            ) from None


class Section:
    """One kernel run inside a checkpoint: what the runner loads from and saves to."""

    def __init__(self, checkpoint: Checkpoint, name: str):
        self.checkpoint = checkpoint
        self.name = name
        self.key: dict[str, Any] | None = None

    def bind(self, *, kernel: str, n: int, seed: int, first: int, args: Any) -> None:
        """Fix what this section's games are (refusing a stored section of other games)."""
        name, inputs = _FINGERPRINTS.get(kernel, (kernel, None))
        if inputs is not None:
            args = inputs(tuple(args))
        self.key = {"kernel": name, "n": n, "seed": seed, "first": first, "args": digest(args)}
        stored = self.checkpoint.sections.get(self.name)
        if stored is not None and stored.get("key") != self.key:
            diff = _differences(self.key, stored.get("key"))
            raise UserError(
                f"checkpoint {str(self.checkpoint.path)!r} belongs to another run (its "
                f"{self.name!r} games differ: {'; '.join(diff)}); resume with the same command "
                "and arguments, or name a new file"
            )

    def load(self) -> tuple[int, np.ndarray | None, bytes]:
        """``(games done, their counters or None, their per-game bytes)``."""
        s = self.checkpoint.sections.get(self.name)
        if not s:
            return 0, None, b""
        try:
            extra = zlib.decompress(base64.b64decode(s["extra"])) if s.get("extra") else b""
        except (ValueError, zlib.error):  # binascii.Error is a ValueError
            raise UserError(
                f"checkpoint {str(self.checkpoint.path)!r}: sections.{self.name}.extra is not "
                "what a checkpoint writes (zlib-compressed bytes in base64); name a new file"
            ) from None
        try:
            counters = np.asarray(s["counters"], dtype=np.int64)
        except OverflowError:
            raise UserError(
                f"checkpoint {str(self.checkpoint.path)!r}: sections.{self.name}.counters holds "
                "a number beyond 64 bits; name a new file"
            ) from None
        return int(s["done"]), counters, extra

    def check_counters(self, held: np.ndarray, played: np.ndarray) -> None:
        """Refuse to add a block's counters to counters this section held of another size (a
        file edited by hand, or of another layout)."""
        if held.shape != played.shape:
            raise UserError(
                f"checkpoint {str(self.checkpoint.path)!r}: sections.{self.name}.counters holds "
                f"{held.size} counters, the games count {played.size}; name a new file"
            )

    def save(self, done: int, counters: np.ndarray, extra: bytes = b"") -> None:
        self.checkpoint.sections[self.name] = {
            "key": self.key,
            "done": int(done),
            "counters": [int(x) for x in counters],
            "extra": base64.b64encode(zlib.compress(extra)).decode() if extra else "",
        }
        self.checkpoint.write()


def open_checkpoint(checkpoint, identity: Mapping[str, Any], section: str = "run"):
    """What a public function's ``checkpoint=`` becomes: a path opens a :class:`Checkpoint`
    (checked against ``identity``) and returns its ``section``; a :class:`Checkpoint` gives
    its section; a :class:`Section` (a sweep handing one down) is used as it is; None is
    None."""
    if checkpoint is None or isinstance(checkpoint, Section):
        return checkpoint
    if isinstance(checkpoint, Checkpoint):
        return checkpoint.section(section)
    return Checkpoint(checkpoint, identity).section(section)
