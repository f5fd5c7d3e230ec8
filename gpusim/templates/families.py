"""Importing this module registers every kernel template family (one module each)."""
