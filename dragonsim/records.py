"""Per-game records: one row per game, to parquet or CSV, with the run's manifest beside them.

Every Monte Carlo command takes ``--records FILE.parquet`` (or ``FILE.csv``). A file holds one
row per game finished, columns named for what they hold (``winner_side``, ``hit_turn_limit``),
and the run's metadata: the manifest (dragonsim version, command, seed, dragons or armies,
bots, rules hash and overrides, options) and a one-line meaning of every column. In a parquet
file they are the schema metadata (key ``dragonsim``, a JSON object); a CSV file gets a
sidecar ``FILE.csv.json`` with the same object. :func:`read_meta` reads either.

Records are written block by block as the run goes, so an interrupted run (Ctrl-C, SIGTERM)
keeps the rows of every game it finished. With a checkpoint, each finished block's rows are
kept beside the checkpoint (``CHECKPOINT.records/``, one ``.npz`` per block, written
atomically) and the records file is assembled from them at the end, so a run resumed after a
kill writes the rows of every game, the resumed ones included, exactly once.

Example
-------
>>> import pandas as pd  # doctest: +SKIP
>>> dragonsim.duel("Reaper", "Reaper", n=1000, records="games.parquet")  # doctest: +SKIP
>>> read_meta("games.parquet")["manifest"]["seed"]  # doctest: +SKIP
1
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .errors import UserError, check_output

__all__ = ["check_path", "RecordsFile", "RunRecords", "read_meta", "META_KEY"]

#: the parquet schema-metadata key (and the sidecar's content) holding the run's metadata
META_KEY = "dragonsim"
SUFFIXES = (".parquet", ".csv")


def check_path(path: Any) -> tuple[str, str]:
    """``(path, kind)`` for a records file name (``kind`` "parquet" or "csv"); a UserError
    naming what is wrong (not a name, another suffix, no such folder, no pyarrow)."""
    if not isinstance(path, str | os.PathLike) or not str(path):
        raise UserError(
            f"records must name a .parquet or .csv file, got {path!r}; drop it for no records"
        )
    p = str(path)
    kind = next((s[1:] for s in SUFFIXES if p.lower().endswith(s)), None)
    if kind is None:
        raise UserError(f"records file must end in .parquet or .csv, got {p!r}")
    check_output(p, "records file")
    if kind == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UserError(
                "parquet records need pyarrow: pip install 'dragonsim[parquet]', or write "
                ".csv records"
            ) from None
    return p, kind


def _jsonable(o: Any) -> Any:
    return json.loads(
        json.dumps(o, default=lambda x: x.tolist() if hasattr(x, "tolist") else str(x))
    )


class RecordsFile:
    """One records file of a command (any number of kernel runs write into it, in order).

    ``manifest``: the run's metadata (what produced the rows); ``columns``: every column's
    name and one-line meaning, in file order.
    """

    def __init__(self, path: Any, manifest: Mapping[str, Any], columns: Mapping[str, str]):
        self.path, self.kind = check_path(path)
        self.meta = {"manifest": _jsonable(dict(manifest)), "columns": dict(columns)}
        self.columns = list(columns)
        self.rows = 0
        self._writer = None
        self._csv = None
        self._closed = False
        # a file from an earlier run must not survive looking like this one's
        if self.kind == "csv":
            self._open_csv()

    # -- writing -------------------------------------------------------------------------------
    def _open_csv(self) -> None:
        try:
            self._csv = open(self.path, "w", encoding="utf-8", newline="")  # noqa: SIM115
            self._csv.write(",".join(self.columns) + "\n")  # names need no quoting
            self._csv.flush()
        except OSError as e:
            raise UserError(f"cannot write records to {self.path!r}: {e.strerror or e}") from None

    def write(self, cols: Mapping[str, np.ndarray]) -> None:
        """Append rows (every column, equal lengths)."""
        missing = [c for c in self.columns if c not in cols]
        if missing:  # a programming error, not a user's
            raise KeyError(f"records: columns {missing} missing")
        n = len(cols[self.columns[0]])
        if n == 0:
            return
        if self.kind == "csv":
            self._write_csv(cols, n)
        else:
            self._write_parquet(cols)
        self.rows += n

    def _write_csv(self, cols, n) -> None:
        import csv

        parts = []
        for c in self.columns:
            v = np.asarray(cols[c])
            parts.append(np.where(v, "true", "false") if v.dtype == bool else v.astype(str))
        csv.writer(self._csv, lineterminator="\n").writerows(zip(*parts, strict=True))
        self._csv.flush()

    def _write_parquet(self, cols) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.table({c: pa.array(np.asarray(cols[c])) for c in self.columns})
        if self._writer is None:
            schema = table.schema.with_metadata({META_KEY: json.dumps(self.meta)})
            try:
                self._writer = pq.ParquetWriter(self.path, schema)
            except OSError as e:
                raise UserError(f"cannot write records to {self.path!r}: {e}") from None
        self._writer.write_table(table.cast(self._writer.schema))

    def close(self, **result: Any) -> None:
        """Finish the file; ``result`` (games played, interrupted, ...) is added to its
        metadata (``meta["result"]``)."""
        if self._closed:
            return
        self._closed = True
        self.meta["result"] = _jsonable({"rows": self.rows, **result})
        if self.kind == "csv":
            if self._csv is not None:
                self._csv.close()
            side = self.path + ".json"
            try:
                Path(side).write_text(json.dumps(self.meta, indent=2), encoding="utf-8")
            except OSError as e:
                raise UserError(f"cannot write {side!r}: {e.strerror or e}") from None
            return
        if self._writer is None:  # no row at all: still a valid, empty, described file
            import pyarrow as pa

            empty = {c: pa.array([], type=pa.int64()) for c in self.columns}
            self._writer_for_empty(pa.table(empty))
        self._writer.add_key_value_metadata({f"{META_KEY}_result": json.dumps(self.meta["result"])})
        self._writer.close()

    def _writer_for_empty(self, table) -> None:
        import pyarrow.parquet as pq

        schema = table.schema.with_metadata({META_KEY: json.dumps(self.meta)})
        self._writer = pq.ParquetWriter(self.path, schema)

    def run(self, checkpoint=None, context: Mapping[str, Any] | None = None) -> RunRecords:
        """The rows of one kernel run (a duel, one pair of a tournament, one value of a
        study), kept through ``checkpoint`` (a :class:`~dragonsim.checkpoint.Section`) when
        given; ``context``: constant columns of every row of this run."""
        return RunRecords(self, checkpoint, dict(context or {}))


class RunRecords:
    """One kernel run's rows: written through to the file, or with a checkpoint kept as one
    file per block beside it until :meth:`finish` assembles them."""

    def __init__(self, file: RecordsFile, section, context: dict[str, Any]):
        self.file = file
        self.context = context
        self.section = section
        self.dir: Path | None = None
        if section is not None:
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", section.name)
            self.dir = Path(str(section.checkpoint.path) + ".records") / name
            stored = section.checkpoint.sections.get(section.name) or {}
            self._tidy(int(stored.get("done", 0)))

    def _parts(self) -> list[tuple[int, int, Path]]:
        out = []
        if self.dir is None or not self.dir.is_dir():
            return out
        for p in self.dir.glob("*.npz"):
            m = re.fullmatch(r"(\d+)-(\d+)\.npz", p.name)
            if m:
                out.append((int(m[1]), int(m[2]), p))
        return sorted(out)

    def _tidy(self, done: int) -> None:
        """Keep the blocks a checkpoint holds (games ``0..done-1``), drop any written after
        it (a kill between a block's rows and the checkpoint's save)."""
        kept = 0
        for a, b, p in self._parts():
            if b > done or a != kept:
                p.unlink(missing_ok=True)
                continue
            kept = b
        if kept != done:
            raise UserError(
                f"checkpoint {str(self.section.checkpoint.path)!r} holds {done:,} games whose "
                "records were not kept (its run had no --records): resume without --records, "
                "or delete the checkpoint to play again with them"
            )

    def block(self, start: int, stop: int, cols: Mapping[str, np.ndarray]) -> None:
        """The rows of games ``start..stop-1`` (called as each block finishes)."""
        n = stop - start
        full = {k: np.full(n, v) for k, v in self.context.items()}
        full.update({k: np.asarray(v) for k, v in cols.items()})
        if self.dir is None:
            self.file.write(full)
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        final = self.dir / f"{start:012d}-{stop:012d}.npz"
        tmp = self.dir / f".{final.name}.{os.getpid()}.tmp.npz"
        np.savez(tmp, **full)
        os.replace(tmp, final)

    def finish(self, done: int) -> None:
        """Write the kept blocks of games ``0..done-1`` into the file (with a checkpoint)."""
        if self.dir is None:
            return
        for _a, b, p in self._parts():
            if b > done:
                break
            with np.load(p, allow_pickle=False) as z:
                self.file.write({k: z[k] for k in z.files})


def read_meta(path: str | os.PathLike) -> dict[str, Any]:
    """The metadata of a records file: ``{"manifest": ..., "columns": ..., "result": ...}``
    (parquet: its schema metadata; CSV: the sidecar ``FILE.csv.json``)."""
    p = str(path)
    if p.lower().endswith(".csv"):
        from .errors import read_json

        return read_json(p + ".json", "records sidecar")
    import pyarrow.parquet as pq

    md = pq.read_metadata(p).metadata or {}
    out = json.loads(md[META_KEY.encode()])
    res = md.get(f"{META_KEY}_result".encode())
    if res is not None:
        out["result"] = json.loads(res)
    return out


def per_game(kernel):
    """``(wrapped, current)``: ``wrapped`` plays a block's games one at a time (the kernel
    called with one game, on one thread) and keeps each game's counters in ``current[0]``
    (int64 [games, counters]); it returns their sum, the block's counters.

    For kernels that keep no per-game rows (Dice, Krynn): every game plays from its own
    streams and counters add, so one game's counters are that game's record and the sum is
    exactly the block's counters (bit-identical to an ordinary run), at the price of a call
    per game (tens of microseconds) instead of the kernel's parallel loop.
    """
    import numba

    current: list[np.ndarray] = []

    def wrapped(start, stop, seed, *args):
        if stop <= start:
            return kernel(start, stop, seed, *args)
        prev = numba.get_num_threads()
        numba.set_num_threads(1)  # a parallel launch per game would cost 1 ms
        try:
            rows = np.stack([kernel(g, g + 1, seed, *args) for g in range(start, stop)])
        finally:
            numba.set_num_threads(prev)
        current[:] = [rows]
        return rows.sum(axis=0)

    # the same kernel for a checkpoint (runner._kernel_name): a run with records resumes one
    # without them and the other way round, as far as its counters go
    wrapped.py_func = getattr(kernel, "py_func", kernel)
    return wrapped, current


def closing(out) -> dict[str, Any]:
    """What a records file says about its run when it closes (``out``: a RunOutcome)."""
    if out is None:
        return {"games": 0, "interrupted": True}
    return {"games": int(out.n), "interrupted": bool(out.interrupted)}


def run_blocks_recorded(
    kernel,
    n: int,
    seed: int,
    args,
    *,
    records=None,
    manifest=None,
    columns: Mapping[str, str] | None = None,
    to_columns=None,
    context: Mapping[str, Any] | None = None,
    checkpoint=None,
    compiled=None,
    **kw: Any,
):
    """:func:`~dragonsim.runner.run_blocks`, writing each game's row to ``records`` (a path:
    a new :class:`RecordsFile` with ``manifest`` (a mapping, or a callable giving one, called
    only when there are records) and ``columns``; a RecordsFile: a study
    writing several runs into one file) when it is given. ``to_columns(rows)`` turns the
    games' counter rows (see :func:`per_game`) into the columns other than ``game`` and
    ``context``'s."""
    from .runner import run_blocks

    if records is None:
        return run_blocks(kernel, n, seed, args, checkpoint=checkpoint, compiled=compiled, **kw)
    own = not isinstance(records, RecordsFile)
    if own:
        file = RecordsFile(
            records, (manifest() if callable(manifest) else manifest) or {}, columns or {}
        )
    else:
        file = records
    runrec = file.run(checkpoint, context)
    wrapped, current = per_game(kernel)

    def on_block(a, b, part):
        runrec.block(a, b, {"game": np.arange(a, b, dtype=np.int64), **to_columns(current[0])})

    out = None
    try:
        out = run_blocks(
            wrapped,
            n,
            seed,
            args,
            checkpoint=checkpoint,
            compiled=compiled if compiled is not None else kernel,
            on_block=on_block,
            **kw,
        )
        runrec.finish(out.n)
    finally:
        if own:
            file.close(**closing(out))
    return out
