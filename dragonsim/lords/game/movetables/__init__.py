"""Dragon Lords movement, precomputed: every legal move's end state, per maneuverability rating
and movement budget (rulebook pp. 8-9, "Movement").

A move is forward steps (1 point; climbing costs 2, diving 0, one level per hex) and turns
(maneuver-diagram cost; never two in a row; at most 180 degrees). Climbs and dives only change
what a forward step costs, so a move that flies ``H`` hexes, turns for ``T`` points and changes
altitude by ``dalt`` levels costs ``H + T + dalt``, and is possible whenever ``|dalt| <= H``
(levels can be interleaved to stay within Very Low..Very High whenever start and end are).
:func:`move_tables` therefore enumerates once, per maneuverability rating and *geometric budget*
``b = H + T``, every end state (offset, facing, hexes flown capped at 4) with one legal path (the
most compact one: smallest greatest distance from the start), and that path's bounding box in
offset-row coordinates for all six facings, so the board-edge check is six comparisons. A move
of speed ``s`` with altitude change ``dalt`` is an entry of budget ``s - dalt``.

One stored path is not enough near the board edges: another path to the same end state may
stay on the board where the stored one leaves it. With ``edges=True`` the tables also keep,
per entry and starting facing, the Pareto-minimal bounding boxes of all its legal paths
(:func:`_box_dp`, a DP over the same states that keeps an antichain of boxes per state), so
that "some legal path stays on the board" is a few comparisons more
(:func:`~dragonsim.lords.game.mechanics.move_fits_exact`): about 5 records of 6 bytes per entry,
0.1-0.3 s per rating to build, exactly the end states of a direct search (tests/test_edges.py).

Banking (advanced rules, p.16; ``bank=`` of :func:`move_tables`): a bank moves to the hex
forward-left or forward-right keeping the facing, for the bank cost (twice the 60-degree turn
cost, at least 1); it is not a turn, and the second (fourth, ...) bank of a run drops one level.
:func:`_bank_dp` adds to the DP state the last action (forward or start, turn, a bank odd in its
run, a bank even in it) and the levels the banks dropped (``L``, capped at 4: Very High to Very
Low), and the entries are the end states *and* ``L`` (``MoveTables.ll``). A move of speed ``s``
from altitude ``a0`` on an entry of budget ``b`` ends at ``a0 + (s - b) - L``; it keeps within
Very Low..Very High (whatever the order of climbs, dives and drops) when ``a0 + max(dalt, 0)``
is at most Very High and ``a0 + min(dalt, 0) - lm`` at least Very Low, ``lm`` (``MoveTables.lm``)
being ``L`` plus one where the reading ``lords.bank_very_low = any`` forbids the stored path's
third bank in a row at Very Low. That is the sufficient condition the bots and the engine use;
for ``L = 0`` it is exactly the condition without banking. Tables without banking are the same
arrays, byte for byte (``ll``, ``lm``, ``nb`` all 0); the banking tables are cached under their
own key.

The builders allocate (plain ``njit``); they run once per rules in force and the result is
cached per turn-cost row; the assembled tables of the last few calls are cached whole. The
rows of the banking and turning tables (seconds to build) are kept on disk instead of in
memory, one file a row (:func:`cache_dir`): a run builds only the rows no run has built
before, and lets each row go once it is copied into the tables.

The package's modules: :mod:`.layout` (what the tables hold, and the rules they are built
from), :mod:`.paths` and :mod:`.banking` (the builders of one row, without and with banking),
:mod:`.edges` (the alternative paths for the exact board-edge check), :mod:`.packing` (the
planners' views) and :mod:`.disk` (the tables kept on disk). This module assembles the rows
into tables (:func:`move_tables`) and keeps the rows and tables built in memory; every name is
re-exported here.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import numpy as np

from .banking import _bank_dp, _bank_extract
from .disk import CACHE_ENV, DISK_BYTES, _disk_has, _disk_load, _disk_save, cache_dir  # noqa: F401
from .edges import _alternatives
from .layout import (
    ALT_BOX,
    ALT_F,
    ALT_H,
    ALT_WIDTH,
    BK_CONT,
    BK_LL,
    BK_LM,
    BK_NB,
    BK_TURNED,
    CARRIES,
    CARRY_GROUP,
    MAX_BUDGET,
    MR_ROWS,
    PK_ALT_EVEN,
    PK_ALT_ODD,
    PK_BOX,
    PK_F,
    PK_F_END,
    PK_H,
    PK_LM,
    PK_RQ,
    PK_RR,
    PK_SKIP,
    PK_WIDTH,
    Banking,
    MoveTables,
    Paths,
    Row,
    Turning,
    bank_costs,
    banking_of,
    needed_mrs,
    scatter_step,
    turning_of,
)
from .packing import _packed, _target_grid
from .paths import _extract, _move_dp

#: every file of this package: a kernel module that lists ``movetables`` in its
#: :func:`~dragonsim._kernels.guard_caches` reads constants from all of them
SOURCES: tuple[str, ...] = tuple(sorted(str(p) for p in Path(__file__).parent.glob("*.py")))


_MOVE_PARTS: dict[bytes, tuple] = {}
_ALT_PARTS: dict[bytes, tuple] = {}
#: the rows' tables and alternative paths kept in memory, each cache at most this many bytes
#: (the least recently built go first). Rows kept on disk (banking, turning) are read back
#: from there instead (tens of milliseconds a row): under advanced+optional they are 0.43 GB
#: that a run would otherwise hold beside the tables assembled from them.
_PARTS_BYTES = 600_000_000


def _keep(cache: dict, key: bytes, value: tuple) -> tuple:
    """Put ``value`` in ``cache`` and drop the oldest entries past ``_PARTS_BYTES`` (never the
    new one); returns ``value``. The rows are built on several threads: each keeps its own
    result, so an entry another thread drops is never read back."""
    with _KEEP_LOCK:
        cache[key] = value
        while len(cache) > 1 and sum(a.nbytes for v in cache.values() for a in v) > _PARTS_BYTES:
            old = next(iter(cache))
            if old == key:
                break
            del cache[old]
    return value


_KEEP_LOCK = threading.Lock()


def move_tables(
    turn_cost: np.ndarray,
    max_budget: int = MAX_BUDGET,
    mrs=None,
    *,
    edges: bool = False,
    bank: Banking | None = None,
    turning: Turning | None = None,
) -> MoveTables:
    """Precompute the move end states for the maneuverability ratings ``mrs`` (default all).

    Ratings not listed get no entries (a dragon with such a rating would have no move), so
    callers list every rating a dragon can reach: its sheet's and the one serious tail damage
    gives (:func:`needed_mrs`).

    With ``edges`` the tables also hold every entry's alternative paths (``alt_off``, ``alt``)
    for the exact board-edge check of the bots that ask for it (``EDGE_EXACT`` in
    :mod:`dragonsim.lords.bots`); without, every entry has none (the check is then the stored
    path's alone). They cost about 0.2 s per rating to build and 5 records of 6 bytes per
    entry, so they are built only for a game with such a bot.

    Parameters
    ----------
    turn_cost : int64 [n_mr, 4]
        Cost to turn 0, 60, 120, 180 degrees by MR (``KernelTables.turn_cost``).
    max_budget : int
        Largest geometric budget (hexes + turn points) to enumerate.
    mrs : iterable of int, optional
        Which maneuverability indices to enumerate.
    edges : bool
        Also enumerate the alternative paths (exact board-edge check).
    bank : Banking, optional
        Banking in play (advanced rules, p.16; :func:`banking_of` reads it from the rules):
        the tables then hold the banking moves too, one entry per end state and levels
        dropped. None (default): the tables without banking.
    turning : Turning, optional
        Turning between move phases in play (p.16; :func:`turning_of`): the tables then hold
        six row groups (``CARRIES``), row ``group * n_mr + mr`` the moves of a dragon that
        carries that turn, and ``bk[:, BK_TURNED]`` the turn each move leaves. None (default):
        one group, the moves from a free start.
    """
    turn_cost = np.ascontiguousarray(turn_cost, dtype=np.int64)
    nmr = turn_cost.shape[0]
    want = set(range(nmr)) if mrs is None else {int(m) for m in mrs}
    whole = (turn_cost.tobytes(), int(max_budget), tuple(sorted(want)), bool(edges))
    whole += (None,) if bank is None else (np.asarray(bank.cost).tobytes(), *bank[1:])
    whole += (None,) if turning is None else tuple(turning)
    if whole in _TABLES:
        _TABLES[whole] = _TABLES.pop(whole)  # the most recently used last
        return _TABLES[whole]
    # the banking and turning tables take seconds to build (advanced+optional: about 30 s):
    # they are kept on disk, whole and by row, for the next process
    on_disk = bank is not None or turning is not None
    # room for the new tables first: the least recently used go before it is read or built,
    # not after (under advanced+optional two sets at once would be 2.5 GB), its size guessed
    # as the largest kept
    _evict(0, _TABLES_KEPT - 1, max((_nbytes(t) for t in _TABLES.values()), default=0))
    disk_key = b"tables" + repr(whole).encode()
    tables = _disk_load(disk_key, MoveTables) if on_disk else None
    if tables is None:
        tables = _assemble(turn_cost, max_budget, want, edges, bank, turning)
        if on_disk:
            _disk_save(disk_key, tables)
    _TABLES[whole] = tables
    _evict(1, _TABLES_KEPT, 0)  # the guess may have been short; the new set always stays
    return tables


def _evict(floor: int, most: int, room: int) -> None:
    """Drop the least recently used whole tables, never below ``floor`` of them, until at most
    ``most`` are kept and ``room`` more bytes fit under ``_TABLES_BYTES``."""
    while len(_TABLES) > floor and (
        len(_TABLES) > most or sum(_nbytes(t) for t in _TABLES.values()) + room > _TABLES_BYTES
    ):
        del _TABLES[next(iter(_TABLES))]


#: the assembled tables of the last few calls (the arrays are shared: nothing writes to them),
#: at most ``_TABLES_KEPT`` of them and ``_TABLES_BYTES`` together (but always the last)
_TABLES: dict[tuple, MoveTables] = {}
_TABLES_KEPT = 8
_TABLES_BYTES = 2_000_000_000


def _nbytes(t: MoveTables) -> int:
    return sum(a.nbytes for a in t)


#: banking row needs about 250 MB while it builds)
BUILD_THREADS = 4


def _in_threads(fn, items: list) -> list:
    """``[fn(x) for x in items]``, in order, on up to ``BUILD_THREADS`` threads (one per core):
    the rows are independent, so the tables are the same whatever the number of threads."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    workers = min(BUILD_THREADS, os.cpu_count() or 1, len(items))
    if workers <= 1:
        return [fn(x) for x in items]
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(fn, items))


