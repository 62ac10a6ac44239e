"""The sample-size planner (dragonsim.stats.sample_size, ``python -m dragonsim plan``)."""

import json
import math

import numpy as np
import pytest
from scipy import stats as st

from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.stats import sample_size


def test_textbook_two_proportions():
    """Fleiss (Statistical Methods for Rates and Proportions, eq. 4.14, no continuity
    correction), 50% against 60%, two-sided 5%, power 80%:
    (1.95996 sqrt(2 .55 .45) + 0.84162 sqrt(.25 + .24))**2 / .1**2 = 387.3, so 388 a group."""
    hand = (1.959964 * math.sqrt(2 * 0.55 * 0.45) + 0.841621 * math.sqrt(0.49)) ** 2 / 0.01
    assert math.ceil(hand) == 388 == sample_size(0.1, base=0.5).unpaired
    # power 90%, alpha 1%: (2.57583 sqrt(.495) + 1.28155 sqrt(.49))**2 / .01 = 734.05
    assert sample_size(0.1, base=0.5, power=0.9, alpha=0.01).unpaired == 735
    # no correlation: pairing changes nothing; a positive one divides by about 1 / (1 - r)
    assert sample_size(0.02, correlation=0.0).paired == sample_size(0.02).unpaired
    ss = sample_size(0.02, correlation=0.5)
    assert ss.paired == pytest.approx(ss.unpaired * 0.5, rel=0.01)


def _power_unpaired(n, p1, p2, reps, rng):
    k1 = rng.binomial(n, p1, reps)
    k2 = rng.binomial(n, p2, reps)
    pool = (k1 + k2) / (2 * n)
    z = (k2 - k1) / n / np.sqrt(pool * (1 - pool) * 2 / n)
    return np.mean(np.abs(z) > 1.959964)


def _power_paired(n, p1, p2, r, reps, rng):
    """Paired 0/1 outcomes with marginals p1, p2 and correlation r (cells of the 2x2 table),
    tested with the paired z statistic."""
    c11 = p1 * p2 + r * math.sqrt(p1 * (1 - p1) * p2 * (1 - p2))
    cells = [c11, p1 - c11, p2 - c11, 1 - p1 - p2 + c11]  # (1,1), (1,0), (0,1), (0,0)
    t = rng.multinomial(n, cells, reps)
    d = (t[:, 2] - t[:, 1]) / n  # mean of y - x
    var = (t[:, 1] + t[:, 2]) / n - d * d
    z = d / np.sqrt(var / n)
    return np.mean(np.abs(z) > 1.959964)


def test_the_planned_games_reach_the_power_by_simulation():
    """At the planned n the simulated tests reject with probability about the power: the
    count of rejections in `reps` simulated studies is consistent with Binomial(reps, 0.8)
    (two-sided exact test at 1e-6), unpaired and paired."""
    rng = np.random.default_rng(15)
    reps = 4000
    ss = sample_size(0.05, base=0.4, correlation=0.4)
    pu = _power_unpaired(ss.unpaired, 0.4, 0.45, reps, rng)
    pp = _power_paired(ss.paired, 0.4, 0.45, 0.4, reps, rng)
    for p in (pu, pp):
        assert st.binomtest(int(round(p * reps)), reps, 0.8).pvalue > 1e-6, (pu, pp)
    # and with a third of the games the power is clearly lower
    assert _power_paired(ss.paired // 3, 0.4, 0.45, 0.4, reps, rng) < 0.5


def test_bad_input():
    with pytest.raises(UserError, match="win rates"):
        sample_size(0.6, base=0.5)
    with pytest.raises(UserError, match="correlation"):
        sample_size(0.02, correlation=1.0)


def test_cli(capsys):
    assert main(["plan", "--difference", "0.02", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["games_per_build_unpaired"] == sample_size(0.02).unpaired
    assert main(["plan", "--difference", "0.02", "--paired", "--correlation", "0.3"]) == 0
    assert "paired" in capsys.readouterr().out
    assert main(["plan", "--difference", "0.02", "--paired"]) == 2
    assert "--correlation" in capsys.readouterr().err


def test_cli_pilot_measures_the_correlation(capsys):
    """--paired A B --against C: a pilot of paired games on common random numbers; its
    correlation is that of the two builds' 0/1 wins on the same games."""
    from dragonsim.lords.analysis.study import outcomes

    argv = ["plan", "--difference", "0.03", "--paired", "Reaper", "Skyblazer"]
    argv += ["--against", "Slash", "--pilot", "600", "--json"]
    assert main(argv) == 0
    d = json.loads(capsys.readouterr().out)
    x = (outcomes("Reaper", "Slash", n=600) == 0).astype(float)
    y = (outcomes("Skyblazer", "Slash", n=600) == 0).astype(float)
    assert d["pilot"]["correlation"] == pytest.approx(np.corrcoef(x, y)[0, 1], abs=1e-12)
    assert d["p1"] == pytest.approx(x.mean())
