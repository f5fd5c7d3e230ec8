"""gpusim gen attention: generated kernels assemble, match numpy's softmax(Q K^T scale) V, state exactly the
registers and LDS they use, pad the gfx942 wait states llvm-mc does not insert, and refuse invalid
combinations with the reason."""
from __future__ import annotations

import re

import numpy as np
import pytest

import gpusim
from gpusim.asm.program import K_SREG, K_VREG, KIND, SGPR_COUNT, VAL, WIDTH
from gpusim.cli import main
from gpusim.templates import TemplateError, generate
from template_support import assembler_errors, needs_llvm_mc

# both head dims, both MFMA shapes, two Br/Bc choices each, 1-2 heads, several key blocks (online rescaling)
VARIANTS = [
    dict(seq_q=128, seq_k=128, heads=1),                                     # D 64, Br 128, Bc 64, 32x32x8
    dict(seq_q=128, seq_k=256, heads=2, head_dim=64, br=64, waves=2, bc=32),
    dict(seq_q=128, seq_k=256, heads=2, head_dim=128),
    dict(seq_q=256, seq_k=128, heads=1, head_dim=128, bc=32, prefetch=0),
    dict(seq_q=128, seq_k=256, heads=2, mfma="16x16x16", br=64, waves=2),
    dict(seq_q=128, seq_k=128, heads=1, mfma="16x16x16", head_dim=128, bc=32, scale="0.05"),
]
IDS = [",".join(f"{k}={v}" for k, v in p.items()) for p in VARIANTS]
PASSES = {"32x32x8": 8, "16x16x16": 4}


def _write(tmp_path, **params):
    path = tmp_path / "attention.s"
    path.write_text(generate("attention", **params))
    return path


@needs_llvm_mc
@pytest.mark.parametrize("params", VARIANTS, ids=IDS)
def test_variant_assembles_with_llvm_mc(tmp_path, params):
    assert assembler_errors(_write(tmp_path, **params)) == ""


@pytest.mark.parametrize("params", VARIANTS, ids=IDS)
def test_variant_matches_numpy_attention(tmp_path, params):
    result = gpusim.simulate(gpusim.load_kernel(_write(tmp_path, **params)), "cdna3", check=True, timing=False)
    assert result.checks and result.checks_passed, [c.describe() for c in result.checks]
    # independently of the header's check: float64 reference from the f16 inputs
    out = result.outputs
    q, k, vt = (out[n].astype(np.float64) for n in ("Q", "K", "Vt"))
    scale = float(np.float32(params.get("scale", 1 / np.sqrt(params.get("head_dim", 64)))))
    s = scale * q @ k.transpose(0, 2, 1)
    p = np.exp(s - s.max(axis=2, keepdims=True))
    want = p / p.sum(axis=2, keepdims=True) @ vt.transpose(0, 2, 1)
    # P is rounded to f16 (toward zero: relative error < 2^-10) before P V, so |error| < 2^-10 max|V|
    assert np.abs(out["O"] - want).max() < 2 ** -10


def test_header_states_the_layouts_grid_and_check():
    text = generate("attention", seq_q=512, seq_k=1024, heads=6, head_dim=128, br=64, waves=2, bc=32)
    assert "; gpusim-launch: grid=8,6,1 block=128,1,1" in text        # S_q / Br query blocks x heads
    for line in ("Q buffer f16[6,512,128]", "K buffer f16[6,1024,128]", "Vt buffer f16[6,128,1024]",
                 "O buffer f32[6,512,128] out", f"scale f32 {1 / 128 ** 0.5!r}"):
        assert f"; gpusim-arg: {line}" in text
    assert re.search(r"; gpusim-check: O ~= .* rtol=2e-3 atol=1e-3\n", text)
    assert "V transposed" in text


def _directive(text: str, name: str) -> int:
    return int(next(line.split()[1] for line in text.splitlines() if line.strip().startswith(name)))


