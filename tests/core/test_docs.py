"""The project's own docs: generated from the rules data, fresh, and standing alone."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from dragonsim.rules import GAMES, registry
from dragonsim.rules.docs import pages, stale

ROOT = Path(__file__).resolve().parents[2]


def test_committed_rules_pages_match_the_rules_data():
    """docs/rules-*.md are generated; a change to the rules data without
    `python -m dragonsim docs` leaves them stale, and this fails."""
    bad = stale(ROOT / "docs")
    assert not bad, f"stale docs pages {bad}: run `python -m dragonsim docs`"


def test_every_rule_and_every_assumed_value_is_on_its_page():
    """Every rule of every game has a section, and every assumed one says why."""
    text = pages()
    for game in GAMES:
        page = text[f"rules-{game}.md"]
        assumed_part = page.split("## Assumed values", 1)[1].split("## Printed", 1)[0]
        for key, rule in registry(game).items():
            assert f"### `{key}`" in page, key
            if rule.is_assumed:
                assert f"### `{key}`" in assumed_part, key
                assert rule.source.strip() and rule.source in page, key


def test_docs_check_command_flags_a_stale_page(tmp_path, capsys):
    from dragonsim.cli import main

    assert main(["docs", "--out", str(tmp_path)]) == 0
    assert main(["docs", "--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "rules-lords.md").write_text("old\n")
    capsys.readouterr()
    assert main(["docs", "--out", str(tmp_path), "--check"]) == 1
    assert "rules-lords.md is stale" in capsys.readouterr().out


def _tracked_text_files():
    try:
        names = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    for n in names:
        p = ROOT / n
        if p.suffix in {".py", ".md", ".toml", ".ipynb", ".txt", ".cfg"} or p.name == "run":
            yield p


def test_nothing_in_the_repository_points_outside_it():
    """A user who clones the repository has only the repository: no file may cite the
    development workspace's shared folder or its gap notes; the rulebooks are cited by name
    and page, and the assumptions are explained in the project's own rules data and docs."""
    pat = re.compile(r"(\.\./shared|shared/seeds|shared/RULES|RULES-GAPS|seeds/0\d\d_)")
    hits = []
    for p in _tracked_text_files():
        if p == Path(__file__).resolve():
            continue
        for i, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines()):
            if pat.search(line):
                hits.append(f"{p.relative_to(ROOT)}:{i + 1}: {line.strip()[:100]}")
    assert not hits, (
        "files pointing outside the repository:\n"
        + "\n".join(hits[:40])
        + (f"\n... and {len(hits) - 40} more" if len(hits) > 40 else "")
    )
