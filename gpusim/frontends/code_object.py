"""code_object turns a compiled AMDGPU code object (.hsaco, .co, .o, or an offload bundle's entry) into
assembly text gpusim's parser reads: the kernel descriptor becomes an ``.amdhsa_kernel`` block, the
metadata note an ``.amdgpu_metadata`` block, and ``llvm-objdump``'s disassembly the instructions, with
labels at branch targets.

The file is untrusted: sizes are bounded, and every malformation is a one-line CodeObjectError.
"""
from __future__ import annotations

import os
import re
import struct
import subprocess
import tempfile
from typing import Optional

import yaml

from gpusim.asm.header import MAX_KERNARG_BYTES
from gpusim.frontends import bundle, kernel_names, msgpack
from gpusim.frontends.elf import NT_AMDGPU_METADATA, CodeObjectError, Elf
from gpusim.frontends.tools import find_tool

MAX_FILE_BYTES = 256 << 20
MAX_KERNEL_BYTES = 16 << 20
DISASSEMBLE_TIMEOUT_S = 120
OBJDUMP = ("llvm-objdump-19", "llvm-objdump")
# a code object built for one of these runs on the simulator's target
COMPATIBLE = {"gfx942": ("gfx940", "gfx941", "gfx942"), "gfx90a": ("gfx90a",)}
_BRANCH = re.compile(r"s_(?:branch|cbranch_\w+|call_b64)$")
_LINE = re.compile(r"^\s+(\S.*?)\s*//\s*([0-9A-Fa-f]+):")


def read_bytes(path: str) -> bytes:
    """read_bytes reads a code object file, refusing one larger than MAX_FILE_BYTES."""
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:
            raise CodeObjectError(f"{path}: {size} bytes is larger than a code object gpusim reads "
                                  f"({MAX_FILE_BYTES >> 20} MiB)")
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise CodeObjectError(f"cannot read '{path}': {e.strerror or e}") from None


def is_code_object(data: bytes) -> bool:
    """is_code_object tells an ELF file or an offload bundle by its magic bytes."""
    return data[:4] == b"\x7fELF" or bundle.is_bundle(data)


def assembly_of(path: str, target: str, kernel: Optional[str]) -> tuple[str, str]:
    """assembly_of returns (assembly text, kernel symbol) for one kernel of the code object at ``path``.

    ``target`` is the simulated processor (gfx942, gfx90a); ``kernel`` a symbol or plain name (None: the
    only kernel). Raises CodeObjectError or UsageError.
    """
    data = read_bytes(path)
    if bundle.is_bundle(data):
        data = bundle.entry_for(data, target, path)
    elf = Elf(data, path)
    if elf.processor not in COMPATIBLE.get(target, (target,)):
        raise CodeObjectError(f"{path}: the code object is for {elf.processor}, but the architecture "
                              f"runs {target} code (pick an --arch whose target is {elf.processor})")
    symbols = elf.symbols()
    functions = {s.name: s for s in symbols if s.kind == 2 and s.section}
    kernels = [s.name[:-3] for s in symbols if s.kind == 1 and s.name.endswith(".kd") and s.name[:-3] in functions]
    name = kernel_names.pick(kernel, kernels, path)
    kd_symbol = next(s for s in symbols if s.name == name + ".kd")
    descriptor = parse_descriptor(elf.symbol_bytes(kd_symbol, 64), elf, name)
    meta = _metadata(elf)
    kernel_meta = next((k for k in meta.get("amdhsa.kernels", []) if isinstance(k, dict) and k.get(".name") == name),
                       None) if isinstance(meta.get("amdhsa.kernels"), list) else None
    if kernel_meta is not None:
        _exact_vgprs(descriptor, kernel_meta)
    func = functions[name]
    if func.size <= 0 or func.size > MAX_KERNEL_BYTES or func.size % 4:
        raise CodeObjectError(f"{path}: kernel '{name}' has an implausible code size ({func.size} bytes)")
    elf.symbol_bytes(func, func.size)  # the code lies inside its section
    unlinked = elf.relocations_into(func.section, func.value, func.value + func.size)
    if unlinked:
        where, target = unlinked[0]
        raise CodeObjectError(f"{path}: kernel '{name}' is not linked: its code at 0x{where - func.value:x} refers to "
                              f"'{target}' through a relocation ({len(unlinked)} in all) that only a linker fills in; "
                              "link the object into a code object first (clang-19 -target amdgcn-amd-amdhsa "
                              "without -c, or ld.lld), with the device libraries it calls")
    body = _disassemble(data, path, elf.processor, name, func.value, func.size)
    lines = [f'\t.amdgcn_target "amdgcn-amd-amdhsa--{elf.processor}"', "\t.text", f"\t.globl {name}",
             "\t.p2align 8", f"{name}:"]
    lines += body
    lines += ["\t.rodata", "\t.p2align 6", f"\t.amdhsa_kernel {name}"]
    lines += [f"\t\t.amdhsa_{k} {v}" for k, v in descriptor.items()]
    lines += ["\t.end_amdhsa_kernel"]
    if kernel_meta is not None:
        doc = {"amdhsa.kernels": [_plain(kernel_meta)], "amdhsa.target": str(meta.get("amdhsa.target", ""))}
        lines += ["\t.amdgpu_metadata", "---", yaml.safe_dump(doc, sort_keys=True).rstrip("\n"), "...",
                  "\t.end_amdgpu_metadata"]
    return "\n".join(lines) + "\n", name


