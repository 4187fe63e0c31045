# ragmon: `make demo` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench lint schema clean promstack testtools

$(STAMP): pyproject.toml setup.py monitor/scoring/injection/_kernel.c monitor/scoring/_automaton.c monitor/scoring/_tfidf.c monitor/scoring/_tokens.c monitor/scoring/_marks.c monitor/scoring/leakage/_verbatim.c monitor/scoring/_untracked.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	# an editable install compiles no bytecode, and with PYTHONDONTWRITEBYTECODE set every
	# ragmon process would compile the package again (0.1 s of its 0.55 s start)
	$(BIN)/python -m compileall -q monitor bench > /dev/null
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/ragmon demo $(if $(DURATION),--duration $(DURATION),)

# Prometheus and Alertmanager for tests/deploy (promtool, amtool and both servers): the
# Debian/Ubuntu packages, installed only when a binary is missing. A policy-rc.d that denies
# service starts is in place during the install (unless one exists already), so apt starts
# no system prometheus/alertmanager services; the tests run their own on free loopback ports.
PROMSTACK_BINS := prometheus promtool amtool prometheus-alertmanager
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

promstack:
	@missing=""; for b in $(PROMSTACK_BINS); do command -v $$b >/dev/null 2>&1 || missing="$$missing $$b"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing prometheus prometheus-alertmanager (missing:$$missing)"; \
	  set -e; \
	  if [ ! -e /usr/sbin/policy-rc.d ]; then \
	    trap '$(SUDO) rm -f /usr/sbin/policy-rc.d' EXIT; \
	    printf '#!/bin/sh\nexit 101\n' | $(SUDO) tee /usr/sbin/policy-rc.d >/dev/null; \
	    $(SUDO) chmod 755 /usr/sbin/policy-rc.d; \
	  fi; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    prometheus prometheus-alertmanager >/dev/null; \
	fi

# What the terminal and browser tests drive: tmux (the demo's Ctrl-C in a real terminal)
# and headless Chromium (the HTML eval report), Debian packages installed only when missing.
testtools:
	@missing=""; command -v tmux >/dev/null 2>&1 || missing="$$missing tmux"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  set -e; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    $$missing >/dev/null; \
	fi

test: $(STAMP) promstack testtools
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
