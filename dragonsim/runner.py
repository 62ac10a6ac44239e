"""Run a chunked kernel over games ``first..first+n-1``, locally or on Dask.

A *kernel* here is any callable ``kernel(start, stop, seed, *args) -> int64 array`` that plays
games ``start..stop-1`` (each from its own random stream, see :mod:`dragonsim.random`) and
returns counters that add. The runner calls it on blocks of games, so that

* a progress bar can move on a terminal, its rate and ETA measured after compilation,
* an interruption (Ctrl-C, SIGTERM under :func:`handle_signals`) keeps every finished block
  (the result says how many games it holds and that it was interrupted),
* a checkpoint file can keep the finished blocks across a kill (:mod:`dragonsim.checkpoint`),
* the work can go to Dask workers block by block,

and because counters add and streams depend on the game index only, the total is the same for
any block size, thread count, backend or resumption.

The blocks run on one worker thread while the calling (main) thread waits, so a signal is
handled at once, even while numba compiles: an interruption before any block has finished
(during the first compile, say) raises :class:`Interrupted` immediately; one after it lets the
block in flight finish (a fraction of a second) and returns what finished.
"""

from __future__ import annotations

import contextlib
import queue
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import UserError, check_int, check_seed

__all__ = [
    "RunOutcome",
    "run_blocks",
    "PrecisionRun",
    "run_to_precision",
    "n_or_precision",
    "precision_rates",
    "set_threads",
    "Interrupted",
    "handle_signals",
    "interrupt_exit_code",
]


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived (``signum``); a KeyboardInterrupt, so code that stops on
    Ctrl-C stops on SIGTERM too under :func:`handle_signals`."""

    def __init__(self, signum: int = signal.SIGINT, during_compile: bool = False):
        super().__init__(signal.Signals(signum).name)
        self.signum = int(signum)
        self.during_compile = during_compile

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


#: the last interrupting signal seen (by :func:`handle_signals` or a run), for exit codes
_last_signal: list[int] = []


def _record(signum: int) -> None:
    _last_signal[:] = [int(signum)]


def interrupt_exit_code() -> int:
    """130 after SIGINT (Ctrl-C), 143 after SIGTERM: 128 + the last interrupting signal."""
    return 128 + (_last_signal[0] if _last_signal else int(signal.SIGINT))


@contextlib.contextmanager
def handle_signals() -> Iterator[None]:
    """While active, SIGINT and SIGTERM raise :class:`Interrupted` in the main thread (the
    command line runs every command under it); the previous handlers come back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_(signum, frame):
        _record(signum)
        raise Interrupted(signum)

    _last_signal.clear()
    old = {s: signal.signal(s, raise_) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


@dataclass
class RunOutcome:
    counters: np.ndarray
    n: int
    requested: int
    seconds: float
    interrupted: bool = False
    backend: str = "local"
    threads: int = 1
    #: seconds the first call spent before playing (compiling on a cold cache)
    compile_seconds: float = 0.0
    #: games of this outcome that a checkpoint already held
    resumed: int = 0
    #: bytes the ``on_block`` callbacks returned, in game order (a checkpoint keeps them)
    extra: bytes = b""

    @property
    def rate(self) -> float:
        """Games per second of playing (compilation excluded)."""
        return (self.n - self.resumed) / self.seconds if self.seconds > 0 else 0.0


def set_threads(threads: int | None) -> int:
    """Set numba's thread count (None: all cores) for the calling thread; returns it."""
    import numba

    if threads is not None:
        threads = check_int(threads, "threads", 1, numba.config.NUMBA_NUM_THREADS)
        numba.set_num_threads(threads)
    else:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return numba.get_num_threads()


class _Progress:
    """``[####    ] 40.0% 4,000/10,000 games  12,345/s  eta 0.5s`` on stderr. The clock starts
    after the first block, so neither the rate nor the ETA counts compilation."""

    def __init__(self, total: int, label: str, enabled: bool | None, done: int = 0):
        self.total = total
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else bool(enabled)
        self.t0: float | None = None
        self.done0 = done
        self.last = 0.0
        self.shown = False

    def update(self, done: int) -> None:
        now = time.perf_counter()
        if self.t0 is None:  # the first block (maybe compiled): start the clock here
            self.t0, self.done0 = now, done
        if not self.enabled or (now - self.last < 0.5 and done < self.total):
            return
        self.last = now
        el = now - self.t0
        frac = done / self.total if self.total else 1.0
        rate = (done - self.done0) / el if el > 0 else 0.0
        speed = f"  {rate:,.0f}/s  eta {(self.total - done) / rate:5.1f}s" if rate > 0 else ""
        bar = "#" * int(30 * frac)
        sys.stderr.write(
            f"\r[{bar:<30}] {100 * frac:5.1f}% {done:,}/{self.total:,} {self.label}{speed}"
        )
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


#: called (in the main thread) with the games done after each block; tests use it to send a
#: signal at a known point of a run
_after_block: Callable[[int], None] | None = None


def _note(text: str) -> None:
    sys.stderr.write(text + "\n")
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
    on_block: Callable[[int, int, np.ndarray], bytes | None] | None = None,
    checkpoint=None,
    compiled=None,
    game: str | None = None,
) -> RunOutcome:
    """Play games ``first..first+n-1`` with ``kernel`` and add up its counters.

    Parameters
    ----------
    kernel
        ``kernel(start, stop, seed, *args)`` returning a 1-D int64 counter array.
    n, seed, first
        How many games, the run's seed, the first game index (extend a run with ``first=n``).
    progress
        Show a progress bar on stderr (None: only when stderr is a terminal). Unless it is
        False, a line on stderr says when the kernels compile (a cold cache).
    backend
        ``"local"`` (numba threads on this machine, the default) or ``"dask"``: blocks as
        Dask tasks on ``dask_client`` (a ``distributed.Client``) or, without one, the default
        Dask scheduler of this process. Each task is pure and keyed by the kernel, its
        arguments, the seed and its game range, so one lost with its worker is recomputed
        with the same answer; the blocks are added in block order. On a client, finished
        blocks reach the checkpoint in order and an interruption keeps the prefix of blocks
        taken so far (the rest are cancelled, not waited for).
    on_block
        Called with ``(start, stop, counters)`` after each local block (records writers use
        it); bytes it returns are kept in order (``RunOutcome.extra``, and the checkpoint).
        Local backend only: on ``"dask"`` the kernel itself may return ``(counters, bytes)``
        (either backend keeps those bytes the same way).
    checkpoint
        A :class:`~dragonsim.checkpoint.Section`: finished blocks are saved to it as they
        finish, and a run resumes from what it holds (on either backend).
    compiled, game
        The numba dispatcher(s) the kernel runs (default: ``kernel`` itself when it is one)
        and the game's name, for the first-run compile line
        (:func:`dragonsim.firstrun.compile_note`).
    """
    n = check_int(n, "n", 1, 10**12)
    seed = check_seed(seed)
    if backend not in ("local", "dask"):
        raise UserError(f"unknown backend {backend!r}; allowed: local, dask")
    nthreads = set_threads(threads)
    if backend == "dask":
        if on_block is not None:
            raise UserError(
                "per-block callbacks (records) run on the local backend only; on 'dask' a "
                "kernel returns (counters, bytes) instead"
            )
        return _run_dask(kernel, n, seed, args, first, dask_client, nthreads, checkpoint)
    return _run_local(
        kernel,
        n,
        seed,
        args,
        first=first,
        progress=progress,
        label=label,
        block_seconds=block_seconds,
        min_block=min_block,
        nthreads=nthreads,
        on_block=on_block,
        checkpoint=checkpoint,
        compiled=compiled,
        game=game,
    )


