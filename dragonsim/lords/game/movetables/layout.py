"""What the Dragon Lords move tables hold, and the rules they are built from: the tables'
record (:class:`MoveTables`) and the fields of its packed, banking and alternative-path records
(``PK_*``, ``BK_*``, ``ALT_*``); one row's arrays as the builders hand them on (:class:`Row`);
banking and turning between move phases as the builders read them (:class:`Banking`,
:class:`Turning`, :func:`banking_of`, :func:`turning_of`); the ratings a game needs
(:func:`needed_mrs`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class MoveTables(NamedTuple):
    """Legal move end states relative to the start, per MR and geometric budget.

    ``off[mr, b]:off[mr, b + 1]`` are the entries of budget ``b`` (hexes + turn points) for
    maneuverability index ``mr``. Per entry (int8 arrays): ``dq, dr`` offset and ``f`` facing
    change for a dragon facing E; ``h`` hexes flown (capped at 4: enough for any altitude
    change); ``rq[e, F], rr[e, F]`` the offset rotated for facing ``F``; ``box[e, F, :]`` the
    path's bounding box for facing ``F``: min/max row offset, min/max column offset on even
    rows, min/max column offset on odd rows.

    The planners read the same entries through a cache-friendly copy: within each
    ``(mr, b)`` block of ``c`` entries, position ``p`` holds entry ``(p * step) % c`` (the
    stride of their scattered sample, 101 or 103), so a scattered visit from entry ``k`` is a
    sequential walk from position ``(k * inv[mr, b]) % c``. ``pk[F, p, :]`` packs what a
    planner reads for facing ``F`` into 16 bytes (rq, rr, the six box values, h, f, the
    facing at the end, and how many alternative paths it has from an even and an odd row)
    and ``pe[p]`` is the entry at position ``p``.

    ``tg`` finds an entry by where it ends: block ``(mr, b)`` owns ``tg[tg_off[mr, b]:]``, a
    grid over the end offsets ``|dq|, |dr| <= b`` of a dragon facing E and the facing change
    ``f``, entry ``tg[tg_off[mr, b] + ((dq + b) * (2 b + 1) + dr + b) * 6 + f]`` or -1
    (``tg_off`` -1 for an empty block). The hunter looks up the end states behind its enemy
    there (:func:`~dragonsim.lords.bots.planner.plan_move`).

    ``alt[alt_off[e]:alt_off[e + 1]]`` are entry ``e``'s alternative paths (int8 records of
    ``ALT_WIDTH``, sorted by facing ``ALT_F``): per starting facing, the Pareto-minimal pairs
    (hexes flown ``ALT_H``, capped at 4; bounding box ``ALT_BOX..ALT_BOX+3``: min/max row,
    min/max column offset, for a start on an even row) over every legal path to the end state,
    less those the stored path covers. A start on an odd row reads the records of the opposite
    facing with the box negated (a half turn of the board maps one parity onto the other).
    Some legal path of the entry stays on the board iff the stored box or one of these fits
    (:func:`~dragonsim.lords.game.mechanics.move_fits_exact`). Empty (``alt_off`` all 0) unless
    built with ``edges=True``. With banking the alternatives are those of the paths without a
    bank (attached to the entry of ``L = 0``): the exact check is then exact for them and
    conservative for the banking paths.

    Banking (``bank`` nonzero: the bank cost by MR; all 0 without banking): ``ll[e]`` the
    levels the entry's banks drop (two in sequence: one level), ``lm[e]`` the levels below the
    start its path needs (``ll``, plus one under the reading that no bank may follow a bank at
    Very Low when the stored path banks three times in a row), ``nb[e]`` the banks on its
    stored path; ``bk[e, BK_*]`` the three together (what the kernels read). ``tg`` holds the
    entries of ``L = 0`` only.

    Turning between move phases (p.16; built with ``turning``): the rows come in six groups,
    one per turn a dragon may carry from its last move (``CARRIES``), row ``group * MR_ROWS +
    mr`` (:func:`~dragonsim.lords.game.mechanics.move_row`); a carrying row's moves begin with a
    step, a bank, or more of the carried turn the same way for the balance of the whole turn's
    cost, and ``bk[e, BK_TURNED]`` is the turn each entry's stored path leaves in its last hex
    (``bk[e, BK_CONT]``: whether it continued the carried one). Of the paths to an end state
    the stored one ends with a step or a bank when one does.
    """

    off: np.ndarray
    dq: np.ndarray
    dr: np.ndarray
    f: np.ndarray
    h: np.ndarray
    rq: np.ndarray
    rr: np.ndarray
    box: np.ndarray
    pk: np.ndarray
    pe: np.ndarray
    inv: np.ndarray
    tg: np.ndarray
    tg_off: np.ndarray
    alt_off: np.ndarray
    alt: np.ndarray
    ll: np.ndarray
    lm: np.ndarray
    nb: np.ndarray
    bk: np.ndarray
    bank: np.ndarray


#: Packed planner record fields (``MoveTables.pk``).
PK_RQ, PK_RR, PK_BOX, PK_H, PK_F, PK_F_END = 0, 1, 2, 8, 9, 10
#: how many alternative paths (``MoveTables.alt``) the entry has for this facing from an even
#: and from an odd start row (capped at 127; 0 without ``edges``): an exact check reads the
#: alternatives only when there are some, with no extra memory access
PK_ALT_EVEN, PK_ALT_ODD = 11, 12
#: the entry's ``MoveTables.lm`` (0 without banking): the planners take entries of 0 only
PK_LM = 13
#: how many positions from this one, in the block's visiting order (cyclic), hold entries of
#: ``lm`` > 0 before the next of 0 (capped at 127; 0 without banking): the planners jump over
#: them instead of reading each (the same entries visited, in the same order)
PK_SKIP = 14
PK_WIDTH = 16
#: columns of ``MoveTables.bk`` (int8 [n, 5]): levels dropped, levels needed, banks; the
#: signed 60-degree steps the stored path leaves turned in its last hex (0: it ends with a
#: forward step or a bank; 3: a full 180) and whether it continues the carried turn (turning
#: between move phases, p.16: both 0 without it)
BK_LL, BK_LM, BK_NB, BK_TURNED, BK_CONT = 0, 1, 2, 3, 4


def scatter_step(c: int) -> int:
    """The stride of a planner's scattered visit of a block of ``c`` entries (coprime to c)."""
    return 101 if c % 101 != 0 else 103


