"""The taxonomy's scope rules: one function says a user memory never goes to team."""

from __future__ import annotations

from pathlib import Path

import pytest

from memdir_nb.spec.taxonomy import MemoryType, parse_memory_type, scope_of_path, scope_violation
from memdir_nb.storage.scan import scan_memory_files
from tests.support import write_memory

NOW = 1_770_000_000_000.0


@pytest.mark.parametrize("mtype", list(MemoryType))
def test_only_a_user_memory_breaks_the_team_scope_rule(mtype: MemoryType) -> None:
    assert scope_violation(mtype, "private") is None
    assert (scope_violation(mtype, "team") is not None) == (mtype is MemoryType.USER)


def test_an_unknown_type_breaks_no_scope_rule() -> None:
    assert scope_violation("opinion", "team") is None and scope_violation(None, "team") is None


@pytest.mark.parametrize(
    ("rel", "scope"),
    [
        ("x.md", "private"),
        ("team/x.md", "team"),
        ("team/sub/x.md", "team"),
        ("teams/x.md", "private"),
    ],
)
def test_scope_of_path_is_team_only_under_team(rel: str, scope: str) -> None:
    assert scope_of_path(rel) == scope


def test_a_scanned_header_knows_its_scope(tmp_path: Path) -> None:
    for rel in ("a.md", "team/b.md"):
        write_memory(tmp_path, rel, name=rel, description="d", now_ms=NOW)
    scopes = {h.filename: h.scope for h in scan_memory_files(tmp_path)}
    assert scopes == {"a.md": "private", "team/b.md": "team"}


@pytest.mark.parametrize(
    "raw",
    [
        "user",
        " Feedback ",
        "PROJECT\t",
        "reference",
        "",
        "users",
        "proj",
        "ｕｓｅｒ",
        "İuser",
        None,
        3,
    ],
)
def test_a_type_value_is_read_as_the_enum_reads_it(raw: object) -> None:
    # parse_memory_type looks the value up in a table: the same answer as MemoryType(value).
    try:
        want = MemoryType(raw.strip().lower()) if isinstance(raw, str) else None
    except ValueError:
        want = None
    assert parse_memory_type(raw) is want