@pytest.mark.parametrize("params", VARIANTS[:1] + VARIANTS[3:5], ids=[IDS[0], IDS[3], IDS[4]])
def test_descriptor_states_exactly_the_registers_and_lds_the_code_uses(tmp_path, params):
    path = _write(tmp_path, **params)
    kernel = gpusim.load_kernel(path)
    ops = kernel.program.ops
    ends = {K_VREG: 0, K_SREG: 0}
    for slot in range(ops.shape[1]):
        for kind in ends:
            sel = (ops[:, slot, KIND] == kind) & ((kind == K_VREG) | (ops[:, slot, VAL] < SGPR_COUNT))
            if sel.any():
                ends[kind] = max(ends[kind], int((ops[sel, slot, VAL] + ops[sel, slot, WIDTH]).max()))
    d = kernel.descriptor
    assert int(d["next_free_vgpr"]) == ends[K_VREG]
    assert int(d["next_free_sgpr"]) == ends[K_SREG]
    assert int(d["next_free_vgpr"]) <= int(d["accum_offset"])          # no AGPRs: S, P and O are VGPRs
    dim, bc, pad = params.get("head_dim", 64), params.get("bc", 64), 4
    assert int(d["group_segment_fixed_size"]) == bc * (dim + pad) * 2 + dim * (bc + pad) * 2


def test_default_kernel_sizes():
    text = generate("attention")
    assert "; gpusim-launch: grid=8,8,1 block=256,1,1" in text
    assert _directive(text, ".amdhsa_next_free_vgpr") <= 136                # 3 waves per SIMD fit
    # per key block and wave: S^T is 2 key blocks x 8 k-steps, O^T is 2 d blocks x 8 k-steps
    assert text.count("\tv_mfma_f32_32x32x8_f16 ") == 32


# -- gfx942 wait states, checked register by register on the straight-line paths through the code
_REG = re.compile(r"-?v(?:\[(\d+):(\d+)\]|(\d+)\b)")


def _regs(operand: str) -> set:
    out = set()
    for lo, hi, one in _REG.findall(operand):
        out |= set(range(int(lo), int(hi) + 1)) if lo else {int(one)}
    return out


def _paths(text: str) -> list:
    """_paths are the instruction sequences the kernel runs: prologue, the loop body twice (the back edge),
    the body up to its exit, the epilogue. Of the prefetch's two ways, the one that skips the loads is
    taken: it is shorter, so it puts producers and consumers closest together."""
    code = [ln.split(";")[0].strip() for ln in text.split("\ts_endpgm")[0].splitlines()]
    code = [ln for ln in code if ln and not ln.startswith(".") or ln.endswith(":")]
    if "s_cbranch_scc1 .Lscores" in code:
        code = code[:code.index("s_cbranch_scc1 .Lscores") + 1] + code[code.index(".Lscores:"):]
    top, bottom, out = code.index(".Lkey_block:"), code.index("s_branch .Lkey_block"), code.index(".Lepilogue:")
    exit_at = code.index("s_cbranch_scc1 .Lepilogue")
    path = code[:top] + code[top:bottom + 1] * 2 + code[top:exit_at + 1] + code[out:]
    return [[ln for ln in path if not ln.endswith(":") and not ln.startswith(".")]]


def _wait_state_violations(text: str, passes: int) -> list:
    """_wait_state_violations lists each read that comes too soon after its producer on gfx942:
    MFMA result -> VALU or memory instruction: passes + 3; VALU result -> MFMA: 2;
    transcendental -> other VALU: 1 (an MFMA accumulating into its own result needs none)."""
    bad = []
    for path in _paths(text):
        writer = {}   # vgpr -> (kind, wait-state clock after it issued, instruction)
        clock = 0
        for ins in path:
            mnem, _, rest = ins.partition(" ")
            ops = [o.strip() for o in rest.split(",")] if rest else []
            if mnem == "s_nop":
                clock += int(ops[0]) + 1
                continue
            clock += 1
            if not mnem.startswith(("v_", "ds_", "global_")):
                continue
            is_mfma = mnem.startswith("v_mfma")
            stores = mnem.startswith(("ds_write", "global_store"))
            dst = set() if stores or mnem.startswith("v_readfirstlane") else _regs(ops[0])
            srcs = ops if stores else ops[1:]
            for k, operand in enumerate(srcs):
                for r in _regs(operand):
                    if r not in writer:
                        continue
                    kind, at, producer = writer[r]
                    since = clock - at - 1
                    src_c = is_mfma and k == 2
                    need = 0
                    if kind == "mfma" and not (src_c and _regs(operand) == dst):
                        need = passes + 3
                    elif kind in ("valu", "trans") and is_mfma:
                        need = 2
                    elif kind == "trans" and mnem.startswith("v_") and not mnem.startswith(("v_exp", "v_rcp")):
                        need = 1
                    if since < need:
                        bad.append(f"{producer!r} -> {ins!r}: {since} wait states, {need} needed")
            kind = "mfma" if is_mfma else "trans" if mnem.startswith(("v_exp", "v_rcp")) else \
                "valu" if mnem.startswith("v_") else "memory"
            for r in dst:
                writer[r] = (kind, clock, ins)
    return bad


