"""Host-cache prefetch of a wave's registers, so a stalled wave's next instruction finds them warm.

With thousands of resident waves the register file (tens to hundreds of MB) does not fit the host's
caches, and an MFMA reads 16-32 accumulator rows that were evicted since the wave last ran. The timing
loop knows a wave's next instruction while the wave waits for its unit, so it asks the CPU to start
loading those rows then (LLVM's ``llvm.prefetch``); nothing is computed differently.
"""
from llvmlite import binding, ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

_LINE = 64  # host cache line bytes
# LLVM names the intrinsic by its pointer type: opaque pointers from LLVM 15 on
_INTRINSIC = "llvm.prefetch.p0" if binding.llvm_version_info >= (15,) else "llvm.prefetch.p0i8"


def prefetch_rows(vreg, w, first, count):
    """prefetch_rows hints that rows ``first .. first+count-1`` of wave ``w`` in ``vreg[w, row, lane]`` are
    about to be read. Pure Python (NUMBA_DISABLE_JIT): does nothing."""


@intrinsic
def _prefetch(typingctx, arr, w, row, lane):
    sig = types.void(arr, w, row, lane)

    def codegen(context, builder, signature, args):
        arrty = signature.args[0]
        ary = context.make_array(arrty)(context, builder, args[0])
        idx = [context.cast(builder, a, t, types.intp) for a, t in zip(args[1:], signature.args[1:])]
        ptr = builder.bitcast(cgutils.get_item_pointer(context, builder, arrty, ary, idx), ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32]),
                                            _INTRINSIC)
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])  # read, keep, data
        return context.get_dummy_value()

    return sig, codegen


@overload(prefetch_rows)
def _prefetch_rows_compiled(vreg, w, first, count):
    per_line = _LINE // vreg.dtype.bitwidth * 8

    def impl(vreg, w, first, count):
        for r in range(first, first + count):
            for lane in range(0, vreg.shape[2], per_line):
                _prefetch(vreg, w, r, lane)
    return impl
