"""The Dragon Lords game loop and its numba kernels, one module per phase of the turn.

A game is the basic sequence of play ("Initiative, Record Speed, Movement, Record Breath
Targets, Breath Combat, Close Combat", p.7), one module per phase, in that order:

* :mod:`.setup` -- the sheets become state rows and the dragons are placed (p.6);
* :mod:`.initiative` -- 2d6 each, lowest moves first, roll-offs within ties;
* :mod:`.speed` -- every dragon records its speed before anyone moves;
* :mod:`.turn` -- movement in initiative order (:mod:`.movement` in the air, :mod:`.ground`
  on it), each move followed by an optional engagement, then the rest of the turn;
* :mod:`.riders` and :mod:`.spells` -- the riders' actions and the Wizard's spells (p.18,
  pp.23-25);
* :mod:`.breath` -- every dragon records its breath target, then the breath attacks, serious
  damage applied when all have breathed (:mod:`.damage`: what a hit does besides);
* :mod:`.close_combat` -- each engaged pair fights;
* :mod:`.game` -- one game from the first turn to the last, its counters and its record;
* :mod:`.kernels` -- many games on a few threads; :mod:`.inputs` and :mod:`.log` -- the
  scratch and the game log.

An advanced-rules phase (riders' actions, spells, the ground) stands beside its basic one and
is switched on by an ``OPT_*`` option. The rules
mechanics each phase applies are in :mod:`~dragonsim.lords.game.mechanics`, the decisions are the
bots' (:mod:`~dragonsim.lords.bots.dispatch`), and the layouts of every array are in
:mod:`~dragonsim.lords.game.state`.

Everything a study may vary arrives as an argument: the rules tables ``tb``
(:class:`~dragonsim.lords.game.tables.KernelTables`), the move tables ``mv``
(:class:`~dragonsim.lords.game.movetables.MoveTables`), the planning odds
(:func:`~dragonsim.lords.bots.plan.plan_table`), the dragons and the int64 options array
(``OPT_*``), the one place where rules options go.

:func:`duel_kernel` plays a block of games: they are cut into chunks
(:func:`dragonsim._kernels.n_chunks`), each owning a row of a 2-D counter array, played by
:func:`play_chunks` on a few threads without the GIL, and summed at the end;
:func:`logged_game` plays one game serially with its decision log (tests).

No reference counting in a game: every function a game calls is a
:func:`~dragonsim._kernels.game_fn` (it allocates nothing); only the kernels that allocate
(``duel_kernel``, ``logged_game``, the table builders) keep numba's runtime.
"""

from .breath import breath_combat, critical, fumble, record_targets
from .close_combat import close_combat, use_tactic
from .game import end_game, play_game
from .initiative import initiative, order_by_rolls
from .inputs import Inputs, Log, Work, kernel_inputs, make_inputs, new_work, rules_inputs
from .kernels import duel_kernel, logged_game, play_chunks
from .setup import begin_game, init_dragons, place_dragons, teams_alive
from .speed import record_speeds
from .turn import finish_turn, movement

__all__ = [
    "Inputs",
    "Log",
    "make_inputs",
    "rules_inputs",
    "order_by_rolls",
    "use_tactic",
    "Work",
    "new_work",
    "init_dragons",
    "place_dragons",
    "begin_game",
    "initiative",
    "record_speeds",
    "teams_alive",
    "movement",
    "finish_turn",
    "record_targets",
    "breath_combat",
    "critical",
    "fumble",
    "close_combat",
    "end_game",
    "play_game",
    "play_chunks",
    "kernel_inputs",
    "duel_kernel",
    "logged_game",
]
