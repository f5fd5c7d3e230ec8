"""The runtime services a ROCm launch hands a kernel and gpusim does not, and where a kernel finds them.

A ROCm launch passes some kernels pointers to runtime services through hidden kernel arguments (LLVM's
AMDGPUUsage, "Code Object V5 Metadata", ``.value_kind: hidden_*``): the device heap of malloc, the queues
of device-side enqueue, and the hostcall buffer through which printf and assert of the ROCm device
libraries ask the host to act. A kernel run on its own gets a hostcall buffer (gpusim.exec.hostcall); the
rest gpusim does not provide, nor a hostcall buffer in an application program's launches. Each such
argument gets, rather than null (which a kernel may test, and which turns into a fault at a small address
that names nothing), its own window of addresses that no buffer holds: a kernel that uses the service
faults there, and :func:`service_at` names the service in the fault report.
"""
from __future__ import annotations

from typing import Optional

# the first service's window: below the arena (gpusim.exec.launch.ARENA_BASE, 0x7F00_0000_0000) and above
# the shared aperture, so no buffer, LDS or scratch address falls in any window
SERVICE_BASE = 0x7E00_0000_0000
SERVICE_SPAN = 1 << 32   # each service's window: any offset a kernel adds to the pointer stays in it

ABSENT_SERVICES = {
    "hidden_hostcall_buffer": "the hostcall buffer, through which printf and assert of the ROCm device libraries "
                              "call the host (gpusim gives a kernel run on its own one, not a program's launches)",
    "hidden_printf_buffer": "the printf buffer of OpenCL's printf",
    "hidden_heap_v1": "the device heap of malloc and free",
    "hidden_multigrid_sync_arg": "the multi-grid synchronization state of a cooperative multi-device launch",
    "hidden_default_queue": "the default queue of device-side enqueue",
    "hidden_completion_action": "the completion action of device-side enqueue",
    "hidden_queue_ptr": "the dispatch's AQL queue",
}
_KINDS = tuple(ABSENT_SERVICES)


def service_address(kind: str) -> int:
    """service_address is the pointer a launch writes for hidden argument ``kind``, one of ABSENT_SERVICES."""
    return SERVICE_BASE + _KINDS.index(kind) * SERVICE_SPAN


def service_at(address: int) -> Optional[str]:
    """service_at says which absent service ``address`` falls in, for a fault report, or None when in none."""
    n = (address - SERVICE_BASE) // SERVICE_SPAN
    if address < SERVICE_BASE or n >= len(_KINDS):
        return None
    kind = _KINDS[n]
    return (f"{ABSENT_SERVICES[kind]}, given by the hidden argument {kind}: gpusim runs no host beside the kernel "
            "and does not provide it")
