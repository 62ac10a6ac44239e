"""Bots: every decision legal (replayed by the independent checker in
``tests/lords_reference.py``), and bots differ measurably."""

import lords_reference as ref
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dragonsim.errors import UserError
from dragonsim.lords import bots as B
from dragonsim.lords import engine as E
from dragonsim.lords.api import prepare
from dragonsim.lords.bots import POLICIES, policy_id
from dragonsim.lords.bots import dispatch as BD
from dragonsim.lords.bots import plan as BP
from dragonsim.lords.game import mechanics as M
from dragonsim.lords.game import movetables as MT
from dragonsim.lords.game import state as S
from dragonsim.lords.game.tables import S_ALTITUDE_LEVELS, S_BOARD_DEPTH, S_BOARD_WIDTH

DRAGONS = [
    "Reaper",
    "Skyblazer",
    "Lectronist",
    "Kelvinight",
    "Zippinchill",
    "Tankerous",
    "Ozonic",
    "Slash",
]


def _play_logged(a, b, pols, seed, game, turn_limit=60):
    prep = prepare(a, b, policies=pols, turn_limit=turn_limit, plan_samples=16)
    args = prep["args"]
    cnt, log = E.logged_game(game, seed, *args, 5000)
    return prep, cnt, log


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(DRAGONS),
    st.sampled_from(DRAGONS),
    st.sampled_from(list(POLICIES)),
    st.sampled_from(list(POLICIES)),
    st.integers(0, 2**31),
    st.integers(0, 10**6),
)
def test_every_bot_decision_is_legal(a, b, pa, pb, seed, game):
    """'Every move a bot makes must be legal': speeds (min/max, +3, the speed-10 streak and
    cool-down), moves (exact points, turning costs, no two turns in a row, no more than 180
    degrees, one altitude level per hex, the board edge, never ending in an occupied hex),
    engagements and breath targets, replayed independently of the engine."""
    prep, cnt, log = _play_logged(a, b, (pa, pb), seed, game)
    assert cnt[S.C_GAMES] == 1
    kinds = set(int(k) for k in log[:, S.L_KIND])
    assert S.K_MOVE in kinds and S.K_SPEED in kinds and S.K_END in kinds
    bad = ref.check_log(log, 2, prep["args"][0], prep["tables"])
    assert bad == [], bad[:3]


def test_checker_catches_an_illegal_move():
    """A test that would pass if the checker were missing is a defect: tamper with a logged
    move (further than the speed allows, a speed over the limits, flying off the board from
    where a move stays on it: the assumed rule lords.board takes a dragon that leaves out of
    the game, and the bots promise to leave only when forced) and the checker must object."""
    prep, cnt, log = _play_logged("Reaper", "Skyblazer", ("hunter", "hunter"), 3, 7)
    moves = np.flatnonzero(log[:, S.L_KIND] == S.K_MOVE)
    bad = log.copy()
    k = moves[0]
    bad[k, S.L_A + 2] += 20  # end 20 hexes further east: beyond any speed
    assert ref.check_log(log, 2, prep["args"][0], prep["tables"]) == []
    assert any(v.kind == "move" for v in ref.check_log(bad, 2, prep["args"][0], prep["tables"]))
    bad = log.copy()
    bad[k, S.L_KIND] = S.K_LEAVE  # fly off the board from where a move stays on it
    assert any(v.kind == "leave" for v in ref.check_log(bad, 2, prep["args"][0], prep["tables"]))
    bad = log.copy()
    s = np.flatnonzero(log[:, S.L_KIND] == S.K_SPEED)[-1]
    bad[s, S.L_A] = 99
    assert any(v.kind == "speed" for v in ref.check_log(bad, 2, prep["args"][0], prep["tables"]))


def test_games_end_and_dice_are_rolled():
    """Conformance: games end (a winner, a draw, or the turn limit) and counters add up."""
    prep = prepare(
        "Reaper", "Skyblazer", policies=("random", "random"), turn_limit=300, plan_samples=8
    )
    c = E.duel_kernel(0, 300, 5, *prep["args"], np.zeros((0, S.N_REC), np.int64))
    assert c[S.C_GAMES] == 300
    assert c[S.C_WIN] + c[S.C_WIN + 1] + c[S.C_DRAWS] == 300
    assert c[S.C_TURN_HIST : S.C_TURN_HIST + S.HIST_MAX + 1].sum() == 300
    assert c[S.C_DICE] > 0


