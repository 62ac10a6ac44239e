"""Dragon Lords bots: named, versioned policies, resolved by name only here.

This module is numba-free (the command line's ``--help`` and argument checks import it); the
compiled bots live beside it:

* :mod:`.dispatch` -- one dispatcher per decision, branching on the bot family once:
  ``choose_speed`` (the speed recorded, within the legal ``lo..hi``), ``choose_move`` (a move
  end state: a move-table entry and an altitude change), ``choose_engage`` (whom to engage
  after moving), ``choose_target`` (the breath target recorded before anyone breathes),
  ``choose_side`` (a hexside when an attack's line runs through a corner) and
  ``choose_facing`` (the facing a close-combat winner turns to);
* :mod:`.random` -- the ``random`` family: uniformly random legal choices;
* :mod:`.planner` -- the planning family (``hunter``, ``brawler``, ``sniper``): score sampled
  move end states with the exact odds; the weights are named constants there;
* :mod:`.plan` -- the planners' shared tables (exact odds by target number, damage, close
  combat; the geometry of shots and board edges), built once per kernel call;
* :mod:`.search` -- the ``search`` family's moves: candidates gathered from the planners and
  judged by the rollouts the engine plays (its other decisions are the hunter's);
* :mod:`.registry` -- one row per released version; every table below is derived from it.

Adding a bot: one row in :data:`.registry.BOTS` (its name, version, family, the scoring it
plays and its switches); every table here (:data:`RELEASED`, :data:`POLICIES`,
:data:`FAMILIES`, :data:`KINDS`, :data:`FAIR`, :data:`EDGE_EXACT`, :data:`WEIGHTED`) is
derived from the rows. A new planner variant adds its branches in :mod:`.planner`; a new
family adds a module with its decision functions and one branch per dispatcher in
:mod:`.dispatch`.

Versions
--------
A released bot's results never change. A change of play is a new version with a new kernel
id; the old one stays selectable as ``name@version`` (``--policy hunter@2``), and a plain
name means the newest. Results and manifests name the version (``hunter-3``).

Capabilities
------------
A planner may be asked to play without one of its capabilities, to measure what it is worth:
``hunter~engage`` never engages, ``hunter@5~speed~spells`` is hunter-5 with hunter-4's speeds
and spells (:data:`.registry.CAPABILITIES`: ``speed``, ``spells``, ``cast``, ``engage``,
``rider``, ``tactics``). An ablated bot is named in full in every manifest
(``hunter-5~engage``) and plays the released bot exactly in every decision the capability
does not make; ``benchmarks/ablations.py`` plays each against the full bot.

Policies
--------
``random``  (random-1)
    Uniformly random legal choices: speed uniform on ``lo..hi``, the move uniform over the
    (end state, altitude change) pairs that stay on the board and end in an empty hex, engages
    with probability 1/2, breathes at a uniformly chosen legal target (never declines a shot:
    breath is free in the basic rules), corner sides and a winner's facing uniform.
``hunter`` (hunter-5, the default; hunter-4 as ``hunter@4``, hunter-3 as ``hunter@3``,
hunter-2 as ``hunter@2``)
    Scores an end state by the expected breath damage it can deal next breath phase (best
    target: P(hit) from the exact 2d6 odds times the mean damage of its breath weapon) minus
    the expected breath damage the enemies can deal to it from where they stand, with a small
    pull towards the nearest enemy and away from facing a board edge. Engages when the exact
    close-combat odds make the expected tooth-and-claw exchange better than the breath
    exchange it gives up. Besides its sample it scores the end states behind the nearest
    enemy (its three rear hexes, facing it or one hexside off), looked up in ``MoveTables.tg``:
    an exhaustive search ends there most often, and a sample rarely finds them. hunter-1
    (the sample only, no longer selectable: it was replaced before versions were kept) gave
    verdicts up to 17 points away from an exhaustive search at the default 16 end states;
    hunter-2 is within about 2 points at 16.
    hunter-3 plays as hunter-2 but breaks ties fairly: between equally near enemies, end
    states scored exactly alike, breath targets of equal value and the two sides of a corner
    it chooses uniformly from its policy stream, where hunter-2 takes the first by index or
    visiting order. hunter-2 is unfair to seats (three Lectronists, 6,000 games, seed 3:
    26.8% / 31.6% / 40.6%, every hunter-2 going after seat 0), and its verdicts lean on the
    order it happens to visit end states in: Reaper against Skyblazer, 20,000 games, seed 5,
    is 46.1% for Reaper under hunter-2 and 41.5% under hunter-3, nearly all of it from ties
    between end states (hunter-3 with only that tie rule reverted: 46.0%).
    hunter-4 is hunter-3 taught by the look-ahead bot (``search``): its weights are named
    data, the planning table's ``PLAN_WEIGHTS`` row (:mod:`.plan`, ``HUNTER_4_WEIGHTS``),
    fitted so its win shares agree with search-1's over the 66 ready-made pairings
    (``benchmarks/fit_hunter.py``). Where the two chose differently it changes three things.
    (1) Breadth: it scores ``N`` end states times the points a 60-degree turn costs (at least
    1), so a dragon with 2-point turns (ratings G-I) scores 32 + 16: at 16 the hunter missed
    their good end states and played them 6 to 12 points below the look-ahead (Reaper
    against Fiercival 73.8% under hunter-3, 64.3% under search-1, 67.6% under hunter-4).
    (2) Engagements: an engagement is worth its expected tooth-and-claw exchange plus 10
    points per unit of P(win) - P(lose), the winner's free choice of facing beside a loser
    turned at random (p.13); hunter-3 engaged in 0.1% of Zippinchill-Reaper games, hunter-4
    1.4 times a game, the look-ahead 0.6. (3) The shot at an enemy that has not moved yet
    counts half (it moves before breath combat). It also checks the board edge exactly
    (``EDGE_EXACT``). Over the 66 pairings (6,000 games a pair against search-1's 3,000)
    its win shares sit 2.7 points from search-1's on average (hunter-3: 4.6), within 2
    points on 36 (hunter-3: 16); the agile dragons are still played below the look-ahead
    (Zippinchill 4, Skyblazer 3.5 points) and Stalwyrm and Reaper above it (4 and 3).
    hunter-5 is hunter-4 flying as fast as it may (``SKILL_SPEED``): after the first turn it
    records the fastest speed the rules allow it, where hunter-4 cruises at 9 and slows to 7
    within 4 hexes of the enemy (:func:`~dragonsim.lords.bots.speeds.plan_speed_skilled`);
    where the wings' acceleration allowance (p.16) or Quicken (p.25) let it gain more than
    3, it does. Its other decisions are hunter-4's. Over the 12 mirror pairings, both seats,
    it wins about two games of three against hunter-4 under every preset
    (``benchmarks/speed_skill.py``): at 7 a dragon that turns slowly is left behind. Its
    Wizard (``SKILL_SPELLS``) also weighs the four next-turn spells (p.25) at the planning
    table's named values (:func:`~dragonsim.lords.bots.spells.next_turn_value`): it casts
    Quicken and Vigor on its own dragon when nothing else is worth a point; Slow and
    Lethargy are worth less than what they would displace (``benchmarks/spell_values.py``).
``brawler`` (brawler-2; brawler-1 as ``brawler@1``)
    Closes in: maximises engagement chances (adjacent, facing, same altitude), engages whenever
    it may. brawler-2 breaks ties as hunter-3 does.
``sniper`` (sniper-2; sniper-1 as ``sniper@1``)
    Keeps range 3-5, stays out of the enemies' dark and grey areas, never engages. sniper-2
    breaks ties as hunter-3 does.
``search`` (search-2, ``reference``; search-1 as ``search@1``)
    The look-ahead reference bot (:mod:`dragonsim.lords.bots.search`): its candidate moves are
    three hunter samples, the brawler's and the sniper's moves and two random legal ones,
    each with and without the engagement it allows; it plays each forward (the rest of the
    turn and two more, every dragon the hunter, 8 rollouts on common streams) and takes the
    best only when its rollouts beat the hunter's own choice by more than a standard error of
    the paired differences. Its speeds, targets, corner sides and facings are hunter-3's.
    About a hundred times slower than the hunter; a breadth (``search:32``) widens the hunter
    samples it draws candidates from. search-2, the reference (``--policy reference`` names
    it in every manifest), is the same look-ahead over the default: hunter-5's samples as
    candidates and in the rollouts, and landing (p.17) among its moves where the rule is in
    force; its other decisions are hunter-5's. ``benchmarks/reference_strength.py`` plays it
    against the default in the 12 mirrors under every preset (``results/reference.txt``).
"""