def _run_local(
    kernel,
    n,
    seed,
    args,
    *,
    first,
    progress,
    label,
    block_seconds,
    min_block,
    nthreads,
    on_block,
    checkpoint,
    compiled,
    game,
) -> RunOutcome:
    """:func:`run_blocks` on numba threads here: a worker thread (:func:`_play_blocks`) plays
    the blocks, resuming ``checkpoint``, and hands each over through a queue; this thread adds
    them up, saves them and shows the progress, and on an interruption keeps every block that
    finished (the one in flight too, unless a second signal comes)."""
    done = 0
    total = None
    extra = bytearray()
    if checkpoint is not None:
        checkpoint.bind(kernel=_kernel_name(kernel), n=n, seed=seed, first=first, args=args)
        done, total, old = checkpoint.load()
        extra += old
        if done >= n:
            return RunOutcome(total, n, n, 0.0, False, "local", nthreads, 0.0, n, bytes(extra))
    resumed = done
    if progress is not False:
        from .firstrun import announce

        announce(compiled if compiled is not None else kernel, game)

    q: queue.Queue = queue.Queue()
    stop = threading.Event()
    abandoned = threading.Event()

    bar = _Progress(n, label, progress, done)
    worker = threading.Thread(
        target=_play_blocks,
        args=(q, stop, abandoned, kernel, n, seed, args, first, done, nthreads),
        kwargs={"min_block": min_block, "block_seconds": block_seconds, "on_block": on_block},
        name="dragonsim-blocks",
        daemon=True,
    )
    t_play = None
    compile_s = 0.0
    interrupted = False
    signum = int(signal.SIGINT)

    def handle(msg) -> bool:
        """Take one message; False at the end."""
        nonlocal total, done, t_play, compile_s
        kind = msg[0]
        if kind == "end":
            return False
        if kind == "error":
            raise msg[1]
        if kind == "compiled":
            compile_s = msg[1]
            if total is None:
                total = msg[2].copy()
            elif checkpoint is not None and total.shape != msg[2].shape:
                abandoned.set()  # counters of another size resumed: play nothing
                checkpoint.check_counters(total, msg[2])
            t_play = time.perf_counter()
            return True
        _, a, b, part, more = msg
        total = part.copy() if total is None else total + part
        done = b
        if more:
            extra.extend(more)
        if checkpoint is not None:
            checkpoint.save(done, total, bytes(extra))
        bar.update(done)
        if _after_block is not None:
            _after_block(done)
        return True

    worker.start()
    try:
        try:
            while handle(q.get()):
                pass
        except KeyboardInterrupt as e:
            interrupted = True
            signum = getattr(e, "signum", int(signal.SIGINT))
            _record(signum)
            stop.set()
            try:  # what the worker had already handed over still counts
                while True:
                    msg = q.get_nowait()
                    if not handle(msg):
                        q.put(msg)  # leave the end marker for the wait below
                        break
            except queue.Empty:
                pass
            if t_play is None or done == resumed:
                # nothing finished (still compiling, or in the first block): stop at once
                abandoned.set()
                bar.close()
                raise Interrupted(signum, during_compile=t_play is None) from None
            # let the block in flight finish and keep it; a second signal stops waiting
            try:
                while handle(q.get()):
                    pass
            except KeyboardInterrupt:
                pass
    finally:
        stop.set()
        bar.close()
    worker.join(timeout=0.1)
    seconds = time.perf_counter() - t_play if t_play is not None else 0.0
    return RunOutcome(
        total,
        done,
        n,
        seconds,
        interrupted,
        "local",
        nthreads,
        compile_s,
        resumed,
        bytes(extra),
    )


