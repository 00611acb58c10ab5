# The two commands a newcomer needs: `make play` and `make test`.
# Both bootstrap a virtual environment in .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test bench bench-ab bench-chat bench-narration bench-story bench-remote bench-speculate bench-first-screen clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,llm,remote]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/solo --model bundled play

test: $(STAMP)
	$(BIN)/mypy --strict solo
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/scale.py 2000 20000

bench-ab: $(STAMP)
	$(BIN)/python bench/ab.py 4

bench-narration: $(STAMP)
	$(BIN)/python bench/narration.py 50

bench-chat: $(STAMP)
	$(BIN)/python bench/narration.py --chat

bench-story: $(STAMP)
	$(BIN)/python bench/story_fit.py 200

bench-remote: $(STAMP)
	$(BIN)/python bench/remote.py 9

bench-speculate: $(STAMP)
	$(BIN)/python bench/speculate.py 5

bench-first-screen: $(STAMP)
	$(BIN)/python bench/first_screen.py 7

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
