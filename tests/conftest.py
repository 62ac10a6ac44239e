"""Test settings shared by every test module."""

import gc
import os
import resource
import sys
from pathlib import Path

import pytest
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


@pytest.fixture(autouse=True, scope="module")
def _free_move_tables():
    """Each test module leaves no move tables in memory for the next: under the advanced and
    optional rules one set is 1.3 GB, and the modules' variants (readings, boards, ratings)
    would otherwise pile up to the caches' bounds. The slow ones are read back from disk."""
    yield
    mt = sys.modules.get("dragonsim.lords.game.movetables")
    if mt is not None:
        mt._TABLES.clear()
        mt._MOVE_PARTS.clear()
        mt._ALT_PARTS.clear()
        gc.collect()


_SCALE = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, else KiB
#: (GB the test process's peak rose by, test): where the suite's memory goes
_RISES: list[tuple[float, str]] = []
_PEAK = [0.0]


def pytest_runtest_logfinish(nodeid, location):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * _SCALE / 1e9
    if peak > _PEAK[0]:
        _RISES.append((peak - _PEAK[0], nodeid))
        _PEAK[0] = peak


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter):
    """The suite's peak memory, printed after the slowest tests' times: the test process's (and
    the tests that raised it most) and the largest of the processes it ran (command line,
    notebooks; a forked child counts its parent's memory at the fork)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * _SCALE / 1e9
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * _SCALE / 1e9
    terminalreporter.write_line(
        f"peak memory: {own:.2f} GB in the test process, {child:.2f} GB in the largest it ran"
    )
    for rise, nodeid in sorted(_RISES, reverse=True)[:5]:
        terminalreporter.write_line(f"  +{rise:.2f} GB of the peak in {nodeid}")