def parse_descriptor(kd: bytes, elf: Elf, name: str) -> dict:
    """parse_descriptor reads a 64-byte kernel descriptor (LLVM AMDGPUUsage, "Kernel Descriptor") into
    ``.amdhsa_*`` field values (names without the prefix)."""
    if len(kd) != 64:
        raise elf.error(f"kernel descriptor of '{name}' is truncated")
    group, private, kernarg = struct.unpack_from("<III", kd, 0)
    rsrc3, rsrc1, rsrc2, props, preload = struct.unpack_from("<IIIHH", kd, 44)
    if group > (1 << 20) or private > (1 << 26) or kernarg > MAX_KERNARG_BYTES:
        raise elf.error(f"kernel descriptor of '{name}' holds absurd sizes (LDS {group}, scratch {private}, "
                        f"kernarg {kernarg} bytes)")
    bit = lambda word, lo, n=1: (word >> lo) & ((1 << n) - 1)  # noqa: E731
    accum = (bit(rsrc3, 0, 6) + 1) * 4
    d = {
        "group_segment_fixed_size": group, "private_segment_fixed_size": private, "kernarg_size": kernarg,
        "user_sgpr_count": bit(rsrc2, 1, 5),
        "user_sgpr_dispatch_ptr": bit(props, 1), "user_sgpr_queue_ptr": bit(props, 2),
        "user_sgpr_kernarg_segment_ptr": bit(props, 3), "user_sgpr_dispatch_id": bit(props, 4),
        "user_sgpr_kernarg_preload_length": bit(preload, 0, 7),
        "user_sgpr_kernarg_preload_offset": bit(preload, 7, 9),
        "user_sgpr_private_segment_size": bit(props, 6), "uses_dynamic_stack": bit(props, 11),
        "system_sgpr_workgroup_id_x": bit(rsrc2, 7), "system_sgpr_workgroup_id_y": bit(rsrc2, 8),
        "system_sgpr_workgroup_id_z": bit(rsrc2, 9), "system_sgpr_workgroup_info": bit(rsrc2, 10),
        "system_vgpr_workitem_id": bit(rsrc2, 11, 2),
        # the descriptor holds allocation granules: 8 VGPRs (unified, AGPRs included) and 8 SGPRs, the latter
        # with VCC and XNACK_MASK counted in, so the reserves are 0 here
        "next_free_vgpr": (bit(rsrc1, 0, 6) + 1) * 8, "next_free_sgpr": min((bit(rsrc1, 6, 4) + 1) * 8, 102),
        "accum_offset": accum, "reserve_vcc": 0, "reserve_xnack_mask": 0,
        "float_round_mode_32": bit(rsrc1, 12, 2), "float_round_mode_16_64": bit(rsrc1, 14, 2),
        "float_denorm_mode_32": bit(rsrc1, 16, 2), "float_denorm_mode_16_64": bit(rsrc1, 18, 2),
        "dx10_clamp": bit(rsrc1, 21), "ieee_mode": bit(rsrc1, 23), "fp16_overflow": bit(rsrc1, 26),
        "tg_split": bit(rsrc3, 16),
    }
    if elf.processor == "gfx90a":
        d["system_sgpr_private_segment_wavefront_offset"] = bit(rsrc2, 0)
        d["user_sgpr_private_segment_buffer"] = bit(props, 0)
        d["user_sgpr_flat_scratch_init"] = bit(props, 5)
        d["reserve_flat_scratch"] = 0
    else:
        d["enable_private_segment"] = bit(rsrc2, 0)
    if bit(props, 10):
        raise elf.error(f"kernel '{name}' is built for wave32; gpusim runs wave64 CDNA code")
    return d


