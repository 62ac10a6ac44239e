"""Test settings shared by every test module."""

import os
from pathlib import Path

from hypothesis import settings

# The first call of a numba function compiles it (seconds on a cold cache, as in CI), which
# would trip Hypothesis's per-example deadline and be reported as a flaky test.
settings.register_profile("dragonsim", deadline=None)
settings.load_profile("dragonsim")

# The move tables with banking or turning between move phases are kept on disk
# (dragonsim.lords.game.movetables.cache_dir): the tests' own variants (small boards, readings,
# gigabytes in all) go to the checkout's ignored .pytest_cache, kept from run to run (they take
# minutes to build), never to the user's cache, whatever DRAGONSIM_CACHE_DIR or XDG_CACHE_HOME
# the user set (tests/core/test_own_cache.py); the command-line and notebook tests' processes
# inherit the setting.
os.environ["DRAGONSIM_CACHE_DIR"] = str(
    Path(__file__).resolve().parent.parent / ".pytest_cache" / "dragonsim"
)
