"""A turn from the movement phase on (:func:`finish_turn`): movement in initiative order
(:func:`movement`, :func:`move_one`) with each mover's engagement, the riders' actions, breath
targets, breath combat and close combat. The look-ahead bot's rollouts are played here too
(:func:`look_ahead`, :func:`rollout`): the bot (:mod:`~dragonsim.lords.bots.search`) proposes
candidate moves and picks from their values, the engine plays them forward."""

from __future__ import annotations

import sys

import numpy as np

from ..._kernels import game_fn
from ...random import (
    STREAM_GAME,
    STREAM_POLICY,
    game_key,
    next_u64,
    purpose_seed,
)
from ..bots import FAMILIES, FAMILY_SEARCH, P_ROLLOUT, P_ROLLOUT_2, P_SEARCH_2
from ..bots.dispatch import (
    choose_engage,
    choose_land,
    choose_move,
)
from ..bots.search import (
    HORIZON,
    LAND,
    ROLLOUT_BREADTH,
    ROLLOUTS,
    gather,
    pick,
    position_value,
)
from ..game.mechanics import (
    apply_move,
    apply_spell_mr,
    can_engage,
    refresh,
)
from ..game.state import (
    C_ENGAGES,
    F_ABLATE,
    F_ALIVE,
    F_ALT,
    F_ENG,
    F_ENGAGER,
    F_MOVED,
    F_POLICY,
    F_Q,
    F_R,
    F_SAMPLES,
    F_SPEED,
    F_SPELL_MR,
    F_TEAM,
    K_ENGAGE,
    MK_FLY,
    MK_GROUND,
    MK_LAND,
    MK_TAKE_OFF,
    NF,
    OPT_LANDING,
    OPT_MOVE_EARLY,
    OPT_RIDER_ATTACKS,
    OPT_TURN_LIMIT,
    OPT_WIZARD,
)
from .breath import breath_combat, record_targets
from .close_combat import close_combat
from .ground import ground_move, land, take_off
from .initiative import initiative
from .inputs import guard
from .log import log_row
from .movement import announce_early, fly
from .riders import record_rider_actions, rider_actions
from .setup import teams_alive
from .speed import record_speeds

#: movement: the engagement is not chosen with the move, the bot is asked after moving
ASK_BOT = -2


@game_fn(inline="always")  # into play_game: the planners' code is linked one level fewer
def movement(ds, nd, na, k0, run, w, cnt, turn, log, srch):
    """ "3. Movement" (p.8): in initiative order each dragon flies exactly its speed
    (:func:`move_one`); a dragon with no move that stays on the board flies off and is out of
    the game. After each move the dragon may engage the one enemy in front of it
    (:func:`~dragonsim.lords.game.mechanics.can_engage`, p.9). With ``OPT_MOVE_EARLY`` a dragon
    later in the order may move before the one whose turn it is (:func:`announce_early`).
    Returns the engagements made.

    The movers are ``w.order[k0:na]`` (a game starts at 0; a look-ahead continues a turn after
    its own move). ``srch`` is the look-ahead's scratch (:func:`~dragonsim.lords.bots.search.
    new_search_work`) when the game has a ``search`` bot, or None: then the look-ahead is not
    compiled in at all (numba prunes the branch), which is also what keeps the look-ahead's
    own games from calling it. Dragons that have moved already (earlier in the phase, p.15)
    are passed over."""
    opt, tb = run.opt, run.tb
    engages = 0
    early = opt[OPT_MOVE_EARLY] == 1
    wizard = opt[OPT_WIZARD] == 1
    if wizard:
        # Lethargy and Vigor (p.25): "during the next movement phase"
        for i in range(nd):
            if ds[i, F_SPELL_MR] != 0 and ds[i, F_ALIVE] == 1:
                apply_spell_mr(ds, i, tb.scalars, opt)
    for k in range(k0, na):
        # with moving earlier (p.15): the dragons that announce now move first, the higher
        # initiative roll first, then the dragon whose turn it was (slots hi..k, marked ones)
        mask = np.int64(0)
        if early:
            mask = announce_early(ds, na, k, run, w, cnt, turn, log)
        hi = na - 1 if mask != 0 else k
        for s in range(hi, k - 1, -1):
            if s != k and (mask >> s) & 1 == 0:
                continue
            engages += move_one(ds, nd, na, s, run, w, cnt, turn, log, srch)
    if wizard:
        for i in range(nd):
            if ds[i, F_SPELL_MR] != 0 and ds[i, F_ALIVE] == 1:
                refresh(ds, i, tb.scalars, opt)  # "Speed is not affected, only turning"
    return engages


