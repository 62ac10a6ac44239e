"""The project's own docs: generated from the rules data, fresh, and standing alone."""

from __future__ import annotations

import os
import re
import subprocess
import sys
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


# --- the README as a short guide, the documentation site -------------------------------------

README_MAX_LINES = 200
#: a Markdown link or image: [text](target) or ![alt](target "title")
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: an include of a results file: snippets (--8<-- "results/x.txt[:a:b]") or the CSV hook
_INCLUDE = re.compile(
    r'^\s*(?:--8<-- "([^":]+)(?::\d+:\d+)?"|\{\{ csv "([^"]+)"[^}]*\}\})\s*$', re.M
)


def _pages() -> list[Path]:
    """The README and every hand-written or generated page of the site."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _without_code(text: str) -> str:
    text = re.sub(r"^([ \t]*)```.*?^\1```", "", text, flags=re.S | re.M)  # fenced blocks
    return re.sub(r"`[^`\n]*`", "", text)  # inline code


def test_readme_is_a_short_guide():
    """The README is a user's guide (issue 34): under 200 lines, the two set-up commands as
    CI runs them, and no measured numbers of its own (the docs include them from results/)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < README_MAX_LINES, len(text.splitlines())
    assert "pip install -e '.[dev]' && python -m dragonsim duel Reaper Skyblazer -n 1e6" in text
    assert "\npython -m pytest -q\n" in text
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^python3? -m pytest -q$", ci, re.M), "CI no longer runs the README's tests"
    for cmd in ("pip install -e '.[docs]' && mkdocs serve", "pip install -e '.[notebooks]'"):
        assert cmd in text, cmd


def test_every_relative_link_points_to_an_existing_file():
    """Every relative link and image of the README and of docs/ reaches a file of the
    repository (anchors aside: `mkdocs build --strict` checks those between pages)."""
    bad = []
    for page in _pages():
        for target in _LINK.findall(_without_code(page.read_text(encoding="utf-8"))):
            if re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a URL, mailto: or an anchor on the same page
            path = target.split("#", 1)[0]
            if not (page.parent / path).exists():
                bad.append(f"{page.relative_to(ROOT)}: {target}")
    assert not bad, "broken links:\n" + "\n".join(bad)


def test_every_included_results_file_exists():
    """The site's measured numbers are included from results/, never typed: every include
    names a file that exists (checked without mkdocs too)."""
    seen, bad = 0, []
    for page in sorted((ROOT / "docs").glob("*.md")):
        for snippet, table in _INCLUDE.findall(page.read_text(encoding="utf-8")):
            name = snippet or table
            seen += 1
            if not name.startswith("results/") or not (ROOT / name).is_file():
                bad.append(f"{page.name}: {name}")
    assert seen >= 20 and not bad, bad


def test_mkdocs_build_strict(tmp_path):
    """`mkdocs build --strict` (as CI runs it): every page in the nav, every link and anchor
    between pages, every include, the API pages from the docstrings, and the notebooks
    rendered from their committed outputs without executing them."""
    for module in ("mkdocs", "material", "mkdocs_jupyter", "mkdocstrings_handlers.python"):
        pytest.importorskip(module, reason="the docs extra: pip install -e '.[docs]'")
    out = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-6000:]
    site = tmp_path / "site"
    for page in ("index.html", "prices/index.html", "api/lords/index.html"):
        assert (site / page).is_file(), page
    assert (site / "notebooks" / "lords_balance" / "index.html").is_file()


def test_every_readme_command_is_one_the_command_line_takes():
    """Every ``python -m dragonsim ...`` line of the README's code blocks parses as written (the
    commands and flags exist), so the guide's five answers stay true to the command line."""
    import shlex

    from dragonsim.cli import build_parser

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = "\n".join(re.findall(r"```[a-z]*\n(.*?)```", text, re.S)).replace("\\\n", " ")
    lines = [ln.split("python -m dragonsim", 1)[1] for ln in blocks.splitlines()
             if "python -m dragonsim" in ln]  # fmt: skip
    assert any(ln.split()[0] == "price" for ln in lines)
    assert any(ln.split()[0] == "gauntlet" for ln in lines)
    parser = build_parser()
    for ln in lines:
        argv = shlex.split(ln.split("#", 1)[0])
        parser.parse_args(argv)
