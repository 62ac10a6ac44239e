"""Hex geometry (rulebook pp. 8-11: facing, moving forward, arc of fire, range key, direction
template; the assumed arc of fire, direction-template ties and board, and the Example of Play,
which omits the range modifier)."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dragonsim.lords.game import hexes as hx

coord = st.integers(-40, 40)
facing = st.integers(0, 5)


def _angle(q, r, f, tq, tr):
    """Float angle (degrees) between facing f and the line to the target, for cross-checks."""

    def xy(a, b):
        return math.sqrt(3) * (a + b / 2), 1.5 * b

    x0, y0 = xy(q, r)
    x1, y1 = xy(tq, tr)
    fx, fy = xy(int(hx.DQ[f]), int(hx.DR[f]))
    vx, vy = x1 - x0, y1 - y0
    c = (vx * fx + vy * fy) / math.hypot(vx, vy) / math.hypot(fx, fy)
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def test_neighbours_are_one_step_and_directions_counter_clockwise():
    """'A dragon may move directly forward into the hex it is facing': each direction is one
    hex away, and the six are 60 degrees apart counter-clockwise (right turn = facing - 1)."""
    for d in range(6):
        q, r = hx.neighbour(0, 0, d)
        assert hx.distance(0, 0, q, r) == 1
        # the next direction counter-clockwise is 60 degrees to the left: y decreases (up)
        q2, r2 = hx.neighbour(0, 0, (d + 1) % 6)
        assert abs(_angle(0, 0, d, q2, r2) - 60) < 1e-9
    assert hx.neighbour(0, 0, hx.E) == (1, 0)
    assert hx.neighbour(0, 0, hx.SE) == (0, 1)


@given(coord, coord, coord, coord)
def test_distance_is_a_metric_and_matches_steps(q1, r1, q2, r2):
    d = hx.distance(q1, r1, q2, r2)
    assert d == hx.distance(q2, r2, q1, r1)
    assert (d == 0) == (q1 == q2 and r1 == r2)
    # walking greedily toward the target takes exactly d steps
    q, r, steps = q1, r1, 0
    while (q, r) != (q2, r2):
        f = hx.facing_toward(q, r, q2, r2)
        q, r = hx.neighbour(q, r, f)
        steps += 1
        assert steps <= d
    assert steps == d


@given(coord, coord, st.integers(0, 6))
def test_rotate_six_times_is_identity_and_preserves_distance(q, r, k):
    q2, r2 = hx.rotate(q, r, k)
    assert hx.distance(0, 0, q2, r2) == hx.distance(0, 0, q, r)
    assert hx.rotate(q2, r2, 6 - k) == (q, r)
    assert hx.rotate(1, 0, k) == (int(hx.DQ[k % 6]), int(hx.DR[k % 6]))


@settings(max_examples=300)
@given(coord, coord, facing, st.integers(-8, 8), st.integers(-8, 8))
def test_arc_area_matches_float_angles_away_from_boundaries(q, r, f, vq, vr):
    """Dark <= 30 degrees, grey <= 60, light <= 90, else out (the assumed lords.arc_degrees)."""
    if vq == 0 and vr == 0:
        assert hx.arc_area(q, r, f, q, r) == hx.OUT
        return
    a = _angle(q, r, f, q + vq, r + vr)
    area = hx.arc_area(q, r, f, q + vq, r + vr)
    for bound in (30, 60, 90):
        if abs(a - bound) < 1e-7:
            return  # exact boundaries are checked below in integers
    expect = hx.DARK if a < 30 else hx.GREY if a < 60 else hx.LIGHT if a < 90 else hx.OUT
    assert area == expect


def test_arc_boundaries_count_in_the_better_area():
    """'A target exactly on a boundary counts in the better area' (the assumed
    lords.arc_degrees)."""
    # (1, 1) from facing E: vector (3, sqrt3*1) -> exactly 30 degrees -> dark
    assert abs(_angle(0, 0, hx.E, 1, 1) - 30) < 1e-9
    assert hx.arc_area(0, 0, hx.E, 1, 1) == hx.DARK
    # (0, 1) = SE neighbour: exactly 60 degrees -> grey
    assert hx.arc_area(0, 0, hx.E, 0, 1) == hx.GREY
    # (-1, 2): exactly 90 degrees -> light (still in the 180-degree arc)
    assert abs(_angle(0, 0, hx.E, -1, 2) - 90) < 1e-9
    assert hx.arc_area(0, 0, hx.E, -1, 2) == hx.LIGHT
    assert hx.arc_area(0, 0, hx.E, -1, 0) == hx.OUT


def test_range_key():
    """The Range Key: 1 very short, 2 short, 3-4 medium, 5 long, 6 very long; beyond 6 none
    ('within 6 hexes')."""
    assert [hx.range_band(d) for d in range(8)] == [-1, 0, 1, 2, 2, 3, 4, -1]


def test_neck_bend_rule():
    """'If the horizontal distance to the target is less than the vertical distance, the dragon
    may not breathe on it. E.g. a 3 step altitude difference ... less than 3 hexes away'."""
    assert not hx.may_breathe_angle(2, 3)
    assert not hx.may_breathe_angle(2, -3)
    assert hx.may_breathe_angle(3, 3)
    assert hx.may_breathe_angle(1, 1)


