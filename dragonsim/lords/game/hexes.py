"""Hex geometry for Dragon Lords (numba-compilable, plain ints).

Coordinates are axial ``(q, r)`` on pointy-top hexes. Directions (= facings) are indexed
counter-clockwise as seen on the map::

    0 E (1, 0)   1 NE (1, -1)   2 NW (0, -1)   3 W (-1, 0)   4 SW (-1, 1)   5 SE (0, 1)

so a right turn of 60 degrees is ``facing - 1 (mod 6)`` and a left turn ``facing + 1``.

Exact angles
------------
A hex centre is at ``x = sqrt(3) * (q + r/2)``, ``y = 1.5 * r`` (y grows downwards). Scaling
by ``2/sqrt(3)`` gives the vector ``(a, sqrt(3) * b)`` with ``a = 2q + r`` and ``b = r``, whose
dot products are integers: for offsets ``u = (a1, b1)`` and ``v = (a2, b2)``,
``u . v = a1*a2 + 3*b1*b2`` and every unit direction has squared length 4. The angle between a
facing ``f`` and an offset ``v`` therefore satisfies ``cos = D / (2 sqrt(N))`` with integer
``D = v . f`` and ``N = |v|^2``, and every boundary the rules use is an integer comparison:

* angle <= 30 degrees  <=>  ``D >= 0 and D*D >= 3*N``
* angle <= 60 degrees  <=>  ``D >= 0 and D*D >= N``
* angle <= 90 degrees  <=>  ``D >= 0``

so "a target exactly on a boundary counts in the better area" (the assumed arc of fire,
rule ``lords.arc_degrees``) is exact.

Board
-----
The standard layout is 33 hexes across (east-west: derived from the Example of Play, whose
dragons placed "directly across the map" start 32 hexes apart) by 24 deep (assumed; rule
``lords.board``), stored as offset rows ("odd-r": odd rows shifted half a hex east): column
``col = q + (r - (r & 1)) // 2``, row ``r``.
"""

from __future__ import annotations

import numpy as np

from ..._kernels import game_fn

__all__ = [
    "DQ",
    "DR",
    "E",
    "NE",
    "NW",
    "W",
    "SW",
    "SE",
    "DIRECTION_NAMES",
    "TEMPLATE_NAMES",
    "DARK",
    "GREY",
    "LIGHT",
    "OUT",
    "AREA_NAMES",
    "distance",
    "neighbour",
    "forward",
    "turn",
    "rotate",
    "dot",
    "norm2",
    "arc_area",
    "within_angle",
    "range_band",
    "may_breathe_angle",
    "hexside",
    "direction_template",
    "facing_toward",
    "to_offset",
    "from_offset",
    "on_board",
    "adjacent_facing",
]

#: Axial steps by direction 0..5 (E, NE, NW, W, SW, SE).
DQ = np.array([1, 1, 0, -1, -1, 0], dtype=np.int64)
DR = np.array([0, -1, -1, 0, 1, 1], dtype=np.int64)
E, NE, NW, W, SW, SE = range(6)
DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")

#: Direction template hexsides relative to the target's facing (rulebook hexsides 1..6).
TEMPLATE_NAMES = ("Front", "Front Right", "Rear Right", "Rear", "Rear Left", "Front Left")

#: Arc-of-fire areas (index into the rules' arc modifier table); OUT = not in the arc.
DARK, GREY, LIGHT, OUT = 0, 1, 2, -1
AREA_NAMES = ("dark", "grey", "light")

BOARD_WIDTH = 33
BOARD_DEPTH = 24


@game_fn(inline="always")
def distance(q1, r1, q2, r2):
    """Hex distance between ``(q1, r1)`` and ``(q2, r2)``."""
    dq = q1 - q2
    dr = r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@game_fn(inline="always")
def _dq(d):
    # branch-free table lookups that numba can inline without a global array
    return (1, 1, 0, -1, -1, 0)[d]


@game_fn(inline="always")
def _dr(d):
    return (0, -1, -1, 0, 1, 1)[d]


@game_fn(inline="always")
def neighbour(q, r, d):
    """The hex next to ``(q, r)`` in direction ``d`` (0..5)."""
    return q + _dq(d), r + _dr(d)


@game_fn(inline="always")
def forward(q, r, facing, steps):
    """The hex ``steps`` straight ahead of ``(q, r)`` facing ``facing``."""
    return q + steps * _dq(facing), r + steps * _dr(facing)


@game_fn(inline="always")
def turn(facing, sixths):
    """Facing after turning ``sixths`` hexsides counter-clockwise (left); negative = right."""
    return (facing + sixths) % 6


@game_fn(inline="always")
def rotate(dq, dr, sixths):
    """Rotate the axial offset ``(dq, dr)`` by ``sixths`` * 60 degrees counter-clockwise."""
    k = sixths % 6
    for _ in range(k):
        dq, dr = dq + dr, -dq
    return dq, dr


@game_fn(inline="always")
def dot(dq1, dr1, dq2, dr2):
    """Scaled dot product of two axial offsets (see module notes): integer, exact."""
    return (2 * dq1 + dr1) * (2 * dq2 + dr2) + 3 * dr1 * dr2


@game_fn(inline="always")
def norm2(dq, dr):
    """Scaled squared length of an axial offset (a unit step has 4)."""
    a = 2 * dq + dr
    return a * a + 3 * dr * dr


