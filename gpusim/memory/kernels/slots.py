"""A bounded pool of slots (MSHRs, queue entries), each holding the interval its occupant holds it.

``slots[n, 2]`` (int64): ``slots[i, 0]`` is the cycle the slot's latest occupant took it, ``slots[i, 1]`` the
cycle it gives it back. The engine processes requests in issue order, not time order, so a slot may already
be promised to a request "from the future" (one that waited upstream); a request arriving earlier may use it
meanwhile, like any free slot, without erasing that promise.
"""
from numba import njit


@njit(_nrt=False)
def slot_wait(slots, t):
    """slot_wait returns ``(i, start)`` for a request that needs a slot at cycle ``t``; mutates nothing.

    A slot whose occupant gave it back by ``t`` gives ``(i, t)``: record the request with ``slot_hold``. A slot
    whose occupant takes it only after ``t`` gives ``(-1, t)``: use it without recording. With every slot busy
    the request waits for the first to free: ``(i, release)``, lowest index on ties.
    """
    best = 0
    first_free = slots[0, 1]
    later = -1
    for i in range(slots.shape[0]):
        release = slots[i, 1]
        if release <= t:
            return i, t
        if slots[i, 0] > t:
            later = i
        if release < first_free:
            best = i
            first_free = release
    if later >= 0:
        return -1, t
    return best, first_free


@njit(_nrt=False)
def slot_hold(slots, i, start, release):
    """slot_hold records that a request holds slot ``i`` (from ``slot_wait``; -1 records nothing) from ``start`` to ``release``."""
    if i >= 0:
        slots[i, 0] = start
        slots[i, 1] = release
