"""The move tables kept in memory (``dragonsim.lords.game.movetables``): a bound on the whole
tables a process keeps, made room for before a new set is built, so two sets of the
advanced+optional rules (1.3 GB each) are never held at once only to drop one after; and the
rows kept on disk are not held beside the tables assembled from them."""

from __future__ import annotations

import numpy as np
import pytest

from dragonsim.lords.game import movetables as MT
from dragonsim.lords.game.tables import kernel_tables


@pytest.fixture
def empty_cache(monkeypatch):
    monkeypatch.setattr(MT, "_TABLES", {})
    return MT._TABLES


def test_the_old_tables_go_before_new_ones_are_built(empty_cache, monkeypatch):
    """With room for one set, building a second finds the first already dropped, and the
    second is kept."""
    built_beside = []
    assemble = MT._assemble

    def spy(*a, **k):
        built_beside.append(len(MT._TABLES))
        return assemble(*a, **k)

    monkeypatch.setattr(MT, "_assemble", spy)
    tc = kernel_tables().turn_cost
    first = MT.move_tables(tc, max_budget=4, mrs=[0])
    monkeypatch.setattr(MT, "_TABLES_BYTES", MT._nbytes(first) + 1)
    second = MT.move_tables(tc, max_budget=4, mrs=[1])
    assert built_beside == [0, 0]
    assert list(MT._TABLES.values()) == [second]


def test_the_last_tables_stay_whatever_the_bound(empty_cache, monkeypatch):
    """A set larger than the whole bound is still kept (the run needs it), and asked again it
    is the same object, not built again."""
    monkeypatch.setattr(MT, "_TABLES_BYTES", 1)
    tc = kernel_tables().turn_cost
    t = MT.move_tables(tc, max_budget=4, mrs=[2])
    assert MT.move_tables(tc, max_budget=4, mrs=[2]) is t


def test_rows_kept_on_disk_are_not_also_kept_in_memory(empty_cache, tmp_path, monkeypatch):
    """The rows of the turning tables (kept on disk) are let go once the tables are assembled
    (under advanced+optional they would be 0.43 GB beside the tables), and the tables read
    back from those rows are the same; without a folder on disk the rows stay in memory."""
    kw = {"max_budget": 4, "mrs": [1], "turning": MT.Turning()}
    tc = kernel_tables().turn_cost
    for parts in (MT._MOVE_PARTS, MT._ALT_PARTS):
        parts.clear()
    monkeypatch.setenv(MT.CACHE_ENV, str(tmp_path))
    built = MT.move_tables(tc, **kw)
    assert MT._MOVE_PARTS == {}
    monkeypatch.setattr(MT, "_TABLES", {})
    files = sorted((tmp_path / "movetables").glob("*.npz"), key=lambda p: p.stat().st_size)
    files[-1].unlink()  # the tables whole (the largest): assembled again from the rows on disk
    again = MT.move_tables(tc, **kw)
    assert all(np.array_equal(a, b) for a, b in zip(built, again, strict=True))
    monkeypatch.setenv(MT.CACHE_ENV, "off")
    monkeypatch.setattr(MT, "_TABLES", {})
    MT.move_tables(tc, **kw)
    assert len(MT._MOVE_PARTS) == len(MT.CARRIES)
    MT._MOVE_PARTS.clear()