@game_fn(inline="always")
def within_angle(d, n, degrees):
    """True when the angle whose cosine is ``d / (2 sqrt(n))`` is at most ``degrees``.

    ``d`` and ``n`` are the integer dot product with a unit facing and the squared length (see
    module notes); ``degrees`` is a multiple of 30 in 0..180, for which ``4 cos^2`` is an
    integer (4, 3, 1, 0, 1, 3, 4), so the comparison is exact.
    """
    if degrees >= 180:
        return True
    if degrees < 0:
        return False
    s = degrees // 30
    k = 4 if (s == 0 or s == 6) else (3 if (s == 1 or s == 5) else (1 if (s == 2 or s == 4) else 0))
    if degrees <= 90:
        return d >= 0 and d * d >= k * n
    return d >= 0 or d * d <= k * n


@game_fn
def arc_area(q, r, facing, tq, tr, dark=30, grey=60, light=90):
    """Area of the arc of fire of a dragon at ``(q, r)`` facing ``facing`` that ``(tq, tr)`` is in.

    Returns DARK (0, angle <= ``dark`` degrees), GREY (1, <= ``grey``), LIGHT (2, <= ``light``)
    or OUT (-1, beyond, or the same hex). The limits are the rules' ``lords.arc_degrees``
    (multiples of 30; assumed 30/60/90). Boundaries count in the better area, exactly.
    """
    vq = tq - q
    vr = tr - r
    if vq == 0 and vr == 0:
        return -1
    d = dot(vq, vr, _dq(facing), _dr(facing))
    n = norm2(vq, vr)
    if within_angle(d, n, dark):
        return 0
    if within_angle(d, n, grey):
        return 1
    if within_angle(d, n, light):
        return 2
    return -1


@game_fn(inline="always")
def range_band(dist):
    """The Range Key: 0 very short (1 hex), 1 short (2), 2 medium (3-4), 3 long (5),
    4 very long (6); -1 beyond 6 hexes or the same hex."""
    if dist == 1:
        return 0
    if dist == 2:
        return 1
    if dist == 3 or dist == 4:
        return 2
    if dist == 5:
        return 3
    if dist == 6:
        return 4
    return -1


@game_fn(inline="always")
def may_breathe_angle(dist, alt_diff):
    """The neck-bend rule: "If the horizontal distance to the target is less than the vertical
    distance, the dragon may not breathe on it." ``alt_diff`` in altitude steps."""
    return dist >= abs(alt_diff)


@game_fn
def hexside(vq, vr):
    """Which hexside(s) of a hex the line from its centre towards offset ``(vq, vr)`` crosses.

    Returns ``(d1, d2)``: the direction index of the hexside, and a second one when the line
    passes exactly through the corner between two hexsides (else ``d2 = -1``).
    """
    n = norm2(vq, vr)
    d1 = -1
    d2 = -1
    for d in range(6):
        x = dot(vq, vr, _dq(d), _dr(d))
        if x > 0 and x * x >= 3 * n:  # within 30 degrees of direction d
            if d1 < 0:
                d1 = d
            else:
                d2 = d
    # keep the pair in counter-clockwise order (d2 = d1 + 1) for a stable answer
    if d2 >= 0 and (d1 + 1) % 6 != d2:
        d1, d2 = d2, d1
    return d1, d2


@game_fn
def direction_template(aq, ar, tq, tr, tfacing):
    """The direction template: the hexside of the target's hex that the line from the attacker's
    centre to the target's centre enters, relative to the target's facing.

    Returns ``(t1, t2)`` with 0 Front, 1 Front Right, 2 Rear Right, 3 Rear, 4 Rear Left,
    5 Front Left; ``t2`` is the other candidate when the line runs through a corner ("the
    attacker gets to choose"), else -1.
    """
    d1, d2 = hexside(aq - tq, ar - tr)
    t1 = (tfacing - d1) % 6
    t2 = -1
    if d2 >= 0:
        t2 = (tfacing - d2) % 6
    return t1, t2


@game_fn
def facing_toward(q, r, tq, tr):
    """The facing (0..5) whose direction is closest to the line to ``(tq, tr)`` (lowest index on
    a tie)."""
    best = 0
    bestv = -(1 << 60)
    vq = tq - q
    vr = tr - r
    for d in range(6):
        x = dot(vq, vr, _dq(d), _dr(d))
        if x > bestv:
            bestv = x
            best = d
    return best


@game_fn(inline="always")
def adjacent_facing(q, r, facing, tq, tr):
    """True when ``(tq, tr)`` is the hex directly in front of ``(q, r)`` facing ``facing``."""
    return tq == q + _dq(facing) and tr == r + _dr(facing)


@game_fn(inline="always")
def to_offset(q, r):
    """Axial -> offset ``(col, row)`` ("odd-r": odd rows shifted half a hex east)."""
    return q + (r - (r & 1)) // 2, r


@game_fn(inline="always")
def from_offset(col, row):
    """Offset ``(col, row)`` -> axial ``(q, r)``."""
    return col - (row - (row & 1)) // 2, row


@game_fn(inline="always")
def on_board(q, r, width, depth):
    """True when axial ``(q, r)`` lies on a ``width`` x ``depth`` offset-row board."""
    if r < 0 or r >= depth:
        return False
    col = q + (r - (r & 1)) // 2
    return 0 <= col < width
