"""Maintenance scripts of the repository (not shipped with the package)."""
