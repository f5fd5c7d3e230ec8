"""Reports: counters turned into text (and, later, tables, traces and plots)."""
