# Two commands for a new user:  `make demo` (set up + run the offline demo)  and  `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test install lint bench clean

demo: $(STAMP)
	$(BIN)/evidence demo

test: $(STAMP)
	$(BIN)/python -m pytest -m "not slow and not browser" -q

install: $(STAMP)

# torch first: 2.13.0 is the local CPU build here; any other request pulls gigabytes of CUDA packages.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -qq --upgrade pip
	$(BIN)/pip install -qq torch==2.13.0
	$(BIN)/pip install -qq -e ".[dev]"
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check ingest ledger ui tests bench
	$(BIN)/mypy ingest ledger ui
	$(BIN)/lint-imports

bench: $(STAMP)
	$(BIN)/python bench/ingest_throughput.py

clean:
	rm -rf $(VENV) .evidence
