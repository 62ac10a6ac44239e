"""A Dragon Dice attack's survival curves: every curve visible, none drawn exactly over
another, each named in the legend."""

from __future__ import annotations

import numpy as np
import pytest

mpl = pytest.importorskip("matplotlib")
mpl.use("Agg", force=True)  # a test process has no display; notebooks pick no backend
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_dice_survival_curves_never_hide_one_under_another():
    from dragonsim.dice import attack

    for dragon in ("red-wyrm", "red-drake"):
        ax = attack(dragon, "goblin-horde", n=3000, turns=4, progress=False).plot()
        steps = [ln for ln in ax.get_lines() if ln.get_linestyle() != "None"]
        assert len(steps) >= 2, "a survival curve per side"
        ys = [tuple(np.round(ln.get_ydata(), 12)) for ln in steps]
        assert len(set(ys)) == len(ys), "two curves drawn one exactly on the other"
        assert len({ln.get_linestyle() for ln in steps}) == len(steps)
        assert len(ax.get_legend().get_texts()) == len(steps)
