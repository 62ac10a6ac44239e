"""LLVM features for the numba kernels that numba does not expose.

* :func:`prefetch` asks the CPU to start loading the cache line that holds an array row
  before the kernel needs it, so an L2/L3 miss overlaps with other work instead of stalling
  the instruction that reads the row. It never changes a result (a prefetch has no visible
  effect), only when memory arrives.
* :func:`stack_empty` gives a small uninitialised array on the calling function's stack. Its
  use is aliasing, not speed of allocation: LLVM knows a stack slot is distinct from every
  array argument, so a loop that gathers from argument tables and writes into a stack array
  can be vectorised, where the same loop writing into an argument array cannot (LLVM cannot
  prove the gathered addresses miss it, and numba does not mark arguments ``noalias``).
* :func:`shaped` views a C-contiguous array in a shape given by the caller. Its use is the
  address arithmetic: indexing an array multiplies by the lengths of its later axes, read
  from the array; in a view made with constant lengths those are constants of the compiled
  code (an ordinary call's array arguments never have them).

With ``NUMBA_DISABLE_JIT=1`` all three fall back to plain Python (a no-op, ``np.empty``,
``reshape``), so the kernels still run as plain Python (the benchmark's comparison, the
equality tests).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["prefetch", "stack_empty", "shaped"]


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
        ptr = cgutils.get_item_pointer2(
            context,
            builder,
            data=ary.data,
            shape=cgutils.unpack_tuple(builder, ary.shape),
            strides=cgutils.unpack_tuple(builder, ary.strides),
            layout=aryty.layout,
            inds=[idx] + [zero] * (aryty.ndim - 1),
            wraparound=False,
            boundscheck=False,
        )
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # (address, rw = 0 read, locality = 3 keep in all levels, cache type = 1 data)
        builder.call(
            fn,
            [
                builder.bitcast(ptr, i8p),
                ir.Constant(i32, 0),
                ir.Constant(i32, 3),
                ir.Constant(i32, 1),
            ],
        )
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def stack_empty(typingctx, n, dtype):
    """``np.empty(n, dtype)`` on the stack of the function that calls it: ``n`` a literal int.

    The slot is reserved once in the function's entry block (calling this in a loop reuses
    it), holds garbage until written, and lives until that function returns: never return
    the array or keep it past the call. It has no reference count (fine in ``_nrt=False``
    code, the intended user).
    """
    if not isinstance(n, types.IntegerLiteral) or not isinstance(dtype, types.NumberClass):
        return None
    count = n.literal_value
    if count < 1:
        return None
    arrty = types.Array(dtype.dtype, 1, "C")
    sig = arrty(n, dtype)

    def codegen(context, builder, signature, args):
        llty = context.get_data_type(arrty.dtype)
        itemsize = context.get_abi_sizeof(llty)
        ptr = cgutils.alloca_once(builder, llty, size=count)  # in the entry block
        ary = context.make_array(arrty)(context, builder)
        intp = types.intp
        context.populate_array(
            ary,
            data=ptr,
            shape=[context.get_constant(intp, count)],
            strides=[context.get_constant(intp, itemsize)],
            itemsize=context.get_constant(intp, itemsize),
            meminfo=None,
        )
        return ary._getvalue()

    return sig, codegen


@intrinsic
def shaped(typingctx, arr, shape):
    """``arr`` (C-contiguous) seen in the shape ``shape``: a tuple of one int per axis.

    The view shares ``arr``'s data (and its reference count: fine in ``_nrt=False`` code, the
    intended user). Nothing is checked: ``shape`` must be the array's own. Lengths that are
    constants where it is called are constants in the view, so indexing it needs no
    multiplication by a length read from the array (numba's own ``reshape`` hands the shape to
    a C helper, after which the compiler cannot see it).
    """
    if not isinstance(arr, types.Array) or arr.layout != "C":
        return None
    if not isinstance(shape, types.BaseTuple) or len(shape) != arr.ndim:
        return None
    if not all(isinstance(t, types.Integer) for t in shape):
        return None
    sig = arr(arr, shape)

    def codegen(context, builder, signature, args):
        aryty, shapety = signature.args
        src = context.make_array(aryty)(context, builder, args[0])
        intp = types.intp
        dims = [
            context.cast(builder, v, t, intp)
            for v, t in zip(cgutils.unpack_tuple(builder, args[1]), shapety, strict=True)
        ]
        itemsize = context.get_constant(
            intp, context.get_abi_sizeof(context.get_data_type(aryty.dtype))
        )
        strides = [itemsize]
        for d in reversed(dims[1:]):
            strides.insert(0, builder.mul(strides[0], d))
        ary = context.make_array(aryty)(context, builder)
        context.populate_array(
            ary,
            data=src.data,
            shape=dims,
            strides=strides,
            itemsize=itemsize,
            meminfo=src.meminfo,
            parent=src.parent,
        )
        return ary._getvalue()

    return sig, codegen


if config.DISABLE_JIT:  # plain Python (NUMBA_DISABLE_JIT=1): an intrinsic cannot run there

    def prefetch(arr, row):  # noqa: F811 -- the pure-Python stand-in
        """A hint with no effect in plain Python."""
        return None

    def stack_empty(n, dtype):  # noqa: F811 -- the pure-Python stand-in
        """A heap array in plain Python."""
        return np.empty(n, dtype)

    def shaped(arr, shape):  # noqa: F811 -- the pure-Python stand-in
        """A view in plain Python."""
        return arr.reshape(shape)