MAX_BUDGET = 21  # speed 15 (+2 for Quicken) plus four free dives


#: fields of an alternative-path record (``MoveTables.alt``, int8 [m, ALT_WIDTH])
ALT_F, ALT_H, ALT_BOX = 0, 1, 2
ALT_WIDTH = 6


class Row(NamedTuple):
    """One row's tables (one maneuverability rating, one carried turn) as the builders hand
    them on, entries in budget order: ``off`` the start of each budget's block, then per
    entry the fields of :class:`MoveTables` of the same names (``f``: the facing change,
    ``h``: the hexes flown), ``ll``, ``lm``, ``nb`` (banking; 0 without), ``turned`` and
    ``continues`` (``bk[:, BK_TURNED]`` and ``bk[:, BK_CONT]``; 0 without turning between move
    phases)."""

    off: np.ndarray
    dq: np.ndarray
    dr: np.ndarray
    f: np.ndarray
    h: np.ndarray
    rq: np.ndarray
    rr: np.ndarray
    box: np.ndarray
    ll: np.ndarray
    lm: np.ndarray
    nb: np.ndarray
    turned: np.ndarray
    continues: np.ndarray


def bank_costs(turn_cost: np.ndarray, factor: int = 2, minimum: int = 1) -> np.ndarray:
    """The bank cost by MR: "points equal to twice its 60 deg turn cost, with a minimum of 1
    point spent" (p.16; rules lords.bank_cost_factor, lords.bank_cost_minimum).

    >>> from dragonsim.lords.game.tables import kernel_tables
    >>> bank_costs(kernel_tables().turn_cost).tolist()
    [1, 1, 1, 2, 2, 2, 4, 4, 4]
    """
    tc = np.asarray(turn_cost, dtype=np.int64)
    return np.maximum(int(minimum), int(factor) * tc[:, 1])


class Banking(NamedTuple):
    """Banking as the move tables build it: the cost by MR and the two readings."""

    cost: np.ndarray  # int64 [n_mr]
    very_low_any: bool = False  # lords.bank_very_low = any
    hex_forward: bool = False  # lords.bank_hex = forward
    each: bool = False  # lords.bank_run = each: every bank after a bank drops a level


class Turning(NamedTuple):
    """Turning between move phases (p.16) as the move tables build it: the reading of a move
    that ends with a 180-degree turn (lords.turn_between_180)."""

    reset_180: bool = False  # "reset": after a full 180 the next move turns afresh


#: the carried turn of each row group of the tables under turning between move phases (signed
#: 60-degree steps turned in the hex at the end of the last move; 3: a full 180 degrees)
CARRIES = (0, 1, 2, -1, -2, 3)
#: the row group of a carried turn ``t``: ``CARRY_GROUP[t + 3]``; a dragon's row is
#: ``group * MR_ROWS + mr``
MR_ROWS = 9
CARRY_GROUP = np.array([5, 4, 3, 0, 1, 2, 5], dtype=np.int64)


def banking_of(rules) -> Banking | None:
    """The :class:`Banking` of ``rules`` (a RuleSet), None when lords.advanced.banking is off."""
    if not rules.get("lords.advanced.banking"):
        return None
    from ..tables import kernel_tables

    cost = bank_costs(
        kernel_tables(rules).turn_cost,
        rules.get("lords.bank_cost_factor"),
        rules.get("lords.bank_cost_minimum"),
    )
    return Banking(
        cost,
        rules.get("lords.bank_very_low") == "any",
        rules.get("lords.bank_hex") == "forward",
        rules.get("lords.bank_run") == "each",
    )


def turning_of(rules) -> Turning | None:
    """The :class:`Turning` of ``rules`` (a RuleSet), None when lords.advanced.turn_between is
    off."""
    if not rules.get("lords.advanced.turn_between"):
        return None
    return Turning(rules.get("lords.turn_between_180") == "reset")


def needed_mrs(sheets_mr, mr_steps: int, n_mr: int = 9) -> list[int]:
    """Maneuverability indices dragons with sheet ratings ``sheets_mr`` can have in a game:
    their own and the one serious tail damage leaves them (``mr_steps`` down, minimum I)."""
    out = set()
    for m in sheets_mr:
        out.add(int(m))
        out.add(min(n_mr - 1, int(m) + int(mr_steps)))
    return sorted(out)
