"""The plot style (``dragonsim.report.plot_style``) leaves Jupyter able to show every later
figure; ``hist_quantile`` gives the axis end every game-length figure uses (the figures of each
game are checked in tests/lords, tests/dice and tests/krynn, test_plots.py)."""

from __future__ import annotations

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


def test_hist_quantile_is_the_first_bin_where_the_share_is_reached():
    assert hist_quantile([0, 10, 80, 9, 1], 0.995) == 4
    assert hist_quantile([0, 10, 80, 10, 0], 0.995) == 3
    assert hist_quantile([0, 0, 0]) == 0
