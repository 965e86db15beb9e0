"""benchmarks/compare_header_readers.py: every header read with and without the YAML-free reader."""

from __future__ import annotations

from pathlib import Path

import compare_header_readers
import pytest

from memdir_nb.formats import frontmatter
from memdir_nb.formats.frontmatter_fast import fast_parse

HEADERS = {
    "user_plain.md": "---\nname: Plain\ndescription: one line\ntype: user\n---\nbody\n",
    "project_nested.md": (
        "---\nname: Nested\ndescription: d\nmetadata:\n  type: project\n"
        "  modified: 2026-03-01T09:30:00.250Z\n---\nbody\n"
    ),
    "reference_tags.md": "---\nname: T\ndescription: d\ntype: reference\ntags: [ci, cd]\n---\n",
    "feedback_colon.md": "---\nname: C\ndescription: Steps: run it\ntype: feedback\n---\n",
    "user_typed.md": "---\nname: Typed\ntype: user\ncount: 12\n---\n",
    "notes.md": "no header at all\n",
    # the closing fence past the 30-line window: the parser recovers it as unclosed, so must this
    "user_long.md": "---\nname: Long\n" + "note: more\n" * 40 + "---\nbody\n",
}


def _dir(root: Path) -> Path:
    for name, text in HEADERS.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_every_route_agrees_and_is_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert compare_header_readers.main([str(_dir(tmp_path))]) == 0
    summary, verdict = capsys.readouterr().out.splitlines()[-2:]
    assert summary == "7 files: 3 fast, 1 refused without YAML, 1 yaml, 1 no header, 1 unclosed"
    assert verdict == "0 differ"


def test_a_reader_that_disagrees_with_yaml_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def wrong(lines: list[str]) -> object:
        out = fast_parse(lines)
        return {**out, "name": "not what YAML reads"} if isinstance(out, dict) else out

    monkeypatch.setattr(frontmatter, "fast_parse", wrong)
    assert compare_header_readers.main([str(_dir(tmp_path))]) == 1
    out = capsys.readouterr().out
    assert f"DIFFERS {tmp_path / 'user_plain.md'}: name, fields" in out
    assert "3 differ" in out
