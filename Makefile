# Two commands set everything up on a fresh machine: `make run` and `make test`.
# Python: the machine's python3 when it is 3.11, 3.12 or 3.13, else the first of python3.13, 3.12, 3.11
# that runs (a pyenv shim of a version that is not enabled does not); `make PYTHON=/path/to/python` to choose.
SUPPORTED := import sys; sys.exit(not (3, 11) <= sys.version_info[:2] < (3, 14))
ifndef PYTHON
PYTHON := $(shell for p in python3 python3.13 python3.12 python3.11; do \
	$$p -c '$(SUPPORTED)' 2>/dev/null && { command -v $$p; break; }; done)
endif
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# durable-rules 2.0.28, its last release, calls PyEval_CallObject, which Python 3.13 removed: its C
# extension is built with that name mapped to PyObject_CallObject (the same call; harmless on 3.11 and
# 3.12). No pip cache: a wheel built elsewhere without the define would be taken from it.
ENGINE_BUILD := CPPFLAGS="$$CPPFLAGS -DPyEval_CallObject=PyObject_CallObject"

.PHONY: run test bench readme clean

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "gpu-expert needs Python 3.11, 3.12 or 3.13: none found (make PYTHON=...)"; exit 1; }
	$(PYTHON) -c '$(SUPPORTED)' || { echo "gpu-expert needs Python 3.11, 3.12 or 3.13, not $(PYTHON)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(ENGINE_BUILD) $(BIN)/pip install --quiet --no-cache-dir -e '.[test]'
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
