"""Styles at equilibrium (``duel --policy equilibrium``,
:mod:`dragonsim.lords.analysis.equilibrium`): the zero-sum solver on games with known
solutions, the cells on common random numbers, the rates at equilibrium as the cells weighted
by both mixtures, and the command line's JSON and one-line errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.lords.analysis.equilibrium import (
    STYLES,
    ZeroSumSolution,
    equilibrium_duel,
    solve_zero_sum,
    styles_for,
)
from dragonsim.lords.api import duel
from dragonsim.lords.bots import policy_version
from dragonsim.lords.game.sheets import ROSTER, sheet

N = 300  # games a cell: a few hundred keep the file quick once the kernel is compiled
SEED = 7


@pytest.fixture(scope="module")
def study():
    """Reaper against Skyblazer, every style against every style, 300 games a cell."""
    return equilibrium_duel("Reaper", "Skyblazer", n=N, seed=SEED, progress=False)


# ---------------------------------------------------------------------------------------------
# the zero-sum solver
# ---------------------------------------------------------------------------------------------


def test_matching_pennies_is_worth_one_half_with_even_mixtures():
    """A's win share 1 when the styles match, 0 when they do not: neither side may be read, so
    both mix evenly and the game is worth exactly 1/2."""
    s = solve_zero_sum([[1.0, 0.0], [0.0, 1.0]])
    assert s.value == pytest.approx(0.5, abs=1e-12)
    assert s.mixture_a == pytest.approx([0.5, 0.5], abs=1e-12)
    assert s.mixture_b == pytest.approx([0.5, 0.5], abs=1e-12)


def test_rock_paper_scissors_mixes_every_style_equally():
    """Each style beats one and loses to another (draws 1/2 on the diagonal): 1/3 each, worth
    1/2."""
    s = solve_zero_sum([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])
    assert s.value == pytest.approx(0.5, abs=1e-12)
    assert s.mixture_a == pytest.approx([1 / 3] * 3, abs=1e-12)
    assert s.mixture_b == pytest.approx([1 / 3] * 3, abs=1e-12)


def test_a_dominated_style_gets_weight_zero():
    """Matching pennies between the first two styles, and a third style each side would be
    wrong to fly (A's third row scores 0.2 where the others average 0.5; B's third column
    concedes 0.8): both get exactly 0 and the rest is matching pennies."""
    m = [[1.0, 0.0, 0.8], [0.0, 1.0, 0.8], [0.2, 0.2, 0.9]]
    s = solve_zero_sum(m)
    assert s.value == pytest.approx(0.5, abs=1e-12)
    assert s.mixture_a[2] == 0.0 and s.mixture_b[2] == 0.0
    assert s.mixture_a == pytest.approx([0.5, 0.5, 0.0], abs=1e-12)
    assert s.mixture_b == pytest.approx([0.5, 0.5, 0.0], abs=1e-12)


def test_a_saddle_point_is_played_pure():
    """Where one cell is the least of its row and the greatest of its column, both sides fly
    that one style and the value is the cell."""
    s = solve_zero_sum([[0.59, 0.95, 0.72], [0.05, 0.56, 0.16], [0.13, 0.88, 0.21]])
    assert s.value == pytest.approx(0.59, abs=1e-12)
    assert s.mixture_a.tolist() == [1.0, 0.0, 0.0]
    assert s.mixture_b.tolist() == [1.0, 0.0, 0.0]


def test_the_solution_is_an_equilibrium_on_random_games():
    """On random rectangular games neither side gains by changing its mixture alone: every
    style of B concedes A at least the value against A's mixture, every style of A earns at
    most the value against B's; the mixtures are distributions."""
    rng = np.random.default_rng(5)
    for _ in range(50):
        m = rng.random((rng.integers(1, 5), rng.integers(1, 5)))
        s = solve_zero_sum(m)
        assert np.all(s.mixture_a >= 0) and s.mixture_a.sum() == pytest.approx(1, abs=1e-12)
        assert np.all(s.mixture_b >= 0) and s.mixture_b.sum() == pytest.approx(1, abs=1e-12)
        assert np.all(s.mixture_a @ m >= s.value - 1e-9)
        assert np.all(m @ s.mixture_b <= s.value + 1e-9)


def test_a_matrix_that_is_not_a_game_is_a_user_error():
    with pytest.raises(UserError, match="finite matrix"):
        solve_zero_sum([[0.5, float("nan")]])


# ---------------------------------------------------------------------------------------------
# the styles and the cells
# ---------------------------------------------------------------------------------------------


def test_every_ready_made_dragon_chooses_among_the_three_styles_and_a_wizards_among_five():
    """Every dragon chooses among hunter, brawler, sniper; a dragon a Wizard rides, where the
    Wizard's rule is in force (advanced rules, pp. 18, 24-25), also among the caster's
    variants: the hunter without the next-turn spells and the hunter that never casts."""
    from dragonsim.rules import lords_rules

    assert STYLES == ("hunter", "brawler", "sniper")
    adv = lords_rules(preset="advanced")
    for name in ROSTER:
        assert styles_for(sheet(name)) == STYLES
        wizard = name in ("Slash", "Stalwyrm")
        want = STYLES + ("hunter~spells", "hunter~cast") if wizard else STYLES
        assert styles_for(sheet(name, rules=adv), adv) == want


