# Luza: `make run` sets everything up and serves the site; `make test` checks it all.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1:8000
# The address the demo's printed sign-in links point to: where `make run` serves, unless set.
DEMO_SITE ?= http://$(HOST)

.PHONY: run test setup setup-runtime messages lint clean

# Exactly what CI tested: every package pinned with its hashes (requirements*.txt are generated
# by pip-compile from requirements*.in; see docs/development.md, "Dependencies").
$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --upgrade --quiet pip

$(VENV)/.installed-runtime: requirements.txt | $(VENV)/bin/python
	$(VENV)/bin/pip install --quiet --require-hashes -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements-dev.txt | $(VENV)/bin/python
	$(VENV)/bin/pip install --quiet --require-hashes -r requirements-dev.txt
	touch $@

# The server: runtime packages only.
setup-runtime: $(VENV)/.installed-runtime
	$(PY) -m clubsite.compile_translations

# A developer's: the runtime plus the tests and checks (pytest, ruff, Playwright, hypothesis…).
setup: $(VENV)/.installed-dev setup-runtime

# Served by uvicorn (ASGI): the boards' pushed streams are coroutines, not threads. Beside it,
# the tables' lights' controller (it ends at once, saying so, when MQTT_URL is not set).
run: setup-runtime
	$(PY) manage.py migrate --noinput
	DEMO_SITE=$(DEMO_SITE) $(PY) manage.py load_demo_club
	$(PY) manage.py lights & trap 'kill $$! 2>/dev/null' EXIT INT TERM; \
	$(VENV)/bin/uvicorn clubsite.asgi:application --lifespan off --timeout-graceful-shutdown 3 \
		--host $(word 1,$(subst :, ,$(HOST))) --port $(word 2,$(subst :, ,$(HOST)))

test: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports  # the layers of docs/architecture.md (.importlinter)
	$(VENV)/bin/pytest

# Developers: refresh the .po catalogs after changing visible strings (needs GNU gettext).
messages: setup
	$(PY) manage.py makemessages -l ru -l en --add-location=file --ignore=.venv --ignore=staticfiles --ignore=bench

clean:
	rm -rf $(VENV) staticfiles
