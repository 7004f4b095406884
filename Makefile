# The two commands: `make run` starts the site, `make test` runs the whole suite.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# Links in e-mail start with SITE_URL: `make run` points them where it serves (a
# wildcard HOST at this machine's loopback, an IPv6 one in brackets) unless SITE_URL
# is set, in the environment or on the command line.
LINK_HOST = $(if $(filter 0.0.0.0 ::,$(HOST)),127.0.0.1,$(if $(findstring :,$(HOST)),[$(HOST)],$(HOST)))
SITE_URL ?= http://$(LINK_HOST):$(PORT)
# Tests always run on real services; these are the defaults when nothing is set.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/bloqueio
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0
PYTEST_ARGS ?=
# pytest-xdist workers for `make test` (tests/worker_env.py keeps each one's Redis names
# apart; pytest-django gives each its own test database). 0 runs in one process.
TEST_WORKERS ?= 2

.PHONY: run test lint check bench-engine clean messages translations

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check --upgrade pip

# Reinstall whenever pyproject.toml changes. pip's and setuptools' chatter (warning
# boxes of the build backend) goes to $(VENV)/install.log, shown only when it fails.
QUIET_PIP = $(PY) -m pip install -q --disable-pip-version-check
$(VENV)/.installed-run: pyproject.toml | $(PY)
	@echo "Installing the dependencies (log: $(VENV)/install.log)"
	@$(QUIET_PIP) -e . >$(VENV)/install.log 2>&1 || { cat $(VENV)/install.log; exit 1; }
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	@echo "Installing the dependencies (log: $(VENV)/install.log)"
	@$(QUIET_PIP) -e '.[test]' >$(VENV)/install.log 2>&1 || { cat $(VENV)/install.log; exit 1; }
	@touch $@ $(VENV)/.installed-run

# Translations (docs/i18n.md). `make messages` extracts every marked string into the
# catalogues (locale/pt_BR/LC_MESSAGES/django.po and djangojs.po), keeping what is
# translated; `translations` compiles them to .mo, again only when a .po changed.
MAKEMESSAGES = $(PY) manage.py makemessages -l pt_BR --add-location=file \
	-i .venv -i staticfiles -i tests -i bench -i node_modules

messages: $(VENV)/.installed-run
	$(MAKEMESSAGES)
	$(MAKEMESSAGES) -d djangojs

translations:
	@sh deploy/compile_messages.sh

# The whole product: the web server (bloqueio_site.serve) and the background worker (clocks, matchmaking), stopped
# together (Ctrl-C reaches both; if either exits, the other is stopped).
# Quiet by default: one line to say where the site is, then one line per real event
# (the worker logs idle ticks only at LOG_LEVEL=DEBUG).
run: $(VENV)/.installed-run translations
	@$(PY) manage.py migrate --noinput -v 0
	@$(PY) manage.py collectstatic --noinput -v 0
	@echo "Bloqueio Online is starting at http://$(HOST):$(PORT)/ with its background worker"
	@export SITE_URL='$(SITE_URL)'; \
	$(PY) manage.py run_worker & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	$(PY) -m bloqueio_site.serve $(HOST) $(PORT)

test: $(VENV)/.installed-test translations
	DATABASE_URL="$${DATABASE_URL:-$(TEST_DATABASE_URL)}" \
	REDIS_URL="$${REDIS_URL:-$(TEST_REDIS_URL)}" \
	CHANNEL_LAYER_PREFIX="$${CHANNEL_LAYER_PREFIX:-bloqueio-test}" \
	$(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

# lint-imports: the apps import downward only ([tool.importlinter] in pyproject.toml).
lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

check: $(VENV)/.installed-run translations
	$(PY) manage.py check

bench-engine: $(VENV)/.installed-run
	$(PY) bench/engine_bench.py

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 .pytest_cache
	rm -f locale/*/LC_MESSAGES/*.mo
