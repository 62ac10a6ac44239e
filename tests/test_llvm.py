"""The LLVM hints of :mod:`dragonsim._llvm` compile, emit the instruction, and change nothing."""

import numpy as np
from numba import njit

from dragonsim._llvm import prefetch


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