def _exact_vgprs(descriptor: dict, meta: dict) -> None:
    """_exact_vgprs replaces the granule-rounded VGPR count with the metadata's exact one, as the assembly had it."""
    vgprs, agprs = meta.get(".vgpr_count"), meta.get(".agpr_count", 0)
    if not isinstance(vgprs, int) or not isinstance(agprs, int) or not 0 < vgprs <= 512 or not 0 <= agprs <= 256:
        return
    exact = descriptor["accum_offset"] + agprs if agprs else vgprs
    if 0 < exact <= descriptor["next_free_vgpr"]:
        descriptor["next_free_vgpr"] = exact


def _metadata(elf: Elf) -> dict:
    for owner, ntype, desc in elf.notes():
        if owner == "AMDGPU" and ntype == NT_AMDGPU_METADATA:
            try:
                doc = msgpack.decode(desc)
            except ValueError as e:
                raise elf.error(f"malformed metadata note: {e}") from None
            return doc if isinstance(doc, dict) else {}
    return {}


def _plain(value):
    """_plain keeps the YAML-safe part of decoded metadata (bytes dropped, keys as strings)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items() if not isinstance(v, bytes)}
    if isinstance(value, list):
        return [_plain(v) for v in value if not isinstance(v, bytes)]
    return value


def _objdump() -> str:
    return find_tool(OBJDUMP, CodeObjectError("llvm-objdump-19 (or llvm-objdump) is needed to disassemble a code "
                                              "object and was not found on PATH; install LLVM 19 (apt install llvm-19)"))


def _disassemble(data: bytes, path: str, processor: str, name: str, start: int, size: int) -> list[str]:
    """_disassemble returns the kernel's instructions as assembly lines, labels placed at branch targets."""
    tool = _objdump()
    with tempfile.TemporaryDirectory(prefix="gpusim-co-") as tmp:
        elf_path = os.path.join(tmp, "kernel.o")
        with open(elf_path, "wb") as f:
            f.write(data)
        try:
            done = subprocess.run([tool, "-d", f"--mcpu={processor}", f"--disassemble-symbols={name}", elf_path],
                                  capture_output=True, encoding="utf-8", errors="replace",
                                  timeout=DISASSEMBLE_TIMEOUT_S)   # a damaged name is not UTF-8
        except subprocess.TimeoutExpired:
            raise CodeObjectError(f"{path}: {os.path.basename(tool)} took longer than "
                                  f"{DISASSEMBLE_TIMEOUT_S} s on kernel '{name}'") from None
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["failed"])[0].replace(elf_path, path)
        raise CodeObjectError(f"{path}: {os.path.basename(tool)}: {first}")
    rows = []
    for line in done.stdout.splitlines():
        m = _LINE.match(line)
        if m:
            rows.append((int(m.group(2), 16), m.group(1)))
    if not rows:
        raise CodeObjectError(f"{path}: {os.path.basename(tool)} found no instructions in kernel '{name}'")
    end = start + size
    targets: dict[int, str] = {}
    out: list[tuple[int, str]] = []
    for addr, text in rows:
        if "<unknown>" in text or text.startswith(";"):
            raise CodeObjectError(f"{path}: kernel '{name}' holds bytes llvm-objdump cannot decode at "
                                  f"offset 0x{addr - start:x}")
        mnemonic, _, operands = text.partition(" ")
        if _BRANCH.match(mnemonic):
            ops = [o.strip() for o in operands.split(",")]
            try:
                simm = int(ops[-1], 0)
            except ValueError:
                raise CodeObjectError(f"{path}: cannot read the branch offset of '{text}'") from None
            simm = simm - 0x10000 if simm >= 0x8000 else simm
            dest = addr + 4 + 4 * simm
            if not start <= dest <= end:
                raise CodeObjectError(f"{path}: '{text}' at offset 0x{addr - start:x} branches outside "
                                      f"kernel '{name}'")
            label = targets.setdefault(dest, f".Lgpusim_{dest - start:x}")
            text = f"{mnemonic} {', '.join(ops[:-1] + [label])}"
        out.append((addr, text))
    lines = []
    for addr, text in out:
        if addr in targets:
            lines.append(f"{targets[addr]}:")
        lines.append(f"\t{text}")
    tail = [label for dest, label in targets.items() if dest >= out[-1][0] + 4]
    lines += [f"{label}:" for label in tail]
    stray = [d for d in targets if d not in {a for a, _ in out} and d < out[-1][0] + 4]
    if stray:
        raise CodeObjectError(f"{path}: a branch of kernel '{name}' lands inside an instruction "
                              f"(offset 0x{stray[0] - start:x})")
    return lines