def _play_blocks(
    q,
    stop,
    abandoned,
    kernel,
    n,
    seed,
    args,
    first,
    done,
    nthreads,
    *,
    min_block,
    block_seconds,
    on_block,
) -> None:
    """The worker thread of :func:`_run_local`: compile (one empty block), then play games
    ``first + done..first + n - 1`` in blocks sized towards ``block_seconds`` each, putting
    ``("compiled", seconds, zero counters)``, each ``("block", a, b, counters, bytes)``, any
    ``("error", exception)`` and at last ``("end",)`` on ``q``; stops between blocks when
    ``stop`` is set, and keeps nothing once ``abandoned`` is."""
    try:
        set_threads(nthreads)  # numba's thread count is per thread
        t = time.perf_counter()
        zero = _split(kernel(first, first, seed, *args))[0]  # compiles on a cold cache
        q.put(("compiled", time.perf_counter() - t, zero))
        a = done
        block = min(n - a, max(min_block, 256 * nthreads))
        while a < n and not stop.is_set():
            b = min(n, a + block)
            tb = time.perf_counter()
            part, more = _split(kernel(first + a, first + b, seed, *args))
            dt = time.perf_counter() - tb
            if abandoned.is_set():  # the caller stopped waiting: keep nothing
                return
            if on_block is not None:
                more = on_block(first + a, first + b, part)
            q.put(("block", a, b, part, more))
            a = b
            # grow (or shrink) blocks towards block_seconds each
            if dt > 0:
                block = int(min(max(min_block, block * block_seconds / dt), 4 * block, 1 << 24))
    except BaseException as e:  # noqa: BLE001 - handed to the main thread
        q.put(("error", e))
    finally:
        q.put(("end",))


