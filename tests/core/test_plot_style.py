"""Plots and the package surface (issue 17, part 7): each figure says what it shows, and the
plot style leaves Jupyter able to show every later figure."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

mpl = pytest.importorskip("matplotlib")
mpl.use("Agg", force=True)  # a test process has no display; notebooks pick no backend
import matplotlib.pyplot as plt  # noqa: E402

from dragonsim.report import hist_quantile, plot_style  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_plot_style_leaves_the_interactive_flag_and_backend_alone():
    """Jupyter's inline backend turns interactive mode on when the first figure is made; a
    style block that switched it back at its end hid every later cell's figure."""
    was = mpl.is_interactive()
    try:
        mpl.interactive(False)
        before = list(mpl.rcParams["figure.figsize"])
        with plot_style():
            mpl.interactive(True)  # what the inline backend does on a first figure
            assert list(mpl.rcParams["figure.figsize"]) == [7, 4.2]  # dragonsim.mplstyle
        assert mpl.is_interactive()
        assert list(mpl.rcParams["figure.figsize"]) == before  # the style itself is undone
    finally:
        mpl.interactive(was)


def test_hist_quantile():
    assert hist_quantile([0, 10, 80, 9, 1], 0.995) == 4
    assert hist_quantile([0, 10, 80, 10, 0], 0.995) == 3
    assert hist_quantile([0, 0, 0]) == 0


def test_duel_plot_names_the_matchup_colours_each_dragon_and_ends_near_the_last_games():
    from dragonsim import duel

    r = duel("Reaper", "Skyblazer", n=2000, seed=1, progress=False)
    fig = r.plot()
    assert "Reaper vs Skyblazer" in fig._suptitle.get_text()
    a1, a2 = fig.axes[:2]
    bars = a1.patches[:3]
    assert bars[0].get_facecolor() != bars[1].get_facecolor()
    h = r.turn_histogram()
    end = hist_quantile(h, 0.995)
    assert a2.get_xlim()[1] <= end + 1 < 100
    assert h[: end + 1].sum() >= 0.995 * r.n


def test_dice_survival_curves_never_hide_one_under_another():
    from dragonsim.dice import attack

    for dragon in ("red-wyrm", "red-drake"):
        ax = attack(dragon, "goblin-horde", n=3000, turns=4, progress=False).plot()
        steps = [ln for ln in ax.get_lines() if ln.get_linestyle() != "None"]
        ys = [tuple(np.round(ln.get_ydata(), 12)) for ln in steps]
        assert len(set(ys)) == len(ys), "two curves drawn one exactly on the other"
        assert len({ln.get_linestyle() for ln in steps}) == len(steps)
        assert len(ax.get_legend().get_texts()) == len(steps)


def test_krynn_sweep_plot_has_integer_ticks_and_a_zero_baseline():
    from dragonsim.krynn import sweep

    s = sweep("barricades.foot", [0, 1, 2], alliance="foot=3", army="foot=4", n=2000)
    ax = s.plot()
    assert list(ax.get_xticks()) == [0, 1, 2]
    assert ax.get_ylim()[0] == 0
    assert "y axis starts at 0" in ax.get_title()


def test_krynn_battle_plot_ends_at_the_995th_percentile():
    from dragonsim.krynn import battle

    b = battle(alliance="foot=3,missile=2", army="foot=4", n=3000, progress=False)
    ax = b.plot()
    last = hist_quantile(b.turns_histogram().sum(axis=0), 0.995)
    assert ax.get_lines()[0].get_xdata()[-1] == last


def test_lords_submodules_and_functions_are_reachable_after_import_dragonsim():
    code = (
        "import dragonsim; "
        "assert callable(dragonsim.lords.api.duel); "
        "assert callable(dragonsim.lords.study.tournament); "
        "assert dragonsim.lords.tournament is dragonsim.lords.study.tournament; "
        "assert dragonsim.lords.duel is dragonsim.duel; "
        "assert dragonsim.lords.sheet('Reaper').mr == 'E'; "
        "assert {'api', 'study', 'duel', 'battle', 'sensitivity'} <= set(dir(dragonsim.lords))"
    )
    root = Path(__file__).parents[2]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root)
    assert done.returncode == 0, done.stderr
