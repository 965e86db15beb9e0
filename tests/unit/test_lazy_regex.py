"""memdir_nb.spec.lazy_regex: a module-level regex compiled at its first use, once."""

from __future__ import annotations

import re

from memdir_nb.spec.lazy_regex import compiled_on_first_use


def test_a_regex_compiled_on_first_use_is_compiled_at_its_first_call_and_only_then() -> None:
    pattern = r"scancold-(\d+)-first-use"
    re.purge()  # re.compile's own cache would hide a compile made at creation
    lazy = compiled_on_first_use(pattern, re.IGNORECASE)
    assert lazy.cache_info().currsize == 0  # type: ignore[attr-defined]  # functools.cache's wrapper
    compiled = lazy()
    assert compiled is lazy()  # one compiled pattern per process
    assert compiled.pattern == pattern and compiled.flags & re.IGNORECASE
    assert compiled.fullmatch("SCANCOLD-7-FIRST-USE") is not None
