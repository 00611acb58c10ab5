"""Shared fixtures."""

from __future__ import annotations

import pytest

from solo.journal import Journal
from solo.session import Session


@pytest.fixture
def session(tmp_path):
    """A session on a fresh journal, writing exports into the test's folder."""
    s = Session(Journal(tmp_path / "j.sqlite"), base_dir=tmp_path)
    yield s
    s.journal.close()
