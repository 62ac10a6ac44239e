"""Manifests (what produced a result) and the shared plot style."""

from __future__ import annotations

import contextlib
import hashlib
import json
import platform
import time
from pathlib import Path
from typing import Any

__all__ = [
    "manifest",
    "rules_hash",
    "rules_line",
    "plot_style",
    "use_style",
    "hist_quantile",
    "interrupted_line",
]

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


def rules_line(hash_: str | None, overrides: dict[str, Any] | None) -> str:
    """What a result's rules hash means, for a summary: ``rules hash 1179097308a1b35b (the
    shipped rules, no override)`` or ``... (2 overrides: lords.altitude_mod = [0, 1, 1, 2, 2],
    ...)``. The hash names every rules value in force (two runs with one hash played one
    game)."""
    if not hash_:
        return ""
    if not overrides:
        return f"rules hash {hash_} (the shipped rules, no override)"
    shown = ", ".join(f"{k} = {json.dumps(v)}" for k, v in overrides.items())
    if len(shown) > 100:
        shown = shown[:97] + "..."
    s = "s" if len(overrides) > 1 else ""
    return f"rules hash {hash_} ({len(overrides)} override{s} in force: {shown})"


def interrupted_line(r, unit: str = "games") -> list[str]:
    """The summary line of an interrupted run (none for a finished one): what the numbers
    above and below cover."""
    if not getattr(r, "interrupted", False):
        return []
    req = getattr(r, "requested", None)
    of = f" of {req:,}" if req else ""
    return [f"  INTERRUPTED: {r.n:,}{of} {unit} finished; every rate and interval is for those"]


#: rcParams a plot-style block leaves as it finds them at its end: the backend, and whether
#: pyplot is interactive (Jupyter's inline backend switches that on when the first figure is
#: made; were it switched back at the block's end, no later cell's figure would show)
_KEEP = ("backend", "interactive")


@contextlib.contextmanager
def plot_style():
    """A context manager applying dragonsim's one matplotlib style (what every ``.plot()``
    draws under); at its end the other settings come back, all but the backend and the
    interactive flag (:data:`_KEEP`), so a notebook shows this cell's figure and every later
    one."""
    import matplotlib as mpl
    import matplotlib.pyplot as plt

    orig = {k: v for k, v in mpl.rcParams.items() if k not in _KEEP}
    try:
        plt.style.use(str(STYLE_FILE))
        yield
    finally:
        keep = {k: mpl.rcParams[k] for k in _KEEP}
        restore = getattr(mpl.rcParams, "_update_raw", None)
        if restore is not None:
            restore(orig)
        else:  # older matplotlib
            dict.update(mpl.rcParams, orig)
        dict.update(mpl.rcParams, keep)


def hist_quantile(counts, q: float = 0.995) -> int:
    """The smallest bin index holding at least share ``q`` of a histogram's counts (0 for an
    empty one): where a plot's axis can end without hiding more than ``1 - q`` of the games."""
    import numpy as np

    c = np.cumsum(np.asarray(counts, dtype=float))
    if c.size == 0 or c[-1] <= 0:
        return 0
    return int(np.searchsorted(c, q * c[-1]))


def use_style() -> None:
    """Apply dragonsim's matplotlib style for the rest of the session (a notebook's first
    cell calls it, so every figure of every cell has it, whatever draws it)."""
    import matplotlib.pyplot as plt

    plt.style.use(str(STYLE_FILE))
