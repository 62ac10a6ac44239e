"""The Dragon Dice engine: numba kernels, one module per game mode.

* :mod:`.layout` -- stream purposes, option and counter slots, and the records the kernels
  take (:class:`~.layout.Army`, :class:`~.layout.Dragons`, :class:`~.layout.Shape`).
* :mod:`.response` -- the army's response dice, packed five results to a word.
* :mod:`.phases` -- the phases of a dragon attack on an army, one job each.
* :mod:`.army` -- :func:`army_kernel`: dragons of one colour attack an army, turn after turn.
* :mod:`.dvd` -- :func:`dvd_kernel`: teams of dragons of different colours fight each other.
* :mod:`.melee` -- :func:`melee_kernel`: one army's melee on another, with dragonkin breath.

Each kernel is ``kernel(start, stop, seed, *records) -> int64 counters`` (see
:mod:`dragonsim.runner`): games ``start..stop-1`` are cut into chunks that ``prange`` runs,
each owning one row of a 2-D counter array; game ``g`` rolls from its own streams
(``seed_stream(.., seed, g, P_*)``), so a result does not depend on threads or chunking.
Every rule value and option is an argument; the codes are those of :mod:`dragonsim.dice.data`.
This package's names are those the API, the tests and the benchmarks read.
"""

from __future__ import annotations

from ...checkpoint import fingerprint_as
from .army import _army_kernel, army_kernel
from .dvd import dvd_kernel
from .layout import *  # noqa: F403 -- the slots and records
from .layout import __all__ as _layout_all
from .melee import melee_kernel
from .response import MAX_FACE_VALUE, RB

__all__ = [
    *_layout_all,
    "MAX_FACE_VALUE",
    "_army_kernel",
    "RB",
    "army_kernel",
    "dvd_kernel",
    "melee_kernel",
]


def _flat(args: tuple) -> tuple:
    """A kernel's arguments with each record spliced in as its fields, in order: what the
    kernels took before they took records."""
    return tuple(x for a in args for x in (a if hasattr(a, "_fields") else (a,)))


def _melee_inputs(args: tuple) -> tuple:
    """What :func:`melee_kernel` reads of each army (``melee._side``), its options, ``hcap``."""
    a, b, mopts, hcap = args
    return (
        *(a.fk, a.fc, a.health, a.kin, a.count0, a.kill_order),
        *(b.fk, b.fc, b.health, b.kin, b.count0, b.kill_order),
        mopts,
        hcap,
    )


# checkpoints name a kernel as this package publishes it and fingerprint the inputs it reads,
# as they did when the kernels lived in one module and took flat arguments
fingerprint_as(army_kernel, f"{__name__}.army_kernel", _flat)
fingerprint_as(dvd_kernel, f"{__name__}.dvd_kernel", _flat)
fingerprint_as(melee_kernel, f"{__name__}.melee_kernel", _melee_inputs)