from __future__ import annotations

__all__ = [
    "BOTS",
    "POLICIES",
    "FAMILY_RANDOM",
    "FAMILY_PLANNER",
    "FAMILY_SEARCH",
    "FAMILIES",
    "P_RANDOM",
    "P_HUNTER",
    "P_BRAWLER",
    "P_SNIPER",
    "P_HUNTER_3",
    "P_BRAWLER_2",
    "P_SNIPER_2",
    "P_SEARCH",
    "P_HUNTER_4",
    "P_HUNTER_5",
    "P_ROLLOUT",
    "P_SEARCH_2",
    "P_ROLLOUT_2",
    "RELEASED",
    "KINDS",
    "WEIGHTED",
    "SKILLS",
    "SKILL_SPEED",
    "SKILL_SPELLS",
    "CAPABILITIES",
    "FAIR",
    "EDGE_EXACT",
    "edge_exact",
    "MAX_PLAN_SAMPLES",
    "parse_policy",
    "policy_ablation",
    "policy_spec",
    "policy_id",
    "policy_version",
    "policy_family",
]

from . import registry as _registry
from .registry import (
    BOTS,
    CAPABILITIES,
    FAMILY_PLANNER,
    FAMILY_RANDOM,
    FAMILY_SEARCH,
    REFERENCE,
    SKILL_SPEED,
    SKILL_SPELLS,
    TABLES,
    kernel_id,
)