def _part(turn_cost_row, max_budget: int, bank, mr: int, carry: int, turning) -> Row:
    """One row's tables (cached)."""
    key = _key(turn_cost_row, max_budget, bank, mr, carry, turning)
    p = _MOVE_PARTS.get(key)
    # the banking and turning rows take seconds to build: they are kept on disk (and then
    # not in memory), the others in memory
    on_disk = _kept_on_disk(bank, turning)
    if p is None and on_disk:
        p = _disk_load(b"row" + key, Row)
    if p is None:
        free = turning is not None
        if bank is None:
            val, par = _move_dp(turn_cost_row, max_budget, carry)
            p = _extract(val, par, max_budget, carry, free)
            z = np.zeros(p[3].shape[0], np.int8)
            p = (*p[:8], z, z, z, *p[8:])
        else:
            val, par = _bank_dp(
                turn_cost_row,
                int(bank.cost[mr]),
                max_budget,
                bool(bank.hex_forward),
                carry,
                bool(bank.each),
            )
            p = _bank_extract(
                val, par, max_budget, bool(bank.very_low_any), carry, free, bool(bank.each)
            )
        del val, par
        if turning is None:
            z = np.zeros(p[3].shape[0], np.int8)  # no turn carries without the rule
            p = (*p[:11], z, z)
        elif turning.reset_180:
            tl = p[11].copy()
            tl[np.abs(tl) == 3] = 0  # "reset": a full 180 carries nothing
            p = (*p[:11], tl, p[12])
        p = Row(*p)
        if on_disk:
            _disk_save(b"row" + key, p)
        else:
            _keep(_MOVE_PARTS, key, p)
    return p


