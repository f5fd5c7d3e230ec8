#!/bin/sh
# Regenerates the clang-19 assembly samples in this folder from their .cl sources.
set -e
cd "$(dirname "$0")"
for src in vadd mfma dpp; do
  for cpu in gfx942 gfx90a; do
    clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=$cpu -nogpulib -O3 \
      -S $src.cl -o ${src}_$cpu.s
  done
done
