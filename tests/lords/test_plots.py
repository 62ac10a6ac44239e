"""A duel's figure says what it shows: the matchup, a colour a dragon, and the game-length
axis ending near the last games (the 99.5th percentile)."""

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
