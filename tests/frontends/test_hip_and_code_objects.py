"""HIP source and code objects run like assembly: outputs checked against numpy, and a code object built from
the same source gives the same cycles and counters as the source."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import gpusim
from gpusim.cli import main
from gpusim.errors import GpusimError
from gpusim.frontends import hip

DATA = Path(__file__).parent / "data"
pytestmark = pytest.mark.skipif(shutil.which("clang-19") is None or shutil.which("llvm-objdump-19") is None,
                                reason="clang-19 and llvm-objdump-19 are needed to build and read code objects")


def _header(src: Path, out: Path) -> Path:
    """_header writes the .hip file's // gpusim-* comments as a --header file of ; lines."""
    out.write_text(hip.header_text(src.read_text()))
    return out


def _code_object(src: Path, tmp: Path, target: str = "gfx942") -> Path:
    """_code_object builds a relocatable code object from the .hip file: clang -S, then clang -c of the .s."""
    asm = tmp / (src.stem + ".s")
    subprocess.run(hip.compile_args(str(src), target, output=str(asm)), check=True)
    obj = tmp / (src.stem + ".o")
    subprocess.run(["clang-19", "-target", "amdgcn-amd-amdhsa", f"-mcpu={target}", "-c", str(asm), "-o", str(obj)],
                   check=True)
    return obj


@pytest.mark.parametrize("name", ["reduce", "histogram", "scaled_exp"])
def test_hip_kernels_match_numpy(name):
    k = gpusim.load_kernel(DATA / "kernels.hip", kernel=name)
    r = gpusim.simulate(k, "cdna3", check=True, timing=False)
    output = {"reduce": "sums", "histogram": "hist", "scaled_exp": "y[:n]"}[name]
    mine = [c for c in r.checks if c.spec.lhs == output]
    assert len(mine) == 1 and mine[0].passed and mine[0].elements > 0, mine[0].describe()
    # each kernel writes only its own output: the other checks must see the untouched zeros and fail
    assert not any(c.passed for c in r.checks if c.spec.lhs != output)


def test_source_and_code_object_give_identical_cycles(tmp_path):
    src = DATA / "kernels.hip"
    obj = _code_object(src, tmp_path)
    header = _header(src, tmp_path / "launch.txt")
    for name in ("reduce", "scaled_exp"):
        a = gpusim.simulate(gpusim.load_kernel(src, kernel=name), "cdna3", timing=True)
        b = gpusim.simulate(gpusim.load_kernel(obj, kernel=name, header=header), "cdna3", timing=True)
        assert a.cycles and a.cycles == b.cycles
        assert a.counters == b.counters
        assert len(a.counters) > 10


def test_offload_bundle_entry_runs(tmp_path):
    if shutil.which("clang-offload-bundler-19") is None:
        pytest.skip("clang-offload-bundler-19 is not installed")
    src = DATA / "vadd.hip"
    obj = _code_object(src, tmp_path)
    (tmp_path / "host").write_bytes(b"")
    bundle = tmp_path / "vadd.bundle"
    subprocess.run(["clang-offload-bundler-19", "-type=o", "-targets=host-x86_64-unknown-linux-gnu,"
                    "hip-amdgcn-amd-amdhsa--gfx942", f"-input={tmp_path / 'host'}", f"-input={obj}",
                    f"-output={bundle}"], check=True)
    header = _header(src, tmp_path / "launch.txt")
    r = gpusim.simulate(gpusim.load_kernel(bundle, header=header), "cdna3", check=True, timing=True)
    s = gpusim.simulate(gpusim.load_kernel(src), "cdna3", check=True, timing=True)
    assert r.checks_passed and r.cycles == s.cycles
    with pytest.raises(GpusimError, match="no entry for gfx90a"):
        gpusim.load_kernel(bundle, header=header, target="gfx90a")


def test_gfx90a_route_runs_on_cdna2():
    r = gpusim.simulate(gpusim.load_kernel(DATA / "vadd.hip", target="gfx90a"), "cdna2", check=True, timing=False)
    assert r.target == "gfx90a" and r.checks_passed


