"""Fixtures shared by every test suite."""

from __future__ import annotations

import os

import pytest

# --- branch semantic: the semantic selector's vector cache -----------------------------------


@pytest.fixture(autouse=True, scope="session")
def semantic_cache_dir(tmp_path_factory: pytest.TempPathFactory):
    """Point the default vector cache at a per-run folder, never the developer's ~/.cache."""
    path = tmp_path_factory.mktemp("memdir-nb-cache")
    old = os.environ.get("MEMDIR_NB_CACHE_DIR")
    os.environ["MEMDIR_NB_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("MEMDIR_NB_CACHE_DIR", None)
    else:
        os.environ["MEMDIR_NB_CACHE_DIR"] = old
