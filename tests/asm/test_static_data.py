"""Static data (gpusim.asm.static_data): a kernel file's .data, .rodata and .bss hold the bytes llvm-mc-19 puts
there, the code reaches them through @rel32 and @abs32 operands as a linked code object would, and what
gpusim cannot place is refused at its line."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import gpusim
from gpusim.asm.parser import parse_text
from gpusim.asm.static_data import CODE_BASE, STATIC_DATA_BASE
from gpusim.errors import AsmError, UnsupportedInstruction

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[2]
LLVM_MC = shutil.which("llvm-mc-19")
OBJDUMP = shutil.which("llvm-objdump-19")

KERNEL = ".text\nk:\n\ts_endpgm\n"
DIRECTIVES = """\
.data
d0:
\t.byte 1, -1, 0x80
\t.align 4
d1:
\t.short 2, -32768
\t.value 6
\t.int 8
\t.2byte 9
\t.4byte 1+2*3
\t.8byte -2
\t.quad 0x123456789abcdef0
\t.float 1.5, -0.25, 1e39, 3.4028235e38, 0x1p3, -nan
\t.double 2.5, nan, 1e999
\t.p2align 4, 0x5
d2:
\t.asciz "a\\tb\\101\\x42\\"\\xfffff"
\t.string "c"
\t.ascii "de", "f"
\t.fill 2, 3, 0x41
\t.fill 3
\t.zero 2, 0x42
\t.space 1
\t.skip 1, 7
\t.p2align 3, 0x0, 2
\t.byte 9
.bss
d3:
\t.zero 6
.section .rodata.cst16,"aM",@progbits,16
\t.p2align 4
d4:
\t.long 0x3f800000
"""


def _llvm_sections(tmp_path: Path, text: str) -> dict[str, bytes]:
    """_llvm_sections assembles ``text`` with llvm-mc-19 and returns each section's bytes as llvm-objdump -s
    prints them (.bss as zeros)."""
    src, obj = tmp_path / "d.s", tmp_path / "d.o"
    src.write_text(text)
    subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj", str(src), "-o", str(obj)],
                   check=True)
    out = {}
    for name in (".data", ".rodata.cst16"):
        dump = subprocess.run([OBJDUMP, "-s", "-j", name, str(obj)], capture_output=True, text=True, check=True)
        rows = re.findall(r"^ [0-9a-f]{4,} ((?:[0-9a-f]{2,8} ?){1,4})", dump.stdout, re.M)
        out[name] = bytes.fromhex("".join(r.replace(" ", "") for r in rows))
    sizes = subprocess.run([OBJDUMP, "-h", str(obj)], capture_output=True, text=True, check=True).stdout
    out[".bss"] = bytes(int(re.search(r"\.bss\s+([0-9a-f]+)", sizes).group(1), 16))
    table = subprocess.run([OBJDUMP, "-t", str(obj)], capture_output=True, text=True, check=True).stdout
    out["symbols"] = {name: int(value, 16) for value, name in re.findall(r"^([0-9a-f]{16}) .* (d\d)$", table, re.M)}
    return out


@pytest.mark.skipif(LLVM_MC is None or OBJDUMP is None, reason="llvm-mc-19 and llvm-objdump-19 are needed")
def test_each_section_holds_the_bytes_llvm_mc_puts_there(tmp_path):
    static = parse_text(KERNEL + DIRECTIVES, "d.s").static_data
    llvm = _llvm_sections(tmp_path, KERNEL + DIRECTIVES)
    data = static.image[:len(llvm[".data"])]
    assert data == llvm[".data"]
    # the sections follow one another in the order they appear, each at its largest alignment
    bss = static.symbols["d3"]
    assert bss == len(llvm[".data"]) and static.image[bss:bss + 6] == llvm[".bss"]
    assert static.symbols["d4"] % 16 == 0
    assert static.image[static.symbols["d4"]:] == llvm[".rodata.cst16"]
    # the labels of .data, which comes first, stand where llvm-mc puts them in the section
    assert [static.symbols[f"d{i}"] for i in range(3)] == [llvm["symbols"][f"d{i}"] for i in range(3)]


def test_code_reaches_its_data_through_rel32_and_abs32():
    for timing in (False, True):
        r = gpusim.simulate(gpusim.load_kernel(DATA / "static" / "static_data.s"), "cdna3", check=True, timing=timing)
        assert [c.passed for c in r.checks] == [True], r.checks[0].describe()


def test_a_file_without_data_sections_has_no_image():
    assert parse_text(KERNEL + ".section .AMDGPU.csdata\n\t.long 5\n", "k.s").static_data is None


@pytest.mark.parametrize("line, col, message", [
    ("\t.quad d0 * 2", 8, "'.quad' needs a relocatable expression here: a label plus or minus a constant"),
    ("\t.long d0", 8, "'.long' of the address of 'd0' is not supported yet (gpusim places an address in 8-byte"),
    ("\t.quad nowhere + 4", 8, "'nowhere', whose address the data holds, is not defined"),
    ("\t.byte 256", 8, "256 does not fit the 1-byte '.byte'"),
    ("\t.short -32769", 9, "-32769 does not fit the 2-byte '.short'"),
    ("\t.word 1", 2, "unknown directive '.word'"),   # as llvm-mc-19 says of .word, .hword and .half
    ("\t.octa 1", 2, "'.octa' in .data is not supported yet"),
    ("\t.p2align 3, 0, 1, 2", 2, "expected '.p2align ALIGNMENT[, FILL[, MAX]]'"),
    ("\t.balign 3", 2, "'.balign' alignment 3 is not a power of two"),
    ("\t.asciz abc", 8, "'.asciz' needs quoted strings"),
    ('\t.string "\\777"', 10, "invalid octal escape sequence (out of range)"),
    ("\t.long later", 8, "'.long' of 'later', which is not yet defined"),
    ("\t.zero 1, 2, 3", 2, "expected '.zero COUNT[, FILL]'"),
])
def test_bad_static_data_is_refused_at_its_line(line, col, message):
    with pytest.raises(AsmError) as info:
        parse_text(KERNEL + ".data\nd0:\n" + line + "\n", "d.s")
    assert str(info.value).startswith(f"d.s:6:{col}: error: {message}"), str(info.value)


def test_a_relocation_gpusim_cannot_resolve_names_the_symbol(tmp_path):
    text = (DATA / "static" / "static_data.s").read_text().replace("words@rel32@hi+12", "words@gotpcrel32@hi+12")
    (tmp_path / "k.s").write_text(text)
    with pytest.raises(UnsupportedInstruction) as info:
        gpusim.load_kernel(tmp_path / "k.s")
    assert "symbol 'words@gotpcrel32@hi' as an operand of s_addc_u32 is not supported yet" in str(info.value)
    assert info.value.loc.line == text.splitlines().index("\ts_addc_u32 s7, s7, words@gotpcrel32@hi+12") + 1


def test_common_symbols_are_zeroed_bss_labels_at_their_alignment(tmp_path):
    # clang writes a static __device__ array as .local + .comm (the HIP header's printf buffer is one)
    text = KERNEL + ".bss\nd3:\n\t.zero 6\n\t.local c1\n\t.comm c1,12,8\n\t.lcomm c2,4\n"
    static = parse_text(text, "c.s").static_data
    assert static.symbols == {"d3": 0, "c1": 8, "c2": 20} and static.image == bytes(24)
    if LLVM_MC is not None:
        src = tmp_path / "c.s"
        src.write_text(text)
        subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj", str(src), "-o",
                        str(tmp_path / "c.o")], check=True)


def test_an_lcomm_alignment_is_refused_as_llvm_mc_refuses_it():
    with pytest.raises(AsmError) as info:
        parse_text(KERNEL + ".lcomm c2,4,16\n", "c.s")
    assert "c.s:4:" in str(info.value) and "alignment not supported on this target" in str(info.value)


RELOCATED = """\
.text
.globl k
k:
\ts_endpgm
.data
.globl d0, d1, d2
d0:
\t.quad 7
\t.quad d1
d1:
\t.quad d0 + 4, 8 + d1, k, (d2 - 2) + 1
.section .rodata
d2:
\t.long 3
\t.quad d0 - 16
"""


@pytest.mark.skipif(LLVM_MC is None or OBJDUMP is None, reason="llvm-mc-19 and llvm-objdump-19 are needed")
def test_data_holding_addresses_gets_what_a_loader_writes_for_llvm_mcs_relocations(tmp_path):
    # llvm-mc leaves zeros and an R_AMDGPU_ABS64 relocation (S + A) for each address; gpusim writes S + A in their
    # place, a data label's at its device address, a code label's once the code is laid out (here k at pc 0)
    static = parse_text(RELOCATED, "r.s").static_data
    assert [(name, addend) for _, name, addend in static.code_relocations] == [("k", 0)]
    image = static.with_code_at({"k": 0}).image
    src, obj = tmp_path / "r.s", tmp_path / "r.o"
    src.write_text(RELOCATED)
    subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj", str(src), "-o", str(obj)],
                   check=True)
    dump = subprocess.run([OBJDUMP, "-r", str(obj)], capture_output=True, text=True, check=True).stdout
    sections = re.split(r"RELOCATION RECORDS FOR \[(\S+)\]:", dump)[1:]
    relocations = []
    for section, body in zip(sections[::2], sections[1::2]):
        for offset, kind, symbol, sign, addend in re.findall(r"^([0-9a-f]+)\s+(\S+)\s+(\w+)(?:([+-])0x([0-9a-f]+))?$",
                                                              body, re.M):
            start = 0 if section == ".data" else static.symbols["d2"]   # .rodata begins at d2
            value = int(addend or "0", 16) * (-1 if sign == "-" else 1)
            relocations.append((start + int(offset, 16), kind, symbol, value))
    assert {kind for _, kind, _, _ in relocations} == {"R_AMDGPU_ABS64"} and len(relocations) == 6
    for at, _, symbol, addend in relocations:
        target = CODE_BASE if symbol == "k" else STATIC_DATA_BASE + static.symbols[symbol]
        assert int.from_bytes(image[at:at + 8], "little") == target + addend, (symbol, addend)
    assert image[:8] == (7).to_bytes(8, "little")


def test_a_table_of_data_and_function_addresses_is_loaded_and_called_through():
    k = gpusim.load_kernel(ROOT / "tests" / "frontends" / "data" / "pointer_tables.hip")
    for timing in (False, True):
        r = gpusim.simulate(k, "cdna3", check=True, timing=timing)
        assert [c.passed for c in r.checks] == [True], r.checks[0].describe()


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-19 is needed")
@pytest.mark.parametrize("line", [".zero 2, 3", ".space 2, 7", ".skip 1, 9", ".p2align 4, 1", ".byte 0", ".asciz \"\"",
                                  ".fill 2, 1, 5", ".byte 1", ".float 1.0", ".ascii \"a\"", ".quad x"])
def test_bss_takes_what_llvm_mc_takes_and_holds_zeros(tmp_path, line):
    # .bss holds no bytes in the object: non-zero data is refused (llvm-mc: "SHT_NOBITS section '.bss' cannot have
    # non-zero initializers"), and the fill of .zero, .space, .skip and the alignments is ignored, as llvm-mc does
    text = KERNEL + f".bss\nx:\n\t{line}\n"
    src = tmp_path / "b.s"
    src.write_text(text)
    llvm_takes = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj", "-o",
                                 str(tmp_path / "b.o"), str(src)], capture_output=True).returncode == 0
    try:
        static = parse_text(text, "b.s").static_data
    except AsmError as err:
        assert not llvm_takes, str(err)
        assert str(err).startswith("b.s:6:2: error: ") and "holds zeros only" in str(err)
    else:
        assert llvm_takes and not any(static.image)
