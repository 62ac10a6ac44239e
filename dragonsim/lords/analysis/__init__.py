"""Dragon Lords studies built from many runs of the engine: paired comparisons on common random
numbers (``paired``), a rule's sensitivity (``rulesweep``), round robins (``study``, which also
offers the other two's functions), every legal design in one run (``designs``), fair prices
(``pricing``), one build's fair cost from a stored fit (``buildprice``), builds against the
field on common random numbers (``fieldscore``: the gauntlet), the best build (``race``),
balance across bot strengths (``skill``), verdicts that survive the bot (``robustness``), the
committed baseline (``baseline``) and the styles at equilibrium (``equilibrium``: both sides of
a duel choosing how to fly).

Each module is an attribute, imported on first use (``dragonsim.lords.analysis.study`` after a
plain ``import dragonsim``)."""

from __future__ import annotations

import importlib

MODULES = (
    "baseline",
    "buildprice",
    "designs",
    "equilibrium",
    "fieldscore",
    "paired",
    "pricing",
    "race",
    "robustness",
    "rulesweep",
    "skill",
    "study",
)


def __getattr__(name: str):
    if name in MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
