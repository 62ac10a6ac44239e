"""The Dragon Lords move tables kept on disk: the banking and turning tables take seconds to
build, so :func:`~dragonsim.lords.game.movetables.move_tables` keeps them in
:func:`cache_dir` for the next process, one file per set of tables named by a digest of what
they are built from and of the builders' source, at most :data:`DISK_BYTES` in all.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .layout import MoveTables

#: the files of the builders: a change of any of them builds the tables afresh
SOURCES: tuple[str, ...] = tuple(sorted(str(p) for p in Path(__file__).parent.glob("*.py")))


#: the environment variable naming the folder of the move tables kept on disk (default
#: ``$XDG_CACHE_HOME/dragonsim`` or ``~/.cache/dragonsim``); ``off`` keeps none
CACHE_ENV = "DRAGONSIM_CACHE_DIR"
#: at most this many bytes of move tables are kept on disk (the least recently used go first)
DISK_BYTES = 6_000_000_000


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


def _disk_name(whole: tuple) -> str:
    """The file of one set of tables: a digest of what they are built from (the rules' part
    of them, and the package's source, so that a change of the builders builds afresh)."""
    import hashlib

    h = hashlib.sha256(repr(whole).encode())
    for f in SOURCES:
        h.update(open(f, "rb").read())
    h.update(np.__version__.encode())
    return h.hexdigest()[:32] + ".npz"


def _disk_load(whole: tuple) -> MoveTables | None:
    """The tables kept on disk for ``whole``, or None (none kept, or a file that cannot be read
    whole: it is then built afresh and written again)."""
    d = cache_dir()
    if d is None:
        return None
    path = d / _disk_name(whole)
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = [np.ascontiguousarray(z[name]) for name in MoveTables._fields]
        path.touch()  # recently used
    except (OSError, KeyError, ValueError, EOFError):
        return None
    return MoveTables(*arrays)


def _disk_save(whole: tuple, tables: MoveTables) -> None:
    """Keep ``tables`` on disk (written to a temporary file, then renamed: a reader never sees
    half a file), then drop the least recently used past ``DISK_BYTES``. A folder that cannot
    be written keeps nothing, silently: the tables are only slower to come by."""
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
            with os.fdopen(fd, "wb") as fh:
                np.savez(fh, **tables._asdict())
            os.replace(tmp, d / _disk_name(whole))
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