def test_unknown_policy_is_a_user_error():
    with pytest.raises(UserError, match="unknown policy 'hunterr'.*did you mean 'hunter'"):
        policy_id("hunterr")
    assert policy_id("HUNTER") == POLICIES["hunter"][0]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.sampled_from(list(POLICIES)))
def test_multi_dragon_games_are_legal(seed, pol):
    """Free-for-all and team games with more dragons: same checks, more occupied hexes."""
    from dragonsim.lords.api import dragon_row
    from dragonsim.lords.game.sheets import sheet

    names = ["Reaper", "Skyblazer", "Zippinchill", "Lectronist"]
    prep = prepare("Reaper", "Skyblazer", policies=(pol, pol), turn_limit=40, plan_samples=8)
    rows = np.stack(
        [dragon_row(sheet(nm), t, pol) for nm, t in zip(names, [0, 1, 0, 1], strict=True)]
    )
    args = list((rows, np.zeros((4, 5), np.int64), *prep["args"][2:]))
    # move tables for every maneuverability rating (those of the four sheets, not two)
    mi = next(k for k, a in enumerate(args) if isinstance(a, MT.MoveTables))
    args[mi] = MT.move_tables(prep["tables"].turn_cost)
    cnt, log = E.logged_game(1, seed, *args, 8000)
    assert ref.check_log(log, 4, rows, prep["tables"]) == []


@pytest.mark.parametrize("arc_override", [None, [30, 90, 120]])
def test_planner_geometry_table_is_exactly_the_direct_computation(arc_override):
    """The planners' precomputed geometry (To-Hit table arc and range rows, the neck bend and
    arc of fire, p.10; the board edge) holds, for every offset within breath range and every
    facing, exactly the modifiers and area that target_number computes, and the room ahead
    of every hex; also under overridden arc limits (the assumed lords.arc_degrees)."""
    from dragonsim.lords.game import hexes as hx
    from dragonsim.lords.game.tables import S_MAX_RANGE, kernel_tables
    from dragonsim.rules import lords_rules

    rules = (
        lords_rules()
        if arc_override is None
        else lords_rules(
            {"lords.arc_degrees": dict(zip(("dark", "grey", "light"), arc_override, strict=True))}
        )
    )
    tb = kernel_tables(rules)
    rng = int(tb.scalars[S_MAX_RANGE])
    g = BP.geometry_table(tb.arc, tb.range_mod, rng, 33, 24)
    side = g[BP.G_SIDE]
    seen = set()
    for dq in range(-rng, rng + 1):
        for dr in range(-rng, rng + 1):
            d = hx.distance(0, 0, dq, dr)
            for f in range(6):
                v = g[g[BP.G_SHOT] + 6 * ((dq + rng) * side + dr + rng) + f]
                area = hx.arc_area(0, 0, f, dq, dr, tb.arc[3], tb.arc[4], tb.arc[5])
                if not 1 <= d <= rng or area < 0:
                    assert v == BP.OUT_SHOT
                    continue
                assert v & 3 == area
                assert (v >> 2) - BP.SHOT_BIAS == tb.arc[area] + tb.range_mod[d]
                seen.add(area)
    assert seen == {0, 1, 2}
    for r in range(24):
        for col in range(33):
            q = col - (r - (r & 1)) // 2
            for f in range(6):
                room = g[g[BP.G_ROOM] + 6 * (r * 33 + col) + f]
                ahead = 0
                while ahead < 4 and hx.on_board(
                    q + (ahead + 1) * int(hx.DQ[f]), r + (ahead + 1) * int(hx.DR[f]), 33, 24
                ):
                    ahead += 1
                assert room == ahead


