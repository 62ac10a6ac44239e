"""The regression gate: real shifts are flagged, noise is not; and the stored baseline holds."""

from __future__ import annotations

import json

import pytest

from dragonsim.lords.analysis import baseline


def _c(wins, n):
    return {"n": n, "wins_a": wins, "wins_b": n - wins, "draws": 0}


def test_gate_ignores_noise_and_flags_a_real_shift():
    base = {"x": _c(100_000, 200_000), "y": _c(60_000, 200_000)}
    same = {"x": _c(10_080, 20_000), "y": _c(5_950, 20_000)}  # within sampling noise
    assert not any(f.regression for f in baseline.compare(base, same))
    shifted = {"x": _c(10_080, 20_000), "y": _c(6_600, 20_000)}  # 30% -> 33%
    flags = {f.matchup: f.regression for f in baseline.compare(base, shifted)}
    assert flags == {"x": False, "y": True}


def test_check_refuses_the_baselines_own_seed(tmp_path):
    from dragonsim.errors import UserError

    f = tmp_path / "b.json"
    f.write_text(json.dumps({"manifest": {"seed": 5, "rules_hash": "x"}, "matchups": {}}))
    with pytest.raises(UserError, match="seed other than"):
        baseline.check(f, seed=5)


@pytest.mark.slow
@pytest.mark.skipif(not baseline.DEFAULT_FILE.exists(), reason="no stored baseline")
def test_stored_baseline_still_holds():
    """Replays every stored matchup on a fresh seed (20,000 games each) against
    results/baseline.json; fails only on a Holm-significant change (alpha 0.001)."""
    lines = []
    assert baseline.check(n=20_000, seed=7, echo=lines.append), "\n".join(lines)


def test_check_replays_the_bot_versions_the_baseline_was_written_with():
    """A released bot's results never change, so a baseline written when ``hunter`` meant
    hunter-4 is replayed with hunter-4 after a newer hunter became the default: the names
    map through the manifest's versions, and the games are hunter-4's, not the newest's."""
    m = [("Tankerous", "Tankerous", "hunter", "hunter")]
    old = baseline._play(300, 3, m, None, None, {"hunter": "hunter-4"})
    pinned = baseline._play(300, 3, [("Tankerous", "Tankerous", "hunter@4", "hunter@4")], None)
    newest = baseline._play(300, 3, m, None)
    assert list(old.values()) == list(pinned.values())
    assert list(old.values()) != list(newest.values())
