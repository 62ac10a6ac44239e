"""The LLVM features of :mod:`dragonsim._llvm`: the prefetch hint compiles, emits the
instruction and changes nothing; a shaped view reads and writes its array's data; stack
arrays hold what is written (whether a loop over
them vectorises is the CPU's cost model's call, measured by benchmarks/bench_duel.py, not
asserted here)."""

import json
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest
from numba import njit

from dragonsim import _kernels, _llvm
from dragonsim._kernels import guard_caches
from dragonsim._llvm import prefetch, shaped, stack_empty
from dragonsim.lords import engine as E
from dragonsim.lords.api import prepare
from dragonsim.lords.game import state as S


@njit(cache=True)
def _sum_with_prefetch(a, b):
    s = 0
    for k in range(a.shape[0]):
        prefetch(a, k + 8)  # past the end near the tail: a hint never faults
        prefetch(b, k)
        s += a[k] + b[k, 0, 1]
    return s


def test_prefetch_changes_no_result():
    a = np.arange(100, dtype=np.int64)
    b = np.arange(100 * 6 * 2, dtype=np.int8).reshape(100, 6, 2)
    want = int(a.sum() + b[:, 0, 1].astype(np.int64).sum())
    assert _sum_with_prefetch(a, b) == want


def test_prefetch_emits_the_instruction():
    # compiled here, not loaded from the cache, so its IR can be read
    fn = njit(_sum_with_prefetch.py_func)
    fn(np.zeros(1, np.int64), np.zeros((1, 6, 2), np.int8))
    assert "llvm.prefetch" in fn.inspect_llvm(fn.signatures[0])


@njit(cache=True, _nrt=False)
def _through_shaped(a, t):
    """Sum of ``a[t]`` read through a view with constant trailing lengths, then ``a[t, 1, 2]``
    set to -1 through it."""
    v = shaped(a, (a.shape[0], 2, 3))
    s = 0
    for i in range(2):
        for j in range(3):
            s += v[t, i, j]
    v[t, 1, 2] = -1
    return s


def test_shaped_views_the_array():
    a = np.arange(4 * 2 * 3, dtype=np.int64).reshape(4, 2, 3)
    want = int(a[2].sum())
    assert _through_shaped(a, 2) == want
    assert a[2, 1, 2] == -1  # the view's write lands in the array
    assert a.sum() == np.arange(24).sum() - 17 - 1


@njit(cache=True, _nrt=False)
def _gather_into_stack(table, idx, out):
    """Twice over: sum of ``table[idx[k]] * 2`` through a stack array, reused each round."""
    tot = 0.0
    for _ in range(2):
        buf = stack_empty(32, np.float64)
        n = min(idx.shape[0], 32)
        for k in range(n):
            buf[k] = table[idx[k]] * 2.0
        for k in range(n):
            tot += buf[k]
    out[0] = tot
    return n


def test_stack_empty_holds_what_is_written():
    table = np.arange(100, dtype=np.float64) / 7
    idx = np.array([5, 99, 0, 42, 42, 7], np.int64)
    out = np.zeros(1)
    assert _gather_into_stack(table, idx, out) == 6
    assert out[0] == pytest.approx(2 * sum(2.0 * table[k] for k in idx), rel=1e-15)
    # more indices than the buffer: the caller's own bound keeps to 32
    idx = np.arange(40, dtype=np.int64)
    _gather_into_stack(table, idx, out)
    assert out[0] == pytest.approx(2 * sum(2.0 * table[k] for k in range(32)), rel=1e-15)


def test_kernels_run_as_plain_python(tmp_path):
    """With the JIT disabled (the benchmark's plain-Python comparison) the hints are no-ops
    and a duel still plays, with the same result as compiled. (The kernel arguments are built
    compiled and handed over: building the move tables in plain Python takes half a minute.)"""
    prep = prepare("Reaper", "Skyblazer")
    args = tmp_path / "args.pkl"
    args.write_bytes(pickle.dumps(prep["args"]))
    code = (
        "import pickle, sys\n"
        "import numpy as np\n"
        "from dragonsim.lords import engine as E\n"
        "from dragonsim.lords.game import state as S\n"
        "args = pickle.loads(open(sys.argv[1], 'rb').read())\n"
        "rec = np.zeros((0, S.N_REC), np.int64)\n"
        "print(E.duel_kernel(0, 2, 5, *args, rec).tolist())\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code, str(args)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    plain = json.loads(out.stdout.strip().splitlines()[-1])
    compiled = E.duel_kernel(0, 2, 5, *prep["args"], np.zeros((0, S.N_REC), np.int64))
    assert plain == compiled.tolist()


def test_the_game_loop_counts_no_references():
    """play_game and the movement phase are inlined into the thread kernel, so that kernel must
    itself be compiled without numba's runtime (``_nrt=False``): with it, every array the
    inlined game hands to a phase is counted in and out, which measured 0.5-0.6 us of a 1.2 us
    random-bot turn on one thread. The scratch it needs is allocated by the Python caller."""
    assert E.play_chunks.targetoptions.get("_nrt") is False
    w = E.new_work()
    assert all(isinstance(a, np.ndarray) for a in w)


# the compiled helpers above inline the package's: their cache goes when those files change
guard_caches(sys.modules[__name__], [_llvm, _kernels])
