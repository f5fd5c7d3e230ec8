"""Kernel argument values: buffers initialised from the launch header, scalars.

``make_buffer`` builds the numpy array a ``gpusim-arg`` line describes. bf16
buffers are stored as their uint16 bit patterns (numpy has no bfloat16). A value the
buffer's type cannot hold (a float past its largest, an integer past its range) is
refused at the argument's line rather than stored as an infinity or wrapped.
"""
from __future__ import annotations

import math

import numpy as np

from gpusim.asm.header import FLOAT_MAX, INT_RANGES
from gpusim.asm.ir import NUMPY_DTYPES, ArgSpec
from gpusim.errors import HeaderError


def to_bf16_bits(x: np.ndarray) -> np.ndarray:
    """to_bf16_bits rounds float values to bfloat16 (nearest-even) and returns the uint16 bits (NaN: 0x7FC0).

    In 32-bit arithmetic: adding the rounding bias wraps only for bit patterns above 0xFFFF7FFF, which
    are NaNs and replaced, so no wider temporaries are needed (a 128M-element buffer in 0.3 s, not 10)."""
    f = np.asarray(x, dtype=np.float32)
    u = f.view(np.uint32)
    rounded = ((u + np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)).astype(np.uint16)
    rounded[np.isnan(f)] = 0x7FC0
    return rounded


def zero_buffer(spec: ArgSpec) -> np.ndarray:
    """zero_buffer returns zeros of a buffer argument's type and shape (the host supplies their pages only
    when written): what a run that needs no buffer contents gets instead of make_buffer's."""
    return np.zeros(spec.shape if spec.shape else (1,), NUMPY_DTYPES[spec.dtype])


# Element-wise initialisers make their values this many at a time, straight into the buffer's type: a
# 256M-element f32 uniform buffer peaks at 1.07 GB instead of 3.1 (no float64 array of the whole buffer
# first), and takes 0.8-2.4 s instead of 0.9-8.2 in fresh processes (the spread is the host handing out
# fresh pages). The values are those of one call for the whole buffer: uniform and normal draw a fixed
# stream of 64-bit words, one call after another (numpy's Generator).
CHUNK_ELEMENTS = 1 << 20


def make_buffer(spec: ArgSpec) -> np.ndarray:
    """make_buffer returns the initial contents of a buffer argument."""
    n = int(np.prod(spec.shape)) if spec.shape else 1
    shape = spec.shape if spec.shape else (1,)
    if spec.init == "data":   # contents the API's caller supplied, already in the buffer's storage type
        return np.frombuffer(spec.data, NUMPY_DTYPES[spec.dtype]).reshape(shape).copy()
    rng = np.random.default_rng(spec.seed)
    p = spec.init_params
    chunk = _element_wise(spec.init, p, rng)
    check = _may_not_fit(spec, n)
    if chunk is not None:
        out = np.empty(n, NUMPY_DTYPES[spec.dtype])
        for start in range(0, n, CHUNK_ELEMENTS):
            count = min(CHUNK_ELEMENTS, n - start)
            out[start:start + count] = _stored(chunk(start, count), spec, check, start)
        return out.reshape(shape)
    if spec.init == "randint":   # its bounded draws buffer 32-bit halves within one call: made whole
        lo, hi = int(p[0]), int(p[1])   # the header checked that the element type holds lo..hi-1
        values = rng.integers(lo, hi, n, dtype=np.uint64) if hi > 1 << 63 else rng.integers(lo, hi, n)
    elif spec.init == "perm":   # rng.permutation(n)'s values, shuffled in 32 bits where they fit (128M keys:
        values = np.arange(n, dtype=np.uint32 if n <= 1 << 32 else np.int64)   # 545 MB at peak, not 1.57 GB)
        rng.shuffle(values)
    elif spec.init == "cycle":
        values = _single_cycle(n, rng)
    elif spec.init == "cycle_offsets":
        values = _cycle_offsets(shape, rng, spec)
    else:
        raise ValueError(f"unknown initialiser {spec.init}")
    return _stored(values, spec, check).reshape(shape)


def _element_wise(init: str, p: tuple, rng: np.random.Generator):
    """_element_wise returns ``chunk(start, count)``, the values of elements start..start+count-1 (called for
    consecutive chunks in order), for an initialiser whose values can be made a chunk at a time; else None."""
    if init == "zeros":
        return lambda start, count: np.zeros(count)
    if init == "ones":
        return lambda start, count: np.ones(count)
    if init == "arange":
        return lambda start, count: np.arange(start, start + count)
    if init == "uniform":
        return lambda start, count: rng.uniform(p[0], p[1], count)
    if init == "normal":
        return lambda start, count: rng.normal(p[0], p[1], count)
    if init == "value":
        return lambda start, count: np.full(count, p[0])
    return None


