"""The registry of released Dragon Lords bots: one row per released version, everything else
derived from it.

A row names the bot and its version, its family (the dispatchers' branch), the planner whose
scoring it plays, and three switches of behaviour that a new version may change without new
code: fair tie-breaking, the exact board-edge check and the fitted planning weights. A bot's
kernel id is its row's index: rows are only ever appended, so a released bot keeps its id and
its results (``--policy hunter@2`` plays hunter-2 exactly as published).

Adding a version of an existing family is one row here (and, for a new planner variant, its
branches in :mod:`.planner`); a new family adds a module with its decision functions and one
branch per dispatcher in :mod:`.dispatch`. ``tests/lords/test_registries.py`` shows that one
appended row reaches every derived table. This module is numba-free and imports nothing of
the package (the command line's ``--help`` reads it).
"""

from __future__ import annotations

from typing import NamedTuple

#: bot families: the dispatchers (:mod:`.dispatch`) branch on these
FAMILY_RANDOM = 0
FAMILY_PLANNER = 1
#: the look-ahead (:mod:`.search`): its moves and engagements come from rollouts; every other
#: decision is the planner's it plays (its row's ``plays``)
FAMILY_SEARCH = 2

#: planner skills (a row's ``skills``, a bit each): the fastest speed allowed
#: (:func:`~dragonsim.lords.bots.speeds.plan_speed_skilled`)
SKILL_SPEED = 1
#: the Wizard's next-turn spells (Slow, Lethargy, Quicken, Vigor) valued and cast
#: (:func:`~dragonsim.lords.bots.spells.plan_spell`)
SKILL_SPELLS = 2

#: capabilities a planner can be asked to play without (``hunter~engage``, a bit each in the
#: dragon's ``F_ABLATE``): what each one is worth is the ablation's measure
#: (``benchmarks/ablations.py``). The skills' bits are their own; the rest every planner has.
ABLATE_SPEED = SKILL_SPEED  # records the rule of thumb's speed, as hunter-4
ABLATE_SPELLS = SKILL_SPELLS  # its Wizard leaves out the next-turn spells, as hunter-4's
ABLATE_CAST = 4  # its Wizard casts nothing
ABLATE_ENGAGE = 8  # never engages (it still fights when an enemy engages it)
ABLATE_RIDER = 16  # its Javelin Thrower, Archer or Crossbow Shooter never shoots
ABLATE_TACTICS = 32  # close-combat tactics drawn uniformly from those with uses left


class Capability(NamedTuple):
    """One capability a planner can play without."""

    name: str  # what a user writes after ``~``
    bit: int  # ``ABLATE_*``
    skill: int  # the ``SKILL_*`` bit a version needs to have it (0: every planner)
    summary: str  # what the bot does without it


CAPABILITIES = (
    Capability("speed", ABLATE_SPEED, SKILL_SPEED, "the rule of thumb's speed, as hunter-4"),
    Capability("spells", ABLATE_SPELLS, SKILL_SPELLS, "no next-turn spells, as hunter-4"),
    Capability("cast", ABLATE_CAST, 0, "its Wizard casts nothing"),
    Capability("engage", ABLATE_ENGAGE, 0, "never engages (fights when engaged)"),
    Capability("rider", ABLATE_RIDER, 0, "its shooting rider never shoots"),
    Capability("tactics", ABLATE_TACTICS, 0, "tactics drawn uniformly, not at the equilibrium"),
)