@pytest.mark.parametrize("params", VARIANTS, ids=IDS)
def test_wait_states_llvm_mc_leaves_to_the_writer_are_padded(params):
    text = generate("attention", **params)
    assert _wait_state_violations(text, PASSES[params.get("mfma", "32x32x8")]) == []


def test_the_wait_state_checker_catches_a_missing_nop():
    # one key block of 32: the row max reads the last score MFMA's result right after the Vt reads
    text = generate("attention", seq_q=128, seq_k=128, heads=1, bc=32)
    unpadded = re.sub(r"\ts_nop \d +; a VALU reads an MFMA's result.*\n", "", text)
    assert unpadded != text
    assert _wait_state_violations(unpadded, 8)


@pytest.mark.parametrize("params, reason", [
    (dict(seq_q=1000), "--seq-q 1000 is not a multiple of --br 128"),
    (dict(seq_k=1000), "--seq-k 1000 is not a multiple of --bc 64"),
    (dict(head_dim=96), "--head-dim: 96 is not one of 64, 128"),
    (dict(br=128, waves=8), "does not divide into 8 waves of whole 32-query MFMA blocks"),
    (dict(bc=48, seq_k=960), "--bc 48 must be a power of two"),
    (dict(bc=16), "multiple of the 32-key MFMA block"),
    (dict(head_dim=128, bc=128), "need 67584 bytes of LDS, over cdna3's 65536"),
    (dict(head_dim=128, waves=2), "needs 372 VGPRs per lane, over the 256 architectural VGPRs"),
    (dict(waves=32, br=1024), "2048 work-items per workgroup, over the 1024 allowed"),
    (dict(mfma="16x16x16", waves=16, br=256, bc=16), "1024 work-items load 128 rows of K at a time"),
    (dict(scale="-0.5"), "--scale -0.5 must be a positive number"),
    (dict(scale="half"), "--scale: 'half' is not a number"),
    (dict(mfma="4x4x4"), "not one of 32x32x8, 16x16x16"),
    (dict(heads=1024, seq_q=8192, seq_k=8192), "over 2 GiB"),
])
def test_invalid_combinations_are_refused_with_the_reason(params, reason):
    with pytest.raises(TemplateError, match=re.escape(reason)):
        generate("attention", **params)


def test_cli_refuses_before_writing_and_exits_2(tmp_path, capsys):
    out = tmp_path / "k.s"
    assert main(["gen", "attention", "--head-dim", "128", "--bc", "128", "-o", str(out)]) == 2
    assert not out.exists()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "over cdna3's 65536" in err[0]
    assert main(["gen", "attention", "--head-dim", "96", "-o", str(out)]) == 2
    assert "not one of 64, 128" in capsys.readouterr().err
    assert main(["gen", "attention", "--seq-q", "256", "--seq-k", "256", "--heads", "2", "-o", str(out)]) == 0
    assert out.read_text().startswith("; gpusim-launch: grid=2,2,1 block=256,1,1")


def test_timed_lds_padding_removes_the_fragment_bank_conflicts(tmp_path):
    shape = dict(seq_q=256, seq_k=256, heads=2)
    padded = gpusim.simulate(gpusim.load_kernel(_write(tmp_path, **shape)), "cdna3", timing=True)
    bare = gpusim.simulate(gpusim.load_kernel(_write(tmp_path, lds_pad=0, **shape)), "cdna3", timing=True)
    assert padded.counters["SQ_LDS_BANK_CONFLICT"] == 0 < bare.counters["SQ_LDS_BANK_CONFLICT"]
    assert padded.cycles < bare.cycles
