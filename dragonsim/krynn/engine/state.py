"""The compiled engine's layout: the codes and slots the kernels read, and the three records
they pass down (:class:`Tables`, :class:`Setup`, :class:`Game`).

State of one tile ``t`` lives in ``u[t, side, line, field]`` (int64) with ``side`` 0 = Alliance,
1 = Dragon Army, ``line`` 0 Foot, 1 Missile, 2 Mounted and fields :data:`R` ready units,
:data:`S` shaken units, :data:`BR` / :data:`BS` barricades under ready / shaken units and
:data:`TAC` tactic tokens. Commanders: ``cmd[t, side]`` 0 none or removed, 1 ready, 2 shaken,
with their power in ``cmd_tab[t, side] = (hook, amount, target)``.

The records are ``typing.NamedTuple`` of arrays, which numba passes as one argument: the API
builds :class:`Tables` and :class:`Setup` once per run; each chunk of a kernel builds its own
:class:`Game` scratch (and its own copies of the tables it reads most) and hands them to one
ordinary chunk function (no reference counting), into which the games inline. A
record-taking function is never inlined straight into a ``prange`` body: numba 0.68 then
miscompiles its stores (they are lost). The chunk function first takes :func:`fixed` views of
its records: an argument array's axis lengths are read from it at run time, and indexing
``u[t, s, l, f]`` multiplies by them. An ordinary (not inlined) call copies every array of a
record it is passed: a function called many times a game takes the arrays it needs one by
one.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

import numpy as np

from ... import _kernels, _llvm
from ..._kernels import game_fn, guard_caches
from ..._llvm import shaped

# unit state fields
R, S, BR, BS, TAC = 0, 1, 2, 3, 4
ALLIANCE, ARMY = 0, 1
ANY = 3
# unit card columns / kinds / effects (see data.py)
C_KIND, C_AMOUNT, C_TARGET, C_EFFECT, C_EAMOUNT = 0, 1, 2, 3, 4
KIND_DICE = 1
E_NONE, E_SHAKE_CMD, E_RALLY, E_TACTIC, E_BARRICADE, E_SHAKE = 0, 1, 2, 3, 4, 5
H_NONE, H_HITS, H_DICE, H_TACTIC, H_BARRICADE, H_RALLY, H_SHAKE = 0, 1, 2, 3, 4, 5, 6
# integer options (opts[...]): first the rules' (data.OPTION_ORDER, code 0 = the default
# reading), then the run's
O_ALLIANCE_HITS, O_ARMY_HITS, O_HERO_POLICY, O_MAX_STRESS, O_MUTUAL = 0, 1, 2, 3, 4
O_BARRICADE_ORDER, O_ANY_LINE, O_EMPTY_LINES, O_HERO_CHOICE, O_STRESS_RECOVERY = 5, 6, 7, 8, 9
O_CMD_LINE, O_CMD_WOE, O_FLANK_MOVE, O_ACTIVE_FLANK, O_LINE_CAP = 10, 11, 12, 13, 14
N_RULE_OPTS = 15
O_HEROES, O_MAX_TURNS, O_STRESS_BINS, O_CONTROL_LIMIT = 15, 16, 17, 18
N_OPTS = 19
# float options
F_P_ALL_OUT, F_P_ALL_OUT_CMD = 0, 1
# policies
READY_FIRST = 1
HP_NEVER, HP_REMOVALS, HP_ALL, HP_LAST = 0, 1, 2, 3
# per-game scratch counters g[...]
G_DICE, G_FIGHTS, G_STRESS, G_CARDS = 0, 1, 2, 3
N_G = 4


class Die(NamedTuple):
    """The battle die, one entry per physical face (what a commander's dice power rolls; a
    kernel's arguments hold no nested record: numba's parallel loops refuse them)."""

    hits: np.ndarray  # int64[k]
    woe: np.ndarray  # int64[k]


class Tables(NamedTuple):
    """The rules of a run as the kernels read them (built once per run)."""

    cards: np.ndarray  # int64[2, 3, m, 5]: unit decks (kind, amount, target, effect, amount)
    sizes: np.ndarray  # int64[2, 3]: cards per deck
    die_hits: np.ndarray  # int64[k]: the battle die's hits per face
    die_woe: np.ndarray  # int64[k]: its Woe per face
    sk_line: np.ndarray  # int64[j]: the skirmish die's line per face
    sk_cmd: np.ndarray  # int64[j]: 1 where the face shows the commander symbol
    opts: np.ndarray  # int64[N_OPTS]: the O_* options
    fopts: np.ndarray  # float64[2]: the F_* options


class Setup(NamedTuple):
    """Every game's starting position on ``T`` tiles."""

    u0: np.ndarray  # int64[T, 2, 3, 5]: units and tokens
    cmd0: np.ndarray  # int64[T, 2]: commanders (0 none, 1 ready, 2 shaken)
    cmd_tab: np.ndarray  # int64[T, 2, 3]: their powers (hook, amount, target)
    flank0: np.ndarray  # int64[T]: flank tokens


