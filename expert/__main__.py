"""`python -m expert` runs the command line."""

from expert.cli.main import run

run()