def _kept_on_disk(bank, turning) -> bool:
    """Whether the rows of tables with ``bank`` and ``turning`` are kept on disk (seconds to
    build; :func:`cache_dir` not ``off``) rather than in memory."""
    return (bank is not None or turning is not None) and cache_dir() is not None


def _assemble(turn_cost, max_budget: int, want: set, edges: bool, bank, turning) -> MoveTables:
    """:func:`move_tables` without the cache of whole tables (the rows are cached)."""
    nmr = turn_cost.shape[0]
    if turning is not None and nmr != MR_ROWS:
        raise ValueError(f"turning between move phases needs {MR_ROWS} ratings, not {nmr}")
    groups = CARRIES if turning is not None else (0,)
    rows = []  # (mr, carry) per table row, None for a rating not wanted
    for carry in groups:
        for mr in range(nmr):
            rows.append((mr, carry) if mr in want else None)
    if turning is not None and sys.stderr.isatty():
        keys = [_key(turn_cost[rc[0]], max_budget, bank, *rc, turning) for rc in rows if rc]
        if any(k not in _MOVE_PARTS and not _disk_has(b"row" + k) for k in keys):
            where = cache_dir()
            kept = f"kept in {where} for the next run" if where else "not kept"
            print(
                f"dragonsim: building the move tables with turning between move phases "
                f"(half a minute on 2 cores, once; {kept})",
                file=sys.stderr,
                flush=True,
            )
    parts = _in_threads(
        lambda rc: (
            None if rc is None else _part(turn_cost[rc[0]], max_budget, bank, rc[0], rc[1], turning)
        ),
        rows,
    )
    off = _offsets(parts, max_budget)
    n = int(off[-1, -1])
    if bank is None:
        bcost = np.zeros(nmr, np.int64)
    else:
        bcost = np.asarray(bank.cost, dtype=np.int64).copy()
    if edges:
        ent, alt, per = _all_alternatives(turn_cost, max_budget, bank, turning, rows, parts, off)
    else:
        ent = np.zeros(0, dtype=np.int64)
        alt = np.zeros((0, ALT_WIDTH), dtype=np.int8)
    dq, dr, f, h, rq, rr, box, ll, lm, nb, tl, ct = _concatenated(parts)
    _return_freed_memory()
    alt_off = np.zeros(n + 1, dtype=np.int32)
    alt_off[1:] = np.cumsum(np.bincount(ent, minlength=n))
    pk, pe, inv = _packed(off, f, h, rq, rr, box, lm)
    if edges:
        per = per[pe]
        for k in range(6):
            pk[k, :, PK_ALT_EVEN] = per[:, k]
            pk[k, :, PK_ALT_ODD] = per[:, (k + 3) % 6]
        del per
    tg = _target_grid(off, dq, dr, f, ll)
    bk = np.ascontiguousarray(np.stack([ll, lm, nb, tl, ct], axis=1).astype(np.int8, copy=False))
    return MoveTables(
        off, dq, dr, f, h, rq, rr, box, pk, pe, inv, *tg, alt_off, alt, ll, lm, nb, bk, bcost
    )


