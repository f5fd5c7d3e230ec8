"""The host's side of the hostcall buffer, played at the doorbell's interrupt (gpusim.exec.hostcall).

:func:`serve_hostcalls` answers every packet on the ready stack of the dispatch's hostcall region: printf
calls (SERVICE_PRINTF) are logged a lane at a time and answered with their message's id, any other service
with zeros; each packet's ready flag is then cleared, and the ready stack left empty. The region's layout
is gpusim.exec.hostcall's. What the kernel wrote there is untrusted: packet indices are taken modulo the
packet count, the walk down the ready stack stops after as many packets as there are (a kernel that links
them in a cycle), and the log drops what does not fit.
"""
import numpy as np
from numba import njit

from gpusim.exec.kernels.memory import ENV_HOSTCALL, ENV_HOSTCALL_PACKETS, load_bytes, store_bytes

U = np.uint64

# The region's layout (here, where the compiled code reads it, so that changing it recompiles that code).
# buffer header words
H_HEADERS, H_PAYLOADS, H_DOORBELL, H_FREE_STACK, H_READY_STACK, H_INDEX_MASK = range(6)
HEADER_BYTES = 48
SIGNAL_OFFSET = HEADER_BYTES               # an amd_signal_t: kind, value, event mailbox pointer, event id, ...
SIGNAL_BYTES = 64
MAILBOX_OFFSET = SIGNAL_OFFSET + SIGNAL_BYTES   # the word the device writes the event id to before the interrupt
LOG_OFFSET = MAILBOX_OFFSET + 8
LOG_WORDS = 65536                          # 512 KiB, as gpusim's own printf buffer
# log header words; records follow: message id, flags (DESC_BEGIN, DESC_END) | word count << 8, the words
L_USED, L_NEXT_ID, L_DROPPED = range(3)
LOG_HEADER_WORDS = 3
HEADERS_OFFSET = LOG_OFFSET + 8 * LOG_WORDS   # the packet headers, then the payloads
PACKET_HEADER_BYTES = 24                   # next (tagged index), active lane mask, service id, control
PAYLOAD_BYTES = 64 * 8 * 8                 # 64 lanes of 8 words
SERVICE_PRINTF = 2
DESC_BEGIN, DESC_END = 1, 2                # a printf call's descriptor: it opens, it closes its message


@njit(_nrt=False)
def serve_hostcalls(mem, env):
    """serve_hostcalls answers the packets on the ready stack of the hostcall region at arena offset
    ``env[ENV_HOSTCALL]`` (0: the dispatch has none) of ``env[ENV_HOSTCALL_PACKETS]`` packets."""
    base = env[ENV_HOSTCALL]
    packets = env[ENV_HOSTCALL_PACKETS]
    if base == 0 or packets <= 0:
        return
    payloads = base + HEADERS_OFFSET + packets * PACKET_HEADER_BYTES
    log = base + LOG_OFFSET
    top = load_bytes(mem, base + 8 * H_READY_STACK, 8)
    store_bytes(mem, base + 8 * H_READY_STACK, 8, U(0))
    for _ in range(packets):
        index = np.int64(top & U(packets - 1))
        if index == 0:
            break
        header = base + HEADERS_OFFSET + index * PACKET_HEADER_BYTES
        top = load_bytes(mem, header, 8)
        active = load_bytes(mem, header + 8, 8)
        service = load_bytes(mem, header + 16, 4)
        for lane in range(64):
            if (active >> U(lane)) & U(1) == U(0):
                continue
            slot = payloads + index * PAYLOAD_BYTES + lane * 64
            answer = U(0)
            if service == SERVICE_PRINTF:
                answer = _log_printf_call(mem, log, slot)
            store_bytes(mem, slot, 8, answer)
            store_bytes(mem, slot + 8, 8, U(0))
        control = load_bytes(mem, header + 20, 4)
        store_bytes(mem, header + 20, 4, control & ~U(1))   # the ready flag: the host has answered


@njit(_nrt=False)
def _log_printf_call(mem, log, slot):
    """_log_printf_call appends one lane's printf call (its descriptor and up to 7 words) to the log and
    returns the descriptor the device sends with its next call: the message's id, above the flag bits."""
    desc = load_bytes(mem, slot, 8)
    count = np.int64((desc >> U(5)) & U(7))
    if desc & U(DESC_BEGIN):
        msg = load_bytes(mem, log + 8 * L_NEXT_ID, 8) + U(1)
        store_bytes(mem, log + 8 * L_NEXT_ID, 8, msg)
    else:
        msg = desc >> U(8)
    used = np.int64(load_bytes(mem, log + 8 * L_USED, 8))   # the kernel may have written any value there
    if used < 0 or used + 2 + count > LOG_WORDS - LOG_HEADER_WORDS:
        if desc & U(DESC_END):
            store_bytes(mem, log + 8 * L_DROPPED, 8, load_bytes(mem, log + 8 * L_DROPPED, 8) + U(1))
        return msg << U(8)
    at = log + 8 * (LOG_HEADER_WORDS + used)
    store_bytes(mem, at, 8, msg)
    store_bytes(mem, at + 8, 8, (desc & U(DESC_BEGIN | DESC_END)) | (U(count) << U(8)))
    for k in range(count):
        store_bytes(mem, at + 16 + 8 * k, 8, load_bytes(mem, slot + 8 + 8 * k, 8))
    store_bytes(mem, log + 8 * L_USED, 8, U(used + 2 + count))
    return msg << U(8)