def test_packed_move_copy_visits_the_scattered_order():
    """The planners' packed copy of the move table: walking a block from position
    ``k * inv % c`` visits exactly the entries ``k, k + step, k + 2 step, ...`` (mod c), and
    each record holds that entry's offset, box, hexes and facing change for every facing."""
    prep = prepare("Reaper", "Skyblazer")
    mv = prep["moves"]
    checked = 0
    for mr in range(mv.off.shape[0]):
        for b in range(mv.off.shape[1] - 1):
            a, z = int(mv.off[mr, b]), int(mv.off[mr, b + 1])
            c = z - a
            if c < 2:
                continue
            step = MT.scatter_step(c)
            k = (7 * c) // 11
            pos = (k * int(mv.inv[mr, b])) % c
            for t in range(min(c, 40)):
                e = a + (k + t * step) % c
                p = a + (pos + t) % c
                assert mv.pe[p] == e
                for f in range(6):
                    rec = mv.pk[f, p]
                    assert (rec[MT.PK_RQ], rec[MT.PK_RR]) == (mv.rq[e, f], mv.rr[e, f])
                    assert list(rec[MT.PK_BOX : MT.PK_BOX + 6]) == list(mv.box[e, f])
                    assert (rec[MT.PK_H], rec[MT.PK_F]) == (mv.h[e], mv.f[e])
                    assert rec[MT.PK_F_END] == (f + mv.f[e]) % 6
            checked += 1
    assert checked > 20


def test_planner_hit_row_shifted_by_one_reads_zero_below_and_flat_above():
    """The planners' branch-free P(hit) row: entry k is P(hit) of target number k - 1 (To-Hit
    table, 2 always misses and 12 always hits, p.10), 0 below target number 0, and P(hit) is
    the same for every number above 12 (only the automatic hit is left), so clamping the
    index at the table's end changes nothing."""
    from fractions import Fraction

    from dragonsim.lords.game import odds

    plan = prepare("Reaper", "Skyblazer")["args"][-1]
    assert plan[BP.PLAN_P_HIT1, 0] == 0.0
    for k in range(1, BP.PLAN_WIDTH):
        assert plan[BP.PLAN_P_HIT1, k] == plan[BP.PLAN_P_HIT, k - 1]
    assert plan[BP.PLAN_P_HIT, 7] == float(odds.p_to_hit(7))
    assert set(plan[BP.PLAN_P_HIT, 13:]) == {float(Fraction(1, 36))}


def _planner(a, b, pol):
    """The tables of a planner for dragons ``a`` and ``b`` and the run's record its moves read
    (the rules' range row in force, the planners' geometry): ``(prep, run)``."""
    from dragonsim.lords.game.tables import S_MAX_RANGE

    prep = prepare(a, b, policies=(pol, pol))
    mv, tb = prep["moves"], prep["tables"]
    sc = tb.scalars
    width, depth = int(sc[S_BOARD_WIDTH]), int(sc[S_BOARD_DEPTH])
    geo = BP.geometry_table(tb.arc, tb.range_mod, sc[S_MAX_RANGE], width, depth)
    dragons, scen, opt, _, _, plan = prep["args"]
    return prep, E.Inputs(dragons, scen, opt, tb, tb.range_mod, mv, plan, geo)


def _choose_move(pid, ds, speed, run, samples, st):
    """Bot ``pid``'s move for dragon 0 of ``ds`` flying ``speed`` points, scoring ``samples``
    end states (``F_SAMPLES``) and drawing from the policy stream ``st``."""
    ds[0, S.F_SAMPLES] = samples
    return BD.choose_move(pid, ds, 0, speed, run, E.new_work()._replace(pst=st))


@pytest.mark.parametrize("pol", ["hunter", "brawler", "sniper"])
def test_planner_scans_every_altitude_change_before_flying_off(pol):
    """A dragon leaves the board only when no move stays on it (assumed, rule lords.board; "A
    dragon may change its altitude by climbing or diving at any time while moving 1 hex
    straight forward", How to Climb: "This costs 2 movement points"). Tankerous (MR I) in
    the top-left corner facing north-west at Very Low, speed 4, its enemy level with it:
    nothing at its own
    altitude stays on the board, which is all a planner samples then, but a climb does. The
    planner must find the climb."""
    prep, run = _planner("Tankerous", "Reaper", pol)
    mv = prep["moves"]
    ds = np.zeros((2, S.NF), np.int64)
    ds[:, S.F_ALIVE] = 1
    ds[1, S.F_TEAM] = 1
    ds[:, S.F_ENG] = -1
    ds[0, [S.F_Q, S.F_R, S.F_F, S.F_ALT, S.F_MR]] = (1, 0, 2, 1, 8)  # column 1, row 0
    ds[1, [S.F_Q, S.F_R, S.F_F, S.F_ALT]] = (10, 12, 3, 1)
    fits = [
        any(
            M.move_fits(ds, 0, e, dalt, mv, prep["tables"].scalars)
            for e in range(mv.off[8, 4 - dalt], mv.off[8, 5 - dalt])
        )
        for dalt in (0, 1)
    ]
    assert fits == [False, True]
    st = np.zeros(1, np.uint64)
    for seed in range(5):
        st[0] = seed
        e, dalt = _choose_move(policy_id(pol), ds, 4, run, 16, st)
        assert e >= 0 and dalt == 1
        assert M.move_fits(ds, 0, e, dalt, mv, prep["tables"].scalars)


