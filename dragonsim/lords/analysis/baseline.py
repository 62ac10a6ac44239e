"""Baseline win rates in ``results/`` and a regression gate that flags real changes, not noise.

``write`` plays a fixed list of Dragon Lords matchups with a large ``n`` and stores the counts
with a manifest (dragonsim version, rules hash, policies). ``check`` replays them with a
*different* seed (an independent sample) and the bot versions the manifest names (a newer
default does not move a released bot's results), tests each matchup's win rate against the baseline
with a two-proportion test, and controls the family-wise error over all matchups with Holm's
procedure: with ``alpha = 0.001`` an unchanged engine fails the gate at most once in a
thousand runs, while a real shift of a couple of percentage points is caught.

A change of the rules data (a different rules hash) is reported as such: the baseline no
longer describes the same game, so it must be rewritten deliberately (``write``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ... import defaults
from ...stats import Rate, holm, two_proportion_pvalue
from ..game.sheets import rule_switches

DEFAULT_FILE = Path(__file__).resolve().parents[3] / "results" / "baseline.json"

#: (a, b, policy of a, policy of b): the mirror and cross matchups a balance study leans on.
MATCHUPS: tuple[tuple[str, str, str, str], ...] = (
    ("Reaper", "Skyblazer", "hunter", "hunter"),
    ("Lectronist", "Kelvinight", "hunter", "hunter"),
    ("Zippinchill", "Thilindis", "hunter", "hunter"),
    ("Blowderby", "Slash", "hunter", "hunter"),
    ("Reaper", "Reaper", "hunter", "random"),
    ("Skyblazer", "Skyblazer", "brawler", "sniper"),
)


def _key(m: Sequence[str]) -> str:
    return f"{m[0]}({m[2]}) vs {m[1]}({m[3]})"


@dataclass
class Finding:
    matchup: str
    baseline: Rate
    current: Rate
    pvalue: float
    regression: bool

    def line(self) -> str:
        flag = "CHANGED" if self.regression else "ok     "
        return (
            f"{flag} {self.matchup:<46} baseline {self.baseline}  now {self.current}  "
            f"p={self.pvalue:.2g}"
        )


def _play(
    n: int, seed: int, matchups, threads: int | None, rules=None, versions=None, progress=False
) -> dict[str, dict[str, int]]:
    """The counts of ``matchups``; ``versions`` maps a plain bot name to the released version
    to play (a baseline's manifest: ``{"hunter": "hunter-4"}``), else the newest."""
    from ..api import duel

    versions = versions or {}
    out = {}
    for m in matchups:
        r = duel(
            m[0],
            m[1],
            n=n,
            seed=seed,
            policies=(versions.get(m[2], m[2]), versions.get(m[3], m[3])),
            progress=progress,
            threads=threads,
            rules=rules,
        )
        out[_key(m)] = {"n": r.n, "wins_a": r.wins_a, "wins_b": r.wins_b, "draws": r.draws}
    return out


def write(
    path: str | Path = DEFAULT_FILE,
    *,
    n: int = 200_000,
    seed: int = defaults.BASELINE_SEED,
    threads: int | None = None,
    matchups=MATCHUPS,
    rules=None,
    progress: bool | None = False,
) -> dict[str, Any]:
    """Play the matchups and store the counts with a manifest (``rules``: a RuleSet or
    overrides; default the rules as printed and assumed; ``threads``, ``progress``: as for
    :func:`~dragonsim.lords.api.duel`)."""
    from ...report import manifest
    from ..bots import POLICIES
    from ..inputs import _rules

    rs = _rules(rules)
    t0 = time.perf_counter()
    counts = _play(n, seed, matchups, threads, rs, progress=progress)
    data = {
        "manifest": manifest(
            rules_hash=rs.hash,
            rules_overrides=rs.overrides,
            options=rule_switches(rs),
            seed=seed,
            n=n,
            policies=_policy_versions(POLICIES),
            seconds=round(time.perf_counter() - t0, 1),
        ),
        "matchups": counts,
    }
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(data, indent=2) + "\n")
    return data


def _policy_versions(policies) -> dict[str, str]:
    return {name: version for name, (_, version) in dict(policies).items()}


def compare(
    baseline: dict[str, dict[str, int]], current: dict[str, dict[str, int]], *, alpha: float = 0.001
) -> list[Finding]:
    """Holm-corrected two-proportion tests of side A's win rate, matchup by matchup."""
    keys = [k for k in baseline if k in current]
    pv = [
        two_proportion_pvalue(
            baseline[k]["wins_a"], baseline[k]["n"], current[k]["wins_a"], current[k]["n"]
        )
        for k in keys
    ]
    rej = holm(pv, alpha)
    return [
        Finding(
            k,
            Rate.of(baseline[k]["wins_a"], baseline[k]["n"]),
            Rate.of(current[k]["wins_a"], current[k]["n"]),
            p,
            r,
        )
        for k, p, r in zip(keys, pv, rej, strict=True)
    ]


def check(
    path: str | Path = DEFAULT_FILE,
    *,
    n: int = 20_000,
    seed: int = 7,
    alpha: float = 0.001,
    threads: int | None = None,
    echo: Callable[[str], None] = print,
    rules=None,
    findings: list | None = None,
    progress: bool | None = False,
) -> bool:
    """Replay the stored matchups on a fresh seed; True when nothing changed significantly.

    ``rules`` (a RuleSet or overrides) must be the rules the baseline was written under.
    ``findings``: a list that gets every matchup's :class:`Finding`. ``threads``,
    ``progress``: as for :func:`~dragonsim.lords.api.duel`."""
    from ...errors import UserError, read_json
    from ..inputs import _rules

    p = Path(path)
    if not p.exists():
        raise UserError(
            f"no baseline at {str(p)!r}; write one with `python -m dragonsim baseline write`"
        )
    data = read_json(p, "baseline file")
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("manifest"), dict)
        or not isinstance(data.get("matchups"), dict)
        or not {"seed", "rules_hash"} <= set(data["manifest"])
    ):
        raise UserError(
            f"baseline file {str(p)!r} is not a baseline (a JSON object with 'manifest' and "
            "'matchups', as `python -m dragonsim baseline write` writes)"
        )
    if seed == data["manifest"]["seed"]:
        raise UserError(
            "check must use a seed other than the baseline's, so the samples are independent"
        )
    rs = _rules(rules)
    rh = rs.hash
    if data["manifest"]["rules_hash"] != rh:
        echo(
            f"rules changed (baseline {data['manifest']['rules_hash']}, now {rh}): "
            "the baseline describes another game; rewrite it with `baseline write`"
        )
        return False
    wanted = [m for m in MATCHUPS if _key(m) in data["matchups"]]
    # a released bot's results never change: the matchups are replayed with the versions the
    # baseline was written with, whatever a plain name means now
    versions = data["manifest"].get("policies") or {}
    if not isinstance(versions, dict):
        versions = {}
    names = sorted({p for m in wanted for p in m[2:]})
    echo("bots as the baseline played them: " + ", ".join(versions.get(p, p) for p in names))
    current = _play(n, seed, wanted, threads, rs, versions, progress)
    found = compare(data["matchups"], current, alpha=alpha)
    if findings is not None:
        findings.extend(found)
    for f in found:
        echo(f.line())
    bad = [f for f in found if f.regression]
    echo(
        f"{len(found) - len(bad)} passed, {len(bad)} failed "
        f"(Holm family-wise alpha {alpha}, {n:,} games per matchup)"
    )
    return not bad