def _return_freed_memory() -> None:
    """Hand the memory of the rows just let go back to the system: glibc keeps what the
    building threads freed in their arenas (half a gigabyte after the advanced+optional rows),
    which the process would otherwise carry beside the tables. Nothing where there is no
    glibc's ``malloc_trim``."""
    import ctypes

    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _offsets(parts: list, max_budget: int) -> np.ndarray:
    """``MoveTables.off`` of the rows ``parts`` (``None``: a rating not wanted, no entries)
    put one after another."""
    off = np.zeros((len(parts), max_budget + 2), dtype=np.int64)
    base = 0
    for m, p in enumerate(parts):
        off[m] = base if p is None else p.off + base
        base = int(off[m, -1])
    return off


def _concatenated(parts: list) -> list[np.ndarray]:
    """The rows' per-entry arrays (every field of :class:`Row` but ``off``), each the rows'
    in order, one after another (``None``: a rating not wanted). Each row is let go once
    copied (``parts`` is emptied), so the rows and the tables are never both held whole."""
    real = [m for m, p in enumerate(parts) if p is not None]
    n = sum(parts[m].dq.shape[0] for m in real)
    out = [np.empty((n, *a.shape[1:]), dtype=a.dtype) for a in parts[real[0]][1:]]
    at = 0
    for m in real:
        p, parts[m] = parts[m], None
        c = p.dq.shape[0]
        for o, a in zip(out, p[1:], strict=True):
            o[at : at + c] = a
        at += c
        del p
    return out


