"""Warriors of Krynn figures say what they show: a sweep's integer ticks and zero baseline, a
battle's axis ending at the 99.5th percentile of the battles played."""

from __future__ import annotations

import pytest

mpl = pytest.importorskip("matplotlib")
mpl.use("Agg", force=True)  # a test process has no display; notebooks pick no backend
import matplotlib.pyplot as plt  # noqa: E402

from dragonsim.report import hist_quantile  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


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