class Bot(NamedTuple):
    """One released bot version."""

    name: str  # what a user writes (``hunter``)
    version: int  # ``hunter@4``; a plain name means the highest version
    family: int  # ``FAMILY_*``
    plays: str  # the scoring it plays: random, hunter, brawler or sniper (the first version's)
    fair: bool  # ties between equally good choices broken uniformly from the policy stream
    edge_exact: bool  # the board edge checked exactly (needs the move tables' ``alt`` paths)
    weighted: bool  # the planner weighs its terms with the planning table's ``PLAN_WEIGHTS``
    summary: str  # one line for help texts and manifests
    #: what a planner does beyond its scoring, by ``SKILL_*`` bit (0: as hunter-4)
    skills: int = 0

    @property
    def key(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def label(self) -> str:
        return f"{self.name}-{self.version}"


#: every released bot, in kernel-id order (append only). The switches say what each version
#: does differently, described at length in :mod:`dragonsim.lords.bots`:
#: ``fair`` -- 0 for the versions released before fair seats, which take the first of equally
#: good choices in index or visiting order (the random bot's choices are uniform already);
#: ``edge_exact`` -- 0 where only the one stored path's bounding box is checked (near an edge
#: it misses some legal end states, 10.5% of those from 200 positions within 3 hexes of an
#: edge of the standard board, ``benchmarks/bench_edges.py``; search-1 keeps 0, its
#: candidates and rollouts are the released planners' moves); ``weighted`` -- 1 where the
#: planner's weights are the fitted ``PLAN_WEIGHTS`` row of :mod:`.plan` (hunter-4);
#: ``skills`` -- what it does beyond its scoring (hunter-5: ``SKILL_SPEED``, the fastest
#: speed allowed instead of the rule of thumb; ``SKILL_SPELLS``, its Wizard weighs all 13
#: spells).
BOTS = (
    Bot("random", 1, FAMILY_RANDOM, "random", True, False, False, "uniformly random legal choices"),
    Bot("hunter", 2, FAMILY_PLANNER, "hunter", False, False, False, "expected breath exchange"),
    Bot("brawler", 1, FAMILY_PLANNER, "brawler", False, False, False, "closes in, engages"),
    Bot("sniper", 1, FAMILY_PLANNER, "sniper", False, False, False, "keeps range 3-5"),
    Bot("hunter", 3, FAMILY_PLANNER, "hunter", True, False, False, "hunter-2, fair ties"),
    Bot("brawler", 2, FAMILY_PLANNER, "brawler", True, False, False, "brawler-1, fair ties"),
    Bot("sniper", 2, FAMILY_PLANNER, "sniper", True, False, False, "sniper-1, fair ties"),
    Bot("search", 1, FAMILY_SEARCH, "hunter", True, False, False, "look-ahead over rollouts"),
    Bot("hunter", 4, FAMILY_PLANNER, "hunter", True, True, True, "hunter-3 taught by search-1"),
    Bot(
        "hunter",
        5,
        FAMILY_PLANNER,
        "hunter",
        True,
        True,
        True,
        "flies as fast as it may",
        SKILL_SPEED | SKILL_SPELLS,
    ),
    Bot(
        "search",
        2,
        FAMILY_SEARCH,
        "hunter",
        True,
        True,
        True,
        "look-ahead over hunter-5 rollouts, landings among its moves",
        SKILL_SPEED | SKILL_SPELLS,
    ),
)


#: what ``--policy reference`` plays: the strongest released bot, the one the default is
#: measured against (manifests name the version it resolves to, ``search-2``)
REFERENCE = "search@2"


class Tables(NamedTuple):
    """What the rest of the package reads, derived from the rows."""

    released: dict[str, tuple[int, str]]  # ``name@version`` -> (kernel id, ``name-version``)
    policies: dict[str, tuple[int, str]]  # plain name -> its newest version's entry
    families: tuple[int, ...]  # by kernel id
    kinds: tuple[int, ...]  # by kernel id: the kernel id of the first version of its scoring
    fair: tuple[int, ...]
    edge_exact: tuple[int, ...]
    weighted: tuple[int, ...]
    skills: tuple[int, ...]


def derive(rows: tuple[Bot, ...]) -> Tables:
    """The tables of :class:`Tables` for ``rows`` (kernel id = row index)."""
    keys = [b.key for b in rows]
    if len(set(keys)) != len(keys):
        raise ValueError(f"a bot version is registered twice: {keys}")
    released = {b.key: (i, b.label) for i, b in enumerate(rows)}
    policies: dict[str, tuple[int, str]] = {}
    for i, b in enumerate(rows):
        if b.name not in policies or b.version > rows[policies[b.name][0]].version:
            policies[b.name] = (i, b.label)
    first: dict[str, int] = {}  # each name's first version
    for i, b in enumerate(rows):
        first.setdefault(b.name, i)
    kinds = tuple(first[b.plays] for b in rows)
    return Tables(
        released,
        policies,
        tuple(b.family for b in rows),
        kinds,
        tuple(int(b.fair) for b in rows),
        tuple(int(b.edge_exact) for b in rows),
        tuple(int(b.weighted) for b in rows),
        tuple(int(b.skills) for b in rows),
    )


TABLES = derive(BOTS)


def kernel_id(key: str) -> int:
    """The kernel id of a released version (``"hunter@3"`` -> 4)."""
    return TABLES.released[key][0]
