"""The Dragon Dice kernels that only roll dice (``benchmarks/dice_floor.py``): the benchmark's
random-number floor and the bare dragon roll the exact tail chain is checked against."""

import sys
from pathlib import Path

import numpy as np

from dragonsim.dice import kernel as K
from dragonsim.random import below, new_state, seed_stream, steps_between, stream_seed

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from dice_floor import rng_floor_kernel  # noqa: E402


def test_dice_floor_rolls_exactly_the_games_dice():
    """The Dragon Dice benchmark floor rolls the totals it is given, spread over the games as
    evenly as integers allow (game k rolls floor((k+1) t / n) - floor(k t / n)), from each
    game's own streams, whatever the chunking."""
    n, td, ta, seed, start = 100, 326, 1708, 9, 5
    want = 0
    sd, sa = new_state(), new_state()
    for k in range(n):
        g = start + k
        seed_stream(sd, seed, g, K.P_DRAGON)
        seed_stream(sa, seed, g, K.P_ARMY)
        for _ in range((k + 1) * td // n - k * td // n):
            want += below(sd, 12)
        for _ in range((k + 1) * ta // n - k * ta // n):
            want += below(sa, 6)
    got = rng_floor_kernel(start, start + n, seed, td, ta, 0)
    assert int(np.asarray(got)[0]) == want


def test_steps_between_counts_the_draws_of_a_stream():
    """The kernels count dice from how far a stream's state moved: random.steps_between
    inverts the generator's step, also on a sum of moves of several streams (mod 2**64)."""
    from dragonsim.random import below_s

    total = 0
    drawn = 0
    for game, k in ((0, 0), (1, 7), (2, 1000)):
        s0 = np.uint64(stream_seed(3, game, K.P_ARMY))
        s = s0
        for _ in range(k):
            s, _v = below_s(np.uint64(s), 6)
        assert steps_between(s0, np.uint64(s)) == k
        total = (total + int(s) - int(s0)) % 2**64
        drawn += k
    assert steps_between(np.uint64(0), np.uint64(total)) == drawn
