"""The move tables kept in memory (``dragonsim.lords.game.movetables``): a bound on the whole
tables a process keeps, made room for before a new set is built, so two sets of the
advanced+optional rules (1.3 GB each) are never held at once only to drop one after."""

from __future__ import annotations

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
