"""Importing this module registers every kernel template family (one module each)."""
from gpusim.templates import transpose  # noqa: F401
