# Luza: `make run` sets everything up and serves the site; `make test` checks it all.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1:8000

.PHONY: run test setup messages lint clean

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --upgrade --quiet pip
	$(VENV)/bin/pip install --quiet -r requirements.txt
	touch $@

setup: $(VENV)/.installed
	$(PY) -m clubsite.compile_translations

run: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo_club
	$(PY) manage.py runserver $(HOST)

test: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/pytest

# Developers: refresh the .po catalogs after changing visible strings (needs GNU gettext).
messages: setup
	$(PY) manage.py makemessages -l ru -l en --ignore=.venv --ignore=staticfiles --ignore=bench

clean:
	rm -rf $(VENV) staticfiles
