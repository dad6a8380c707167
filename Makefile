# The two commands a newcomer needs: `make run` and `make test`. Each sets itself up.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 3000
export REFLEX_USE_NPM := 1
export PATH := $(CURDIR)/$(BIN):$(PATH)

.PHONY: run test lint migrate seed chromium bench clean

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

chromium:
	@test -x /usr/bin/chromium || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache  # the layers of pyproject.toml [tool.importlinter]

test: $(STAMP) chromium lint
	$(BIN)/python -m tests.suite

bench: $(STAMP) chromium
	$(BIN)/python bench/page_load.py
	$(BIN)/python bench/lighthouse.py
	$(BIN)/python bench/search.py
	$(BIN)/python bench/matchfinder.py
	$(BIN)/python bench/moderation.py
	$(BIN)/python bench/login.py
	$(BIN)/python bench/chat.py
	$(BIN)/python bench/push.py
	$(BIN)/python bench/payments.py
	$(BIN)/python bench/geocode.py

clean:
	rm -rf $(VENV) .web data
