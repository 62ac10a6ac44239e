"""Run a chunked kernel over games ``first..first+n-1``, locally or on Dask.

A *kernel* here is any callable ``kernel(start, stop, seed, *args) -> int64 array`` that plays
games ``start..stop-1`` (each from its own random stream, see :mod:`dragonsim.random`) and
returns counters that add. The runner calls it on blocks of games, so that

* a progress bar can move on a terminal,
* Ctrl-C keeps every finished block (the result says how many games it holds),
* the work can go to Dask workers block by block,

and because counters add and streams depend on the game index only, the total is the same for
any block size, thread count or backend.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .errors import UserError, check_int, check_seed

__all__ = ["RunOutcome", "run_blocks", "set_threads"]


@dataclass
class RunOutcome:
    counters: np.ndarray
    n: int
    requested: int
    seconds: float
    interrupted: bool = False
    backend: str = "local"
    threads: int = 1


def set_threads(threads: int | None) -> int:
    """Set numba's thread count (None: all cores); returns the count in use."""
    import numba

    if threads is not None:
        threads = check_int(threads, "threads", 1, numba.config.NUMBA_NUM_THREADS)
        numba.set_num_threads(threads)
    else:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return numba.get_num_threads()


class _Progress:
    def __init__(self, total: int, label: str, enabled: bool | None):
        self.total = total
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else bool(enabled)
        self.t0 = time.perf_counter()
        self.shown = False

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        el = time.perf_counter() - self.t0
        if el < 0.5 and done < self.total:
            return
        frac = done / self.total if self.total else 1.0
        rate = done / el if el > 0 else 0.0
        eta = (self.total - done) / rate if rate > 0 else 0.0
        bar = "#" * int(30 * frac)
        sys.stderr.write(
            f"\r[{bar:<30}] {100 * frac:5.1f}% {done:,}/{self.total:,} {self.label}"
            f"  {rate:,.0f}/s  eta {eta:5.1f}s"
        )
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


def run_blocks(
    kernel: Callable[..., np.ndarray],
    n: int,
    seed: int,
    args: Sequence = (),
    *,
    first: int = 0,
    progress: bool | None = None,
    label: str = "games",
    block_seconds: float = 0.5,
    min_block: int = 4096,
    backend: str = "local",
    threads: int | None = None,
    dask_client=None,
    on_block: Callable[[int, int, np.ndarray], None] | None = None,
) -> RunOutcome:
    """Play games ``first..first+n-1`` with ``kernel`` and add up its counters.

    Parameters
    ----------
    kernel
        ``kernel(start, stop, seed, *args)`` returning a 1-D int64 counter array.
    n, seed, first
        How many games, the run's seed, the first game index (extend a run with ``first=n``).
    progress
        Show a progress bar on stderr (None: only when stderr is a terminal).
    backend
        ``"local"`` (numba threads on this machine) or ``"dask"`` (blocks as Dask tasks on
        ``dask_client`` or the default scheduler).
    on_block
        Called with ``(start, stop, counters)`` after each local block (records writers use it).
    """
    n = check_int(n, "n", 1, 10**12)
    seed = check_seed(seed)
    if backend not in ("local", "dask"):
        raise UserError(f"unknown backend {backend!r}; allowed: local, dask")
    nthreads = set_threads(threads)
    if backend == "dask":
        return _run_dask(kernel, n, seed, args, first, dask_client, nthreads)

    bar = _Progress(n, label, progress)
    t0 = time.perf_counter()
    total = None
    done = 0
    block = min(n, max(min_block, 256 * nthreads))
    interrupted = False
    try:
        while done < n:
            stop = min(n, done + block)
            tb = time.perf_counter()
            part = kernel(first + done, first + stop, seed, *args)
            dt = time.perf_counter() - tb
            total = part.copy() if total is None else total + part
            if on_block is not None:
                on_block(first + done, first + stop, part)
            done = stop
            bar.update(done)
            # grow (or shrink) blocks towards block_seconds each
            if dt > 0:
                block = int(min(max(min_block, block * block_seconds / dt), 4 * block, 1 << 24))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    if total is None:
        total = kernel(first, first, seed, *args)  # an all-zero counter of the right shape
    return RunOutcome(total, done, n, time.perf_counter() - t0, interrupted, "local", nthreads)


def _call_kernel(kernel, start, stop, seed, args):
    return kernel(start, stop, seed, *args)


def _run_dask(kernel, n, seed, args, first, client, nthreads) -> RunOutcome:
    try:
        import dask
    except ImportError:
        raise UserError("backend 'dask' needs dask: pip install 'dragonsim[dask]'") from None
    t0 = time.perf_counter()
    nblocks = max(1, min(256, n // 65536 + 1))
    edges = np.linspace(0, n, nblocks + 1).astype(np.int64)
    # the kernel's arrays (tens of MB with the move tables) are one graph key that every
    # block depends on, so a cluster ships them to a worker once, not once per block
    shared = dask.delayed(tuple(args), pure=True)
    call = dask.delayed(_call_kernel, pure=True)
    tasks = [
        call(kernel, first + int(a), first + int(b), seed, shared)
        for a, b in zip(edges[:-1], edges[1:], strict=True)
        if b > a
    ]
    if client is not None:
        parts = client.gather(client.compute(tasks))
    else:
        parts = dask.compute(*tasks)
    total = np.sum(np.stack(parts), axis=0)
    return RunOutcome(total, n, n, time.perf_counter() - t0, False, "dask", nthreads)