def test_the_study_names_the_styles_by_version(study):
    """Plain names are the newest released versions; the result and its manifest name them."""
    labels = [policy_version(s) for s in STYLES]
    assert list(study.labels_a) == labels and list(study.labels_b) == labels
    assert study.manifest["styles"] == {"a": labels, "b": labels}
    assert study.manifest["policy"] == "equilibrium" and study.manifest["n_per_cell"] == N


def test_each_cell_is_the_plain_duel_counter_for_counter(study):
    """Every cell is ``duel(a, b, policies=(s, t), seed, n)`` exactly: the same games of the
    same seed, so every cell plays on the same per-game random streams."""
    assert study.games.tolist() == [[N] * 3] * 3
    for k, cell in enumerate(study.cells):
        s, t = STYLES[k // 3], STYLES[k % 3]
        plain = duel("Reaper", "Skyblazer", n=N, seed=SEED, policies=(s, t), progress=False)
        assert np.array_equal(cell.counters, plain.counters), (s, t)


def test_every_cell_sees_the_same_dice_before_the_first_decision(study):
    """Common random numbers: who moves first on turn 1 is rolled before any bot decides, so
    it is the same in every game of every cell, whatever the styles."""
    first = {c.first_mover.a_first.k for c in study.cells}
    assert len(first) == 1


def test_the_matrix_is_a_s_win_share_with_draws_half(study):
    for k, cell in enumerate(study.cells):
        i, j = divmod(k, 3)
        assert study.matrix[i, j] == pytest.approx((cell.wins_a + cell.draws / 2) / N)


# ---------------------------------------------------------------------------------------------
# the numbers at equilibrium
# ---------------------------------------------------------------------------------------------


def _weighted(res, of):
    w = np.outer(res.mixture_a, res.mixture_b).ravel()
    return sum(wk * of(c) for wk, c in zip(w, res.cells, strict=True))


def test_the_rates_at_equilibrium_are_the_cells_weighted_by_both_mixtures(study):
    """A's and B's win rates, the draw rate and each event per game are sum x_i y_j of the
    cells'; A's share at equilibrium is the value."""
    for res in (study, _planted(study)):
        assert res.win_rate_a == pytest.approx(_weighted(res, lambda c: c.win_rate_a))
        assert res.win_rate_b == pytest.approx(_weighted(res, lambda c: c.win_rate_b))
        assert res.draw_rate == pytest.approx(_weighted(res, lambda c: c.draw_rate))
        assert res.win_rate_a + res.win_rate_b + res.draw_rate == pytest.approx(1)
        ev, w = res.events(), np.outer(res.mixture_a, res.mixture_b).ravel()
        for key in ("close_combats", "crashes"):
            per = [c.to_dict()["events"][key] for c in res.cells]
            assert ev[key] == pytest.approx(float(np.dot(w, per)))
        mixed = res.mixture_a @ res.matrix @ res.mixture_b
        assert res.win_rate_a + res.draw_rate / 2 == pytest.approx(mixed)
    assert study.value == pytest.approx(study.win_rate_a + study.draw_rate / 2, abs=1e-9)


def _planted(study):
    """The study with mixtures planted (not the equilibrium): the weighting holds for any."""
    import dataclasses

    sol = ZeroSumSolution(0.0, np.array([0.2, 0.3, 0.5]), np.array([0.6, 0.4, 0.0]))
    return dataclasses.replace(study, solution=sol)


def test_the_value_s_standard_error_holds_the_mixtures_fixed(study):
    """sqrt(sum (x_i y_j)^2 se_ij^2), each cell's se from its 1 / 1/2 / 0 scores; the bound
    sum x_i y_j se_ij is never smaller."""
    w = np.outer(study.mixture_a, study.mixture_b)
    assert study.value_se == pytest.approx(np.sqrt(np.sum((w * study.cell_se) ** 2)))
    assert study.value_se_bound >= study.value_se - 1e-15
    c = study.cells[0]
    pa, pd = c.wins_a / N, c.draws / N
    share = pa + pd / 2
    assert study.cell_se[0, 0] == pytest.approx(np.sqrt((pa + pd / 4 - share**2) / N))
    lo, hi = study.value_ci()
    assert lo <= study.value <= hi


def test_both_sides_may_be_given_their_styles():
    """``styles`` (pinned versions too) replaces :func:`styles_for` for both sides."""
    r = equilibrium_duel(
        "Kelvinight", "Lectronist", n=100, styles="hunter@4,sniper", progress=False
    )
    assert r.labels_a == ("hunter-4", "sniper-2") and r.matrix.shape == (2, 2)
    assert r.mixture_a.sum() == pytest.approx(1) and r.mixture_b.sum() == pytest.approx(1)


def test_records_are_written_one_file_per_cell(tmp_path):
    """``records`` names a file per cell beside the one given, each the plain duel's."""
    r = equilibrium_duel(
        "Reaper",
        "Skyblazer",
        n=50,
        styles=("hunter", "sniper"),
        records=str(tmp_path / "games.parquet"),
        progress=False,
    )
    names = sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".parquet")
    h, s = r.labels_a
    assert names == sorted(f"games.{x}.{y}.parquet" for x in (h, s) for y in (h, s))