class Game(NamedTuple):
    """One chunk's scratch: the state of the game it is playing (reset before each game)."""

    u: np.ndarray  # int64[T, 2, 3, 5]
    cmd: np.ndarray  # int64[T, 2]
    order: np.ndarray  # int64[2, 3, m]: each deck's discard pile, then the deck
    ptr: np.ndarray  # int64[2, 3]: cards in each discard pile
    flank: np.ndarray  # int64[T]: flank tokens (battlefields)
    ctl: np.ndarray  # int64[T]: who controls each tile, -1 nobody (battlefields)
    stress: np.ndarray  # int64[max(1, heroes)]: each hero's stress
    g: np.ndarray  # int64[N_G]: the game's G_* counters
    st_d: np.ndarray  # uint64[1]: the battle dice's stream
    st_c: np.ndarray  # uint64[1]: the unit cards' stream
    st_f: np.ndarray  # uint64[1]: the battle's flow (battle type, skirmish die, flanks)


def run_options(
    rule_options: np.ndarray,
    *,
    heroes: int,
    max_turns: int,
    stress_bins: int,
    control_limit: int = 0,
) -> np.ndarray:
    """``opts`` for :class:`Tables`: the rules' options (``KrynnRules.options_array()``), then
    the run's."""
    opts = np.zeros(N_OPTS, np.int64)
    opts[:N_RULE_OPTS] = rule_options
    opts[O_HEROES] = int(heroes)
    opts[O_MAX_TURNS] = int(max_turns)
    opts[O_STRESS_BINS] = int(stress_bins)
    opts[O_CONTROL_LIMIT] = int(control_limit)
    return opts


@game_fn(inline="always")
def units(u, t, s, l):
    """Units (ready or shaken) on line ``l`` of side ``s`` on tile ``t``."""
    return u[t, s, l, R] + u[t, s, l, S]


@game_fn(inline="always")
def side_ready(u, t, s):
    """Ready units of side ``s`` on tile ``t``."""
    return u[t, s, 0, R] + u[t, s, 1, R] + u[t, s, 2, R]


@game_fn(inline="always")
def fixed(gm, su, tb):
    """The records ``gm``, ``su``, ``tb`` (:class:`Game`, :class:`Setup`, :class:`Tables`) with
    their arrays seen in shapes whose side, line and field lengths (2, 3, 5) are constants of
    the compiled code (:func:`~dragonsim._llvm.shaped`): a chunk function's games index them
    with constant strides, as main's kernels did their own allocations (a game with heroes
    or commanders was 5-10% slower with the lengths read from the arrays)."""
    nt = gm.u.shape[0]
    m = tb.cards.shape[2]
    game = Game(
        shaped(gm.u, (nt, 2, 3, 5)),
        shaped(gm.cmd, (nt, 2)),
        shaped(gm.order, (2, 3, m)),
        shaped(gm.ptr, (2, 3)),
        gm.flank,
        gm.ctl,
        gm.stress,
        gm.g,
        gm.st_d,
        gm.st_c,
        gm.st_f,
    )
    setup = Setup(
        shaped(su.u0, (nt, 2, 3, 5)),
        shaped(su.cmd0, (nt, 2)),
        shaped(su.cmd_tab, (nt, 2, 3)),
        su.flank0,
    )
    tables = Tables(
        shaped(tb.cards, (2, 3, m, 5)),
        shaped(tb.sizes, (2, 3)),
        tb.die_hits,
        tb.die_woe,
        tb.sk_line,
        tb.sk_cmd,
        tb.opts,
        tb.fopts,
    )
    return game, setup, tables


# numba caches a function only against its own file: flush this module's caches when a file it
# compiles in changes
guard_caches(sys.modules[__name__], [_kernels, _llvm])
