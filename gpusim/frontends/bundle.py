"""bundle reads clang's offload bundle format (``__CLANG_OFFLOAD_BUNDLE__``), as clang-offload-bundler writes it:
the magic, a 64-bit entry count, then per entry a 64-bit offset, size and id length and the id text
(``hip-amdgcn-amd-amdhsa--gfx942``); each entry's bytes lie at its offset."""
from __future__ import annotations

import struct

from gpusim.frontends.elf import CodeObjectError

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
COMPRESSED_MAGIC = b"CCOB"
MAX_ENTRIES = 4096
MAX_ID = 1024


def is_bundle(data: bytes) -> bool:
    """is_bundle tells an offload bundle (plain or compressed) by its magic."""
    return data.startswith(MAGIC) or data.startswith(COMPRESSED_MAGIC)


def entries(data: bytes, path: str) -> list[tuple[str, bytes]]:
    """entries lists (id, bytes) of every entry; raises CodeObjectError for a malformed bundle."""
    if data.startswith(COMPRESSED_MAGIC):
        raise CodeObjectError(f"{path}: a compressed offload bundle; unbundle it first "
                              "(clang-offload-bundler-19 --unbundle ...)")
    pos = len(MAGIC)
    if len(data) < pos + 8:
        raise CodeObjectError(f"{path}: truncated offload bundle")
    (count,) = struct.unpack_from("<Q", data, pos)
    pos += 8
    if count == 0 or count > MAX_ENTRIES:
        raise CodeObjectError(f"{path}: offload bundle with an absurd entry count ({count})")
    out = []
    for _ in range(count):
        if len(data) < pos + 24:
            raise CodeObjectError(f"{path}: truncated offload bundle (entry table)")
        offset, size, id_len = struct.unpack_from("<QQQ", data, pos)
        pos += 24
        if id_len > MAX_ID or pos + id_len > len(data):
            raise CodeObjectError(f"{path}: truncated offload bundle (entry id)")
        ident = data[pos:pos + id_len].decode("utf-8", "replace")
        pos += id_len
        if offset + size > len(data):
            raise CodeObjectError(f"{path}: offload bundle entry '{ident}' runs past the end of the file")
        out.append((ident, data[offset:offset + size]))
    return out


def entry_for(data: bytes, target: str, path: str) -> bytes:
    """entry_for returns the code object of the bundle's entry for ``target`` (gfx942 also takes gfx940/941)."""
    from gpusim.frontends.code_object import COMPATIBLE
    found = entries(data, path)
    wanted = COMPATIBLE.get(target, (target,))
    for ident, body in found:
        processor = ident.split("--")[-1].split(":")[0] if "amdgcn" in ident else ""
        if processor in wanted and body:
            return body
    ids = ", ".join(ident for ident, _ in found)
    raise CodeObjectError(f"{path}: the offload bundle has no entry for {target} (entries: {ids})")