def _run(capsys, *argv):
    code = main(["run", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_cli_runs_hip_and_code_object(tmp_path, capsys):
    code, out = _run(capsys, DATA / "vadd.hip", "--check", "--no-timing")
    assert code == 0 and "PASS" in out
    obj = _code_object(DATA / "vadd.hip", tmp_path)
    code, out = _run(capsys, obj, "--header", _header(DATA / "vadd.hip", tmp_path / "h.txt"), "--check", "--no-timing")
    assert code == 0 and "PASS" in out
    # no header: the flags give the launch
    code, out = _run(capsys, obj, "--no-timing")
    assert code == 2 and "--grid and --block" in out


def test_bad_inputs_are_one_line_errors(tmp_path, capsys):
    code, out = _run(capsys, DATA / "broken.hip")
    assert code == 2 and "broken.hip:3:20: error: use of undeclared identifier 'undeclared_name'" in out
    assert "Traceback" not in out and len(out.strip().splitlines()) == 1
    code, out = _run(capsys, DATA / "kernels.hip")
    assert code == 2 and "several kernels" in out and "scaled_exp (_Z10scaled_expPKfPfPjS1_i)" in out
    code, out = _run(capsys, DATA / "kernels.hip", "--kernel", "reduse")
    assert code == 2 and "no kernel 'reduse'" in out and "did you mean 'reduce'" in out
    notelf = tmp_path / "junk.hsaco"
    notelf.write_bytes(b"hello, not a code object" * 10)
    code, out = _run(capsys, notelf, "--grid", "1,1,1", "--block", "64,1,1")
    assert code == 2 and "not an ELF file" in out
    obj = _code_object(DATA / "vadd.hip", tmp_path)
    data = obj.read_bytes()
    for cut in (20, 64, 200, len(data) // 2, len(data) - 10):
        trunc = tmp_path / f"trunc{cut}.co"
        trunc.write_bytes(data[:cut])
        code, out = _run(capsys, trunc, "--grid", "1,1,1", "--block", "64,1,1")
        assert code == 2 and "Traceback" not in out and len(out.strip().splitlines()) == 1, (cut, out)
    code, out = _run(capsys, obj, "--arch", "cdna2", "--grid", "1,1,1", "--block", "64,1,1")
    assert code == 2 and "is for gfx942, but the architecture runs gfx90a" in out
    code, out = _run(capsys, obj, "--kernel", "vsub", "--grid", "1,1,1", "--block", "64,1,1")
    assert code == 2 and "no kernel 'vsub'" in out and "vadd (_Z4vaddPKfS0_Pfi)" in out


def test_missing_objdump_names_the_tool(tmp_path, monkeypatch, capsys):
    obj = _code_object(DATA / "vadd.hip", tmp_path)
    monkeypatch.setattr("gpusim.frontends.code_object.OBJDUMP", ("no-such-objdump-19",))
    code, out = _run(capsys, obj, "--grid", "1,1,1", "--block", "64,1,1")
    assert code == 2 and "llvm-objdump-19" in out and "not found" in out


def test_an_unlinked_object_is_refused_not_run(tmp_path, capsys):
    # OpenCL's get_global_id without the device libraries is a call clang -c leaves to the linker: the
    # unrelocated call jumps to itself, so running the object would report a runaway loop that is not there
    src = tmp_path / "add.cl"
    src.write_text("__kernel void add(__global float* a, __global const float* b) {\n"
                   "  int i = get_global_id(0); a[i] += b[i];\n}\n")
    obj = tmp_path / "add.o"
    subprocess.run(["clang-19", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx942",
                    "-nogpulib", "-O3", "-c", str(src), "-o", str(obj)], check=True)
    code, out = _run(capsys, obj, "--grid", "1,1,1", "--block", "64,1,1", "--no-timing")
    assert code == 2 and len(out.strip().splitlines()) == 1, out
    assert f"{obj}: kernel 'add' is not linked" in out and "'_Z13get_global_idj'" in out, out


def test_damaged_metadata_notes_are_one_line_errors(tmp_path, capsys):
    # bytes of the metadata note (msgpack: argument offsets, sizes, kinds) flipped at random, seeded
    from gpusim.frontends.elf import Elf
    import random
    obj = _code_object(DATA / "vadd.hip", tmp_path)
    header = _header(DATA / "vadd.hip", tmp_path / "h.txt")
    data = obj.read_bytes()
    note = next(s for s in Elf(data, str(obj)).sections if s.type == 7)
    rng = random.Random(20)
    outcomes = set()
    for n in range(16):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 6)):
            damaged[note.offset + rng.randrange(note.size)] = rng.randrange(256)
        path = tmp_path / f"damaged{n}.co"
        path.write_bytes(bytes(damaged))
        code, out = _run(capsys, path, "--header", header, "--check", "--no-timing")
        assert code in (0, 1, 2, 3) and "Traceback" not in out, (n, out)
        assert code in (0, 1) or len(out.strip().splitlines()) == 1, (n, out)
        outcomes.add(code)
    assert 2 in outcomes   # the damage is seen, not only survived


def test_bytes_that_are_not_utf8_in_tool_output_are_no_traceback(tmp_path, capsys):
    # llvm-objdump prints a section's name as the file holds it, and clang echoes a source line: neither
    # need be UTF-8 in a damaged or hostile file
    obj = _code_object(DATA / "vadd.hip", tmp_path)
    renamed = tmp_path / "renamed.o"
    renamed.write_bytes(obj.read_bytes().replace(b".text\x00", b"\xcftext\x00"))
    code, out = _run(capsys, renamed, "--header", _header(DATA / "vadd.hip", tmp_path / "h.txt"), "--check",
                     "--no-timing")
    assert code == 0 and "PASS" in out, out
    src = tmp_path / "bad.hip"
    src.write_bytes(b"// gpusim-launch: grid=1,1,1 block=64,1,1\n"
                    b"__global__ void k(float* x) { x[0] = undeclared\xcf; }\n")
    code, out = _run(capsys, src)
    assert code == 2 and len(out.strip().splitlines()) == 1 and f"{src}:2:" in out, out


# Each data file checks one group of the HIP headers' functions against numpy (its gpusim-check lines), and
# the instructions they must compile to.
HEADER_FUNCTIONS = {
    # shuffles down, up, xor and from a lane, at widths 64, 32 and 16; ballot, any, all; popc, ffs, clz
    "wave_functions.hip": (9, {"ds_bpermute_b32"}),
    # <hip/hip_fp16.h> and <hip/hip_bf16.h>: scalar and packed half arithmetic, fma, selections, conversions,
    # comparisons, hsqrt, hexp; bfloat16 rounding and arithmetic
    "half_functions.hip": (11, {"v_pk_fma_f16", "v_pk_add_f16", "v_pk_mul_f16", "v_sqrt_f16_e32", "v_sub_f16_e32"}),
    # powf, log10f, exp10f, fmodf, ldexpf, frexpf, fdimf, sincosf, isnan/isinf/isfinite/signbit, abs; the _rn
    # intrinsics never fused (a product then a sum, each rounded), __saturatef, the fast __logf/__sinf/...; bit
    # casts, rounding conversions, __byte_perm, __brev, __mul24, __mulhi, __mul64hi, __sad; atomicInc and
    # atomicDec, a 64-bit atomicCAS loop; hipThreadIdx_x and HIP_DYNAMIC_SHARED (whose reversed read clang folds
    # into a negative base and an offset); the clocks
    "intrinsics.hip": (16, {"global_atomic_inc", "global_atomic_dec", "global_atomic_cmpswap_x2", "v_bfrev_b32_e32",
                            "s_memtime", "s_memrealtime"}),
    # cg::this_thread_block and tiled_partition<8> (shuffles, votes, ranks), __shfl_xor_sync and
    # __ballot/__any/__all_sync with 64-bit masks, __shfl_down of a double and __shfl_xor of a long long
    "cooperative_groups.hip": (8, {"ds_bpermute_b32", "s_barrier"}),
    # gfx942's builtins: the f64 MFMA (its D layout), an f64 atomicAdd, the fp8 pack and its widening
    "matrix_builtins.hip": (5, {"v_mfma_f64_16x16x4_f64", "v_mfma_f64_4x4x4_4b_f64", "global_atomic_add_f64",
                                "v_cvt_pk_fp8_f32", "v_cvt_f32_fp8_sdwa"}),
    "saturating_math.hip": (12, {"v_add_u32_e64", "v_sub_u32_e64", "v_add_i32", "v_sub_i32", "v_pk_add_i16",
                                 "v_pk_sub_u16", "v_pk_add_u16", "v_dot4_i32_i8", "v_dot4_u32_u8", "v_dot8_i32_i4",
                                 "v_dot2_f32_f16", "v_pk_add_f16"}),
    "byte_math.hip": (6, {"v_sad_u8", "v_sad_hi_u8", "v_sad_u16", "v_msad_u8", "v_lerp_u8", "v_cvt_pk_i16_i32"}),
    "float_atomics.hip": (4, {"global_atomic_cmpswap", "global_atomic_cmpswap_x2", "global_atomic_add_f32",
                              "global_atomic_add_f64"}),
    "bit_builtins.hip": (16, {"v_bfe_u32", "v_bfe_i32", "v_alignbyte_b32", "v_med3_f32", "v_frexp_mant_f32_e32",
                              "v_frexp_exp_i32_f32_e32", "v_fract_f32_e32", "v_ldexp_f32", "v_mbcnt_hi_u32_b32",
                              "v_readlane_b32", "v_rcp_f32_e32", "v_cmp_class_f32_e64", "v_bcnt_u32_b32",
                              "v_ffbh_u32_e32"}),
    "multiblock_mfma.hip": (3, {"v_mfma_f32_32x32x1_2b_f32", "v_mfma_f32_16x16x1_4b_f32", "v_mfma_f32_32x32x4_2b_f16"}),
    # halving adds, funnel shifts, bit-field extracts and inserts (32 and 64 bits), the lowest set bit, __mbcnt_lo/hi,
    # the n-th set bit up, down and at the base (__fns64, __fns32)
    "integer_intrinsics.hip": (17, {"v_bfe_u32", "v_alignbit_b32", "v_ffbl_b32_e32", "v_mbcnt_lo_u32_b32",
                                    "v_mbcnt_hi_u32_b32"}),
    # __match_any/__match_all (and _sync) with lanes inactive, __lanemask_lt/gt/eq, HIP's ds_bpermute, ds_permute,
    # ds_swizzle and DPP wrappers, __syncthreads_count/_and/_or over two waves
    "lane_functions.hip": (10, {"v_readlane_b32", "ds_bpermute_b32", "ds_permute_b32", "ds_swizzle_b32", "v_mov_b32_dpp",
                                "ds_add_u32", "s_barrier"}),
    # _system atomics, 64-bit and/or/xor/min/max, long long min/max, float and double compare-and-swap sums,
    # atomicExch of a float, atomicAddNoRet, unsafe/safe float maximum and minimum
    "scoped_atomics.hip": (8, {"global_atomic_add", "global_atomic_and_x2", "global_atomic_or_x2",
                               "global_atomic_xor_x2", "global_atomic_umax_x2", "global_atomic_umin_x2",
                               "global_atomic_smax_x2", "global_atomic_cmpswap", "global_atomic_cmpswap_x2",
                               "global_atomic_swap", "global_atomic_add_f32"}),
}


@pytest.mark.parametrize("timing", [False, True])
@pytest.mark.parametrize("name", HEADER_FUNCTIONS)
def test_hip_header_functions_match_numpy(name, timing):
    checks, instructions = HEADER_FUNCTIONS[name]
    k = gpusim.load_kernel(DATA / name)
    assert instructions <= set(k.program.mnemonics), set(k.program.mnemonics)
    r = gpusim.simulate(k, "cdna3", check=True, timing=timing)
    assert len(r.checks) == checks
    for c in r.checks:
        assert c.passed and c.elements > 0, c.describe()


@pytest.mark.parametrize("timing", [False, True])
def test_hip_constant_static_and_device_globals_are_placed_and_reached(timing):
    # __constant__ (.data), a static table (.rodata) and a __device__ counter (.bss) bumped by atomics
    r = gpusim.simulate(gpusim.load_kernel(DATA / "static_data.hip"), "cdna3", check=True, timing=timing)
    assert len(r.checks) == 2 and all(c.passed for c in r.checks), [c.describe() for c in r.checks]
    # every HIP file's .bss holds clang's unreferenced __hip_cuid marker: it leaves the layout as it is
    assert gpusim.load_kernel(DATA / "vadd.hip").program.static_data is None


def test_a_file_written_for_hipcc_runs_with_its_host_code():
    # #include <hip/hip_runtime.h>, <cstdio>, <vector>; a main() with hipMalloc, hipMemcpy, events,
    # <<<...>>> and hipLaunchKernelGGL; the kernel reads and writes float4
    k = gpusim.load_kernel(DATA / "host_code.hip")
    assert k.name == "_Z5axpy4PK6float4S1_PS_Pffi"
    mnemonics = list(k.program.mnemonics)
    assert mnemonics.count("global_load_dwordx4") == 2 and mnemonics.count("global_store_dwordx4") == 1
    r = gpusim.simulate(k, "cdna3", check=True, timing=True)
    assert len(r.checks) == 2 and all(c.passed and c.elements > 0 for c in r.checks), [c.describe() for c in r.checks]


def test_rocm_headers_on_the_machine_are_not_used(tmp_path, monkeypatch):
    # ROCm's headers call its device libraries, which gpusim does not link: gpusim's stand in for them even
    # where ROCM_PATH and the include path name a ROCm installation
    fake = tmp_path / "rocm" / "include" / "hip"
    fake.mkdir(parents=True)
    for name in ("hip_runtime.h", "hip_fp16.h", "hip_bf16.h"):
        (fake / name).write_text('#error "a ROCm header was used"\n')
    monkeypatch.setenv("ROCM_PATH", str(tmp_path / "rocm"))
    monkeypatch.setenv("CPATH", str(tmp_path / "rocm" / "include"))
    r = gpusim.simulate(gpusim.load_kernel(DATA / "half_functions.hip"), "cdna3", check=True, timing=False)
    assert len(r.checks) == 11 and all(c.passed for c in r.checks)


def test_host_code_calling_what_the_header_lacks_is_located_with_a_way_out(tmp_path, capsys):
    body = ("#include <hip/hip_runtime.h>\n// gpusim-launch: grid=1,1,1 block=64,1,1\n__global__ void k() {}\n"
            "int main() {\n{guard}  hipMallocPitch(0, 0, 0, 0);\n{end}}\n")
    src = tmp_path / "pitch.hip"
    src.write_text(body.replace("{guard}", "").replace("{end}", ""))
    code, out = _run(capsys, src)
    assert code == 2 and len(out.strip().splitlines()) == 1, out
    assert f"{src}:5:3: error: use of undeclared identifier 'hipMallocPitch'" in out and "#ifndef __GPUSIM__" in out
    src.write_text(body.replace("{guard}", "#ifndef __GPUSIM__\n").replace("{end}", "#endif\n"))
    code, out = _run(capsys, src, "--no-timing")
    assert code == 0 and "_Z1kv" in out, out


@pytest.mark.parametrize("timing", [False, True])
def test_a_kernel_calls_a_device_function_through_its_code_address(timing):
    # the callee's @rel32@lo/@hi operands resolve to its address at CODE_BASE; s_swappc_b64 goes there and
    # s_setpc_b64 comes back, twice
    k = gpusim.load_kernel(DATA / "device_calls.hip")
    assert list(k.program.mnemonics).count("s_swappc_b64") == 2
    r = gpusim.simulate(k, "cdna3", check=True, timing=timing)
    assert len(r.checks) == 1 and r.checks[0].passed and r.checks[0].elements == 128, r.checks[0].describe()


@pytest.mark.parametrize("timing", [False, True])
def test_a_recursive_device_function_keeps_its_stack_in_scratch_memory(timing):
    # fib calls itself twice: each call spills and reloads through scratch_store/scratch_load at the stack
    # pointer, in every lane's own private segment
    k = gpusim.load_kernel(DATA / "recursion.hip")
    assert {"scratch_store_dword", "scratch_load_dword", "s_swappc_b64"} <= set(k.program.mnemonics)
    r = gpusim.simulate(k, "cdna3", check=True, timing=timing)
    assert len(r.checks) == 1 and r.checks[0].passed and r.checks[0].elements == 64, r.checks[0].describe()


def test_a_32_bit_lane_mask_is_refused_at_the_call(tmp_path, capsys):
    # CUDA's 0xffffffff would leave out lanes 32-63 of a wave: HIP refuses it, and the error points at the
    # user's call rather than at the header's static_assert
    src = tmp_path / "mask.hip"
    src.write_text("// gpusim-launch: grid=1,1,1 block=64,1,1\n__global__ void k(float *p) {\n"
                   "  float v = p[threadIdx.x];\n  p[threadIdx.x] = __shfl_down_sync(0xffffffff, v, 1);\n}\n")
    code, out = _run(capsys, src)
    assert code == 2 and len(out.strip().splitlines()) == 1, out
    assert out.startswith(f"{src}:4:20: error: static assertion failed") and "64-bit lane mask" in out, out


def test_headers_in_an_include_directory_are_found_and_a_missing_directory_is_named(tmp_path, capsys):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "scale.hpp").write_text("#pragma once\n__device__ inline float2 scaled(float2 v) { return 3.0f * v; }\n")
    src = tmp_path / "k.hip"
    src.write_text('#include "scale.hpp"\n// gpusim-launch: grid=1,1,1 block=64,1,1\n'
                   "// gpusim-arg: x buffer f32[128] init=uniform(-1,1) seed=1\n// gpusim-arg: y buffer f32[128] out\n"
                   "// gpusim-check: y == 3 * x\n"
                   "__global__ void k(const float2 *x, float2 *y) { y[threadIdx.x] = scaled({x[threadIdx.x].x, "
                   "x[threadIdx.x].y}); }\n")
    code, out = _run(capsys, src, "--no-timing")
    assert code == 2 and f"{src}:1:10: error: 'scale.hpp' file not found" in out, out
    code, out = _run(capsys, src, "-I", lib, "--check", "--no-timing")
    assert code == 0 and "PASS y == 3 * x: 128 elements" in out, out
    code, out = _run(capsys, src, "--include-dir", tmp_path / "nowhere", "--no-timing")
    assert code == 2 and f"include directory '{tmp_path / 'nowhere'}' does not exist" in out, out


