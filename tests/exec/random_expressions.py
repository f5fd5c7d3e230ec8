"""Random C expressions, for checking gpusim's execution against the host CPU's.

``source(seed)`` writes one C function, ``exprs``, of ``EXPRESSIONS`` random expressions over four inputs (two
32-bit, two 64-bit) through 8-64-bit unsigned and signed types: + - * (and / % when asked) & | ^ << >>, ~, the
comparisons, casts, popcount, clz, ctz and arithmetic shifts. Every expression is defined C on every input (shift
counts masked, divisors made odd, no signed overflow, no INT_MIN / -1), so its value is the same on any target:
compiled by clang-19 for gfx942 and run by gpusim, and compiled for the host and run there, the two must agree.
``floating=True`` writes float and double expressions instead (+ - * / fma sqrt, trunc/floor/rint, copysign,
selects, conversions between the two and through an integer), never contracted, over inputs that include every
float and double bit pattern (NaNs, infinities, subnormals, signed zeros): IEEE arithmetic rounds each the same
on both (a NaN compares as any NaN, since NaN payloads are the hardware's own). ``half=True`` writes _Float16
expressions (+ - * /, selects, sqrt and trunc through float, conversions through float and int), the host
rounding after each operation as the f16 instructions do.

Division is left out unless asked for: LLVM 19's AMDGPU backend miscompiles some divisions whose operands come
from sign extensions or all-ones constants (it narrows them by their sign bits, fixed later in LLVM, e.g.
llvm/llvm-project#116733), and gpusim runs that code as the hardware would, wrong answers included (other LLVM 19
miscompiles show up more rarely: benchmarks/alu_differential.py).
"""
from __future__ import annotations

import random

EXPRESSIONS = 24
LANES = 256
CASTS = ("uint32_t", "uint64_t", "int32_t", "int64_t", "uint16_t", "uint8_t", "int16_t", "int8_t")
LEAVES = ("a", "b", "c", "d", "0u", "1u", "2u", "3u", "7u", "31u", "32u", "63u", "255u", "0x7fffffffu",
          "0x80000000u", "0xffffffffu")
FUNCTION = """#include <stdint.h>
{qualifier} uint64_t fbits(float v) {{   /* a float's bits, every NaN as one */
  uint32_t u;
  __builtin_memcpy(&u, &v, 4);
  return v != v ? 0x7fc00000u : u;
}}
{qualifier} uint64_t dbits(double v) {{
  uint64_t u;
  __builtin_memcpy(&u, &v, 8);
  return v != v ? 0x7ff8000000000000ull : u;
}}
{qualifier} uint64_t hbits(_Float16 v) {{
  uint16_t u;
  __builtin_memcpy(&u, &v, 2);
  return v != v ? 0x7e00u : u;
}}
{qualifier} void exprs(uint64_t *out, const uint32_t *A, const uint32_t *B, const uint64_t *C, const uint64_t *D,
                       int i) {{
#pragma clang fp contract(off)
  uint32_t a = A[i], b = B[i];
  uint64_t c = C[i], d = D[i];
  float x, y = (float)(int32_t)b / 65536.0f;
  double u, v = (double)(int64_t)d * 0.125;
  _Float16 h, g = (_Float16)y;
  uint16_t a16 = (uint16_t)a;
  __builtin_memcpy(&x, &a, 4);
  __builtin_memcpy(&u, &c, 8);
  __builtin_memcpy(&h, &a16, 2);
  (void)x; (void)y; (void)u; (void)v; (void)h; (void)g;
{body}
}}
"""
FLOAT_LEAVES = ("x", "y", "0.0f", "-0.0f", "1.0f", "0.5f", "3.0f", "1e-30f", "1e30f", "1.17549435e-38f", "1e-45f")
DOUBLE_LEAVES = ("u", "v", "0.0", "-0.0", "1.0", "-2.5", "1e-300", "1e300", "2.2250738585072014e-308", "4.9e-324")
HALF_LEAVES = ("h", "g", "0.0f", "-0.0f", "1.0f", "0.5f", "3.0f", "65504.0f", "6.1035156e-05f", "5.9604645e-08f")


