"""The gauntlet: builds against the field on common random numbers (``dragonsim.lords.gauntlet``,
``python -m dragonsim gauntlet``).

The statistics are checked on a synthetic win model whose games are one uniform draw each, the
same draw for every entrant in the same game of the same field pairing (common random numbers
as strong as they can be), so pairing must narrow the intervals; the streams are checked on the
engine against :func:`dragonsim.lords.analysis.paired.outcomes`; the command line refuses bad
input before any game.
"""

from __future__ import annotations

import json
import math
from statistics import NormalDist

import numpy as np
import pytest
from synthetic import COSTS, LAM, planted_prices, synthetic_games_kernel

from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.lords.analysis import designs as D
from dragonsim.lords.analysis import fieldscore as F
from dragonsim.stats import holm

TWO = ["body=Heavy,wings=Large,breath=Magma,claws=Dull", "Skyblazer"]
FOUR = [*TWO, "body=Heavy,wings=Large,breath=Ice,claws=Dull", "Reaper"]


def _kernel():
    ref = np.array([COSTS[s][0] for s, _ in D.OPTIONS], dtype=float)
    return synthetic_games_kernel(LAM * (planted_prices() - ref))


@pytest.fixture(scope="module")
def four():
    return F.gauntlet(FOUR, n=300, seed=5, kernel=_kernel())


def test_paired_intervals_are_narrower_than_unpaired_on_the_same_games(four):
    """Every difference's paired interval is narrower than the unpaired one of the same games:
    the entrants met each field dragon on the same draws, so their luck cancels."""
    for d in four.differences:
        assert d["hi"] - d["lo"] < d["hi_unpaired"] - d["lo_unpaired"], d
        assert d["variance_reduction"] > 1.5, d


def test_a_difference_is_the_difference_of_the_two_scores(four):
    score = {s["entrant"]: s["score"] for s in four.scores}
    for d in four.differences:
        assert d["difference"] == score[d["a"]] - score[d["b"]]
        assert d["lo"] < d["difference"] < d["hi"]


def test_holm_over_every_difference(four):
    """Six pairs of four entrants: the verdicts are Holm's step-down at 5% over the six normal
    p-values of the paired z statistics."""
    diffs = four.differences
    assert len(diffs) == 6
    for d in diffs:
        z = d["difference"] / d["se"]
        assert d["p"] == pytest.approx(2 * (1 - NormalDist().cdf(abs(z))), abs=1e-12)
    real = holm([d["p"] for d in diffs], alpha=0.05)
    for d, r in zip(diffs, real, strict=True):
        want = ("a better" if d["difference"] > 0 else "b better") if r else "not separated"
        assert d["verdict"] == want


def test_a_score_is_the_share_of_points_with_draws_half(four):
    """Score = (wins + draws / 2) / games over the field from both seats; the synthetic
    kernel makes about a tenth of the games draws, so the half counts."""
    for s in four.scores:
        assert s["games"] == 12 * 2 * 300
        assert s["wins"] + s["draws"] + s["losses"] == s["games"]
        assert s["draws"] > 0
        assert s["score"] == pytest.approx((s["wins"] + s["draws"] / 2) / s["games"], abs=1e-12)
        assert s["lo"] < s["score"] < s["hi"]
    by = four.to_frame("field")
    mean = by.groupby("entrant").score.mean()
    for s in four.scores:
        assert mean[s["entrant"]] == pytest.approx(s["score"], abs=1e-12)


def test_field_scores_by_hand():
    """Two replicates, two entrants, one cell: scores, the paired and unpaired standard errors
    computed by hand."""
    pts = np.array([[[1.0], [0.5]], [[0.0], [0.0]], [[1.0], [1.0]]])
    s, d = F.field_scores(pts, ["a", "b"])
    x = pts[:, :, 0]
    assert s[0]["score"] == pytest.approx(2 / 3) and s[1]["score"] == pytest.approx(0.5)
    assert s[0]["se"] == pytest.approx(x[:, 0].std(ddof=1) / math.sqrt(3))
    assert d[0]["se"] == pytest.approx((x[:, 0] - x[:, 1]).std(ddof=1) / math.sqrt(3))
    assert d[0]["se_unpaired"] == pytest.approx(
        math.sqrt((x[:, 0].var(ddof=1) + x[:, 1].var(ddof=1)) / 3)
    )