#: the file the tables below come from: a module whose compiled code reads them depends on it
#: (:func:`dragonsim._kernels.guard_caches` reads ``SOURCES``), so a new row flushes their caches
SOURCES = (_registry.__file__,)

# ---- kernel ids, by the registry's rows (:mod:`.registry`) ---------------------------------------
P_RANDOM = kernel_id("random@1")
P_HUNTER = kernel_id("hunter@2")  # the hunter's scoring (KINDS): hunter-2's id
P_BRAWLER = kernel_id("brawler@1")
P_SNIPER = kernel_id("sniper@1")
P_HUNTER_3 = kernel_id("hunter@3")
P_BRAWLER_2 = kernel_id("brawler@2")
P_SNIPER_2 = kernel_id("sniper@2")
P_SEARCH = kernel_id("search@1")
P_HUNTER_4 = kernel_id("hunter@4")
P_HUNTER_5 = kernel_id("hunter@5")
P_SEARCH_2 = kernel_id("search@2")
#: the bot that plays every dragon in search-1's rollouts (search-2's: :data:`P_ROLLOUT_2`)
P_ROLLOUT = P_HUNTER_3
P_ROLLOUT_2 = P_HUNTER_5

#: every released bot, ``name@version`` -> (kernel id, version label). A released bot's
#: results never change: a new version gets a new id and the old one stays selectable, so a
#: published result can be reproduced (``--policy hunter@2``).
RELEASED = TABLES.released
#: name -> (id, version) of the newest version: what a plain name (``hunter``) means. The
#: CLI and the API resolve names only here and in :data:`RELEASED`.
POLICIES = TABLES.policies
#: by kernel id: the bot family (the dispatchers' one branch), the planner whose scoring it
#: plays (the id of that planner's first version), and its switches (:class:`.registry.Bot`)
FAMILIES = TABLES.families
KINDS = TABLES.kinds
FAIR = TABLES.fair
EDGE_EXACT = TABLES.edge_exact
WEIGHTED = TABLES.weighted
SKILLS = TABLES.skills


#: the most end states a planner may score per move (``hunter:N``)
MAX_PLAN_SAMPLES = 1024


def _versions(base: str) -> list[str]:
    return [k for k in RELEASED if k.partition("@")[0] == base]


def _split_ablation(text: str) -> tuple[str, list[str]]:
    """``"hunter:32~engage~rider"`` -> ``("hunter:32", ["engage", "rider"])``."""
    head, *caps = str(text).split("~")
    return head, [c.strip().lower() for c in caps]


def _ablation(text: str, entry: tuple[int, str]) -> int:
    """The ``ABLATE_*`` bits of the capabilities after ``~`` in ``text``, for the bot of kernel
    entry ``entry``; UserError naming the capabilities it has when one is unknown or not its."""
    from ...errors import UserError

    _, caps = _split_ablation(text)
    if not caps:
        return 0
    pid, label = entry
    if FAMILIES[pid] != FAMILY_PLANNER:
        raise UserError(
            f"policy {text!r}: only a planner (hunter, brawler, sniper) can play without a "
            f"capability; {label} has none to leave out"
        )
    have = [c for c in CAPABILITIES if c.skill == 0 or SKILLS[pid] & c.skill]
    names = {c.name: c.bit for c in have}
    mask = 0
    for cap in caps:
        if cap not in names:
            raise UserError(
                f"policy {text!r}: {label} has no capability {cap!r} to play without; its "
                f"capabilities: {', '.join(names)} (e.g. {label.partition('-')[0]}~engage)"
            )
        mask |= names[cap]
    return mask


def _ablation_suffix(mask: int) -> str:
    return "".join(f"~{c.name}" for c in CAPABILITIES if mask & c.bit)


