"""Snapshot testing of rule outcomes: the pytest plugin and the stable outcome view it snapshots."""