def _direct_score(pid, ds, i, q, r, f, alt, tb, sc, plan, width, depth):
    """A planner's score of dragon ``i`` ending at ``(q, r, f, alt)``, computed the slow way:
    the rulebook's target numbers from :func:`M.target_number` (arc area, range, neck bend,
    altitude) for both shots, the close-combat odds, the room ahead, hex by hex."""
    from dragonsim.lords.game import hexes as hx
    from dragonsim.lords.game.tables import S_CC_SELF_DAMAGE_DICE

    at = ds.copy()
    at[i, [S.F_Q, S.F_R, S.F_F, S.F_ALT]] = (q, r, f, alt)
    best_off, danger, nr, eng = 0.0, 0.0, None, -1e9
    for j in range(ds.shape[0]):
        if j == i or ds[j, S.F_ALIVE] != 1 or ds[j, S.F_TEAM] == ds[i, S.F_TEAM]:
            continue
        qj, rj = int(ds[j, S.F_Q]), int(ds[j, S.F_R])
        d = hx.distance(q, r, qj, rj)
        nr = d if nr is None else min(nr, d)
        if ds[j, S.F_ENG] >= 0:
            continue
        tn = M.target_number(at, i, j, (q, r, f, alt), tb, tb.range_mod)
        if tn >= 0:
            best_off = max(best_off, BP.p_hit(plan, tn) * plan[BP.PLAN_E_DMG, ds[i, S.F_BREATH]])
        tn2 = M.target_number(at, j, i, M.standing(at, j), tb, tb.range_mod)
        if tn2 >= 0:
            w = 1.0 if ds[j, S.F_MOVED] else 0.6
            danger += w * BP.p_hit(plan, tn2) * plan[BP.PLAN_E_DMG, ds[j, S.F_BREATH]]
            area = hx.arc_area(qj, rj, int(ds[j, S.F_F]), q, r, tb.arc[3], tb.arc[4], tb.arc[5])
            if B.KINDS[pid] == B.P_SNIPER and area <= 1:
                danger += 2.0
        if (
            ds[j, S.F_MOVED] == 1
            and ds[j, S.F_ALT] == alt
            and alt > 1
            and hx.adjacent_facing(q, r, f, qj, rj)
        ):
            eng = max(
                eng, BP.engage_value(at, i, j, plan, tb.cc_by_mr, int(sc[S_CC_SELF_DAMAGE_DICE]))
            )
    if nr is None:
        return 0.0
    edge = 0.4 * (4 - BP.room_ahead(q, r, f, width, depth))
    if B.KINDS[pid] == B.P_BRAWLER:
        return -1.0 * nr - edge + (100.0 if eng > -1e9 else 0.0)
    if B.KINDS[pid] == B.P_SNIPER:
        s = best_off - 1.5 * danger - edge
        return s - (3.0 * (3 - nr) if nr < 3 else 0.3 * (nr - 5) if nr > 5 else 0.0)
    s = best_off - danger - edge - 0.05 * nr
    return eng if eng > -1e9 and eng > s else s


