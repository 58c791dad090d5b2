"""Private plumbing under the pipeline, no domain knowledge: where the shipped data lives (`paths`),
reading user and catalog files safely (`fileio`), and package names imported on first use (`lazy`).
Not public API: its names may change in any release.
"""
