"""The kit's one reader of Swift source (reader.py, and reader.swift, the program it builds)."""
