"""storage.name_kinds: what a file's name makes it in a walk (memory, repository file, refused)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memdir_nb.storage.name_kinds import (
    MEMORY,
    NAME_REFUSAL,
    OTHER,
    REFUSED,
    REPOSITORY,
    file_name_kind,
    is_repository_file,
)
from memdir_nb.storage.scan import scan_memory_dir


def test_a_lower_case_memory_named_like_a_readme_or_licence_variant_is_a_memory(
    tmp_path: Path,
) -> None:
    # links34 found a published feedback memory named readme-style-system.md that the scan,
    # lint and recall all passed over as a translation of the README
    header = "---\nname: {0}\ndescription: d\ntype: feedback\n---\nbody\n"
    memories = ["readme-style-system.md", "license-audit-notes.md", "licence-review.md"]
    repository = ["README.md", "README-zh.md", "readme-pt-br.md", "LICENSE-MIT.md"]
    repository += ["LICENSE-APACHE-2.0.md", "Licence.md", "CHANGELOG.md"]
    for name in memories + repository:
        (tmp_path / name).write_text(header.format(name[:-3]), encoding="utf-8")
    report = scan_memory_dir(tmp_path)
    assert sorted(h.filename for h in report.headers) == sorted(memories)
    assert sorted(report.ignored) == sorted(repository)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("README.md", True),
        ("readme.md", True),
        ("README-zh-CN.md", True),
        ("readme-zh_Hans.md", True),
        ("LICENCE-PENDING.md", True),
        ("readme-style-system.md", False),
        ("license-mit.md", False),
        ("readmes.md", False),
        ("README_notes.md", False),
    ],
)
def test_a_repository_file_is_a_known_stem_or_a_variant_written_as_repositories_write_them(
    name: str, expected: bool
) -> None:
    assert is_repository_file(name) is expected


def test_a_name_is_a_repository_file_only_at_the_top_level() -> None:
    assert file_name_kind("LICENSE-MIT.md", True) == (REPOSITORY, None)
    assert file_name_kind("LICENSE-MIT.md", False) == (MEMORY, None)
    assert file_name_kind("notes.txt", True) == (OTHER, None)
    kind, reason = file_name_kind("bad\x07name.md", True)
    assert kind == REFUSED and reason is not None and reason.startswith(NAME_REFUSAL)
