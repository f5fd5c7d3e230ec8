"""The hostcall buffer: how a kernel built against ROCm's device libraries calls the host, and what it printed.

printf in the ROCm device libraries (ockl), which Triton's ``tl.device_print`` and a failing
``tl.device_assert`` and hipcc's device printf compile to, asks the host to act through the buffer of the
kernel's ``hidden_hostcall_buffer`` argument: a wave takes a packet from the buffer's free stack, writes
its service id and each active lane's eight 64-bit arguments, pushes the packet on the ready stack, rings
the doorbell signal (an atomic add, then, since the signal has an event mailbox, ``s_sendmsg
sendmsg(MSG_INTERRUPT)``) and waits until the host clears the packet's ready flag; it then reads each
lane's answer from the same slots and returns the packet to the free stack. (The layout and the protocol
are those the device code of ROCm's ockl library reads and writes.)

gpusim plays the host at the interrupt, at once (gpusim.exec.kernels.hostcall): it answers every packet
on the ready stack and clears its flag, so the wave finds its answer on its first look. Of the services
it answers printf's (SERVICE_PRINTF), whose calls a message at a time it logs in the region, and any
other with zeros. After the run :func:`read_hostcall_printed` turns the log into the text the calls
printed, formatted as gpusim's own device printf is (gpusim.exec.device_printf).

A message is a stream of 64-bit words sent over one or more calls, each carrying up to seven: a first
call flagged BEGIN opens it (the host answers with the message's id, which the later calls send back),
the last is flagged END. The stream is the output stream (0 stdout, 1 stderr), the format string, then
per conversion one word (integers widened to 64 bits, floating-point values as doubles) or, for ``%s``,
the string: its bytes, NUL included, eight to a word.

The region (its layout is gpusim.exec.kernels.hostcall's), at a 4 KiB-aligned arena offset, holds in order: the buffer header (6 words: the packet
headers' and payloads' addresses, the doorbell signal's address, the free stack, the ready stack and the
index mask), the doorbell signal (8 words, its event mailbox word after it), the printf log (LOG_WORDS
words), the packet headers (24 bytes each) and the payloads (4 KiB each: 64 lanes of 8 words).
"""
from __future__ import annotations

import numpy as np

from gpusim.exec.device_printf import KIND_DOUBLE, KIND_TEXT, KIND_UNSIGNED, MAX_STRING, Printed, conversions, \
    format_c
from gpusim.exec.kernels.hostcall import (
    DESC_BEGIN, DESC_END, H_DOORBELL, H_FREE_STACK, H_HEADERS, H_INDEX_MASK, H_PAYLOADS, H_READY_STACK,
    HEADER_BYTES, HEADERS_OFFSET, L_DROPPED, L_USED, LOG_HEADER_WORDS, LOG_OFFSET, LOG_WORDS, MAILBOX_OFFSET,
    PACKET_HEADER_BYTES, PAYLOAD_BYTES, SIGNAL_BYTES, SIGNAL_OFFSET,
)

MAX_PACKETS = 1 << 14


def packet_count(waves: int) -> int:
    """packet_count is the packets the buffer holds for a grid of ``waves`` waves: a power of two, past one per
    wave that may hold one at a time (packet 0 is the stacks' null), at most MAX_PACKETS."""
    n = 2
    while n < waves + 1 and n < MAX_PACKETS:
        n *= 2
    return n


def region_bytes(packets: int) -> int:
    """region_bytes is the size of a hostcall region of ``packets`` packets."""
    return payloads_offset(packets) + packets * PAYLOAD_BYTES


def payloads_offset(packets: int) -> int:
    """payloads_offset is where the payloads start in a region of ``packets`` packets, after their headers."""
    return HEADERS_OFFSET + packets * PACKET_HEADER_BYTES


def initial_region(address: int, packets: int) -> np.ndarray:
    """initial_region is the region's bytes before the run, for a region at device ``address``: every packet
    but packet 0 on the free stack, the ready stack empty, the doorbell's mailbox set (so the device raises
    the interrupt gpusim answers at) and the log empty."""
    region = np.zeros(region_bytes(packets), dtype=np.uint8)
    words = region[:HEADER_BYTES].view("<u8")
    words[H_HEADERS] = address + HEADERS_OFFSET
    words[H_PAYLOADS] = address + payloads_offset(packets)
    words[H_DOORBELL] = address + SIGNAL_OFFSET
    words[H_FREE_STACK] = 1
    words[H_READY_STACK] = 0
    words[H_INDEX_MASK] = packets - 1
    signal = region[SIGNAL_OFFSET:SIGNAL_OFFSET + SIGNAL_BYTES].view("<u8")
    signal[2] = address + MAILBOX_OFFSET   # the event mailbox; the event id (word 3's low half) stays 0
    headers = region[HEADERS_OFFSET:HEADERS_OFFSET + packets * PACKET_HEADER_BYTES].view("<u8").reshape(packets, -1)
    headers[1:packets - 1, 0] = np.arange(2, packets)   # packet k's next is k + 1; the last's and packet 0's stay 0
    return region


def read_hostcall_printed(mem: np.ndarray, offset: int) -> Printed:
    """read_hostcall_printed decodes the printf log of the hostcall region at arena ``offset`` of a run's
    memory image: the text of each message the kernel completed, in the order they completed."""
    log = mem[offset + LOG_OFFSET:offset + LOG_OFFSET + 8 * LOG_WORDS].view("<u8")
    used = min(int(log[L_USED]), LOG_WORDS - LOG_HEADER_WORDS)
    streams: dict[int, list[int]] = {}
    texts = []
    k = LOG_HEADER_WORDS
    while k + 2 <= LOG_HEADER_WORDS + used:
        msg, flags = int(log[k]), int(log[k + 1])
        count = flags >> 8
        words = [int(w) for w in log[k + 2:k + 2 + count]]
        k += 2 + count
        if flags & DESC_BEGIN:
            streams[msg] = []
        streams.setdefault(msg, []).extend(words)
        if flags & DESC_END:
            texts.append(_message_text(streams.pop(msg)))
    return Printed(lines=texts, dropped=int(log[L_DROPPED]))


def _message_text(words: list[int]) -> str:
    """_message_text formats one message's stream (output stream, format string, arguments)."""
    fmt, at = _string(words, 1)
    args = []
    for conv in conversions(fmt):
        if at >= len(words):
            break
        if conv == "s":
            text, at = _string(words, at)
            args.append((KIND_TEXT, text))
        else:
            args.append((KIND_DOUBLE if conv in "eEfFgGaA" else KIND_UNSIGNED, words[at]))
            at += 1
    return format_c(fmt, args, np.zeros(0, np.uint8))


def _string(words: list[int], at: int) -> tuple[str, int]:
    """_string is the NUL-terminated string whose bytes start at word ``at`` (at most MAX_STRING bytes) and the
    index of the word after its last."""
    raw = bytearray()
    while at < len(words) and len(raw) < MAX_STRING:
        chunk = words[at].to_bytes(8, "little")
        at += 1
        end = chunk.find(b"\0")
        if end >= 0:
            raw += chunk[:end]
            break
        raw += chunk
    return raw.decode("utf-8", errors="replace"), at