@game_fn(inline="always")
def move_one(ds, nd, na, k, run, w, cnt, turn, log, srch):
    """The dragon at initiative slot ``k`` flies its move (unless it is out of play or has
    moved already) and may engage; returns the engagements made (0 or 1). A dragon on the
    ground (advanced rules, p.17) moves on the ground (:func:`ground_move`) or takes off
    (:func:`take_off`); with ``OPT_LANDING`` a dragon whose bot chooses to may land
    (:func:`land`)."""
    opt, mv = run.opt, run.mv
    i = w.order[k]
    if ds[i, F_ALIVE] == 0 or ds[i, F_MOVED] == 1:
        return 0
    jeng = ASK_BOT  # the engagement: chosen with the move (search) or asked after it
    kind = MK_FLY
    if ds[i, F_ALT] == 0:
        if ds[i, F_SPEED] == 0:
            ground_move(ds, i, run, w, cnt, turn, log)
            kind = MK_GROUND
        else:
            if not take_off(ds, i, run, w, cnt, turn, log):
                return 0
            kind = MK_TAKE_OFF
    elif opt[OPT_LANDING] == 1 and choose_land(ds[i, F_POLICY], ds, i, w.pst):
        if land(ds, i, run, w, cnt, turn, log):
            kind = MK_LAND
    if kind == MK_FLY:
        if srch is not None and FAMILIES[ds[i, F_POLICY]] == FAMILY_SEARCH:
            e, dalt, jeng = look_ahead(ds, nd, na, k, run, w, srch, turn)
            if e == LAND:  # search-2 judged landing best (p.17)
                jeng = ASK_BOT
                if land(ds, i, run, w, cnt, turn, log):
                    kind = MK_LAND
                else:
                    e, dalt = choose_move(ds[i, F_POLICY], ds, i, ds[i, F_SPEED], run, w)
        else:
            e, dalt = choose_move(ds[i, F_POLICY], ds, i, ds[i, F_SPEED], run, w)
    if kind == MK_FLY:
        move = (
            np.int64(e),
            np.int64(dalt),
            ds[i, F_SPEED],
            np.int64(MK_FLY),
            ds[i, F_Q],
            ds[i, F_R],
        )
        if not fly(ds, i, move, mv, w, cnt, turn, log):
            return 0
    j = jeng
    if jeng == ASK_BOT:
        j = choose_engage(ds[i, F_POLICY], ds, i, run, w)
    if j >= 0 and can_engage(ds, i, j, opt):
        if log is not None:
            log_row(log, ds, turn, K_ENGAGE, i, j)
        ds[i, F_ENG] = j
        ds[j, F_ENG] = i
        # "The dragon that instigated the close combat is referred to as the attacker"
        # (optional tactics, p.22)
        ds[i, F_ENGAGER] = i
        ds[j, F_ENGAGER] = i
        cnt[C_ENGAGES] += 1
        return 1
    return 0


@game_fn(inline="always")
def finish_turn(ds, nd, na, k0, run, w, cnt, turn, log, srch):
    """The rest of a turn from the movement phase on, its speeds recorded: movement from
    initiative slot ``k0`` (:func:`movement`), then, while more than one team is in play,
    with the rider attacks rule the rider actions (:func:`record_rider_actions`,
    :func:`rider_actions`), then breath targets, breath combat and close combat. Returns
    ``(engagements made, teams in play, one such team)``. The game loop calls it with
    ``k0 = 0``; the look-ahead (:mod:`~dragonsim.lords.bots.search`) continues a turn after a move
    it is judging."""
    opt = run.opt
    made = movement(ds, nd, na, k0, run, w, cnt, turn, log, srch)
    nteams, last_team = teams_alive(ds, nd)
    if nteams > 1 and (opt[OPT_RIDER_ATTACKS] == 1 or opt[OPT_WIZARD] == 1):
        record_rider_actions(ds, na, run, w, turn, log)
        rider_actions(ds, nd, na, run, w, cnt, turn, log)
        nteams, last_team = teams_alive(ds, nd)
    if nteams > 1:
        record_targets(ds, na, run, w, turn, log)
        breath_combat(ds, nd, na, run, w, cnt, turn, log)
        nteams, last_team = teams_alive(ds, nd)
        if nteams > 1:
            close_combat(ds, na, run, w, cnt, turn, log)
            nteams, last_team = teams_alive(ds, nd)
    return made, nteams, last_team


