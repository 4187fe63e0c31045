# ragmon: `make demo` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench lint schema clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/ragmon demo $(if $(DURATION),--duration $(DURATION),)

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m bench.run

lint: $(STAMP)
	$(BIN)/ruff check monitor tests bench
	$(BIN)/ruff format --check monitor tests bench
	$(BIN)/mypy

schema: $(STAMP)
	$(BIN)/ragmon schema

clean:
	rm -rf $(VENV) .ragmon build *.egg-info