def policy_ablation(spec: str) -> int:
    """The ``ABLATE_*`` bits a bot plays without (``"hunter~engage"`` -> ``ABLATE_ENGAGE``;
    0 for a bot as released)."""
    name, _ = parse_policy(spec)
    return _ablation(spec, _entry(name))


def parse_policy(spec: str) -> tuple[str, int | None]:
    """A bot as written by a user: a policy name, optionally pinned to a released version,
    optionally with its planning breadth and optionally without some capabilities.

    ``"reference"`` is the reference bot, :data:`.registry.REFERENCE` (``"search@2"``).
    ``"hunter"`` -> ``("hunter", None)``: the newest hunter, with the run's ``plan_samples``
    (default 16); ``"hunter@2"`` -> ``("hunter@2", None)``: the released hunter-2 exactly
    (``"hunter-2"`` is read the same way); ``"hunter:32"`` -> ``("hunter", 32)``: this
    dragon's planner scores the first 32 end states that fit at its own altitude (and 16 with
    an altitude change) per move, a stronger player; ``"hunter@2:4"`` a weaker hunter-2. Only
    planners (hunter, brawler, sniper) take a breadth, and only they play without a
    capability (``"hunter~engage"``: checked here, the bits are :func:`policy_ablation`'s;
    the pair returned leaves them out). UserError on anything else, naming what is allowed.
    """
    from ...errors import UserError, resolve_name

    text = str(spec).strip()
    head, sep, breadth = _split_ablation(text)[0].partition(":")
    head = head.strip()
    if head.lower() == "reference":
        head = REFERENCE
    name, at, version = head.partition("@")
    if not at and "-" in head and head.rpartition("-")[2].strip().isdigit():
        name, _, version = head.rpartition("-")
        at = "@"
    name = resolve_name(
        name,
        list(POLICIES),
        "policy",
        hint="a bot may name its version and carry its breadth, e.g. hunter@2 or hunter:32; "
        "reference is the reference bot (search-2)",
    )
    if at:
        key = f"{name}@{version.strip()}"
        if key not in RELEASED:
            raise UserError(
                f"policy {text!r}: {name} has no released version {version.strip()!r}; "
                f"released: {', '.join(_versions(name))} (plain {name!r} is the newest, "
                f"{POLICIES[name][1]})"
            )
        name = key
    table = RELEASED if at else POLICIES
    _ablation(text, table[name])
    if not sep:
        return name, None
    if FAMILIES[table[name][0]] == FAMILY_RANDOM:
        raise UserError(
            f"policy {text!r}: random does not plan, so it takes no breadth; "
            f"write random, or a planner such as hunter:32"
        )
    try:
        n = int(breadth.strip())
    except ValueError:
        n = 0
    if not 1 <= n <= MAX_PLAN_SAMPLES or breadth.strip() != str(n):
        raise UserError(
            f"policy {text!r}: the breadth after ':' must be a whole number "
            f"1..{MAX_PLAN_SAMPLES} (end states scored per move), e.g. {name}:32"
        )
    return name, n


def _entry(name: str) -> tuple[int, str]:
    return RELEASED[name] if "@" in name else POLICIES[name]


def policy_spec(spec: str) -> str:
    """The canonical spelling of a bot (``"Hunter : 32"`` -> ``"hunter:32"``,
    ``"Hunter-2"`` -> ``"hunter@2"``, ``"hunter~Rider~engage"`` -> ``"hunter~engage~rider"``)."""
    name, n = parse_policy(spec)
    cut = _ablation_suffix(_ablation(spec, _entry(name)))
    return (name if n is None else f"{name}:{n}") + cut


def policy_id(name: str) -> int:
    """The kernel id of a bot (case-insensitive, breadth ignored); UserError when unknown."""
    return _entry(parse_policy(name)[0])[0]


def policy_version(name: str) -> str:
    """The versioned bot for manifests: ``hunter-3``, or ``hunter-3:32`` with a breadth
    (``hunter`` names the newest version, ``hunter@2`` the released hunter-2)."""
    base, n = parse_policy(name)
    label = _entry(base)[1]
    cut = _ablation_suffix(_ablation(name, _entry(base)))
    return (label if n is None else f"{label}:{n}") + cut


def policy_family(name: str) -> int:
    """The bot family of a policy (``FAMILY_*``)."""
    return FAMILIES[policy_id(name)]


def edge_exact(names) -> bool:
    """Whether any of the bots ``names`` checks the board edge exactly (:data:`EDGE_EXACT`):
    its game needs the move tables' alternative paths (``move_tables(..., edges=True)``)."""
    return any(EDGE_EXACT[policy_id(n)] == 1 for n in names)
