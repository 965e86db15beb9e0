"""A path, key or name a caller sent, quoted back in a refusal, is bounded on every route.

attack38: the refusals quote what they refuse as they build it, often twice (the path and
where it resolves to). A 1 MB path made a 1 to 3 MB refusal on every route that takes a path
from outside: the memory tool (sent to the model again with every later turn), the extraction
sandbox (the SDK's can_use_tool answer), and the store's filename. The one bound is
spec/quoted.shown_problem, applied where each refusal type is made.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from anthropic.lib.tools import ToolError

from memdir_nb import MemdirMemoryTool, MemoryStore
from memdir_nb.extract.sandbox import can_use_tool
from memdir_nb.spec.quoted import PROBLEM_TEXT_MAX
from memdir_nb.storage.containment import PathTraversalError, validate_memory_write_path
from memdir_nb.storage.store_checks import MemoryValidationError

HUGE = "x" * 1_000_000
# Each a path that is refused before any file is touched, by a different check.
HOSTILE = {
    "null-byte": "a\x00" + HUGE,
    "percent-dot-dot": "%2e%2e/" + HUGE,
    "dot-dot": "../" + HUGE,
    "backslash": "..\\" + HUGE,
    "lone-surrogate": "\udcff" + HUGE,
    "many-folders": "a/" * 300_000 + "b.md",
}


def _tool_refusal(mem: Path, rel: str) -> str:
    tool = MemdirMemoryTool(mem)
    with pytest.raises(ToolError) as caught:
        tool.call({"command": "create", "path": "/memories/" + rel, "file_text": "x"})
    return str(caught.value)


def _sandbox_refusal(mem: Path, rel: str) -> str:
    verdict = can_use_tool("Write", {"file_path": f"{mem}/{rel}", "content": "x"}, mem)
    assert not verdict.allowed
    return verdict.reason


def _store_refusal(mem: Path, rel: str) -> str:
    store = MemoryStore(mem)
    with pytest.raises(MemoryValidationError) as caught:
        store.save(name="n", description="d", type="user", body="b", filename=rel)
    return str(caught.value)


def _containment_refusal(mem: Path, rel: str) -> str:
    with pytest.raises(PathTraversalError) as caught:
        validate_memory_write_path(f"{mem}/{rel}", str(mem))
    return str(caught.value)


ROUTES: dict[str, Callable[[Path, str], str]] = {
    "memory-tool": _tool_refusal,
    "extraction-sandbox": _sandbox_refusal,
    "store-save": _store_refusal,
    "containment": _containment_refusal,
}


@pytest.mark.parametrize("route", list(ROUTES))
@pytest.mark.parametrize("path", list(HOSTILE), ids=list(HOSTILE))
def test_a_refusal_of_a_huge_path_is_bounded_and_keeps_its_start_and_fix(
    tmp_path: Path, route: str, path: str
) -> None:
    mem = tmp_path / "mem"
    mem.mkdir()
    problem = ROUTES[route](mem, HOSTILE[path])
    assert len(problem) <= PROBLEM_TEXT_MAX + 60, len(problem)
    assert list(mem.iterdir()) in ([], [mem / ".memdir.lock"])  # nothing written


def test_a_refusal_of_a_short_path_is_whole(tmp_path: Path) -> None:
    mem = tmp_path / "mem"
    mem.mkdir()
    problem = _sandbox_refusal(mem, "../outside.md")
    assert "characters left out" not in problem and problem.endswith(".")


@pytest.mark.timeout(20)
@pytest.mark.parametrize("route", list(ROUTES))
def test_a_path_of_many_short_folders_is_refused_before_any_walk_up_its_ancestors(
    tmp_path: Path, route: str
) -> None:
    """attack38: 300,000 one-letter folders (600 KB) took the extraction sandbox 90 s: the
    containment check walked up every ancestor before it looked at the path's length."""
    mem = tmp_path / "mem"
    mem.mkdir()
    problem = ROUTES[route](mem, "a/" * 300_000 + "b.md")
    assert len(problem) <= PROBLEM_TEXT_MAX + 60


def _legal_long(prefix: str) -> str:
    """A relative path of some 3,900 bytes: within the system's limit, a legal path."""
    return prefix + "d/" * 1_950 + "x.md"


def test_a_legal_path_refused_as_escaping_is_quoted_whole_once_and_never_cut(
    tmp_path: Path,
) -> None:
    """polish38: 'Path raw resolves to resolved, outside base' quoted a legal 4 KB path twice
    (8 KB), so shown_problem cut its middle, where the resolved path ended and what was wrong
    began. The resolved path is now quoted whole once and the path as sent cut."""
    mem = tmp_path / "mem"
    mem.mkdir()
    raw = _legal_long("../")
    with pytest.raises(PathTraversalError) as caught:
        validate_memory_write_path(raw, mem)
    said = str(caught.value)
    assert caught.value.rule == "escapes-dir" and len(said) <= PROBLEM_TEXT_MAX
    assert repr(os.path.normpath(os.path.join(mem, raw))) in said
    assert said.endswith(f"outside the memory folder {str(mem) + os.sep!r}.")


def test_a_legal_path_through_an_escaping_symlink_is_quoted_whole_once_and_never_cut(
    tmp_path: Path,
) -> None:
    """polish38: the symlink-escape refusal quoted the path as sent and where it really
    points, each up to 4 KB: cut in the middle too. Where it points is quoted whole, once."""
    mem = tmp_path / "mem"
    mem.mkdir()
    (mem / "leak").symlink_to(tmp_path)
    raw = os.path.join(mem, _legal_long("leak/"))
    with pytest.raises(PathTraversalError) as caught:
        validate_memory_write_path(raw, mem)
    said = str(caught.value)
    assert caught.value.rule == "symlink-escape" and len(said) <= PROBLEM_TEXT_MAX
    assert repr(os.path.join(tmp_path, _legal_long(""))) in said
    assert said.endswith("Remove the symlink or write elsewhere.")