@settings(max_examples=300)
@given(st.integers(-7, 7), st.integers(-7, 7), facing)
def test_direction_template_matches_float_angles(vq, vr, tf):
    """'Whichever hexside in the target hex the line crosses ... is the direction the attack came
    from. If the line intersects two hexsides, the attacker gets to choose.'"""
    if vq == 0 and vr == 0:
        return
    t1, t2 = hx.direction_template(vq, vr, 0, 0, tf)
    # angle of the attacker as seen from the target, relative to each hexside direction
    angles = [_angle(0, 0, d, vq, vr) for d in range(6)]
    near = [d for d in range(6) if angles[d] < 30 - 1e-7]
    corner = [d for d in range(6) if abs(angles[d] - 30) < 1e-7]
    if near:
        assert t2 == -1 and t1 == (tf - near[0]) % 6
    else:
        assert len(corner) == 2 and t2 >= 0
        assert {t1, t2} == {(tf - d) % 6 for d in corner}


def test_direction_template_front_and_rear():
    # target at origin facing E; attacker straight ahead -> Front, straight behind -> Rear
    assert hx.direction_template(5, 0, 0, 0, hx.E) == (0, -1)
    assert hx.direction_template(-3, 0, 0, 0, hx.E) == (3, -1)
    # attacker to the south-east (the target's right side as it faces east) -> Front Right
    assert hx.direction_template(0, 3, 0, 0, hx.E) == (1, -1)
    # a corner: (1, 1) relative to an E-facing target lies between the E and SE hexsides
    t1, t2 = hx.direction_template(1, 1, 0, 0, hx.E)
    assert {t1, t2} == {0, 1}


def test_example_of_play_geometry():
    """Example of Play, second turn (which omits the range modifier): Kelvinight at (10,0) facing
    W, Lectronist at (9,-4) facing SE: 'the range 5 hexes ... Lectronist is in Kelvinight's grey
    hexes, while Kelvinight is in Lectronist's dark hexes ... attacking Kelvinight through its
    front right hexside'."""
    kq, kr, kf = 10, 0, hx.W
    lq, lr, lf = 9, -4, hx.SE
    assert hx.distance(kq, kr, lq, lr) == 5
    assert hx.range_band(5) == 3  # long range
    assert hx.arc_area(kq, kr, kf, lq, lr) == hx.GREY
    assert hx.arc_area(lq, lr, lf, kq, kr) == hx.DARK
    assert round(_angle(kq, kr, kf, lq, lr)) == 49
    assert round(_angle(lq, lr, lf, kq, kr)) == 11
    assert hx.direction_template(lq, lr, kq, kr, kf) == (1, -1)  # Front Right