@pytest.mark.parametrize("arch", ["cdna2", "cdna3"])
@pytest.mark.parametrize("timing", [False, True])
def test_private_arrays_and_call_stacks_live_in_scratch_on_both_targets(arch, timing):
    # gfx942 reaches a lane's private segment with scratch_* instructions; gfx90a with buffer instructions through
    # the private segment buffer (s[0:3]), its prologue adding the wave's offset (s_add_u32 s0, s0, sN)
    target = {"cdna2": "gfx90a", "cdna3": "gfx942"}[arch]
    for name, elements in (("private_array.hip", 256), ("recursion.hip", 64)):
        k = gpusim.load_kernel(DATA / name, target=target)
        memory = {m for m in k.program.mnemonics if m.startswith(("scratch_", "buffer_"))}
        assert memory and all(m.startswith("buffer_" if target == "gfx90a" else "scratch_") for m in memory), memory
        r = gpusim.simulate(k, arch, check=True, timing=timing)
        assert len(r.checks) == 1 and r.checks[0].passed and r.checks[0].elements == elements, r.checks[0].describe()


def test_gfx90a_flat_scratch_reaches_the_same_private_segments(tmp_path):
    # clang's +enable-flat-scratch: scratch_* instructions on gfx90a, the prologue setting FLAT_SCRATCH from flat
    # scratch init (the scratch's base) plus the private segment wavefront offset
    src = DATA / "private_array.hip"
    asm = tmp_path / "private_array.s"
    subprocess.run(hip.compile_args(str(src), "gfx90a", output=str(asm))
                   + ["-Xclang", "-target-feature", "-Xclang", "+enable-flat-scratch"], check=True)
    text = asm.read_text()
    assert "s_add_u32 flat_scratch_lo" in text and ".amdhsa_user_sgpr_private_segment_buffer 0" in text
    k = gpusim.load_kernel(asm, header=_header(src, tmp_path / "private_array.launch"))
    assert "scratch_store_dwordx4" in set(k.program.mnemonics)
    r = gpusim.simulate(k, "cdna2", check=True, timing=False)
    assert len(r.checks) == 1 and r.checks[0].passed and r.checks[0].elements == 256, r.checks[0].describe()


