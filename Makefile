# The two commands a newcomer needs: `make run` and `make test`. Each sets itself up.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 3000
export REFLEX_USE_NPM := 1
export PATH := $(CURDIR)/$(BIN):$(PATH)

.PHONY: run dev test e2e lint migrate seed debian-packages bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test]"
	touch $(STAMP)

migrate: $(STAMP)
	$(BIN)/alembic upgrade head

seed: migrate
	$(BIN)/python -m services.seed

run: seed
	$(BIN)/reflex run --env prod --single-port --frontend-port $(PORT) --backend-port $(PORT)

# Reflex's development server on the one port: a saved Python file restarts the backend and
# rebuilds the pages (reload the tab). The data folder, tests and docs do not restart it.
dev: seed
	REFLEX_HOT_RELOAD_EXCLUDE_PATHS=data:tests:bench:docs \
	  $(BIN)/reflex run --env preview --frontend-port $(PORT) --backend-port $(PORT)

# Debian's chromium for the browser tests and nginx for the two-instance test, when missing.
debian-packages:
	@test -x /usr/bin/chromium -a -x /usr/sbin/nginx || { \
	  echo "Installing Debian's chromium and nginx-light for the browser tests"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && \
	  $$SUDO apt-get install -y -qq chromium nginx-light >/dev/null; }

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache  # the layers of pyproject.toml [tool.importlinter]

test: $(STAMP) debian-packages lint
	$(BIN)/python -m tests.suite

# The browser journeys that only browse (marked any_site), against a site already running at URL.
e2e: $(STAMP) debian-packages
	@test -n "$(URL)" || { echo "usage: make e2e URL=https://staging.example"; exit 2; }
	E2E_URL=$(URL) $(BIN)/python -m pytest -q -p no:cacheprovider -rs tests/e2e

bench: $(STAMP) debian-packages
	$(BIN)/python bench/page_load.py
	$(BIN)/python bench/lighthouse.py
	$(BIN)/python bench/search.py
	$(BIN)/python bench/matchfinder.py
	$(BIN)/python bench/moderation.py
	$(BIN)/python bench/login.py
	$(BIN)/python bench/chat.py
	$(BIN)/python bench/capacity.py
	$(BIN)/python bench/push.py
	$(BIN)/python bench/payments.py
	$(BIN)/python bench/geocode.py

clean:
	rm -rf $(VENV) .web data
