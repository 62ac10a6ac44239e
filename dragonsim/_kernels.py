"""numba plumbing every game's kernels share: one decorator for game code, one way to split
games into chunks, and one guard against stale on-disk caches.

* :func:`game_fn` -- ``njit(cache=True, _nrt=False)`` under one name. The contract: a game
  function allocates nothing (no arrays, lists or strings: it writes into scratch it is given)
  and returns scalars or tuples of scalars. In exchange numba skips reference counting on every
  array argument of every call, which cost about a fifth of a Dragon Lords turn. A function
  that breaks the contract fails to compile, loudly; the kernels that allocate (the
  ``parallel=True`` entry points, table builders) use plain ``njit``.
* :func:`inner_fn` -- a game function that takes records and that only compiled code calls,
  inlined by LLVM where it is called.
* :func:`n_chunks` / :func:`chunk_bounds` -- games ``start..stop-1`` are cut into chunks, each
  owning one row of a 2-D counter array (threads never share a counter). Each game plays from
  its own streams (:mod:`dragonsim.random`), so the counters do not depend on the cut.
* :func:`guard_caches` -- numba invalidates a cached function only when *its own* file changes,
  but a kernel compiles in code from other modules; a hash of every file a module's kernels
  compile in is kept beside its cache, and the module's caches are flushed when it differs.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence

from numba import njit

from .defaults import CHUNK_GAMES, MAX_CHUNKS

__all__ = ["game_fn", "inner_fn", "n_chunks", "chunk_bounds", "guard_caches"]


def game_fn(fn=None, **options):
    """Compile a game function: ``njit(cache=True, _nrt=False, **options)`` (see the module
    docstring for the no-allocation contract). Use bare (``@game_fn``) or with numba options
    (``@game_fn(inline="always")``)."""
    if fn is None:
        return lambda f: njit(cache=True, _nrt=False, **options)(f)
    return njit(cache=True, _nrt=False, **options)(fn)


def inner_fn(fn):
    """Compile a game function (:func:`game_fn`) that takes records (a run's inputs, its
    scratch, the rules or move tables) and that only compiled code calls: compiled once on
    its own and inlined by LLVM wherever it is called (``forceinline``), without a Python or
    C wrapper.

    numba passes a record to a function it calls as every field of every array in it (seven
    words or more an array): a plain call of a bot with the run's records costs hundreds of
    stores, and a turn asks the bots several times (called that way, the Lords bots took a
    turn 2-6x as long: 3.7 against 1.7 us with the hunters, 2.1 against 0.34 us with random
    bots, one thread; the Dice games cut into phases, 1.5-2.5x). Inlined, the fields stay
    where the caller has them. Not numba's ``inline="always"``, which copies the IR into every
    caller and types it again there (a Dice game of inlined phases took 3-5x the cold compile).
    A wrapper would only add to the compile: it unboxes whole records for a call from Python
    that never comes."""
    return game_fn(fn, forceinline=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)


@njit(cache=True, _nrt=False)
def n_chunks(n):
    """How many chunks (counter rows) ``n`` games are cut into: about one per
    ``CHUNK_GAMES`` games, at least 1, at most ``MAX_CHUNKS``."""
    c = n // CHUNK_GAMES
    if c < 1:
        c = 1
    if c > MAX_CHUNKS:
        c = MAX_CHUNKS
    return c


@njit(cache=True, _nrt=False)
def chunk_bounds(start, n, c, nchunks):
    """Games ``lo..hi-1`` of chunk ``c`` of ``nchunks`` over games ``start..start+n-1``
    (sizes differ by at most one)."""
    return start + (n * c) // nchunks, start + (n * (c + 1)) // nchunks


def guard_caches(module, depends_on: Sequence) -> None:
    """Flush ``module``'s numba caches when any file its kernels compile in has changed.

    ``depends_on`` lists the other modules (or file paths) whose code ``module``'s functions
    call. Call it at the bottom of every kernel module::

        guard_caches(sys.modules[__name__], [hexes, random, _kernels])

    A module in ``depends_on`` whose constants come from other files lists them in its
    ``SOURCES`` (a tuple of paths), and those files count too.
    """
    files = [module.__file__] + [d if isinstance(d, str) else d.__file__ for d in depends_on]
    # a module whose constants come from elsewhere names those files (state's option slots
    # are declared in the rules registry)
    files += [f for d in depends_on if not isinstance(d, str) for f in getattr(d, "SOURCES", ())]
    try:
        digest = hashlib.sha256(b"".join(open(f, "rb").read() for f in files)).hexdigest()
    except OSError:
        return
    fns = [
        v
        for v in vars(module).values()
        if getattr(v, "_cache", None) is not None
        and hasattr(v._cache, "flush")
        and getattr(v, "py_func", None) is not None
        and v.py_func.__module__ == module.__name__
    ]
    if not fns:
        return
    try:
        path = fns[0]._cache.cache_path
        stamp = os.path.join(path, module.__name__.rsplit(".", 1)[-1] + ".sources.sha256")
        old = open(stamp).read().strip() if os.path.exists(stamp) else ""
        if old == digest:
            return
        for fn in fns:
            fn._cache.flush()
        os.makedirs(path, exist_ok=True)
        with open(stamp, "w") as fh:
            fh.write(digest)
    except OSError:
        return
