"""Dragon Dice kernel speed next to its random-number floor.

    python benchmarks/bench_dice.py [-n 2e6] [--threads T]

For each scenario: attacks per second of the full kernel, the dice it rolls per attack
(dragon d12s and unit d6s), and a bare kernel that only seeds the same per-game streams and
rolls that many dice (the RNG floor), once using the dice one at a time (a serial
recurrence, as a game does) and once summing them (which LLVM vectorises). Prints the
ratios; asserts nothing about time. Numbers move with the machine's load: run it alone.
"""

from __future__ import annotations

import argparse
import time

import numba
from dice_floor import rng_floor_kernel

from dragonsim.dice import data as D
from dragonsim.dice import kernel as K
from dragonsim.dice.api import Options, build_army
from dragonsim.dice.api.armies import _dragon_faces
from dragonsim.errors import parse_count

SCENARIOS = [
    ("red-wyrm vs goblin-horde, 1 attack", "red-wyrm", "goblin-horde", 1),
    ("black-drake vs goblin-horde, 1 attack", "black-drake", "goblin-horde", 1),
    ("gold-wyrm vs 30 goblin-thugs, 1 attack", "gold-wyrm", "goblin-thug:30", 1),
    ("red-wyrm vs dwarf-guard, up to 10 attacks", "red-wyrm", "dwarf-guard", 10),
]


def _best(fn, reps: int = 3) -> float:
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", default="2e6")
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args()
    n = parse_count(a.n)
    if a.threads:
        numba.set_num_threads(a.threads)
    print(f"numba threads: {numba.get_num_threads()}, games per run: {n:,}")
    cat = D.Catalog()
    for label, dragon, army, turns in SCENARIOS:
        dr = cat.dragon(dragon)
        arr = build_army(D.parse_army(army, cat), cat, colour=dr.colour_code)
        args = arr.kernel_args([dr], dr.colour_code, Options.defaults(), turns)
        c = K.army_kernel(0, 1000, 1, *args)  # compile / load from cache
        c = K.army_kernel(0, n, 1, *args)
        attacks = int(c[K.C_TURNS])
        td, ta = int(c[K.C_DICE_DRAGON]), int(c[K.C_DICE_ARMY])
        dd, ad = td / n, ta / n
        t_full = _best(lambda args=args: K.army_kernel(0, n, 1, *args))
        rng_floor_kernel(0, 1000, 1, 1000, 1000, 0)
        rng_floor_kernel(0, 1000, 1, 1000, 1000, 1)
        t_vec = _best(lambda td=td, ta=ta: rng_floor_kernel(0, n, 1, td, ta, 0))
        t_seq = _best(lambda td=td, ta=ta: rng_floor_kernel(0, n, 1, td, ta, 1))
        print(f"\n{label}")
        print(
            f"  attacks/s        {attacks / t_full:14,.0f}   ({attacks / n:.2f} attacks/game,"
            f" {t_full:.3f} s)"
        )
        print(
            f"  dice per attack  {dd * n / attacks:6.2f} dragon d12 + {ad * n / attacks:6.2f}"
            f" unit d6"
        )
        print(
            f"  RNG floor        same streams, the same {dd:.2f} d12 + {ad:.2f} d6 per game: "
            f"{t_seq:.3f} s one die at a time, {t_vec:.3f} s summed (SIMD)"
        )
        print(
            f"  ratio full/floor {t_full / t_seq:6.2f}x (dice one at a time)   "
            f"{t_full / t_vec:6.2f}x (SIMD sum)"
        )
    # dragon vs dragon
    faces = _dragon_faces([cat.dragon("red-wyrm"), cat.dragon("blue-drake")])
    import numpy as np

    side = np.array([0, 1], np.int64)
    K.dvd_kernel(0, 1000, 1, faces, side, 2, Options.defaults().array(), 10)
    c = K.dvd_kernel(0, n, 1, faces, side, 2, Options.defaults().array(), 10)
    t = _best(lambda: K.dvd_kernel(0, n, 1, faces, side, 2, Options.defaults().array(), 10))
    tv = int(c[K.V_DICE])
    dice = tv / n
    rng_floor_kernel(0, 1000, 1, 1000, 0, 1)
    tf = _best(lambda: rng_floor_kernel(0, n, 1, tv, 0, 1))
    print("\nred-wyrm vs blue-drake, up to 10 rounds")
    print(f"  games/s          {n / t:14,.0f}   ({dice:.2f} d12 per game)")
    print(f"  ratio full/floor {t / tf:6.2f}x (dice one at a time)")


if __name__ == "__main__":
    main()
