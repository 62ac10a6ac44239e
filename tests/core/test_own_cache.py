"""The test suite keeps its own cache: a user's ``DRAGONSIM_CACHE_DIR`` (and the default
``~/.cache/dragonsim``, or ``$XDG_CACHE_HOME/dragonsim``) never receives the tests' move
tables, whatever the user's environment says (``tests/conftest.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from dragonsim.lords.game import movetables as MT

ROOT = Path(__file__).resolve().parents[2]
TESTS_CACHE = ROOT / ".pytest_cache" / "dragonsim"


def test_this_session_uses_the_checkouts_cache():
    assert os.environ[MT.CACHE_ENV] == str(TESTS_CACHE)
    assert MT.cache_dir() == TESTS_CACHE / "movetables"


def test_pytest_leaves_the_users_cache_untouched(tmp_path):
    """A pytest session started by a user whose ``DRAGONSIM_CACHE_DIR`` and
    ``XDG_CACHE_HOME`` name their own folders builds a move table kept on disk
    (``cache_probe.py``): the table goes to the checkout's ignored ``.pytest_cache``, and both
    of the user's folders stay empty."""
    user, xdg = tmp_path / "user-cache", tmp_path / "xdg-cache"
    user.mkdir()
    xdg.mkdir()
    env = {
        **os.environ,
        MT.CACHE_ENV: str(user),
        "XDG_CACHE_HOME": str(xdg),
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
    }
    probe = Path(__file__).with_name("cache_probe.py")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", str(probe)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "1 passed" in done.stdout
    assert list(user.rglob("*")) == [], "the tests wrote into the user's DRAGONSIM_CACHE_DIR"
    assert list(xdg.rglob("*")) == [], "the tests wrote into the user's XDG_CACHE_HOME"
    assert f"move tables kept in {TESTS_CACHE / 'movetables'}" in done.stdout
