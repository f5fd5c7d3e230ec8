"""The stream template family: STREAM copy/scale/add/triad kernels that assemble, verify and
show the load width's effect on HBM bandwidth."""
import re

import pytest

import gpusim
from gpusim.errors import GpusimError
from gpusim.templates.registry import TemplateError, generate, templates
from template_support import assembler_errors, needs_llvm_mc


# small sizes: n = six chunks of block * vec * unroll elements
VARIANTS = [
    dict(op="copy", vec=1, unroll=1),
    dict(op="copy", vec=4, unroll=2, grid_stride=True, workgroups=4),
    dict(op="scale", vec=2, unroll=3, grid_stride=True, workgroups=4),
    dict(op="scale", vec=1, unroll=4),
    dict(op="add", vec=4, unroll=2),
    dict(op="add", vec=1, unroll=1, grid_stride=True, workgroups=5, block=64),
    dict(op="triad", vec=4, unroll=5, grid_stride=True, workgroups=3),
    dict(op="triad", vec=2, unroll=1, block=128),
]


def _params(v: dict) -> dict:
    return dict(v, n=v.get("block", 256) * v["vec"] * v["unroll"] * 6)


def _write(tmp_path, v: dict):
    path = tmp_path / ("stream_" + "_".join(f"{k}{x}" for k, x in v.items()) + ".s")
    path.write_text(generate("stream", **_params(v)))
    return path


def test_registered():
    assert "stream" in templates()


@needs_llvm_mc
@pytest.mark.parametrize("v", VARIANTS, ids=lambda v: "-".join(f"{k}{x}" for k, x in v.items()))
def test_assembles(tmp_path, v):
    path = _write(tmp_path, v)
    assert assembler_errors(path) == ""


@pytest.mark.parametrize("v", VARIANTS, ids=lambda v: "-".join(f"{k}{x}" for k, x in v.items()))
def test_checks_pass(tmp_path, v):
    r = gpusim.simulate(gpusim.load_kernel(_write(tmp_path, v)), "cdna3", check=True, timing=False)
    assert r.checks and r.checks_passed, [c.describe() for c in r.checks]


def test_wrong_result_fails_the_check(tmp_path):
    # triad computed as b + (-s) * c: the check must notice
    path = _write(tmp_path, VARIANTS[-1])
    path.write_text(path.read_text().replace(
        "s_load_dword s10, s[0:1], 0x18", "s_load_dword s10, s[0:1], 0x18\n\ts_waitcnt lgkmcnt(0)\n"
        "\ts_xor_b32 s10, s10, 0x80000000"))
    r = gpusim.simulate(gpusim.load_kernel(path), "cdna3", check=True, timing=False)
    assert not r.checks_passed


@pytest.mark.parametrize("given, reason", [
    (dict(n=1000), "not a multiple of block*vec*unroll"),
    (dict(n=5120, vec=4, unroll=2, block=256), "--n 5120 is not a multiple of block*vec*unroll = 256*4*2 = 2048"),
    (dict(block=100), "--block 100 must be a multiple of 64"),
    (dict(block=2048), "up to 1024"),
    (dict(unroll=0), "--unroll 0 must be at least 1"),
    (dict(unroll=32, op="add", n=1 << 22), "over the 63 vmcnt can count"),
    (dict(unroll=30, op="add", vec=4, n=30 * 1024 * 64), "VGPRs, over 256"),
    (dict(workgroups=8), "--workgroups applies only with --grid-stride"),
    (dict(n=4096, vec=4, grid_stride=True, workgroups=8), "more than the 4 chunks"),
    (dict(n=4096, vec=4, grid_stride=True), "give --workgroups"),
    (dict(n=1 << 30), "past 32 bits"),
    (dict(vec=3), "--vec: 3 is not one of 1, 2, 4"),
    (dict(op="daxpy"), "--op: 'daxpy' is not one of copy, scale, add, triad"),
])
def test_invalid_combinations(given, reason):
    with pytest.raises(TemplateError) as e:
        generate("stream", **given)
    assert reason in str(e.value)


def test_resources_match_the_registers_used():
    # triad, vec 4, unroll 2: v0 tid, v1 lane offset, v2 load 1's offset (4096 > 4095), b in v[4:11],
    # c in v[12:19]: 20 VGPRs; pointers in s[4:9], the scalar s10, chunk offset s11, chunk index s12
    text = generate("stream", op="triad", n=16384, vec=4, unroll=2, grid_stride=True, workgroups=4)
    assert "v[12:15]" in text and "v[16:19]" in text and "v20" not in text
    assert ".amdhsa_next_free_vgpr 20\n" in text
    assert ".amdhsa_next_free_sgpr 13\n" in text
    assert ".amdhsa_accum_offset 20\n" in text
    assert ".amdhsa_kernarg_size 32\n" in text  # a, b, c pointers and the f32 scalar, rounded to 8
    # copy, vec 1, unroll 4 with block 256: offsets 0..3072 fit the offset field, data from v4
    text = generate("stream", op="copy", n=4096, vec=1, unroll=4)
    assert "offset:3072" in text and ".amdhsa_next_free_vgpr 8\n" in text


def test_declared_vgprs_are_tight(tmp_path):
    # one VGPR fewer than the writer declares and the simulator rejects the kernel
    path = _write(tmp_path, VARIANTS[6])
    text = path.read_text()
    declared = int(re.search(r"\.amdhsa_next_free_vgpr (\d+)", text).group(1))
    gpusim.load_kernel(path)
    path.write_text(text.replace(f"next_free_vgpr {declared}\n", f"next_free_vgpr {declared - 1}\n"))
    with pytest.raises(GpusimError):
        gpusim.load_kernel(path)


def test_wider_loads_reach_more_hbm_bandwidth(tmp_path):
    # same grid, block and bytes; only the load width differs, so the occupancy is the same
    bw, occ = {}, {}
    for vec in (1, 4):
        path = tmp_path / f"copy_v{vec}.s"
        path.write_text(generate("stream", op="copy", n=1 << 18, vec=vec, unroll=1, grid_stride=True,
                                 workgroups=64))
        r = gpusim.simulate(gpusim.load_kernel(path), "cdna3", timing=True)
        bw[vec], occ[vec] = r.metrics["HBM_Bandwidth"], r.occupancy.waves_per_simd
        assert r.counters["GPUSIM_HBM_READ_BYTES_sum"] >= 4 << 18  # every byte of a came from HBM
    assert occ[1] == occ[4]
    assert bw[4] > 1.5 * bw[1], bw
