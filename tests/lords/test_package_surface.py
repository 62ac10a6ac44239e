"""The package surface: after ``import dragonsim`` the Dragon Lords submodules and functions
are reachable as attributes (``dragonsim.lords.analysis.study.tournament``,
``dragonsim.lords.sheet``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_lords_submodules_and_functions_are_reachable_after_import_dragonsim():
    code = (
        "import dragonsim; "
        "assert callable(dragonsim.lords.api.duel); "
        "assert callable(dragonsim.lords.analysis.study.tournament); "
        "assert dragonsim.lords.tournament is dragonsim.lords.analysis.study.tournament; "
        "assert dragonsim.lords.duel is dragonsim.duel; "
        "assert dragonsim.lords.sheet('Reaper').mr == 'E'; "
        "assert {'api', 'study', 'duel', 'battle', 'sensitivity'} <= set(dir(dragonsim.lords))"
    )
    root = Path(__file__).parents[2]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root)
    assert done.returncode == 0, done.stderr
