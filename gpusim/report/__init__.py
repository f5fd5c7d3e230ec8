"""Reports: counters turned into derived metrics (metrics.py), the text report (text.py) and the long
table behind --csv and Result.to_frame() (table.py)."""