def test_result_outputs(four):
    """Summary, JSON (with the manifest: rules hash, seed, entrants, field) and frames."""
    text = four.summary()
    assert "Heavy/Large/Magma/Dull" in text and "rules hash" in text and "nan" not in text
    d = json.loads(json.dumps(four.to_dict()))
    assert d["manifest"]["command"] == "gauntlet"
    assert d["manifest"]["entrants"] == [FOUR[0], "Skyblazer", FOUR[2], "Reaper"]
    assert len(d["manifest"]["field"]) == 12 and d["manifest"]["rules_hash"]
    assert set(four.to_frame("difference").columns) >= {"a", "b", "lo", "hi", "verdict"}
    with pytest.raises(UserError, match="level must be"):
        four.to_frame("nope")


def test_the_figure_keeps_its_legend_off_the_data(four):
    """Both panels drawn; the legend sits below them, overlapping neither panel."""
    import matplotlib

    matplotlib.use("Agg")
    fig = four.plot()
    fig.canvas.draw()
    axes = fig.get_axes()
    assert len(axes) == 2
    box = fig.legends[0].get_window_extent()
    for ax in axes:
        assert not box.overlaps(ax.get_window_extent())


def test_a_field_file_lists_names_and_designs(tmp_path):
    f = tmp_path / "field.txt"
    f.write_text("# my field\nSlash\n\nbody=Heavy,wings=Large,breath=Ice,claws=Sharp  # mine\n")
    assert F.read_field(f) == ["Slash", "body=Heavy,wings=Large,breath=Ice,claws=Sharp"]
    g = F.gauntlet(["Reaper"], field=F.read_field(f), n=20, kernel=_kernel())
    assert g.field_names == ["Slash", "body=Heavy,wings=Large,breath=Ice,claws=Sharp"]
    assert g.differences == [] and g.scores[0]["games"] == 2 * 2 * 20


def test_every_entrant_meets_the_field_on_the_paired_modules_streams():
    """On the engine: game ``k`` of field cell ``c`` (dragon ``j``, seat ``s``; ``c = 2 j +
    s``) is game ``c n + k`` of :func:`~dragonsim.lords.analysis.paired.outcomes`, for every
    entrant alike (the streams of a duel of the same two dragons)."""
    from dragonsim.lords.analysis.paired import outcomes

    n = 12
    g = F.gauntlet(["Reaper", "Skyblazer"], field=["Slash", "Ozonic"], n=n, seed=3)
    for row in g.by_field:
        j = g.field_names.index(row["field"])
        first = outcomes(row["entrant"], row["field"], n=n, seed=3, first=2 * j * n)
        second = outcomes(row["field"], row["entrant"], n=n, seed=3, first=(2 * j + 1) * n)
        points = np.r_[
            np.where(first == -1, 0.5, first == 0), np.where(second == -1, 0.5, second == 1)
        ]
        assert row["score"] == pytest.approx(points.mean(), abs=1e-12)


# ------------------------------------------------------------------------ the command line
def _no_games(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("a game was played")

    monkeypatch.setattr(F, "play_pair_games", refuse)


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["gauntlet", "Slash", "Nobody"], "unknown dragon 'Nobody'"),
        (["gauntlet", "Slash", "Slash"], "Slash given twice"),
        (["gauntlet", "Slash", "-n", "1"], "n must be 2.."),
        (["gauntlet", "Slash", "--field", "no/such/field.txt"], "not found"),
        (["gauntlet", "Slash", "--field", "{empty}"], "names no dragon"),
        (["gauntlet", "Slash", "--field", "{twice}"], "Reaper given twice"),
        (["gauntlet", "Slash", "--plot", "g.svg"], "must end in .png"),
        (["gauntlet", "Slash", "--policy", "chess"], "unknown policy 'chess'"),
        (["gauntlet", "body=Heavy,wings=Large"], "is missing breath, claws"),
        (["gauntlet", *["Slash"] * 33], "1 to 32 dragons"),
    ],
)
def test_bad_input_exits_2_in_one_line_before_any_game(
    argv, fragment, tmp_path, monkeypatch, capsys
):
    _no_games(monkeypatch)
    (tmp_path / "empty.txt").write_text("# nothing\n\n")
    (tmp_path / "twice.txt").write_text("Reaper\nSlash\nreaper\n")
    argv = [a.format(empty=tmp_path / "empty.txt", twice=tmp_path / "twice.txt") for a in argv]
    monkeypatch.chdir(tmp_path)
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and fragment in err[0], err


def test_the_command_plays_and_draws(tmp_path, capsys):
    """The done-when question, small: the design against Skyblazer, with the figure."""
    png = tmp_path / "g.png"
    argv = ["gauntlet", *TWO, "-n", "20", "--plot", str(png), "--json", "--no-progress"]
    assert main(argv) == 0
    d = json.loads(capsys.readouterr().out)
    assert [s["entrant"] for s in d["scores"]] == TWO
    assert len(d["differences"]) == 1 and d["manifest"]["argv"] == argv
    assert png.stat().st_size > 10_000