def _all_alternatives(turn_cost, max_budget: int, bank, turning, rows, parts, off) -> tuple:
    """Every wanted row's alternative paths (:func:`~.edges._alternatives`, cached like the
    rows): ``(ent, alt, per)``, the entry (in the tables' numbering, int64) and record of each,
    and per entry and starting facing how many it has (int8 [n, 6], capped at 127), counted
    row by row."""
    on_disk = _kept_on_disk(bank, turning)

    def alternatives(m: int) -> Paths:
        rc = rows[m]
        key = _key(turn_cost[rc[0]], max_budget, bank, rc[0], rc[1], turning)
        got = _ALT_PARTS.get(key)
        if got is None and on_disk:
            got = _disk_load(b"paths" + key, Paths)
        if got is None:
            got = Paths(*_alternatives(turn_cost[rc[0]], max_budget, parts[m], rc[1], turning))
            if on_disk:
                _disk_save(b"paths" + key, got)
        if not on_disk:
            _keep(_ALT_PARTS, key, got)
        return got

    real_rows = [m for m, rc in enumerate(rows) if rc is not None]
    per = np.zeros((int(off[-1, -1]), 6), dtype=np.int8)
    ents, recs = [], []
    for m, (e, r) in zip(real_rows, _in_threads(alternatives, real_rows), strict=True):
        a, z = int(off[m, 0]), int(off[m, -1])
        e = e.astype(np.int64)
        counts = np.bincount(e * 6 + r[:, ALT_F], minlength=(z - a) * 6)
        per[a:z] = np.minimum(counts, 127).reshape(z - a, 6)
        ents.append(e + a)
        recs.append(r)
    return np.concatenate(ents), np.ascontiguousarray(np.concatenate(recs)), per


def _key(
    row: np.ndarray, max_budget: int, bank: Banking | None, mr: int, carry: int = 0, turning=None
) -> bytes:
    """The cache key of one row's tables: its turn costs and budget (without banking: the key
    of the tables before banking), then the bank cost and the readings, then the carried turn
    and the reading of turning between move phases."""
    key = row.tobytes() + bytes([max_budget])
    if bank is not None:
        key += b"bank" + bytes([int(bank.cost[mr]), bank.very_low_any, bank.hex_forward])
        if bank.each:
            key += b"each"
    if turning is not None:
        key += b"turn" + bytes([carry + 3, turning.reset_180])
    return key


__all__ = [
    "MoveTables",
    "move_tables",
    "needed_mrs",
    "scatter_step",
    "MAX_BUDGET",
    "PK_RQ",
    "PK_RR",
    "PK_BOX",
    "PK_H",
    "PK_F",
    "PK_F_END",
    "PK_ALT_EVEN",
    "PK_ALT_ODD",
    "PK_LM",
    "BK_LL",
    "BK_LM",
    "BK_NB",
    "BK_TURNED",
    "BK_CONT",
    "Turning",
    "turning_of",
    "CARRIES",
    "CARRY_GROUP",
    "MR_ROWS",
    "PK_SKIP",
    "PK_WIDTH",
    "Banking",
    "bank_costs",
    "banking_of",
    "ALT_F",
    "ALT_H",
    "ALT_BOX",
    "ALT_WIDTH",
]
