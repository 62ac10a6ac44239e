"""The compiled Warriors of Krynn engine: numba kernels for battles on one tile, battlefields
and conflicts.

Three tiers: small rule functions (:func:`~dragonsim._kernels.game_fn`: they allocate
nothing) that act on plain state arrays, a per-game function per mode, and one
``@njit(parallel=True)`` kernel per mode that runs chunks of games in ``prange`` (the chunks of
:func:`~dragonsim._kernels.n_chunks`; each owns one row of a 2-D counter array and its own
scratch, which every game resets before it plays) and returns the column sums.

Modules, each importing only those above it:

* :mod:`.state` -- the state layout, codes and option slots, and the records the kernels pass
  down (:class:`Tables`: the rules; :class:`Setup`: the starting position; :class:`Game`: a
  chunk's scratch);
* :mod:`.dice` -- the three random streams, battle dice, unit card reveals;
* :mod:`.heroes` -- heroes absorbing hits as stress; :mod:`.lines` -- a battle line's rules
  (hits, rally, barricades, tactic tokens, shaking); :mod:`.commanders` -- commander powers;
* :mod:`.combat` -- one fight; :mod:`.phase` -- one battle phase, control of a tile;
* :mod:`.tile`, :mod:`.field`, :mod:`.conflict` -- the kernels and their counters.

This package's namespace gathers what the rest of the project reads (the kernels, the records,
the counter and option slots, the rule functions the tests call).
"""

from __future__ import annotations

from .combat import choose_any, fight
from .commanders import commander_power
from .conflict import (
    K_ACTIONS,
    K_ATTEMPTS,
    K_BINS,
    K_CARDS,
    K_COUNT,
    K_EXCEED,
    K_HITS,
    K_N,
    K_STRESS_SQ,
    K_STRESS_SUM,
    K_SUCCESS,
    K_WOE,
    conflict_kernel,
    play_conflict,
)
from .dice import P_CARDS, P_DICE, P_FLOW, draw_card, roll_battle, seed_game
from .field import (
    F_DICE,
    F_HOLD,
    F_LOSS,
    F_LOSS_LIMIT,
    F_N,
    F_STRESS_SQ,
    F_STRESS_SUM,
    F_TILES,
    F_TURNS_SQ,
    F_TURNS_SUM,
    F_UNFINISHED,
    F_WIN,
    field_kernel,
    move_flank,
)
from .heroes import apply_hits_heroes, recover
from .lines import add_barricades, add_tactics, apply_hits, hit_line, rally, shake_units
from .phase import battle, battle_step, control, take_control
from .state import (
    ALLIANCE,
    ANY,
    ARMY,
    BR,
    BS,
    C_AMOUNT,
    C_EAMOUNT,
    C_EFFECT,
    C_KIND,
    C_TARGET,
    E_BARRICADE,
    E_NONE,
    E_RALLY,
    E_SHAKE,
    E_SHAKE_CMD,
    E_TACTIC,
    F_P_ALL_OUT,
    F_P_ALL_OUT_CMD,
    G_CARDS,
    G_DICE,
    G_FIGHTS,
    G_STRESS,
    H_BARRICADE,
    H_DICE,
    H_HITS,
    H_NONE,
    H_RALLY,
    H_SHAKE,
    H_TACTIC,
    HP_ALL,
    HP_LAST,
    HP_NEVER,
    HP_REMOVALS,
    KIND_DICE,
    N_G,
    N_OPTS,
    N_RULE_OPTS,
    O_ACTIVE_FLANK,
    O_ALLIANCE_HITS,
    O_ANY_LINE,
    O_ARMY_HITS,
    O_BARRICADE_ORDER,
    O_CMD_LINE,
    O_CMD_WOE,
    O_CONTROL_LIMIT,
    O_EMPTY_LINES,
    O_FLANK_MOVE,
    O_HERO_CHOICE,
    O_HERO_POLICY,
    O_HEROES,
    O_LINE_CAP,
    O_MAX_STRESS,
    O_MAX_TURNS,
    O_MUTUAL,
    O_STRESS_BINS,
    O_STRESS_RECOVERY,
    READY_FIRST,
    TAC,
    Die,
    Game,
    R,
    S,
    Setup,
    Tables,
    run_options,
    side_ready,
    units,
)
from .tile import (
    B_ALLIANCE,
    B_ARMY,
    B_CARDS,
    B_DICE,
    B_FIGHTS,
    B_HERO_MAXED,
    B_HIST,
    B_N,
    B_NONE,
    B_PLAYED,
    B_STRESS_SQ,
    B_STRESS_SUM,
    B_TOTAL,
    B_TURNS_SQ,
    B_TURNS_SUM,
    B_UNITS,
    battle_kernel,
    battle_offsets,
)
