"""Benchmarks: scripts that measure and print (targets are checked here, never in timed tests)."""
