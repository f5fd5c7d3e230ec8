"""A bounded pool of slots (MSHRs, queue entries), each holding the cycle at which it frees."""
from numba import njit


@njit(_nrt=False)
def slot_earliest(slots):
    """slot_earliest returns the index of the slot that frees first (lowest index on ties); mutates nothing.

    A request arriving at ``t`` takes that slot at ``max(t, slots[i])`` and the caller writes the cycle at
    which it releases the slot back into ``slots[i]``: with every slot busy the request waits, which is how a
    bounded MSHR file or queue pushes back on its requesters.
    """
    best = 0
    for i in range(1, slots.shape[0]):
        if slots[i] < slots[best]:
            best = i
    return best
