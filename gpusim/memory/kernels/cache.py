"""A set-associative cache over two arrays: tags and replacement stamps.

``tags[sets, ways]`` (int64) holds ``cache_tag`` of each way's line, the line number ``line_addr // line_bytes``
plus one, so that 0 (``EMPTY``) marks an invalid way and a freshly zeroed array is an empty cache, and
-1 (``INVALIDATED``) a way whose line was invalidated;
``stamps[sets, ways]`` (int64) orders ways for replacement. A line lives in set
``(line_addr // line_bytes) % sets``. Callers that split a cache into channels pass channel-local addresses
(``channel.channel_local``) so every set of a channel is used. Caches that time their lines also keep
``ready[sets, ways, 2]``: the cycle a line's data is ready and the cycle its fill was requested
(``line_fill`` / ``line_hit``).
"""
from numba import njit

from gpusim.memory.kernels.fastdiv import quot, rem

LRU = 0
FIFO = 1
EMPTY = 0  # the tag of an invalid way
# the tag of a way whose line a cache invalidate dropped: it matches no line, yet is not EMPTY, so ways
# still fill in order (cache_lookup stops at the first EMPTY way)
INVALIDATED = -1


@njit(_nrt=False)
def cache_tag(line_addr, line_bytes):
    """cache_tag is what ``tags`` stores for the line holding byte ``line_addr`` (>= 0): never ``EMPTY``."""
    return quot(line_addr, line_bytes) + 1


@njit(_nrt=False)
def tag_address(tag, line_bytes):
    """tag_address is the first byte of the line whose tag is ``tag`` (not ``EMPTY``)."""
    return (tag - 1) * line_bytes


@njit(_nrt=False)
def cache_fill(tags, stamps, s, w, line_addr, line_bytes, stamp):
    """cache_fill puts the line holding ``line_addr`` into way ``w`` of set ``s`` with replacement stamp ``stamp``."""
    tags[s, w] = cache_tag(line_addr, line_bytes)
    stamps[s, w] = stamp


@njit(_nrt=False)
def cache_set(tags, line_addr, line_bytes):
    """cache_set returns the set that holds ``line_addr``."""
    return rem(quot(line_addr, line_bytes), tags.shape[0])


@njit(_nrt=False)
def cache_lookup(tags, stamps, s, line_addr, line_bytes):
    """cache_lookup looks for ``line_addr`` in set ``s`` (``cache_set(...)``) in one pass over its ways.

    Returns the way holding the line (>= 0), or ``-1 - victim`` where ``victim`` is the way a fill should
    take: the first invalid way, else the smallest stamp, ties to the lowest way. Mutates nothing.
    """
    tag = cache_tag(line_addr, line_bytes)
    best = 0
    low = stamps[s, 0]
    for w in range(tags.shape[1]):
        t = tags[s, w]
        if t == tag:
            return w
        if t == EMPTY:   # ways fill in order and are never emptied: the rest are empty too
            return -1 - w
        v = stamps[s, w]
        if v < low:
            low = v
            best = w
    return -1 - best


@njit(_nrt=False)
def cache_access(tags, stamps, line_addr, line_bytes, now, allocate, policy):
    """cache_access looks ``line_addr`` up, updates replacement state and returns True on a hit.

    ``policy`` 0 (LRU) restamps a hit with ``now``; 1 (FIFO) stamps a line only when it is filled. A miss
    fills the victim way when ``allocate`` is true (write-no-allocate passes False and leaves the cache as it
    was). ``now`` must not decrease between calls; equal stamps break ties by lowest way, so pass an access
    sequence number rather than a cycle when several lookups share a cycle and exact LRU matters.
    Mutates ``tags`` and ``stamps``; hit and miss counters are the caller's.
    """
    s = cache_set(tags, line_addr, line_bytes)
    w = cache_lookup(tags, stamps, s, line_addr, line_bytes)
    if w >= 0:
        if policy == LRU:
            stamps[s, w] = now
        return True
    if allocate:
        cache_fill(tags, stamps, s, -1 - w, line_addr, line_bytes, now)
    return False


@njit(_nrt=False)
def line_fill(entry, requested, ready):
    """line_fill records in ``entry`` (a line's ``ready[set, way]`` pair) a fill requested at cycle
    ``requested`` whose data is ready at cycle ``ready``."""
    entry[0] = ready
    entry[1] = requested


@njit(_nrt=False)
def line_hit(entry, t):
    """line_hit returns the cycle a request that finds its line held (``entry``) at cycle ``t`` gets the data.

    A line filled, or in flight from a fill requested at or before ``t``, gives its ready cycle or ``t``
    (MSHR merging). A fill requested after ``t`` can be found too, because the engine lets each CU run
    ahead through a window of cycles, so requests reach memory out of time order; in time order this
    request would have missed and started the fill itself. It takes the fill's place: its data arrives the
    fill's service time after ``t``, and ``entry`` moves the fill earlier so later requests see that.
    Hit and miss counts are the caller's and stay as they are: one miss for the line either way.
    """
    ready = entry[0]
    requested = entry[1]
    if requested > t:
        entry[0] = t + (ready - requested)
        entry[1] = t
        return entry[0]
    return max(t, ready)


@njit(_nrt=False)
def cache_invalidate_way(tags, stamps, s, w):
    """cache_invalidate_way drops the line of way ``w`` of set ``s``: no lookup finds it again, and its
    stamp (-1, below every replacement stamp) makes it the set's next victim."""
    if tags[s, w] != EMPTY:
        tags[s, w] = INVALIDATED
        stamps[s, w] = -1