@game_fn
def rollout(ds0, nd, na, k, order, c, run, srch, turn):
    """Play the position ``ds0`` (the dragon at initiative slot ``k`` about to move) forward
    with the look-ahead's candidate ``c`` (``srch.cand[c]``: move ``(e, dalt)`` and engagement
    ``jeng``): the rest of this turn, then up to
    :data:`~dragonsim.lords.bots.search.HORIZON` turns, every dragon the rollout bot; returns
    the look-ahead's value of the end for the mover's team
    (:func:`~dragonsim.lords.bots.search.position_value`). The caller has pointed
    ``srch.rw``'s streams at this rollout's."""
    opt, mv = run.opt, run.mv
    e, dalt, jeng = srch.cand[c, 0], srch.cand[c, 1], srch.cand[c, 2]
    rw = srch.rw
    ds = rw.ds[:nd]
    i = order[k]
    bot = P_ROLLOUT_2 if ds0[i, F_POLICY] == P_SEARCH_2 else P_ROLLOUT
    for j in range(nd):
        for col in range(NF):
            ds[j, col] = ds0[j, col]
        ds[j, F_POLICY] = bot
        ds[j, F_SAMPLES] = ROLLOUT_BREADTH
        ds[j, F_ABLATE] = 0
    for s in range(na):
        rw.order[s] = order[s]
    team = ds[i, F_TEAM]
    if e == LAND:
        if not land(ds, i, run, rw, srch.cnt, turn, None):
            e, dalt = choose_move(bot, ds, i, ds[i, F_SPEED], run, rw)
    if e != LAND:
        apply_move(ds, i, e, dalt, mv.rq, mv.rr, mv.f, mv.bk)
    if jeng >= 0:
        ds[i, F_ENG] = jeng
        ds[jeng, F_ENG] = i
    cnt = srch.cnt
    # the rest of the turn: from the next slot, or with moving earlier (p.15) from the first
    # (the judged move may come before slots not yet flown; movement passes over the moved)
    k1 = 0 if opt[OPT_MOVE_EARLY] == 1 else k + 1
    _, nteams, _ = finish_turn(ds, nd, na, k1, run, rw, cnt, turn, None, None)
    t = turn
    limit = opt[OPT_TURN_LIMIT]
    while nteams > 1 and t < turn + HORIZON and t < limit:
        t += 1
        na2 = initiative(ds, nd, run, rw, cnt)
        record_speeds(ds, na2, run, rw, cnt, t, None)
        _, nteams, _ = finish_turn(ds, nd, na2, 0, run, rw, cnt, t, None, None)
    nteams, last = teams_alive(ds, nd)
    return position_value(ds, nd, team, t, limit, nteams, last)


@game_fn
def look_ahead(ds, nd, na, k, run, w, srch, turn):
    """The move of the ``search`` dragon at initiative slot ``k`` (:mod:`~dragonsim.lords.
    bots.search`): ``(entry, dalt, engaged)``, or ``(-1, 0, -1)`` when no move stays on the
    board (it flies off). The bot proposes its candidates
    (:func:`~dragonsim.lords.bots.search.gather`), the engine plays each forward
    :data:`~dragonsim.lords.bots.search.ROLLOUTS` times (:func:`rollout`, the k-th rollout of
    every candidate on the same streams, drawn from the game's policy stream), and the bot
    picks from the values (:func:`~dragonsim.lords.bots.search.pick`)."""
    nc = gather(ds, nd, k, run, w, srch)
    cand = srch.cand
    if nc == 0:
        return -1, 0, -1
    if nc == 1:
        return cand[0, 0], cand[0, 1], cand[0, 2]
    # the position, kept: each rollout starts from a copy
    ds0 = srch.ds0
    for j in range(nd):
        for c in range(NF):
            ds0[j, c] = ds[j, c]
    base = next_u64(w.pst)
    rw = srch.rw
    for c in range(nc):
        for r in range(ROLLOUTS):
            gk = game_key(base, r)
            rw.gst[0] = purpose_seed(gk, STREAM_GAME)
            rw.pst[0] = purpose_seed(gk, STREAM_POLICY)
            srch.val[c, r] = rollout(
                ds0,
                nd,
                na,
                k,
                w.order,
                c,
                run,
                srch,
                turn,
            )
    return pick(srch, nc, w.pst)


# last: it flushes the caches of the functions defined above it
guard(sys.modules[__name__])