def test_example_of_play_moves_reach_the_printed_positions():
    """Turn 2: 'Kelvinight flies 1 hex straight ahead, then turns 180 degrees ... moves ahead 1
    hex and turns 180 degrees again. Then it zips 3 hexes forward'; 'Lectronist moves forward 1
    hex and turns 60 degrees to its left. Then it moves 4 hexes forward, turns 60 degrees to its
    right, moves 4 more hexes forward and finishes with another 60 degree turn to the right.'"""
    q, r, f = 13, 0, hx.W
    q, r = hx.forward(q, r, f, 1)
    f = hx.turn(f, 3)
    q, r = hx.forward(q, r, f, 1)
    f = hx.turn(f, 3)
    q, r = hx.forward(q, r, f, 3)
    assert (q, r, f) == (10, 0, hx.W)
    q, r, f = 0, 0, hx.E
    q, r = hx.forward(q, r, f, 1)
    f = hx.turn(f, 1)
    q, r = hx.forward(q, r, f, 4)
    f = hx.turn(f, -1)
    q, r = hx.forward(q, r, f, 4)
    f = hx.turn(f, -1)
    assert (q, r, f) == (9, -4, hx.SE)


def test_board_is_33_across_24_deep():
    """The board (lords.board): 33 hexes across (derived from the Example of Play) by 24 deep
    (assumed), offset rows."""
    cells = [(c, rw) for rw in range(-2, 27) for c in range(-3, 37)]
    on = [(c, rw) for c, rw in cells if hx.on_board(*hx.from_offset(c, rw), 33, 24)]
    assert len(on) == 33 * 24
    for c, rw in cells:
        q, r = hx.from_offset(c, rw)
        assert hx.to_offset(q, r) == (c, rw)
    # opposite edges of a row are 32 hexes apart (the Example of Play's 9 + 10 + 12 + 1)
    q0, r0 = hx.from_offset(0, 12)
    q1, r1 = hx.from_offset(32, 12)
    assert hx.distance(q0, r0, q1, r1) == 32


def test_facing_toward_points_at_neighbours():
    for d in range(6):
        q, r = hx.neighbour(3, -2, d)
        assert hx.facing_toward(3, -2, q, r) == d
        assert hx.adjacent_facing(3, -2, d, q, r)
        assert not hx.adjacent_facing(3, -2, (d + 1) % 6, q, r)


def test_tables_are_int64():
    assert hx.DQ.dtype == np.int64 and hx.DR.dtype == np.int64


@given(
    st.integers(-8, 8),
    st.integers(-8, 8),
    st.integers(0, 5),
    st.sampled_from([0, 30, 60, 90, 120, 150, 180]),
)
def test_within_angle_is_exact_for_every_multiple_of_30(vq, vr, f, deg):
    """lords.arc_degrees may be overridden in steps of 30 degrees; the integer test agrees
    with the float angle (boundaries inclusive)."""
    if vq == 0 and vr == 0:
        return
    d = hx.dot(vq, vr, int(hx.DQ[f]), int(hx.DR[f]))
    n = hx.norm2(vq, vr)
    ang = math.degrees(math.acos(max(-1.0, min(1.0, d / (2 * math.sqrt(n))))))
    if abs(ang - deg) > 1e-6:
        assert hx.within_angle(d, n, deg) == (ang < deg)
    else:
        assert hx.within_angle(d, n, deg)


def test_arc_limits_from_the_rules_reach_odds_and_kernel():
    """An override of the assumed arc (lords.arc_degrees) changes what may be breathed at:
    with a light area out to 180 deg a dragon may breathe at a target behind it."""
    from dragonsim.lords.game import odds
    from dragonsim.rules import lords_rules

    wide = lords_rules({"arc_degrees": {"dark": 30, "grey": 60, "light": 180}})
    behind = dict(attacker_at=(0, 0, hx.W, 3), target_at=(3, 0, hx.W, 3))
    assert not odds.breath_at("Reaper", "Skyblazer", **behind)["allowed"]
    assert odds.breath_at("Reaper", "Skyblazer", rules=wide, **behind)["area"] == "light"
    assert hx.arc_area(0, 0, hx.W, 3, 0, 30, 60, 180) == hx.LIGHT
    assert hx.arc_area(0, 0, hx.W, 3, 0) == hx.OUT
