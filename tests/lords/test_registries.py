"""The registries: a released bot version is one row, and every table the package reads is
derived from the rows."""

import pytest

from dragonsim.lords import bots as B
from dragonsim.lords.bots.registry import BOTS, FAMILY_PLANNER, SKILL_SPEED, Bot, derive

#: the kernel ids every published result was played with: rows are only ever appended
PUBLISHED_IDS = (
    "random@1",
    "hunter@2",
    "brawler@1",
    "sniper@1",
    "hunter@3",
    "brawler@2",
    "sniper@2",
    "search@1",
    "hunter@4",
    "hunter@5",
)


def test_released_bots_keep_their_kernel_ids():
    """A released bot's results never change, so neither does its kernel id."""
    assert tuple(B.RELEASED)[: len(PUBLISHED_IDS)] == PUBLISHED_IDS
    for i, key in enumerate(PUBLISHED_IDS):
        assert B.RELEASED[key][0] == i


def test_the_package_tables_are_the_registrys():
    t = derive(BOTS)
    assert (B.RELEASED, B.POLICIES, B.FAMILIES, B.KINDS) == t[:4]
    assert (B.FAIR, B.EDGE_EXACT, B.WEIGHTED, B.SKILLS) == t[4:]
    assert B.POLICIES["hunter"] == B.RELEASED["hunter@5"]
    assert B.KINDS[B.P_SEARCH] == B.P_HUNTER  # the look-ahead's other decisions: the hunter's


def test_a_new_version_is_one_row():
    """Appending one row registers the version everywhere: its id, its label, the plain name
    now meaning it, its family, its scoring, its three switches and its skills; the older
    rows keep theirs."""
    row = Bot("sniper", 3, FAMILY_PLANNER, "sniper", True, True, True, "test row", SKILL_SPEED)
    old, new = derive(BOTS), derive((*BOTS, row))
    i = len(BOTS)
    assert new.released["sniper@3"] == (i, "sniper-3")
    assert new.policies["sniper"] == (i, "sniper-3")
    assert new.policies["hunter"] == old.policies["hunter"]
    assert new.families[i] == FAMILY_PLANNER
    assert new.kinds[i] == B.P_SNIPER
    assert (new.fair[i], new.edge_exact[i], new.weighted[i], new.skills[i]) == (1, 1, 1, 1)
    for field in range(2, 8):
        assert new[field][:i] == old[field]


def test_a_version_registered_twice_is_refused():
    with pytest.raises(ValueError, match="registered twice"):
        derive((*BOTS, BOTS[1]))