@pytest.mark.parametrize("call", ["__builtin_trap()", "abort()"])
def test_a_trap_ends_the_dispatch_where_it_is_called(tmp_path, call):
    src = tmp_path / "trap.hip"
    src.write_text("// gpusim-launch: grid=2,1,1 block=64,1,1\n"
                   "// gpusim-arg: x buffer f32[128] init=uniform(0,1) seed=1\n"
                   "#include <cstdlib>\n"
                   "__global__ void checked(float *x) {\n"
                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   f"  if (x[i] < 0.0f || i == 100) {call};\n"
                   "  x[i] = 2 * x[i];\n"
                   "}\n")
    with pytest.raises(GpusimError, match=r"s_trap 2, llvm.trap .* workgroup \(1, 0, 0\)"):
        gpusim.simulate(gpusim.load_kernel(src), "cdna3", timing=False)


ASSERTING = ("// gpusim-launch: grid=2,1,1 block=64,1,1\n"
             "// gpusim-arg: x buffer f32[128] init=uniform(0,1) seed=1\n"
             "#include <cassert>\n"
             "__global__ void checked(float *x) {\n"
             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "  assert(x[i] >= 0.0f && i != 100);\n"
             "  x[i] = 2 * x[i];\n"
             "}\n")


def test_a_failed_assert_prints_where_then_ends_the_dispatch(tmp_path, capsys):
    src = tmp_path / "assert.hip"
    src.write_text(ASSERTING)
    line = f"{src}:6: void checked(float *): Device-side assertion `x[i] >= 0.0f && i != 100' failed.\n"
    with pytest.raises(GpusimError, match=r"s_trap 2, llvm.trap .* workgroup \(1, 0, 0\)") as info:
        gpusim.simulate(gpusim.load_kernel(src), "cdna3", timing=False)
    assert info.value.printed.lines == [line]   # lane 36 of workgroup 1 alone fails
    assert (info.value.loc.file, info.value.loc.line) == (str(src), 6)   # the assert's own line, from .loc
    assert main(["run", str(src), "--no-timing"]) == 3
    out, err = capsys.readouterr()
    assert out == line and "faulted: s_trap 2, llvm.trap" in err and len(err.splitlines()) == 1