class _Expressions:
    """_Expressions draws expression text from one seeded random.Random."""

    def __init__(self, seed: int, division: bool):
        self.rng = random.Random(seed)
        self.kinds = 19 if division else 16

    def of(self, t: str, depth: int) -> str:
        """of is an expression of unsigned type ``t`` (uint32_t or uint64_t) at most ``depth`` operators deep."""
        rng = self.rng
        if depth == 0 or rng.random() < 0.2:
            return f"(({t}){rng.choice(LEAVES)})"
        w = 32 if t == "uint32_t" else 64
        st = "int32_t" if w == 32 else "int64_t"
        ll = "" if w == 32 else "ll"

        def x() -> str:
            return self.of(t, depth - 1)
        forms = (   # each draws its subexpressions left to right, so a seed always gives the same text
            lambda: f"({x()} + {x()})", lambda: f"({x()} - {x()})", lambda: f"({x()} * {x()})",
            lambda: f"({x()} & {x()})", lambda: f"({x()} | {x()})", lambda: f"({x()} ^ {x()})",
            lambda: f"({x()} << ({x()} & {w - 1}))", lambda: f"({x()} >> ({x()} & {w - 1}))",
            lambda: f"(({t})~{x()})", lambda: f"({x()} < {x()} ? {x()} : {x()})",
            lambda: self._cast(t, depth),
            lambda: f"(({t})__builtin_popcount{ll}({x()}))", lambda: f"(({t})__builtin_clz{ll}({x()} | 1))",
            lambda: f"(({t})__builtin_ctz{ll}({x()} | ((({t})1) << {w - 1})))",
            lambda: f"(({t})(({st}){x()} >> ({x()} & {w - 1})))",   # an arithmetic shift
            lambda: f"(({st}){x()} < ({st}){x()} ? {x()} : {x()})",   # a signed comparison
            lambda: f"({x()} / ({x()} | 1))", lambda: f"({x()} % ({x()} | 1))",
            lambda: self._signed_division(x, t, st))
        return forms[rng.randrange(self.kinds)]()

    def _cast(self, t: str, depth: int) -> str:
        """_cast is an expression taken through another type, narrower or signed, and back to ``t``."""
        inner = self.of(self.rng.choice(("uint32_t", "uint64_t")), depth - 1)
        return f"(({t})(({self.rng.choice(CASTS)}){inner}))"

    @staticmethod
    def _signed_division(x, t: str, st: str) -> str:
        """_signed_division divides as ``st``, never by -1 (INT_MIN / -1 overflows)."""
        divisor = f"(({st})({x()} | 1))"
        return f"(({t})(({st}){x()} / ({divisor} == -1 ? ({st})1 : {divisor})))"