def test_an_interruption_keeps_the_finished_cells_and_solves_nothing(monkeypatch):
    """Ctrl-C in the fourth cell: the three that finished are kept, the result says it was
    interrupted (3 of 9 cells) and has no equilibrium, and it still writes as JSON."""
    import dragonsim.lords.api as api

    real, calls = api.duel, []

    def stopping(*args, **kwargs):
        calls.append(kwargs["policies"])
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(api, "duel", stopping)
    r = equilibrium_duel("Reaper", "Skyblazer", n=50, progress=False)
    assert r.interrupted and (r.finished, r.requested) == (3, 9) and r.solution is None
    assert np.isfinite(r.matrix[0]).all() and np.isnan(r.matrix[1:]).all()
    assert "INTERRUPTED: 3 of 9 cells" in r.summary()
    d = r.to_dict()
    json.dumps(d)
    assert d["equilibrium"]["mixture_a"] is None and d["cells_finished"] == 3


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(policies="hunter,sniper"), "policies"),
        (dict(policies=("hunter", "hunter")), "exclude each other"),
        (dict(precision=0.02, n=None), "precision target"),
        (dict(n=None), "n \\(games a cell\\)"),
        (dict(styles="hunter,hunter"), "different bots"),
        (dict(styles="hunterr"), "unknown policy"),
    ],
)
def test_what_the_equilibrium_cannot_take_is_a_user_error(kwargs, match):
    """One bot per dragon contradicts the choice of styles, and a precision target would give
    the cells different games (no longer common random numbers)."""
    kwargs = {"n": 50, **kwargs}
    with pytest.raises(UserError, match=match):
        equilibrium_duel("Reaper", "Skyblazer", progress=False, **kwargs)


def test_the_plain_duel_points_to_the_equilibrium():
    """``duel(policy="equilibrium")`` names the function that plays it (the analyses sit above
    the public runs)."""
    with pytest.raises(UserError, match="equilibrium_duel"):
        duel("Reaper", "Skyblazer", n=10, policy="equilibrium", progress=False)


# ---------------------------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------------------------


def _duel_cli(capsys, *extra):
    argv = ["duel", "Reaper", "Skyblazer", "-n", str(N), "--seed", str(SEED), "--no-progress"]
    rc = main([*argv, "--policy", "equilibrium", *extra])
    return rc, *capsys.readouterr()


def test_cli_json_has_the_equilibrium_object(capsys, study):
    """``--json`` carries ``equilibrium``: the versioned styles per side, the matrix, both
    mixtures (each summing to 1), the value (between the matrix's least and greatest cell),
    its standard error and the games per cell; the top-level rates are the study's."""
    rc, out, _ = _duel_cli(capsys, "--json")
    assert rc == 0
    d = json.loads(out)
    eq = d["equilibrium"]
    assert set(eq) == {"styles", "matrix", "mixture_a", "mixture_b", "value", "value_se", "games"}
    labels = [policy_version(s) for s in STYLES]
    assert eq["styles"] == {"a": labels, "b": labels}
    m = np.array(eq["matrix"])
    assert m.shape == (3, 3) and np.allclose(m, study.matrix)
    assert sum(eq["mixture_a"]) == pytest.approx(1) and sum(eq["mixture_b"]) == pytest.approx(1)
    assert m.min() <= eq["value"] <= m.max()
    assert eq["value"] == pytest.approx(study.value) and eq["games"] == [[N] * 3] * 3
    assert d["win_rate_a"] == pytest.approx(study.win_rate_a)
    assert d["policy"] == "equilibrium" and d["manifest"]["styles"] == eq["styles"]
    assert "close_combats" in d["events"] and len(d["cells"]) == 9


def test_cli_text_prints_the_matrix_mixtures_and_value(capsys, study):
    rc, out, _ = _duel_cli(capsys)
    assert rc == 0
    assert "rows A's style, columns B's" in out and "A's mixture" in out
    assert "B's mixture" in out and f"{100 * study.value:.2f}%" in out
    for label in study.labels_a:
        assert label in out


@pytest.mark.parametrize(
    "extra",
    [["--policies", "hunter,sniper"], ["--precision", "0.05"]],
)
def test_cli_equilibrium_with_a_bot_per_dragon_or_a_precision_exits_2(capsys, extra):
    if "--precision" in extra:  # -n and --precision together are their own error
        rc = main(["duel", "Reaper", "Skyblazer", "--policy", "equilibrium", *extra])
        err = capsys.readouterr().err
    else:
        rc, _, err = _duel_cli(capsys, *extra)
    assert rc == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "equilibrium" in err


def test_cli_help_mentions_the_equilibrium(capsys):
    with pytest.raises(SystemExit):
        main(["duel", "--help"])
    assert "equilibrium" in capsys.readouterr().out