def test_ndebug_compiles_assert_out(tmp_path):
    src = tmp_path / "ndebug.hip"
    src.write_text("#define NDEBUG\n" + ASSERTING)
    r = gpusim.simulate(gpusim.load_kernel(src), "cdna3", timing=False)
    assert r.printed is None and (r.outputs["x"] >= 0).all()


def test_a_memory_fault_names_the_hip_line_that_made_it(tmp_path):
    src = tmp_path / "oob.hip"
    src.write_text("// gpusim-launch: grid=1,1,1 block=64,1,1\n"
                   "// gpusim-arg: x buffer f32[64] out\n"
                   "__global__ void oob(float *x) {\n"
                   "  float v = 2.0f * threadIdx.x;\n"
                   "  x[threadIdx.x + (1 << 24)] = v;\n"
                   "}\n")
    with pytest.raises(GpusimError, match=r"memory access outside every buffer") as info:
        gpusim.simulate(gpusim.load_kernel(src), "cdna3", timing=False)
    assert (info.value.loc.file, info.value.loc.line) == (str(src), 5)


def test_a_runaway_loop_is_named_by_its_hip_lines(tmp_path):
    src = tmp_path / "spin.hip"
    src.write_text("// gpusim-launch: grid=1,1,1 block=64,1,1\n"
                   "// gpusim-arg: x buffer i32[64] init=randint(1,5) seed=1\n"
                   "__global__ void spin(int *x) {\n"
                   "  volatile int *p = x;\n"
                   "  while (p[63] > 0) {\n"
                   "    p[threadIdx.x & 31] = p[threadIdx.x & 31] + 1;\n"
                   "  }\n"
                   "}\n")
    with pytest.raises(GpusimError, match=rf"runaway kernel: .* in the loop at pc 0x\w+\.\.0x\w+ \({src} lines 5-6\)"):
        gpusim.simulate(gpusim.load_kernel(src), "cdna3", timing=False, max_wave_instructions=100_000)


def test_system_scope_atomics_compile_to_system_scope_instructions():
    text = hip.assembly_of(str(DATA / "scoped_atomics.hip"), "gfx942")
    atomics = [line.split() for line in text.splitlines() if line.strip().startswith("global_atomic_")]
    assert ["global_atomic_add", "v2,", "v3,", "s[12:13]", "sc1"] in atomics   # atomicAdd_system
    assert any(a[0] == "global_atomic_and_x2" and "sc1" not in a for a in atomics)   # atomicAnd, device scope
