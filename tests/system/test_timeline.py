"""Busy and overlap sums over operation spans: what the program report's GPU and overlap columns add up."""
from gpusim.system.timeline import Span, covered, hidden_communication, merged, overlap


def test_merged_joins_touching_and_overlapping_intervals_and_drops_empty_ones():
    assert merged([(5, 7), (0, 2), (1, 3), (3, 4), (9, 9)]) == [(0, 4), (5, 7)]


def test_covered_counts_time_once_however_many_operations_share_it():
    assert covered([(0, 10), (2, 4), (8, 12)]) == 12


def test_overlap_is_the_time_both_sets_cover():
    assert overlap([(0, 10), (20, 30)], [(5, 25)]) == 10   # 5..10 and 20..25
    assert overlap([(0, 1)], [(1, 2)]) == 0


def test_hidden_communication_is_the_part_of_a_gpus_collectives_that_ran_beside_its_kernels():
    spans = [Span("kernel", "gemm", 0, "compute", 0.0, 10.0), Span("collective", "all_reduce", 0, "comm", 6.0, 14.0),
             Span("collective", "all_reduce", 1, "comm", 6.0, 14.0), Span("kernel", "gemm", 1, "compute", 20.0, 30.0)]
    assert hidden_communication(spans, 0) == (8.0, 4.0)
    assert hidden_communication(spans, 1) == (8.0, 0.0)
