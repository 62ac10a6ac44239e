"""MkDocs hook: a results CSV shown as a table, generated at build time, never typed.

A page writes ``{{ csv "results/FILE.csv" }}`` on a line of its own (optionally
``{{ csv "results/FILE.csv" digits=3 }}``); the build replaces it with a Markdown table of the
file's rows, numbers rounded to ``digits`` places (default 3). A missing file stops the
build. Text files are included verbatim with ``pymdownx.snippets`` instead
(``--8<-- "results/FILE.txt"`` in a code block).
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent
_MARK = re.compile(r'^\{\{ csv "(?P<path>[^"]+)"(?: digits=(?P<digits>\d+))? \}\}$', re.M)


def _cell(text: str, digits: int) -> str:
    try:
        value = float(text)
    except ValueError:
        return text.replace("|", "\\|")
    if value.is_integer() and "." not in text:
        return text
    return f"{value:.{digits}f}"


def csv_table(path: str, digits: int = 3) -> str:
    """The Markdown table of one CSV file under the repository root."""
    f = ROOT / path
    if not f.is_file():
        raise PluginError(f"docs include a CSV that does not exist: {path}")
    with f.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    head, body = rows[0], rows[1:]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(_cell(c, digits) for c in r) + " |" for r in body]
    return "\n".join(lines)


def on_page_markdown(markdown: str, **kwargs) -> str:
    return _MARK.sub(
        lambda m: csv_table(m["path"], int(m["digits"] or 3)),
        markdown,
    )
