# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3.12 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench readme clean

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; assert (3, 11) <= sys.version_info[:2] < (3, 13), "gpu-expert needs Python 3.11 or 3.12"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/gpu-expert $(ARGS)

# -n auto: one pytest worker per core (pytest-xdist); `pytest` alone still runs in one process.
test: $(STAMP)
	$(BIN)/python -m pytest -n auto

bench: $(STAMP)
	$(BIN)/python -m benchmarks

# Rewrite the outputs of README.md's `$ gpu-expert ...` examples from the real output (review the diff).
readme: $(STAMP)
	$(BIN)/python -m tools.readme_examples --update

clean:
	rm -rf $(VENV) build dist *.egg-info
