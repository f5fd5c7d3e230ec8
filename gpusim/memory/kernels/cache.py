"""A set-associative cache over two arrays: tags and replacement stamps.

``tags[sets, ways]`` (int64) holds the line number ``line_addr // line_bytes`` of each way, -1 when invalid;
``stamps[sets, ways]`` (int64) orders ways for replacement. A line lives in set
``(line_addr // line_bytes) % sets``. Callers that split a cache into channels pass channel-local addresses
(``channel.channel_local``) so every set of a channel is used.
"""
from numba import njit

from gpusim.memory.kernels.fastdiv import quot, rem

LRU = 0
FIFO = 1


@njit(_nrt=False)
def cache_set(tags, line_addr, line_bytes):
    """cache_set returns the set that holds ``line_addr``."""
    return rem(quot(line_addr, line_bytes), tags.shape[0])


@njit(_nrt=False)
def cache_find(tags, line_addr, line_bytes):
    """cache_find returns the way of set ``cache_set(...)`` holding ``line_addr``, or -1; it mutates nothing."""
    tag = quot(line_addr, line_bytes)
    s = rem(tag, tags.shape[0])
    for w in range(tags.shape[1]):
        if tags[s, w] == tag:
            return w
    return -1


@njit(_nrt=False)
def cache_victim(tags, stamps, s):
    """cache_victim returns the way of set ``s`` to replace: the first invalid way, else the smallest stamp.

    Ties go to the lowest way. Mutates nothing.
    """
    best = 0
    for w in range(tags.shape[1]):
        if tags[s, w] < 0:
            return w
        if stamps[s, w] < stamps[s, best]:
            best = w
    return best


@njit(_nrt=False)
def cache_access(tags, stamps, line_addr, line_bytes, now, allocate, policy):
    """cache_access looks ``line_addr`` up, updates replacement state and returns True on a hit.

    ``policy`` 0 (LRU) restamps a hit with ``now``; 1 (FIFO) stamps a line only when it is filled. A miss
    fills the victim way when ``allocate`` is true (write-no-allocate passes False and leaves the cache as it
    was). ``now`` must not decrease between calls; equal stamps break ties by lowest way, so pass an access
    sequence number rather than a cycle when several lookups share a cycle and exact LRU matters.
    Mutates ``tags`` and ``stamps``; hit and miss counters are the caller's.
    """
    tag = quot(line_addr, line_bytes)
    s = rem(tag, tags.shape[0])
    for w in range(tags.shape[1]):
        if tags[s, w] == tag:
            if policy == LRU:
                stamps[s, w] = now
            return True
    if allocate:
        w = cache_victim(tags, stamps, s)
        tags[s, w] = tag
        stamps[s, w] = now
    return False