def _stored(values: np.ndarray, spec: ArgSpec, check: bool, start: int = 0) -> np.ndarray:
    """_stored converts ``values``, elements ``start``.. of ``spec``'s buffer, to its type's storage (bf16: its bit
    patterns), after _check_fits when ``check`` (_may_not_fit)."""
    values = np.asarray(values)
    if check:
        _check_fits(values, spec, start)
    if spec.dtype == "bf16":
        return to_bf16_bits(values)
    return values.astype(NUMPY_DTYPES[spec.dtype], copy=False)


def _fits(value, dtype: str) -> bool:
    """_fits is _check_fits's rule for one value (a Python int or float, compared exactly)."""
    if dtype in INT_RANGES:
        least, most = INT_RANGES[dtype]
        return least - 1 < value < most + 1
    return dtype not in FLOAT_MAX or not (math.isfinite(value) and abs(value) > FLOAT_MAX[dtype])


def _may_not_fit(spec: ArgSpec, n: int) -> bool:
    """_may_not_fit tells whether an element of ``spec``'s ``n``-element buffer may be one its type cannot hold:
    False when the initialiser's parameters and ``n`` bound every value by ones it holds (then _check_fits would
    find nothing, and its passes over the buffer, as long again as making it, are left out); True for
    ``normal``, whose draws have no bound. cycle_offsets refuses its own offsets (_cycle_offsets)."""
    p = spec.init_params
    bounds = {"zeros": (0,), "ones": (1,), "value": p[:1], "uniform": p[:2], "arange": (0, n - 1),
              "perm": (0, n - 1), "cycle": (0, n - 1), "cycle_offsets": (),
              "randint": (p[0], p[1] - 1) if len(p) == 2 else None}.get(spec.init)
    return bounds is None or not all(_fits(b, spec.dtype) for b in bounds)


def _check_fits(values: np.ndarray, spec: ArgSpec, start: int) -> None:
    """_check_fits raises HeaderError, at the argument's line, naming the first of ``values`` that ``spec``'s type
    cannot hold: for an integer type one outside its range once truncated (or NaN), for a float type a finite one
    past its largest finite value (infinities and NaNs asked for stay as they are)."""
    dtype = spec.dtype
    if dtype in INT_RANGES:
        least, most = INT_RANGES[dtype]
        bad = ~((values > least - 1) & (values < most + 1)) if values.dtype.kind == "f" else \
            (values < least) | (values > most)
    elif dtype in FLOAT_MAX and values.dtype.kind == "f":
        bad = np.isfinite(values) & (np.abs(values) > FLOAT_MAX[dtype])
    else:
        return
    if bad.any():
        i = int(np.argmax(bad))
        params = ",".join(f"{v:g}" for v in spec.init_params)
        raise HeaderError(f"buffer '{spec.name}': init {spec.init}{f'({params})' if params else ''} gives "
                          f"{values[i]:g} at element {start + i:,}, which {dtype} cannot hold", spec.loc)


def _cycle_offsets(shape: tuple, rng: np.random.Generator, spec: ArgSpec) -> np.ndarray:
    """_cycle_offsets is ``cycle`` over the buffer's rows as byte offsets from the buffer's start.

    Row i (``shape[0]`` rows, each the rest of the shape) is one element of a random single cycle
    (the same permutation as ``cycle`` for the same seed): its first slot holds the byte offset of the
    next row, ``next[i] * row_bytes``, and its other slots are 0. A load of it is the address of the
    next, so a pointer chase needs no arithmetic between its dependent loads (``global_load_dword v,
    v, s[base]``), and a 2-D shape spaces the chased elements: ``u32[m,16]`` puts them 64 bytes apart.
    Offsets that do not fit the element type are refused (HeaderError, at the argument's line)."""
    dtype = spec.dtype
    rows = int(shape[0])
    per_row = int(np.prod(shape[1:], dtype=np.int64))
    row_bytes = per_row * np.dtype(NUMPY_DTYPES[dtype]).itemsize
    top = (rows - 1) * row_bytes
    if top > np.iinfo(NUMPY_DTYPES[dtype]).max:
        raise HeaderError(f"buffer '{spec.name}': init cycle_offsets: byte offsets up to {top:,} do not fit {dtype}; "
                          "use a wider type", spec.loc)
    values = np.zeros(rows * per_row, dtype=np.int64)
    values[::per_row] = _single_cycle(rows, rng) * row_bytes
    return values


def _single_cycle(n: int, rng: np.random.Generator) -> np.ndarray:
    """_single_cycle returns next-pointers that visit all n slots in one random cycle."""
    order = rng.permutation(n)
    nxt = np.empty(n, dtype=np.int64)
    nxt[order] = np.roll(order, -1)
    return nxt
