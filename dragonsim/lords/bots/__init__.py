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
  combat; the geometry of shots and board edges), built once per kernel call.

Adding a bot: give it an id and a version in :data:`POLICIES` and its family in
:data:`FAMILIES` (a new planner variant needs nothing else but its branches in
:mod:`.planner`); a new family adds a module with its six decision functions and one branch
per dispatcher in :mod:`.dispatch`.

Policies
--------
``random``  (random-1)
    Uniformly random legal choices: speed uniform on ``lo..hi``, the move uniform over the
    (end state, altitude change) pairs that stay on the board and end in an empty hex, engages
    with probability 1/2, breathes at a uniformly chosen legal target (never declines a shot:
    breath is free in the basic rules), corner sides and a winner's facing uniform.
``hunter`` (hunter-2, the default)
    Scores an end state by the expected breath damage it can deal next breath phase (best
    target: P(hit) from the exact 2d6 odds times the mean damage of its breath weapon) minus
    the expected breath damage the enemies can deal to it from where they stand, with a small
    pull towards the nearest enemy and away from facing a board edge. Engages when the exact
    close-combat odds make the expected tooth-and-claw exchange better than the breath
    exchange it gives up. Besides its sample it scores the end states behind the nearest
    enemy (its three rear hexes, facing it or one hexside off), looked up in ``MoveTables.tg``:
    an exhaustive search ends there most often, and a sample rarely finds them. hunter-1
    (the sample only) gave verdicts up to 17 points away from an exhaustive search at the
    default 16 end states; hunter-2 is within about 2 points at 16.
``brawler`` (brawler-1)
    Closes in: maximises engagement chances (adjacent, facing, same altitude), engages whenever
    it may.
``sniper`` (sniper-1)
    Keeps range 3-5, stays out of the enemies' dark and grey areas, never engages.
"""

from __future__ import annotations

__all__ = [
    "POLICIES",
    "FAMILY_RANDOM",
    "FAMILY_PLANNER",
    "FAMILIES",
    "P_RANDOM",
    "P_HUNTER",
    "P_BRAWLER",
    "P_SNIPER",
    "MAX_PLAN_SAMPLES",
    "parse_policy",
    "policy_spec",
    "policy_id",
    "policy_version",
    "policy_family",
]

#: bot families: the dispatchers (:mod:`.dispatch`) branch on these
FAMILY_RANDOM = 0
FAMILY_PLANNER = 1

# ---- the policy table ---------------------------------------------------------------------------
P_RANDOM = 0
P_HUNTER = 1
P_BRAWLER = 2
P_SNIPER = 3

#: name -> (id, version). The CLI and the API resolve names only here.
POLICIES = {
    "random": (P_RANDOM, "random-1"),
    "hunter": (P_HUNTER, "hunter-2"),
    "brawler": (P_BRAWLER, "brawler-1"),
    "sniper": (P_SNIPER, "sniper-1"),
}

#: the bot family of each policy id (index: the id): the dispatchers' one branch
FAMILIES = (FAMILY_RANDOM, FAMILY_PLANNER, FAMILY_PLANNER, FAMILY_PLANNER)


#: the most end states a planner may score per move (``hunter:N``)
MAX_PLAN_SAMPLES = 1024


def parse_policy(spec: str) -> tuple[str, int | None]:
    """A bot as written by a user: a policy name, optionally with its planning breadth.

    ``"hunter"`` -> ``("hunter", None)`` (the run's ``plan_samples``, default 16);
    ``"hunter:32"`` -> ``("hunter", 32)``: this dragon's planner scores the first 32 end
    states that fit at its own altitude (and 16 with an altitude change) per move, a
    stronger player; ``"hunter:4"`` a weaker one. Only planners (hunter, brawler, sniper)
    take a breadth. UserError on anything else, naming what is allowed.
    """
    from ...errors import UserError, resolve_name

    text = str(spec).strip()
    name, sep, breadth = text.partition(":")
    name = resolve_name(
        name, list(POLICIES), "policy", hint="a planner may carry its breadth, e.g. hunter:32"
    )
    if not sep:
        return name, None
    if FAMILIES[POLICIES[name][0]] != FAMILY_PLANNER:
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


def policy_spec(spec: str) -> str:
    """The canonical spelling of a bot (``"Hunter : 32"`` -> ``"hunter:32"``)."""
    name, n = parse_policy(spec)
    return name if n is None else f"{name}:{n}"


def policy_id(name: str) -> int:
    """The kernel id of a bot (case-insensitive, breadth ignored); UserError when unknown."""
    return POLICIES[parse_policy(name)[0]][0]


def policy_version(name: str) -> str:
    """The versioned bot for manifests: ``hunter-2``, or ``hunter-2:32`` with a breadth."""
    base, n = parse_policy(name)
    return POLICIES[base][1] if n is None else f"{POLICIES[base][1]}:{n}"


def policy_family(name: str) -> int:
    """The bot family of a policy (``FAMILY_*``)."""
    return FAMILIES[policy_id(name)]
