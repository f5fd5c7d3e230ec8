"""Random C integer expressions, for checking gpusim's execution against the host CPU's.

``source(seed)`` writes one C function, ``exprs``, of ``EXPRESSIONS`` random expressions over four inputs (two
32-bit, two 64-bit) through 8-64-bit unsigned and signed types: + - * (and / % when asked) & | ^ << >>, ~, the
comparisons, casts, popcount, clz, ctz and arithmetic shifts. Every expression is defined C on every input (shift
counts masked, divisors made odd, no signed overflow, no INT_MIN / -1), so its value is the same on any target:
compiled by clang-19 for gfx942 and run by gpusim, and compiled for the host and run there, the two must agree.

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
{qualifier} void exprs(uint64_t *out, const uint32_t *A, const uint32_t *B, const uint64_t *C, const uint64_t *D,
                       int i) {{
  uint32_t a = A[i], b = B[i];
  uint64_t c = C[i], d = D[i];
{body}
}}
"""


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
        kind = rng.randrange(self.kinds)
        binary = {0: "+", 1: "-", 2: "*", 3: "&", 4: "|", 5: "^"}
        if kind in binary:
            return f"({x()} {binary[kind]} {x()})"
        if kind == 6:
            return f"({x()} << ({x()} & {w - 1}))"
        if kind == 7:
            return f"({x()} >> ({x()} & {w - 1}))"
        if kind == 8:
            return f"(({t})~{x()})"
        if kind == 9:
            return f"({x()} < {x()} ? {x()} : {x()})"
        if kind == 10:   # through another type, narrower or signed, and back
            inner = self.of(rng.choice(("uint32_t", "uint64_t")), depth - 1)
            return f"(({t})(({rng.choice(CASTS)}){inner}))"
        if kind == 11:
            return f"(({t})__builtin_popcount{ll}({x()}))"
        if kind == 12:
            return f"(({t})__builtin_clz{ll}({x()} | 1))"
        if kind == 13:
            return f"(({t})__builtin_ctz{ll}({x()} | ((({t})1) << {w - 1})))"
        if kind == 14:   # an arithmetic shift
            return f"(({t})(({st}){x()} >> ({x()} & {w - 1})))"
        if kind == 15:   # a signed comparison
            return f"(({st}){x()} < ({st}){x()} ? {x()} : {x()})"
        if kind == 16:
            return f"({x()} / ({x()} | 1))"
        if kind == 17:
            return f"({x()} % ({x()} | 1))"
        divisor = f"(({st})({x()} | 1))"   # signed division, never by -1 (INT_MIN / -1 overflows)
        return f"(({t})(({st}){x()} / ({divisor} == -1 ? ({st})1 : {divisor})))"


def source(seed: int, qualifier: str, division: bool = False) -> str:
    """source is the C text of ``exprs`` for ``seed``, its definition qualified by ``qualifier`` (``static`` for
    the host, ``static __device__`` for HIP); ``exprs`` writes expression e of lane i to out[e * LANES + i]."""
    draw = _Expressions(seed, division)
    body = "\n".join(f"  out[{e} * {LANES} + i] = (uint64_t)"
                     f"({draw.of(draw.rng.choice(('uint32_t', 'uint64_t')), draw.rng.randrange(2, 6))});"
                     for e in range(EXPRESSIONS))
    return FUNCTION.format(qualifier=qualifier, body=body)


def hip_kernel(seed: int, division: bool = False) -> str:
    """hip_kernel is a HIP file that runs ``exprs`` on one workgroup of LANES lanes, inputs random (full-range
    32- and 64-bit words, and 16-bit ones for d) and written back, so a run's outputs hold what it read."""
    return (f"// gpusim-launch: grid=1,1,1 block={LANES},1,1\n"
            f"// gpusim-arg: A buffer u32[{LANES}] init=randint(0,4294967296) seed={4 * seed + 1} out\n"
            f"// gpusim-arg: B buffer u32[{LANES}] init=randint(0,4294967296) seed={4 * seed + 2} out\n"
            f"// gpusim-arg: C buffer u64[{LANES}] init=randint(0,18446744073709551616) seed={4 * seed + 3} out\n"
            f"// gpusim-arg: D buffer u64[{LANES}] init=randint(0,65536) seed={4 * seed + 4} out\n"
            f"// gpusim-arg: out buffer u64[{EXPRESSIONS * LANES}] out\n"
            + source(seed, "static __device__", division)
            + "extern \"C\" __global__ void random_expressions(const uint32_t *A, const uint32_t *B, const uint64_t *C,"
              " const uint64_t *D, uint64_t *out) {\n  exprs(out, A, B, C, D, threadIdx.x);\n}\n")


def host_program(seed: int, division: bool = False) -> str:
    """host_program is a C program that reads A, B, C, D (LANES each, native byte order) from standard input and
    writes ``exprs``'s EXPRESSIONS * LANES results to standard output."""
    return (source(seed, "static", division)
            + "#include <stdio.h>\nint main(void) {\n"
            f"  static uint32_t A[{LANES}], B[{LANES}];\n  static uint64_t C[{LANES}], D[{LANES}], "
            f"out[{EXPRESSIONS * LANES}];\n"
            f"  if (fread(A, 4, {LANES}, stdin) != {LANES} || fread(B, 4, {LANES}, stdin) != {LANES} ||\n"
            f"      fread(C, 8, {LANES}, stdin) != {LANES} || fread(D, 8, {LANES}, stdin) != {LANES}) return 2;\n"
            f"  for (int i = 0; i < {LANES}; ++i) exprs(out, A, B, C, D, i);\n"
            f"  fwrite(out, 8, {EXPRESSIONS * LANES}, stdout);\n  return 0;\n}}\n")


def run_both(seed: int, folder, division: bool = False, timing: bool = False):
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
    kernel_file.write_text(hip_kernel(seed, division))
    host_file.write_text(host_program(seed, division))
    subprocess.run(["clang-19", "-O1", "-w", "-o", str(host_exe), str(host_file)], check=True, capture_output=True)
    out = gpusim.simulate(gpusim.load_kernel(kernel_file), "cdna3", timing=timing).outputs
    inputs = b"".join(out[name].tobytes() for name in ("A", "B", "C", "D"))
    host = subprocess.run([str(host_exe)], input=inputs, capture_output=True, check=True).stdout
    shape = (EXPRESSIONS, LANES)
    return out["out"].reshape(shape), np.frombuffer(host, np.uint64).reshape(shape)
