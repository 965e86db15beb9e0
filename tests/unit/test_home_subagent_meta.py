"""A subagent's meta file beside its transcript: read bounded, never followed out, never fatal."""

from __future__ import annotations

import os
from pathlib import Path

from memdir_nb.home.subagent_meta import SHOWN_MAX_CHARS, SubagentMeta, subagent_meta
from memdir_nb.spec.constants import SUBAGENT_META_READ_MAX_BYTES


def _subagents(home: Path) -> Path:
    (folder,) = home.glob("projects/*/*/subagents")
    return folder


def test_the_meta_file_beside_a_subagents_transcript_gives_its_description_and_type(
    subagent_meta_home: Path,
) -> None:
    # real38: Claude Code 2.1 writes agent-<id>.meta.json beside agent-<id>.jsonl
    transcript = _subagents(subagent_meta_home) / "agent-a51e0c7d2b9f4e183.jsonl"
    meta = subagent_meta(transcript)
    assert meta == SubagentMeta("Read the kiln controller logs", "Explore")
    assert meta.shown == "Read the kiln controller logs [Explore]"


def test_a_missing_or_malformed_meta_file_gives_none(subagent_meta_home: Path) -> None:
    folder = _subagents(subagent_meta_home)
    assert subagent_meta(folder / "agent-a9b3f0e1c2d4a5b67.jsonl") is None  # cut JSON
    (folder / "agent-a51e0c7d2b9f4e183.meta.json").unlink()
    assert subagent_meta(folder / "agent-a51e0c7d2b9f4e183.jsonl") is None
    for text in ('["a list"]', '{"description": 7, "agentType": null}', "{}", '"only text"'):
        (folder / "agent-a51e0c7d2b9f4e183.meta.json").write_text(text)
        assert subagent_meta(folder / "agent-a51e0c7d2b9f4e183.jsonl") is None, text
    assert subagent_meta(folder / "notes.txt") is None  # no transcript: no meta file to look for


def test_a_meta_file_that_is_a_link_or_past_its_cap_is_not_read(
    subagent_meta_home: Path, tmp_path: Path
) -> None:
    folder = _subagents(subagent_meta_home)
    meta = folder / "agent-a51e0c7d2b9f4e183.meta.json"
    outside = tmp_path / "elsewhere.json"
    outside.write_text('{"description": "read from outside the home"}')
    meta.unlink()
    meta.symlink_to(outside)
    assert subagent_meta(folder / "agent-a51e0c7d2b9f4e183.jsonl") is None
    meta.unlink()
    pad = " " * SUBAGENT_META_READ_MAX_BYTES
    meta.write_text('{"description": "long"' + pad + "}")
    assert subagent_meta(folder / "agent-a51e0c7d2b9f4e183.jsonl") is None
    meta.unlink()
    os.mkfifo(meta)  # a FIFO named like one is refused, never waited on
    assert subagent_meta(folder / "agent-a51e0c7d2b9f4e183.jsonl") is None


def test_a_description_is_shown_on_one_line_and_cut() -> None:
    meta = SubagentMeta("Check the\nfiring curve " + "x" * 200, "")
    assert "\n" not in meta.shown and len(meta.shown) == SHOWN_MAX_CHARS
    assert meta.shown.endswith("\u2026")