class _FloatExpressions:
    """_FloatExpressions draws float and double expression text from one seeded random.Random."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def of(self, t: str, depth: int) -> str:
        """of is an expression of ``t`` (float or double) at most ``depth`` operators deep."""
        rng = self.rng
        if depth == 0 or rng.random() < 0.2:
            return f"(({t}){rng.choice(FLOAT_LEAVES if t == 'float' else DOUBLE_LEAVES)})"
        f = "f" if t == "float" else ""

        def x() -> str:
            return self.of(t, depth - 1)
        kind = rng.randrange(14)
        binary = {0: "+", 1: "-", 2: "*", 3: "/"}
        if kind in binary:
            return f"({x()} {binary[kind]} {x()})"
        unary = {4: "trunc", 5: "floor", 6: "rint"}
        if kind in unary:
            return f"__builtin_{unary[kind]}{f}({x()})"
        if kind == 7:
            return f"__builtin_fma{f}({x()}, {x()}, {x()})"
        if kind == 8:
            return f"__builtin_sqrt{f}(__builtin_fabs{f}({x()}))"
        if kind == 9:   # a NaN's sign is each machine's own: a NaN gives no sign here
            sign = x()
            return f"__builtin_copysign{f}({x()}, {sign} != {sign} ? ({t})1 : {sign})"
        if kind == 10:
            return f"({x()} < {x()} ? {x()} : {x()})"
        if kind == 11:   # through the other type
            return f"(({t}){self.of('double' if t == 'float' else 'float', depth - 1)})"
        if kind == 12:   # through an int, clamped into its range first (NaN as 0)
            v = x()
            return (f"(({t})(int)({v} != {v} ? 0 : ({v} < -1e9{f} ? -1e9{f} : ({v} > 1e9{f} ? 1e9{f} : {v}))))")
        return f"(({t})({x()} == {x()}) + {x()})"


class _HalfExpressions:
    """_HalfExpressions draws _Float16 expression text from one seeded random.Random. It leaves out a product or
    sum made in float and rounded to half: LLVM 19 folds that into v_fma_mixlo_f16 with a +0 addend, which
    turns a -0 result into +0 on the hardware, and gpusim, but not on the host."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def of(self, depth: int) -> str:
        """of is a _Float16 expression at most ``depth`` operators deep."""
        rng = self.rng
        if depth == 0 or rng.random() < 0.2:
            return f"((_Float16){rng.choice(HALF_LEAVES)})"

        def x() -> str:
            return self.of(depth - 1)

        def clamped() -> str:   # a value an int holds, NaN as 0
            v = x()
            return (f"({v} != {v} ? (_Float16)0 : ({v} < (_Float16)-60000.0f ? (_Float16)-60000.0f : "
                    f"({v} > (_Float16)60000.0f ? (_Float16)60000.0f : {v})))")
        forms = (
            lambda: f"({x()} + {x()})", lambda: f"({x()} - {x()})", lambda: f"({x()} * {x()})",
            lambda: f"({x()} / {x()})", lambda: f"({x()} < {x()} ? {x()} : {x()})",
            lambda: f"((_Float16)__builtin_sqrtf(__builtin_fabsf((float){x()})))",
            lambda: f"((_Float16)__builtin_truncf((float){x()}))",
            lambda: f"((_Float16)(float){x()})", lambda: f"((_Float16)(int){clamped()})")
        return forms[rng.randrange(len(forms))]()


def source(seed: int, qualifier: str, division: bool = False, floating: bool = False, half: bool = False) -> str:
    """source is the C text of ``exprs`` for ``seed``, its definitions qualified by ``qualifier`` (``static`` for
    the host, ``static __device__`` for HIP); ``exprs`` writes expression e of lane i to out[e * LANES + i], a
    floating-point result as its bits."""
    if half:
        draw = _HalfExpressions(seed)
        body = "\n".join(f"  out[{e} * {LANES} + i] = hbits({draw.of(draw.rng.randrange(2, 5))});"
                         for e in range(EXPRESSIONS))
    elif floating:
        draw = _FloatExpressions(seed)
        lines = []
        for e in range(EXPRESSIONS):
            t = draw.rng.choice(("float", "double"))
            lines.append(f"  out[{e} * {LANES} + i] = {'f' if t == 'float' else 'd'}bits"
                         f"({draw.of(t, draw.rng.randrange(2, 5))});")
        body = "\n".join(lines)
    else:
        draw = _Expressions(seed, division)
        body = "\n".join(f"  out[{e} * {LANES} + i] = (uint64_t)"
                         f"({draw.of(draw.rng.choice(('uint32_t', 'uint64_t')), draw.rng.randrange(2, 6))});"
                         for e in range(EXPRESSIONS))
    return FUNCTION.format(qualifier=qualifier, body=body)


