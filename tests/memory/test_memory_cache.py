"""The set-associative cache replaces lines exactly like an LRU / FIFO reference."""
from collections import OrderedDict

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from memory_support import py

from gpusim.memory.kernels.cache import EMPTY, FIFO, LRU, cache_access, cache_tag

LINE = 64


def _fresh(sets, ways):
    return np.zeros((sets, ways), np.int64), np.zeros((sets, ways), np.int64)   # zeroed = every way EMPTY


def _reference(trace, sets, ways, policy):
    content = [OrderedDict() for _ in range(sets)]
    hits = []
    for a in trace:
        tag = a // LINE
        od = content[tag % sets]
        if tag in od:
            if policy == LRU:
                od.move_to_end(tag)
            hits.append(True)
        else:
            if len(od) == ways:
                od.popitem(last=False)
            od[tag] = None
            hits.append(False)
    return hits


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=300), st.sampled_from([1, 2, 4]),
       st.sampled_from([1, 2, 4]), st.sampled_from([LRU, FIFO]))
def test_matches_reference_on_random_traces(lines, sets, ways, policy):
    trace = [x * LINE + 3 for x in lines]
    tags, stamps = _fresh(sets, ways)
    got = [bool(cache_access(tags, stamps, a, LINE, i + 1, True, policy)) for i, a in enumerate(trace)]
    assert got == _reference(trace, sets, ways, policy)
    hits = sum(got)
    assert hits + (len(got) - hits) == len(trace)


def test_fifo_and_lru_differ_on_a_reused_line():
    # One set of 2 ways: A B A C A. LRU keeps A (evicts B); FIFO evicts A at C.
    trace = [0, 1, 0, 2, 0]
    results = {}
    for policy in (LRU, FIFO):
        tags, stamps = _fresh(1, 2)
        results[policy] = [bool(cache_access(tags, stamps, x * LINE, LINE, i + 1, True, policy))
                           for i, x in enumerate(trace)]
    assert results[LRU] == [False, False, True, False, True]
    assert results[FIFO] == [False, False, True, False, False]


@pytest.mark.parametrize("fn", [cache_access, py(cache_access)])
def test_write_no_allocate_leaves_the_cache_alone(fn):
    tags, stamps = _fresh(4, 2)
    assert not fn(tags, stamps, 640, LINE, 1, False, LRU)
    assert (tags == EMPTY).all()
    assert not fn(tags, stamps, 640, LINE, 2, True, LRU)
    assert fn(tags, stamps, 650, LINE, 3, False, LRU)
    assert tags[(640 // LINE) % 4].tolist().count(cache_tag(640, LINE)) == 1
