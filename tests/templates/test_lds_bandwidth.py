"""The lds-bandwidth template family: waves reading LDS with ds_read_b32/b64/b128; the per-thread
sums verify the data path and the bank-conflict counter follows the chosen stride."""

import pytest

import gpusim
from gpusim.templates.lds_bandwidth import clocks_per_read
from gpusim.templates.registry import TemplateError, generate, templates
from template_support import assembler_errors, needs_llvm_mc


# width, stride-words (None: side by side), waves-per-block, unroll, reads, workgroups
VARIANTS = [
    (4, None, 1, 4, 16, 1),
    (8, None, 2, 2, 8, 2),
    (16, None, 4, 4, 32, 1),
    (4, 32, 1, 4, 8, 1),
    (4, 2, 2, 1, 5, 1),
    (8, 6, 3, 3, 9, 1),
    (16, 8, 2, 8, 16, 2),
    (16, 4, 16, 1, 4, 1),
]


def _params(width, stride, waves, unroll, reads, wgs):
    p = dict(width=width, waves_per_block=waves, unroll=unroll, reads=reads, workgroups=wgs)
    if stride is not None:
        p["stride_words"] = stride
    return p


def _write(tmp_path, *v):
    path = tmp_path / ("lds_" + "_".join(map(str, v)) + ".s")
    path.write_text(generate("lds-bandwidth", **_params(*v)))
    return path


def test_registered():
    assert "lds-bandwidth" in templates()


@needs_llvm_mc
@pytest.mark.parametrize("v", VARIANTS, ids=str)
def test_assembles(tmp_path, v):
    path = _write(tmp_path, *v)
    assert assembler_errors(path) == ""


@pytest.mark.parametrize("v", VARIANTS, ids=str)
def test_checks_pass(tmp_path, v):
    r = gpusim.simulate(gpusim.load_kernel(_write(tmp_path, *v)), "cdna3", check=True, timing=False)
    assert r.checks and r.checks_passed, [c.describe() for c in r.checks]


def test_wrong_row_fails_the_check(tmp_path):
    # read row 1 where row 2 should be: the sums differ
    path = _write(tmp_path, 8, 4, 2, 3, 12, 1)
    text = path.read_text()
    assert "offset:2048" in text
    path.write_text(text.replace("offset:2048", "offset:1024"))
    r = gpusim.simulate(gpusim.load_kernel(path), "cdna3", check=True)
    assert not r.checks_passed


@pytest.mark.parametrize("given, reason", [
    (dict(width=8, stride_words=3), "--stride-words 3 must be a positive multiple of width/4 = 2"),
    (dict(width=16, stride_words=0), "--stride-words 0 must be at least 1"),
    (dict(unroll=16, reads=32), "--unroll 16 must be 1..15"),
    (dict(unroll=4, reads=10), "--reads 10 must be a positive multiple of --unroll 4"),
    (dict(waves_per_block=17), "--waves-per-block 17 must be 1..16"),
    (dict(width=16, stride_words=64, unroll=8), "bytes of LDS, over the 65536"),
    (dict(workgroups=0), "--workgroups 0 must be at least 1"),
    (dict(width=16, reads=1 << 23), "could pass 2^32"),
    (dict(width=12), "--width: 12 is not one of 4, 8, 16"),
])
def test_invalid_combinations(given, reason):
    with pytest.raises(TemplateError) as e:
        generate("lds-bandwidth", **given)
    assert reason in str(e.value)


def test_resources_match_the_registers_used():
    # b64, unroll 3: v0 tid, v1..v5 (fill offset and value, read address, sum, store offset), reads
    # into v[8:9], v[10:11], v[12:13]: 14 VGPRs. LDS: 3 rows of 64 lanes x 4 words = 3072 bytes.
    text = generate("lds-bandwidth", width=8, stride_words=4, waves_per_block=2, unroll=3, reads=12)
    assert "v[12:13]" in text and "v14" not in text
    assert ".amdhsa_next_free_vgpr 14\n" in text
    assert ".amdhsa_next_free_sgpr 11\n" in text
    assert ".amdhsa_group_segment_fixed_size 3072\n" in text
    assert "; gpusim-launch: grid=1,1,1 block=128,1,1" in text


@pytest.mark.parametrize("width, stride, clocks", [
    (4, 1, 2), (4, 2, 4), (4, 32, 64), (4, 33, 2), (8, 2, 4), (8, 4, 8), (16, 4, 8), (16, 8, 16), (16, 32, 64),
])
def test_clocks_per_read(width, stride, clocks):
    # groups of 32/16/8 lanes take 1 clock each when no bank holds two words; stride 33 is a padded stride
    assert clocks_per_read(width, stride)[0] == clocks


@pytest.mark.parametrize("v", [(4, None, 2, 4, 16, 1), (4, 32, 1, 4, 8, 1), (8, 4, 2, 2, 8, 2), (16, 8, 2, 8, 16, 1)],
                         ids=str)
def test_bank_conflicts_follow_the_stride(tmp_path, v):
    # the timed run's SQ_LDS_BANK_CONFLICT is the header's prediction for every read (the fill's
    # ds_write_b32 of consecutive dwords adds none)
    width, stride, waves, unroll, reads, wgs = v
    clocks, groups = clocks_per_read(width, stride or width // 4)
    r = gpusim.simulate(gpusim.load_kernel(_write(tmp_path, *v)), "cdna3", timing=True)
    assert r.counters["SQ_LDS_BANK_CONFLICT"] == (clocks - groups) * reads * waves * wgs


def test_conflicts_cost_bandwidth(tmp_path):
    # the same reads, side by side and 32 words apart: the conflicting kernel takes longer
    free = gpusim.simulate(gpusim.load_kernel(_write(tmp_path, 4, None, 4, 4, 64, 1)), "cdna3", timing=True)
    bad = gpusim.simulate(gpusim.load_kernel(_write(tmp_path, 4, 32, 4, 4, 64, 1)), "cdna3", timing=True)
    assert bad.cycles > 4 * free.cycles
    assert free.counters["SQ_LDS_BANK_CONFLICT"] == 0