def hip_kernel(seed: int, division: bool = False, floating: bool = False, half: bool = False) -> str:
    """hip_kernel is a HIP file that runs ``exprs`` on one workgroup of LANES lanes, inputs random (full-range
    32- and 64-bit words, and 16-bit ones for d) and written back, so a run's outputs hold what it read."""
    return (f"// gpusim-launch: grid=1,1,1 block={LANES},1,1\n"
            f"// gpusim-arg: A buffer u32[{LANES}] init=randint(0,4294967296) seed={4 * seed + 1} out\n"
            f"// gpusim-arg: B buffer u32[{LANES}] init=randint(0,4294967296) seed={4 * seed + 2} out\n"
            f"// gpusim-arg: C buffer u64[{LANES}] init=randint(0,18446744073709551616) seed={4 * seed + 3} out\n"
            f"// gpusim-arg: D buffer u64[{LANES}] init=randint(0,65536) seed={4 * seed + 4} out\n"
            f"// gpusim-arg: out buffer u64[{EXPRESSIONS * LANES}] out\n"
            + source(seed, "static __device__", division, floating, half)
            + "extern \"C\" __global__ void random_expressions(const uint32_t *A, const uint32_t *B, const uint64_t *C,"
              " const uint64_t *D, uint64_t *out) {\n  exprs(out, A, B, C, D, threadIdx.x);\n}\n")


def host_program(seed: int, division: bool = False, floating: bool = False, half: bool = False) -> str:
    """host_program is a C program that reads A, B, C, D (LANES each, native byte order) from standard input and
    writes ``exprs``'s EXPRESSIONS * LANES results to standard output."""
    return (source(seed, "static", division, floating, half)
            + "#include <stdio.h>\nint main(void) {\n"
            f"  static uint32_t A[{LANES}], B[{LANES}];\n  static uint64_t C[{LANES}], D[{LANES}], "
            f"out[{EXPRESSIONS * LANES}];\n"
            f"  if (fread(A, 4, {LANES}, stdin) != {LANES} || fread(B, 4, {LANES}, stdin) != {LANES} ||\n"
            f"      fread(C, 8, {LANES}, stdin) != {LANES} || fread(D, 8, {LANES}, stdin) != {LANES}) return 2;\n"
            f"  for (int i = 0; i < {LANES}; ++i) exprs(out, A, B, C, D, i);\n"
            f"  fwrite(out, 8, {EXPRESSIONS * LANES}, stdout);\n  return 0;\n}}\n")


def run_both(seed: int, folder, division: bool = False, timing: bool = False, floating: bool = False,
             half: bool = False):
    """run_both runs seed's expressions on gpusim (cdna3, functional unless ``timing``) and on the host (clang-19,
    -O1), writing their files to ``folder``, and returns (gpusim's, the host's) uint64 results, shaped
    (EXPRESSIONS, LANES). Raises subprocess.CalledProcessError when the host build or run fails."""
    import subprocess
    from pathlib import Path

    import numpy as np

    import gpusim
    folder = Path(folder)
    kernel_file, host_file, host_exe = (folder / f"exprs_{seed}.hip", folder / f"exprs_{seed}.c",
                                        folder / f"exprs_{seed}")
    kernel_file.write_text(hip_kernel(seed, division, floating, half))
    host_file.write_text(host_program(seed, division, floating, half))
    # _Float16 rounded after each operation, as gfx942's f16 instructions round (not kept in float between them)
    subprocess.run(["clang-19", "-O1", "-w", "-ffp-contract=off", "-Xclang", "-ffloat16-excess-precision=none",
                    "-o", str(host_exe), str(host_file), "-lm"], check=True, capture_output=True)
    out = gpusim.simulate(gpusim.load_kernel(kernel_file), "cdna3", timing=timing).outputs
    inputs = b"".join(out[name].tobytes() for name in ("A", "B", "C", "D"))
    host = subprocess.run([str(host_exe)], input=inputs, capture_output=True, check=True).stdout
    shape = (EXPRESSIONS, LANES)
    return out["out"].reshape(shape), np.frombuffer(host, np.uint64).reshape(shape)
