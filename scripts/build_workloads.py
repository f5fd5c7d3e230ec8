"""Regenerate the template-made kernels in workloads/ (``gpusim gen``), or check that they are current.

    python scripts/build_workloads.py           # rewrite every file listed below
    python scripts/build_workloads.py --check   # exit 1 naming each file that differs from its template

The other files in workloads/ come from clang-19 (scripts/build_corpus.py).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from gpusim.templates import generate  # noqa: E402

# file name -> (template, parameters); each a ready workload for `gpusim run workloads/NAME --arch cdna3`
WORKLOADS = {
    # 4096^3 f16 GEMMs: the 128x128 macro tile is the main example; the others are for tile studies
    "gemm_128x128.s": ("gemm", {}),
    "gemm_256x128.s": ("gemm", dict(tile="256x128x32", lds_double_buffer=True)),
    "gemm_64x64.s": ("gemm", dict(tile="64x64x32", mfma="16x16x16", vec=8)),
    "gemm_32x32.s": ("gemm", dict(tile="32x32x32", waves="1x1", vec=4)),
    "gemm_128x128_bf16.s": ("gemm", dict(dtype="bf16")),
    "gemm_128x128_f32.s": ("gemm", dict(dtype="f32", mfma="32x32x2", tile="128x128x16", vec=16)),
    # one GPU's two GEMMs of a tensor-parallel MLP block (512 tokens, hidden 4096, ffn 14336 over 8 GPUs: a
    # 1792 slice), weights in nn.Linear's [out, in] layout, which is Bt: up h = x . W1^T, down y = h . W2^T
    "tp_mlp_up.s": ("gemm", dict(m=512, n=1792, k=4096)),
    "tp_mlp_down.s": ("gemm", dict(m=512, n=4096, k=1792)),
    # flash-attention forward: 32 heads (batch x heads) of 2048 queries x 2048 keys, D = 64; 512 workgroups
    "attention_fwd_d64.s": ("attention", dict(seq_q=2048, seq_k=2048, head_dim=64, heads=32)),
    # streaming over 64 MiB arrays (16M f32): vectorised and scalar loads, one element chunk per workgroup
    "stream_copy.s": ("stream", dict(op="copy", n=1 << 24)),
    "stream_triad.s": ("stream", dict(op="triad", n=1 << 24)),
    "stream_triad_scalar.s": ("stream", dict(op="triad", n=1 << 24, vec=1)),
    "stream_triad_grid_stride.s": ("stream", dict(op="triad", n=1 << 24, grid_stride=True, unroll=2)),
    # 4096 x 4096 f32 transpose: straight from registers, through an LDS tile, through a padded tile
    "transpose_naive.s": ("transpose", dict(rows=4096, cols=4096, variant="naive")),
    "transpose_lds_tile.s": ("transpose", dict(rows=4096, cols=4096, variant="lds")),
    "transpose_lds_padded.s": ("transpose", dict(rows=4096, cols=4096, variant="lds-padded")),
    # sum of 16M f32: DPP wave reduction, LDS halving tree
    "reduce_wave_shuffle.s": ("reduce", dict(n=1 << 24, items_per_thread=16, method="wave-shuffle")),
    "reduce_lds_tree.s": ("reduce", dict(n=1 << 24, items_per_thread=16, method="lds-tree")),
    # row softmax of a 1024 x 4096 f32 matrix
    "softmax_row_reduce.s": ("softmax", dict(rows=1024, cols=4096)),
    # microbenchmarks: a single-lane pointer chase whose steps revisit a footprint inside the L1 (64 passes
    # over 64 lines) or the L2 (8 passes over 8192 lines), and the LDS read bandwidth without and with
    # 32-way bank conflicts. Per-step latency: see the chase template (two step counts, difference).
    "chase_l1.s": ("chase", dict(footprint_bytes=8192, steps=4096)),
    "chase_l2.s": ("chase", dict(footprint_bytes=1 << 20, steps=65536)),
    "lds_bandwidth_b128.s": ("lds-bandwidth", dict(width=16, waves_per_block=8, workgroups=304)),
    "lds_bandwidth_conflicts.s": ("lds-bandwidth", dict(width=4, stride_words=32, workgroups=304)),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 if any differs")
    ap.add_argument("--out", type=Path, default=REPO / "workloads", help="folder (default: workloads/)")
    ns = ap.parse_args()
    stale = []
    for name, (family, params) in WORKLOADS.items():
        text = generate(family, **params)
        path = ns.out / name
        if ns.check:
            if not path.exists() or path.read_text() != text:
                stale.append(name)
        else:
            path.write_text(text)
    if stale:
        print("out of date (run python scripts/build_workloads.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
