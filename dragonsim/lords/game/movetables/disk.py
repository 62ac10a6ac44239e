"""The Dragon Lords move tables kept on disk: the banking and turning tables take seconds to
build, so :func:`~dragonsim.lords.game.movetables.move_tables` keeps them in :func:`cache_dir`
for the next process, one file per row (one maneuverability rating, one carried turn, one
reading of the rules) and its alternative paths, and one per set of tables assembled from
them, each named by a digest of what it is built from and of the builders' source, at most
:data:`DISK_BYTES` in all. A run reads back tables built before whole; for a new set it builds
only the rows no run has built before, whatever dragons they were built for, and assembles.

Each file carries a digest of its arrays (:data:`DIGEST`), checked when it is read: a file cut
short by a full disk or a killed copy, or with bytes changed, is built afresh and written
again with one line on stderr, never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple, TypeVar

import numpy as np

T = TypeVar("T")

#: the files of the builders: a change of any of them builds the tables afresh
SOURCES: tuple[str, ...] = tuple(sorted(str(p) for p in Path(__file__).parent.glob("*.py")))


#: the environment variable naming the folder of the move tables kept on disk (default
#: ``$XDG_CACHE_HOME/dragonsim`` or ``~/.cache/dragonsim``); ``off`` keeps none
CACHE_ENV = "DRAGONSIM_CACHE_DIR"
#: at most this many bytes of move tables are kept on disk (the least recently used go first)
DISK_BYTES = 6_000_000_000
#: the array of each file holding the SHA-256 of the others (:func:`_digest`)
DIGEST = "sha256"


def cache_dir():
    """The folder of the move tables kept on disk, or None when ``DRAGONSIM_CACHE_DIR=off``."""
    import os

    env = os.environ.get(CACHE_ENV, "")
    if env.lower() == "off":
        return None
    if env:
        return Path(env) / "movetables"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dragonsim" / "movetables"


def _disk_name(key: bytes) -> str:
    """The file of ``key``: a digest of it and of the package's source (so that a change of the
    builders builds afresh)."""
    import hashlib

    h = hashlib.sha256(key)
    for f in SOURCES:
        h.update(open(f, "rb").read())
    h.update(np.__version__.encode())
    return h.hexdigest()[:32] + ".npz"


def _disk_has(key: bytes) -> bool:
    """Whether something is kept on disk under ``key`` (a file that turns out unreadable is
    built afresh when it is read)."""
    d = cache_dir()
    return d is not None and (d / _disk_name(key)).exists()


def _disk_load(key: bytes, kind: type[T]) -> T | None:
    """The record of type ``kind`` (a named tuple of arrays: :class:`Row`, :class:`Paths` or
    :class:`MoveTables`) kept on disk under ``key``, or None: none kept, or a file that cannot
    be read whole or fails its digest. A damaged file is removed, with one line on stderr;
    the caller builds the record afresh and writes it again."""
    d = cache_dir()
    if d is None:
        return None
    path = d / _disk_name(key)
    try:
        arrays = _read_checked(path, kind._fields)
    except FileNotFoundError:
        return None
    except Exception as err:  # noqa: BLE001 - any fault of the file: build it afresh
        _drop_damaged(path, err)
        return None
    try:
        path.touch()  # recently used
    except OSError:
        pass
    return kind(*arrays)


def _read_checked(path: Path, fields: tuple[str, ...]) -> list[np.ndarray]:
    """The arrays ``fields`` of the file ``path``, after checking that it holds exactly them
    and their digest; raises whatever reading a damaged file raises (``zipfile.BadZipFile``,
    ``OSError``, ``ValueError``, ``EOFError``, ...) or ValueError when the digest differs."""
    with np.load(path, allow_pickle=False) as z:
        if sorted(z.files) != sorted((*fields, DIGEST)):
            raise ValueError(f"holds {sorted(z.files)}")
        arrays = [np.ascontiguousarray(z[name]) for name in fields]
        stored = z[DIGEST]
    if not np.array_equal(stored, _digest(fields, arrays)):
        raise ValueError("its arrays differ from their digest")
    return arrays


def _digest(fields: tuple[str, ...], arrays) -> np.ndarray:
    """The SHA-256 of the arrays, each with its name, dtype and shape (a short or reshaped
    array fails it as a changed byte does), as 32 bytes (uint8)."""
    import hashlib

    h = hashlib.sha256()
    for name, a in zip(fields, arrays, strict=True):
        h.update(f"{name} {a.dtype.str} {a.shape};".encode())
        h.update(np.ascontiguousarray(a).reshape(-1).view(np.uint8))
    return np.frombuffer(h.digest(), dtype=np.uint8)


def _drop_damaged(path: Path, err: Exception) -> None:
    """Say on one line of stderr that the move table file ``path`` is damaged and will be
    built afresh, and remove it (a folder that cannot be written keeps it: the next run says
    so again)."""
    why = " ".join(f"{type(err).__name__}: {err}".split())[:160]
    sys.stderr.write(f"dragonsim: move table file {path} is damaged ({why}); building it afresh\n")
    sys.stderr.flush()
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def _disk_save(key: bytes, value: NamedTuple) -> None:
    """Keep ``value`` (a named tuple of arrays) on disk under ``key`` with their digest
    (written to a temporary file, then renamed: a reader never sees half a file), then drop
    the least recently used past ``DISK_BYTES``. A folder that cannot be written keeps
    nothing, silently: the tables are only slower to come by."""
    import os
    import tempfile
    import time

    d = cache_dir()
    if d is None:
        return
    try:
        d.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")
        try:
            arrays = value._asdict()
            digest = _digest(tuple(arrays), tuple(arrays.values()))
            with os.fdopen(fd, "wb") as fh:
                np.savez(fh, **arrays, **{DIGEST: digest})
            os.replace(tmp, d / _disk_name(key))
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        files = sorted(d.glob("*.npz"), key=lambda p: p.stat().st_mtime, reverse=True)
        total = 0
        for p in files:
            total += p.stat().st_size
            if total > DISK_BYTES:
                p.unlink(missing_ok=True)
        for p in d.glob("*.tmp"):  # left by a process killed while it wrote (an hour ago)
            if p.stat().st_mtime < time.time() - 3600:
                p.unlink(missing_ok=True)
    except OSError:
        return