@pytest.mark.parametrize("pol", ["hunter", "brawler", "sniper"])
def test_batched_planner_picks_the_best_end_state_by_the_direct_computation(pol):
    """The planners score end states in vectorised batches (enemy by enemy, with table
    lookups). With a sample larger than any block they score every legal end state of the
    two altitude changes they consider, so the move chosen must be one that scores the
    maximum when every end state is scored the slow way (:func:`_direct_score`: target
    numbers by the To-Hit rules, p.10, for both shots; the engagement conditions, p.12;
    the room ahead). Random 2- and 3-dragon positions, some dragons allied, moved or
    engaged."""
    from dragonsim.lords.game import hexes as hx

    prep, run = _planner("Reaper", "Skyblazer", pol)
    mv, tb = prep["moves"], prep["tables"]
    plan = prep["args"][-1]
    sc = tb.scalars
    width, depth, levels = (int(x) for x in sc[[S_BOARD_WIDTH, S_BOARD_DEPTH, S_ALTITUDE_LEVELS]])
    rng = np.random.default_rng(20261130 + len(pol))
    pid = policy_id(pol)
    checked = 0
    while checked < 8:
        nd = int(rng.integers(2, 4))
        ds = np.zeros((nd, S.NF), np.int64)
        ds[:, S.F_ALIVE] = 1
        ds[:, S.F_ENG] = -1
        ds[1:, S.F_TEAM] = 1
        if nd == 3 and rng.random() < 0.5:
            ds[2, S.F_TEAM] = 0  # an ally of the mover
        hexes = set()
        for j in range(nd):
            while True:  # a free hex, near the others so shots and engagements happen
                col, row = int(rng.integers(8, 20)), int(rng.integers(6, 16))
                if (col, row) not in hexes:
                    hexes.add((col, row))
                    break
            q, r = hx.from_offset(col, row)
            ds[j, [S.F_Q, S.F_R, S.F_F, S.F_ALT]] = (q, r, rng.integers(6), rng.integers(1, 6))
            ds[j, [S.F_MR, S.F_BREATH, S.F_CLAW, S.F_TOHIT]] = (
                rng.integers(2, 9),
                rng.integers(5),
                rng.integers(5),
                rng.integers(-1, 3),
            )
            ds[j, S.F_MOVED] = int(j > 0 and rng.random() < 0.7)
        if nd == 3 and rng.random() < 0.3:
            ds[1, S.F_ENG], ds[2, S.F_ENG] = 2, 1
        speed = int(rng.integers(3, 11))
        st = np.zeros(1, np.uint64)
        e, dalt = _choose_move(pid, ds, speed, run, 1 << 20, st)
        # the altitude changes the planner considers: none and one level (a brawler: all
        # the way) towards the nearest enemy
        alt0, mr, f0 = int(ds[0, S.F_ALT]), int(ds[0, S.F_MR]), int(ds[0, S.F_F])
        near = min(
            (hx.distance(ds[0, S.F_Q], ds[0, S.F_R], ds[j, S.F_Q], ds[j, S.F_R]), j)
            for j in range(nd)
            if ds[j, S.F_TEAM] != ds[0, S.F_TEAM]
        )[1]
        full = int(ds[near, S.F_ALT]) - alt0
        other = full if B.KINDS[pid] == B.P_BRAWLER else int(np.sign(full))
        scores = {}
        for d in sorted({0, other}):
            b = speed - d
            if not (1 - alt0 <= d <= levels - alt0 and 0 <= b < mv.off.shape[1] - 1):
                continue
            for k in range(mv.off[mr, b], mv.off[mr, b + 1]):
                if M.move_fits(ds, 0, k, d, mv, sc):
                    q = int(ds[0, S.F_Q] + mv.rq[k, f0])
                    r = int(ds[0, S.F_R] + mv.rr[k, f0])
                    scores[(k, d)] = _direct_score(
                        pid,
                        ds,
                        0,
                        q,
                        r,
                        (f0 + int(mv.f[k])) % 6,
                        alt0 + d,
                        tb,
                        sc,
                        plan,
                        width,
                        depth,
                    )
        if not scores:
            continue  # a corner or a crowd: the full scan is another test's business
        assert (e, dalt) in scores
        assert scores[(e, dalt)] == pytest.approx(max(scores.values()), rel=1e-12, abs=1e-12)
        checked += 1