def _kernel_name(kernel) -> str:
    f = getattr(kernel, "py_func", kernel)
    return f"{getattr(f, '__module__', '')}.{getattr(f, '__qualname__', repr(f))}"


def _call_kernel(kernel, start, stop, seed, args):
    """One block on a Dask worker: a pure function of its arguments (the games' streams depend
    on the game index only), so a block recomputed after its worker died gives the same
    answer."""
    return kernel(start, stop, seed, *args)


def _split(part):
    """A kernel's block result: counters, or ``(counters, bytes)`` (bytes kept in order)."""
    if isinstance(part, tuple):
        return part[0], part[1]
    return part, None


#: most blocks one Dask run is cut into, and fewest games in a block
DASK_MAX_BLOCKS = 256
DASK_MIN_BLOCK = 64


def dask_edges(n: int, workers: int = 1) -> np.ndarray:
    """Block edges ``0 = e_0 < ... < e_k = n`` of a Dask run: about one block per 65,536
    games, at least two per worker when there are games enough (``DASK_MIN_BLOCK`` each), at
    most :data:`DASK_MAX_BLOCKS`. The total does not depend on them (counters add)."""
    k = max(n // 65536 + 1, 2 * max(1, int(workers)))
    k = max(1, min(DASK_MAX_BLOCKS, k, n // DASK_MIN_BLOCK))
    return np.linspace(0, n, k + 1).astype(np.int64)


_NEED_DASK = "backend 'dask' needs dask and distributed: pip install 'dragonsim[dask]'"


def import_dask():
    """``dask``; UserError with the one line to fix it when it is missing."""
    try:
        import dask
    except ImportError:
        raise UserError(_NEED_DASK) from None
    return dask


@contextlib.contextmanager
def dask_scheduler(scheduler: str | None) -> Iterator:
    """A ``distributed.Client`` for ``scheduler`` (the CLI's ``--scheduler``), closed after:

    * ``local:N``: a ``LocalCluster`` of N single-threaded worker processes listening on
      127.0.0.1 only, no dashboard, shut down at the end;
    * an address such as ``tcp://HOST:8786``: an existing scheduler (left running);
    * None: no client (the default Dask scheduler of this process, threads).
    """
    if scheduler is None:
        import_dask()
        yield None
        return
    import_dask()
    try:
        import distributed
    except ImportError:
        raise UserError(_NEED_DASK) from None
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise UserError(f"scheduler must be local:N or an address, got {scheduler!r}")
    text = scheduler.strip()
    cluster = None
    local = re.fullmatch(r"local(?::(\S*))?", text)
    if local:
        try:
            workers = int(local.group(1)) if local.group(1) else 2
        except ValueError:
            workers = 0
        if not 1 <= workers <= 256:
            raise UserError(
                f"scheduler local:N needs N worker processes in 1..256, got {scheduler!r}"
            )
        cluster = distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )
        address = cluster.scheduler_address
    else:
        address = text if "://" in text else f"tcp://{text}"
    try:
        client = distributed.Client(address, timeout=30)
    except (OSError, TimeoutError) as e:
        if cluster is not None:
            cluster.close()
        raise UserError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _client_workers(client) -> int:
    """The cluster's worker threads (only sizes the blocks)."""
    try:
        return max(1, sum(client.nthreads().values()))
    except Exception:  # noqa: BLE001 - only sizes the blocks
        return 1


#: the kernel arguments already on a cluster: (client id, content token) -> future, newest last
_SHARED: dict[tuple[str, str], object] = {}
_SHARED_KEEP = 16


def _shared_on(client, dask, args) -> tuple[tuple, list[str]]:
    """The kernel's arguments as futures on ``client``'s cluster, one per argument, keyed by
    content: the move tables (about 21 MB for a duel, 63 MB for a design study) go to the
    cluster once per session, not once per pair or round. Each is computed from a graph
    literal, not scattered, so the scheduler can compute it again when the workers holding it
    die."""
    from dask.base import tokenize

    futs, toks = [], []
    for x in args:
        tok = tokenize(x)
        if isinstance(x, int | float | np.integer | np.floating):  # small: inline
            futs.append(x)
            toks.append(tok)
            continue
        key = (str(client.id), tok)
        f = _SHARED.pop(key, None)
        if f is None or getattr(f, "status", "") in ("cancelled", "error", "lost"):
            with dask.config.set({"distributed.admin.large-graph-warning-threshold": "1GiB"}):
                f = client.compute(dask.delayed(x, pure=True))
        _SHARED[key] = f  # newest last
        futs.append(f)
        toks.append(tok)
    while len(_SHARED) > _SHARED_KEEP:
        _SHARED.pop(next(iter(_SHARED)))
    return tuple(futs), toks


def _run_dask(kernel, n, seed, args, first, client, nthreads, checkpoint=None) -> RunOutcome:
    """Blocks as Dask tasks (on ``client``, a ``distributed.Client``, or the default
    scheduler). Each task is keyed by the kernel, its arguments, the seed and its game range,
    and is pure, so the scheduler may recompute one lost with its worker and get the same
    counters. Results are taken in block order, not arrival order: a checkpoint keeps the
    finished prefix, and an interruption (KeyboardInterrupt) returns it, cancelling the rest."""
    dask = import_dask()
    from dask.base import tokenize

    t0 = time.perf_counter()
    done, total, extra = 0, None, bytearray()
    if checkpoint is not None:
        checkpoint.bind(kernel=_kernel_name(kernel), n=n, seed=seed, first=first, args=args)
        done, total, old = checkpoint.load()
        extra += old
        if done >= n:
            return RunOutcome(total, n, n, 0.0, False, "dask", nthreads, 0.0, n, bytes(extra))
    resumed = done
    edges = done + dask_edges(n - done, _client_workers(client) if client is not None else 1)
    name = _kernel_name(kernel)
    ranges = [(first + int(a), first + int(b)) for a, b in zip(edges[:-1], edges[1:], strict=True)]
    ranges = [(a, b) for a, b in ranges if b > a]
    ends = [int(b) for a, b in zip(edges[:-1], edges[1:], strict=True) if b > a]
    interrupted = False
    if client is None:  # the default (local) scheduler: all at once, no partial results
        shared = dask.delayed(tuple(args), pure=True)
        call = dask.delayed(_call_kernel, pure=True)
        parts = dask.compute(*(call(kernel, a, b, seed, shared) for a, b in ranges))
        for part in parts:
            c, more = _split(part)
            if total is not None and checkpoint is not None:
                checkpoint.check_counters(total, c)
            total = c.copy() if total is None else total + c
            if more:
                extra.extend(more)
        done = n
        if checkpoint is not None:
            checkpoint.save(done, total, bytes(extra))
    else:
        shared, toks = _shared_on(client, dask, args)
        run_tok = tokenize(name, toks, int(seed))
        futures = [
            client.submit(
                _call_kernel,
                kernel,
                a,
                b,
                seed,
                shared,
                key=f"dragonsim-block-{run_tok}-{a}-{b}",
                pure=True,
            )
            for a, b in ranges
        ]

        def take(part, end) -> None:
            nonlocal total, done
            c, more = _split(part)
            if total is not None and checkpoint is not None:
                checkpoint.check_counters(total, c)
            total = c.copy() if total is None else total + c
            if more:
                extra.extend(more)
            done = end
            if checkpoint is not None:
                checkpoint.save(done, total, bytes(extra))
            if _after_block is not None:
                _after_block(done)

        try:
            for i, fut in enumerate(futures):  # in block order: the prefix grows
                take(fut.result(), ends[i])
        except KeyboardInterrupt as e:
            signum = getattr(e, "signum", int(signal.SIGINT))
            _record(signum)
            # the prefix taken so far counts; the blocks in flight, and any finished after
            # the gap, are cancelled (a resumption from the checkpoint plays them again)
            client.cancel(futures)
            if done == resumed:
                raise Interrupted(signum) from None
            interrupted = True
        finally:
            del futures
    return RunOutcome(
        total,
        done,
        n,
        time.perf_counter() - t0,
        interrupted,
        "dask",
        nthreads,
        0.0,
        resumed,
        bytes(extra),
    )


@dataclass
class PrecisionRun:
    """How a precision run (:func:`run_to_precision`) went: its plan of looks
    (:class:`~dragonsim.stats.LookPlan`, fixed before any game), the looks taken, whether
    every rate met the target, and the widest half-width at the stop."""

    plan: Any
    looks_taken: int
    met: bool
    widest: float

    @property
    def target(self) -> float:
        return self.plan.target

    @property
    def confidence(self) -> float:
        return self.plan.confidence

    @property
    def cap(self) -> int:
        return self.plan.cap

    @property
    def looks(self) -> list[int]:
        """The planned looks (game counts)."""
        return list(self.plan.looks)

    @property
    def level(self) -> float:
        """The confidence of each interval at the stop (the look taken last)."""
        return 1.0 - self.plan.errors[max(self.looks_taken, 1) - 1]

    def to_dict(self) -> dict:
        return {
            "target": self.target,
            "confidence": self.confidence,
            "cap": self.cap,
            "looks_planned": len(self.plan.looks),
            "looks_taken": self.looks_taken,
            "met": self.met,
            "widest_half_width": self.widest,
            "spending": self.plan.spending,
            "simultaneous": self.plan.rates > 1,
            "rates_covered_at_once": self.plan.rates,
            "looks": list(self.plan.looks),
            "level_at_stop": self.level,
            "interval": self.plan.describe(),
        }

    def line(self) -> str:
        """One line for a summary."""
        lvl = f"{100 * self.confidence:g}%"
        if self.plan.rates > 1:
            lvl += f", all {self.plan.rates} at once"
        if self.met:
            return (
                f"  precision        every rate within +-{100 * self.target:g} pp ({lvl} "
                f"confidence sequence) after look {self.looks_taken} of {len(self.looks)}"
            )
        return (
            f"  precision        NOT reached: widest half-width {100 * self.widest:.3g} pp > "
            f"{100 * self.target:g} pp\n                   at the cap of {self.cap:,} games "
            "(raise max_n / --max-n)"
        )


def run_to_precision(
    kernel: Callable[..., np.ndarray],
    seed: int,
    args: Sequence = (),
    *,
    precision: float,
    rates: Sequence[int],
    cap: int | None = None,
    confidence: float = 0.95,
    simultaneous: bool = False,
    **run_kw,
) -> tuple[RunOutcome, PrecisionRun]:
    """Play blocks of games until every rate has a half-width of at most ``precision``.

    ``rates``: the counters (indices into the kernel's output) whose rates the stop waits
    for. The looks and the error each spends are :func:`~dragonsim.stats.precision_plan`'s,
    fixed by ``precision``, ``cap`` and ``confidence`` before any game is played; at each
    look every rate's interval is the plan's Clopper-Pearson interval there
    (:meth:`~dragonsim.stats.LookPlan.interval`), a confidence sequence (the union bound over
    the looks), so stopping at the first look where every half-width is within the target
    keeps the stated coverage.

    ``simultaneous``: split the error over the rates too, so that every rate is covered at
    once with ``confidence`` (Bonferroni over ``len(rates)``); by default each rate is
    covered on its own, the same statement a fixed-n run's 95% intervals make, at fewer
    games (and the stop waiting for the other rates does not weaken it: the sequence holds
    at every look).

    Each look plays the next game-index range with :func:`run_blocks` (``first=`` the games so
    far), so the same seed and precision give the same n and counters, on any backend or
    thread count. An interruption stops at the games finished. ``cap`` (default
    :data:`~dragonsim.stats.PRECISION_CAP`): the most games; a run that reaches it without
    the target says so (``PrecisionRun.met`` False, and a line on stderr).
    """
    from .stats import PRECISION_CAP, half_width, precision_plan

    if isinstance(precision, bool) or not isinstance(precision, int | float):
        raise UserError(f"precision must be a number such as 0.005, got {precision!r}")
    if not 0.0 < float(precision) < 0.5:
        raise UserError(f"precision must be a half-width in (0, 0.5), e.g. 0.005, got {precision}")
    cap = PRECISION_CAP if cap is None else check_int(cap, "max_n", 1, 10**12)
    if run_kw.get("checkpoint") is not None:
        raise UserError("checkpoints are not supported with a precision target; give n instead")
    rates = [int(i) for i in rates]
    plan = precision_plan(
        float(precision), cap, confidence, rates=len(rates) if simultaneous else 1
    )
    total = None
    done = 0
    seconds = compile_s = 0.0
    interrupted = False
    out = None
    widest = 1.0
    taken = 0
    for look, n_k in enumerate(plan.looks, start=1):
        taken = look
        out = run_blocks(kernel, n_k - done, seed, args, first=done, **run_kw)
        total = out.counters.copy() if total is None else total + out.counters
        seconds += out.seconds
        compile_s = compile_s or out.compile_seconds
        done += out.n
        if out.interrupted:
            interrupted = True
        widest = max(half_width(*plan.interval(int(total[i]), done)) for i in rates)
        if interrupted or widest <= precision:
            break
    met = widest <= precision and not interrupted
    if not met and not interrupted:
        _note(
            f"precision target +-{precision:g} not reached in {cap:,} games (widest half-width "
            f"{widest:.3g}); raise the cap (max_n, --max-n) or loosen the target"
        )
    result = RunOutcome(
        total,
        done,
        done,
        seconds,
        interrupted,
        out.backend,
        out.threads,
        compile_s,
        0,
        b"",
    )
    return result, PrecisionRun(plan, taken, met, float(widest))


def n_or_precision(
    n, precision, max_n, default_n: int | None = None, simultaneous: bool = False
) -> tuple[int | None, int | None]:
    """``(n, cap)``: a game count, or None and the cap of a precision run; UserError unless
    exactly one of ``n`` and ``precision`` is given, or when ``simultaneous`` comes without
    ``precision`` (it splits a precision run's error over its rates)."""
    from .errors import parse_count
    from .stats import PRECISION_CAP

    if not isinstance(simultaneous, bool):
        raise UserError(f"simultaneous must be True or False, got {simultaneous!r}")
    if simultaneous and precision is None:
        raise UserError(
            "simultaneous covers a precision run's rates at once; give precision (a "
            "half-width such as 0.005) too"
        )
    if n is not None and precision is not None:
        raise UserError("give either n (games) or precision (a half-width), not both")
    if n is None and precision is None and default_n is not None:
        n = default_n
    if n is None and precision is None:
        raise UserError(
            "n must be a positive whole number such as 1e5, or give precision (a half-width "
            "such as 0.005) instead"
        )
    if precision is None:
        if max_n is not None:
            raise UserError("max_n caps a precision run; with n, n is the count")
        return parse_count(n), None
    if isinstance(precision, bool) or not isinstance(precision, int | float):
        raise UserError(f"precision must be a number such as 0.005, got {precision!r}")
    if not 0.0 < float(precision) < 0.5:
        raise UserError(f"precision must be a half-width in (0, 0.5), e.g. 0.005, got {precision}")
    return None, PRECISION_CAP if max_n is None else parse_count(max_n, "max_n")


def precision_rates(prun):
    """``(rate_of, z)``: Wilson 95% rates and z for a fixed n; for a precision run its plan's
    confidence-sequence rates at the stop (:meth:`~dragonsim.stats.LookPlan.interval`) and
    the z of their level."""
    from .stats import Rate, z_for

    if prun is None:
        return Rate.of, z_for(0.95)

    def rate_of(k: int, n: int) -> Rate:
        lo, hi = prun.plan.interval(k, n)
        return Rate(int(k), int(n), lo, hi, prun.confidence, "confidence-sequence")

    return rate_of, z_for(prun.level)
