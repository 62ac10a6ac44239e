"""Test settings shared by every test module."""

from hypothesis import settings

# The first call of a numba function compiles it (seconds on a cold cache, as in CI), which
# would trip Hypothesis's per-example deadline and be reported as a flaky test.
settings.register_profile("dragonsim", deadline=None)
settings.load_profile("dragonsim")
