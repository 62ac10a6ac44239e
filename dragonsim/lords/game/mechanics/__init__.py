"""Dragon Lords rules mechanics (basic rules, rulebook pp. 7-13, and the advanced and optional
rules the engine plays), one small function each, in modules by mechanic:

* :mod:`.dice` -- every roll, and a scripted game's forced dice;
* :mod:`.to_hit` -- who may be attacked and the number to roll (breath, riders);
* :mod:`.moves` -- whether a move fits, engaging, the speed a dragon may choose, moving;
* :mod:`.ground` -- crashes, taking off, landing and moving on the ground (advanced, p.17);
* :mod:`.wounds` -- damage, its effect on the ratings, critical hits;
* :mod:`.close_combat` -- the modifiers, the winner and the result of a close combat;
* :mod:`.spells` -- the Wizard's spells (advanced rules, pp. 18, 24-25).

Every function here takes the dice it needs as arguments (a roll's sum, a d6 face), so a test
can force any roll (the Example of Play, pp. 36-37) and the pure-Python reference in the tests
can be fed the same numbers. They read and write the dragon state rows of
:mod:`dragonsim.lords.game.state` and the rules tables
(:class:`~dragonsim.lords.game.tables.KernelTables` fields and its ``scalars``); none
allocates (:func:`dragonsim._kernels.game_fn`). Every name is re-exported here
(``mechanics.roll_dice``, ``from ..game.mechanics import roll_dice``).
"""

from __future__ import annotations

from pathlib import Path

from .... import _kernels
from .... import random as _random
from .. import hexes as _hexes
from .. import movetables as _movetables
from .. import state as _state
from .. import tables as _tables
from .close_combat import (
    allocate_self_damage,
    cc_begin,
    cc_modifier,
    cc_winner,
    resolve_close_combat,
)
from .dice import draw_below, forced_roll, forced_turn, roll_d6, roll_dice
from .ground import (
    crash_after_combat,
    crashes_by_damage,
    ground_fits,
    hit_part,
    landing_hex,
    may_take_off,
    stuck_on_ground,
    takeoff_limits,
    takeoff_path,
)
from .moves import (
    apply_move,
    bank_fits,
    can_engage,
    hex_free,
    move_fits,
    move_fits_as,
    move_fits_exact,
    move_row,
    occupant,
    other_path_fits,
    record_speed,
    speed_limits,
)
from .spells import apply_spell_mr, distort_shift, heal_part, may_cast_at, spell_target_number
from .to_hit import (
    breath_hit,
    is_enemy,
    may_shoot_at,
    rider_at_risk,
    rider_check,
    rider_target_number,
    standing,
    target_number,
)
from .wounds import (
    apply_critical,
    critical_effect,
    critical_rerolls,
    damage,
    ratings,
    refresh,
    resolve_breath,
    spell_claws,
)

#: every file the mechanics' compiled code comes from: this package's parts, and the modules
#: (and their ``SOURCES``) whose functions and constants the parts compile in. A kernel module
#: that lists ``mechanics`` in its :func:`~dragonsim._kernels.guard_caches` compiles all of
#: it in, so a change in any of them flushes its caches, whether or not it lists them itself
SOURCES: tuple[str, ...] = tuple(
    dict.fromkeys(
        [
            *sorted(str(p) for p in Path(__file__).parent.glob("*.py")),
            *(
                f
                for m in (_hexes, _movetables, _state, _tables, _random, _kernels)
                for f in (m.__file__, *getattr(m, "SOURCES", ()))
            ),
        ]
    )
)

__all__ = [
    "roll_dice",
    "roll_d6",
    "draw_below",
    "forced_roll",
    "forced_turn",
    "target_number",
    "standing",
    "is_enemy",
    "rider_target_number",
    "may_shoot_at",
    "rider_at_risk",
    "rider_check",
    "move_fits",
    "move_fits_exact",
    "move_fits_as",
    "bank_fits",
    "other_path_fits",
    "can_engage",
    "crashes_by_damage",
    "hit_part",
    "crash_after_combat",
    "takeoff_limits",
    "stuck_on_ground",
    "occupant",
    "hex_free",
    "takeoff_path",
    "may_take_off",
    "landing_hex",
    "ground_fits",
    "ratings",
    "refresh",
    "critical_effect",
    "critical_rerolls",
    "apply_critical",
    "damage",
    "speed_limits",
    "record_speed",
    "apply_move",
    "move_row",
    "breath_hit",
    "cc_modifier",
    "cc_begin",
    "resolve_breath",
    "cc_winner",
    "resolve_close_combat",
    "allocate_self_damage",
    "spell_claws",
    "spell_target_number",
    "may_cast_at",
    "heal_part",
    "distort_shift",
    "apply_spell_mr",
]
