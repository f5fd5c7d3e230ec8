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
    # flash-attention forward: 32 heads (batch x heads) of 2048 queries x 2048 keys, D = 64; 512 workgroups
    "attention_fwd_d64.s": ("attention", dict(seq_q=2048, seq_k=2048, head_dim=64, heads=32)),
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
