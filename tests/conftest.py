"""Test settings shared by every test module."""

import os
from pathlib import Path

from hypothesis import settings

# The first call of a numba function compiles it (seconds on a cold cache, as in CI), which
# would trip Hypothesis's per-example deadline and be reported as a flaky test.
settings.register_profile("dragonsim", deadline=None)
settings.load_profile("dragonsim")

# The move tables with banking or turning between move phases are kept on disk
# (dragonsim.lords.game.movetables.cache_dir): the tests' own variants (small boards, readings) go
# to the checkout's ignored .pytest_cache, not to the user's cache, and the command-line and
# notebook tests' processes (which inherit the environment) read them from there too.
os.environ.setdefault(
    "DRAGONSIM_CACHE_DIR",
    str(Path(__file__).resolve().parent.parent / ".pytest_cache" / "dragonsim"),
)
