"""Not collected by a plain ``pytest`` run (its name is not ``test_*.py``): ``test_own_cache.py``
runs it in a child pytest to see where a move table kept on disk goes."""

from __future__ import annotations

import time

from dragonsim.lords.game import movetables as MT
from dragonsim.lords.game.tables import kernel_tables


def test_a_turning_table_is_kept_on_disk():
    """A move table with turning between move phases (kept on disk: seconds to build) lands in,
    or is read back (and touched) from, the folder ``cache_dir`` names."""
    start = time.time() - 2
    MT._TABLES.clear()
    MT.move_tables(kernel_tables().turn_cost, max_budget=5, mrs=[6], turning=MT.Turning(True))
    d = MT.cache_dir()
    print(f"\nmove tables kept in {d}")
    assert d is not None
    assert [p for p in d.glob("*.npz") if p.stat().st_mtime >= start], "nothing kept on disk"
