# The two commands a newcomer needs: `make play` and `make test`.
# Both bootstrap a virtual environment in .venv on first use.
PYTHON ?= python3
SHELL := /bin/bash
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test dist bench bench-ab bench-chat bench-narration bench-story bench-scene bench-remote bench-speculate bench-first-screen bench-startup bench-linear clean

# Every core for compiling llama.cpp (Ninja already uses them all; a Makefile generator would not)
NPROC := $(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
# The compiler's progress lines ([12/140] Building CXX object ...) and pip's own steps, from pip's verbose log
PROGRESS := awk '/\[[0-9]+\/[0-9]+\]|^ *\*\*\* |^ *-- |^ *(Collecting|Downloading|Building wheel|Created wheel|Installing collected|Successfully)|[Ee]rror|ERROR/ { print; fflush() }'

$(STAMP): pyproject.toml
	@echo "solo: first run: setting up $(VENV) in two steps; nothing more is needed after this."
	@echo "solo: 1/2 the Python packages (under a minute when pip's cache is warm)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e '.[test,remote]'
	@echo "solo: 2/2 the local model's runtime: llama-cpp-python compiles llama.cpp from source, the long step:"
	@echo "solo:     about 8-14 minutes on a 2-core machine, on all $(NPROC) cores here (a wheel pip built before is reused"
	@echo "solo:     at once). Each compiled file prints a line [N/TOTAL]; the whole log goes to $(VENV)/build.log"
	set -o pipefail; CMAKE_BUILD_PARALLEL_LEVEL=$(NPROC) $(BIN)/python -m pip install --verbose -e '.[test,llm,remote]' \
		2>&1 | tee $(VENV)/build.log | $(PROGRESS) \
		|| { echo "solo: the install failed; the end of $(VENV)/build.log says why"; tail -n 25 $(VENV)/build.log; exit 1; }
	@echo "solo: ready."
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/solo --model bundled play

test: $(STAMP)
	MYPYPATH=tests/toy_system $(BIN)/mypy --strict solo tests/typing_systems.py
	$(BIN)/python -m pytest -q

# The release artefacts: dist/solo-VERSION.tar.gz and dist/solo-VERSION-py3-none-any.whl
dist: $(STAMP)
	$(BIN)/python -m build --sdist --wheel --outdir dist .

bench: $(STAMP)
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/scale.py 2000 20000

bench-ab: $(STAMP)
	$(BIN)/python bench/ab.py 4

bench-linear: $(STAMP)
	$(BIN)/python bench/linear.py 10000 1200

bench-narration: $(STAMP)
	$(BIN)/python bench/narration.py 50

bench-chat: $(STAMP)
	$(BIN)/python bench/narration.py --chat

bench-story: $(STAMP)
	$(BIN)/python bench/story_fit.py 200

bench-scene: $(STAMP)
	$(BIN)/python bench/scene_fit.py 320
	$(BIN)/python bench/scene_fit.py --batches bench/scene_passages.jsonl

bench-remote: $(STAMP)
	$(BIN)/python bench/remote.py 9

bench-speculate: $(STAMP)
	$(BIN)/python bench/speculate.py 5

bench-first-screen: $(STAMP)
	$(BIN)/python bench/first_screen.py 7

bench-startup: $(STAMP)
	$(BIN)/python bench/startup.py 21

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