def test_target_grid_finds_every_end_state_by_where_it_ends():
    """``MoveTables.tg``: each block's entries by end offset (dragon facing E) and facing
    change, every entry exactly once and nothing else."""
    mv = prepare("Reaper", "Skyblazer")["moves"]
    for mr in range(mv.off.shape[0]):
        for b in range(mv.off.shape[1] - 1):
            a, z = int(mv.off[mr, b]), int(mv.off[mr, b + 1])
            go = int(mv.tg_off[mr, b])
            if z <= a:
                assert go == -1
                continue
            side = 2 * b + 1
            grid = mv.tg[go : go + side * side * 6]
            assert sorted(grid[grid >= 0].tolist()) == list(range(a, z))
            for e in range(a, z, 7):
                k = ((int(mv.dq[e]) + b) * side + int(mv.dr[e]) + b) * 6 + int(mv.f[e])
                assert grid[k] == e


def test_hunter_finds_the_shot_from_behind_its_enemy():
    """hunter-2 looks up the end states on the three hexes at the nearest enemy's back,
    facing it or one hexside off (out of its arc, in mine at point-blank range: To-Hit,
    p.10), at both altitude changes it considers. Scoring only one sampled end state per
    altitude change, it must still choose a move at least as good, by the direct
    computation, as every legal one of those."""
    from dragonsim.lords.game import hexes as hx

    prep, run = _planner("Reaper", "Skyblazer", "hunter")
    mv, tb = prep["moves"], prep["tables"]
    plan = prep["args"][-1]
    sc = tb.scalars
    width, depth, levels = (int(x) for x in sc[[S_BOARD_WIDTH, S_BOARD_DEPTH, S_ALTITUDE_LEVELS]])
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(400):
        ds = np.zeros((2, S.NF), np.int64)
        ds[:, S.F_ALIVE] = 1
        ds[:, S.F_ENG] = -1
        ds[1, S.F_TEAM] = 1
        for j in range(2):
            q, r = hx.from_offset(int(rng.integers(6, 27)), int(rng.integers(6, 18)))
            ds[j, [S.F_Q, S.F_R, S.F_F, S.F_ALT, S.F_MR, S.F_BREATH, S.F_TOHIT]] = (
                q,
                r,
                rng.integers(6),
                rng.integers(2, 5),
                4,
                rng.integers(5),
                1,
            )
        ds[1, S.F_MOVED] = 1
        q0, r0, f0, alt0 = (int(x) for x in ds[0, [S.F_Q, S.F_R, S.F_F, S.F_ALT]])
        qe, re_, fe = (int(x) for x in ds[1, [S.F_Q, S.F_R, S.F_F]])
        if (q0, r0) == (qe, re_):
            continue
        speed = int(rng.integers(5, 11))
        full = int(ds[1, S.F_ALT]) - alt0
        rear = {}
        for rel in (2, 3, 4):
            d = (fe + rel) % 6
            rear[(qe + int(hx.DQ[d]), re_ + int(hx.DR[d]))] = (d + 3) % 6
        best_rear = None
        for dalt in sorted({0, int(np.sign(full))}):
            b = speed - dalt
            if not (1 - alt0 <= dalt <= levels - alt0 and 0 <= b < mv.off.shape[1] - 1):
                continue
            for k in range(mv.off[4, b], mv.off[4, b + 1]):
                end = (q0 + int(mv.rq[k, f0]), r0 + int(mv.rr[k, f0]))
                f = (f0 + int(mv.f[k])) % 6
                if end not in rear or (f - rear[end]) % 6 not in (0, 1, 5):
                    continue
                if not M.move_fits(ds, 0, k, dalt, mv, sc):
                    continue
                s = _direct_score(
                    B.P_HUNTER, ds, 0, *end, f, alt0 + dalt, tb, sc, plan, width, depth
                )
                best_rear = s if best_rear is None else max(best_rear, s)
        if best_rear is None:
            continue
        e, dalt = _choose_move(B.P_HUNTER, ds, speed, run, 1, np.zeros(1, np.uint64))
        end = (q0 + int(mv.rq[e, f0]), r0 + int(mv.rr[e, f0]))
        chosen = _direct_score(
            B.P_HUNTER,
            ds,
            0,
            *end,
            (f0 + int(mv.f[e])) % 6,
            alt0 + dalt,
            tb,
            sc,
            plan,
            width,
            depth,
        )
        assert chosen >= best_rear - 1e-12
        checked += 1
    assert checked >= 20
