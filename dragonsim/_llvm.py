"""LLVM hints for the numba kernels that numba does not expose.

Only :func:`prefetch` for now: it asks the CPU to start loading the cache line that holds an
array row before the kernel needs it, so an L2/L3 miss overlaps with other work instead of
stalling the instruction that reads the row. It never changes a result (a prefetch has no
visible effect), only when memory arrives. With ``NUMBA_DISABLE_JIT=1`` it is a no-op, so
the kernels still run as plain Python (the benchmark's comparison).
"""

from __future__ import annotations

from llvmlite import ir
from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["prefetch"]


@intrinsic
def prefetch(typingctx, arr, row):
    """Prefetch (for reading, into all cache levels) the start of ``arr[row]``.

    ``arr`` is a C-contiguous array of any dimension, ``row`` an integer index on its first
    axis. No bounds check is needed: prefetching an address outside the array is harmless
    (the hint is dropped), and callers pass rows they are about to read.
    """
    if not isinstance(arr, types.Array) or not isinstance(row, types.Integer):
        return None
    sig = types.void(arr, row)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        idx = context.cast(builder, args[1], signature.args[1], types.intp)
        zero = context.get_constant(types.intp, 0)
        ptr = cgutils.get_item_pointer2(context, builder, data=ary.data,
                                        shape=cgutils.unpack_tuple(builder, ary.shape),
                                        strides=cgutils.unpack_tuple(builder, ary.strides),
                                        layout=aryty.layout,
                                        inds=[idx] + [zero] * (aryty.ndim - 1),
                                        wraparound=False, boundscheck=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # (address, rw = 0 read, locality = 3 keep in all levels, cache type = 1 data)
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


if config.DISABLE_JIT:  # plain Python (NUMBA_DISABLE_JIT=1): an intrinsic cannot run there

    def prefetch(arr, row):  # noqa: F811 -- the pure-Python stand-in
        """A hint with no effect in plain Python."""
        return None
