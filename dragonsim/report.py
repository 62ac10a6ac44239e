"""Manifests (what produced a result) and the shared plot style."""

from __future__ import annotations

import hashlib
import json
import platform
import time
from pathlib import Path
from typing import Any

__all__ = ["manifest", "rules_hash", "plot_style", "interrupted_line"]

STYLE_FILE = Path(__file__).with_name("dragonsim.mplstyle")


def rules_hash(data: Any) -> str:
    """A short stable hash of any JSON-able rules data (sorted keys)."""
    blob = json.dumps(data, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def manifest(**fields: Any) -> dict[str, Any]:
    """The reproducibility manifest every result carries."""
    import numba
    import numpy

    from . import __version__

    out = {
        "dragonsim": __version__,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    out.update(fields)
    return out


def interrupted_line(r, unit: str = "games") -> list[str]:
    """The summary line of an interrupted run (none for a finished one): what the numbers
    above and below cover."""
    if not getattr(r, "interrupted", False):
        return []
    req = getattr(r, "requested", None)
    of = f" of {req:,}" if req else ""
    return [f"  INTERRUPTED: {r.n:,}{of} {unit} finished; every rate and interval is for those"]


def plot_style():
    """A context manager applying dragonsim's one matplotlib style."""
    import matplotlib.pyplot as plt

    return plt.style.context(str(STYLE_FILE))
