"""home/transcript_folders.py: the transcripts of one project folder, walked without links.

Listings of whole homes (kinds, turns, dates) are in test_home_sessions.py.
"""

from __future__ import annotations

import os
from pathlib import Path

from memdir_nb.home.transcript_folders import WORKFLOWS_DIRNAME, project_transcripts


def _touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"type":"user"}\n', encoding="utf-8")
    return path


def test_each_session_comes_before_its_subagents_and_their_workflow_runs(tmp_path: Path) -> None:
    project = tmp_path / "projects" / "-home-me-repo"
    sub = project / "s1" / "subagents"
    expected = [
        _touch(project / "s1.jsonl"),
        _touch(sub / "agent-a.jsonl"),
        _touch(sub / "agent-b.jsonl"),
        _touch(sub / WORKFLOWS_DIRNAME / "wf_1" / "agent-c.jsonl"),
        _touch(project / "s2.jsonl"),
    ]
    _touch(sub / WORKFLOWS_DIRNAME / "wf_1" / "journal.jsonl")  # the run's own log
    _touch(project / "memory" / "subagents" / "agent-x.jsonl")  # the memory dir: no session's
    assert list(project_transcripts(project)) == expected


def test_links_and_folders_that_cannot_be_listed_are_left_out(tmp_path: Path) -> None:
    project = tmp_path / "projects" / "-home-me-repo"
    real = _touch(project / "s1.jsonl")
    os.symlink(real, project / "s0.jsonl")
    (project / "s2").mkdir()
    os.symlink(tmp_path, project / "s2" / "subagents")
    assert list(project_transcripts(project)) == [real]
    assert list(project_transcripts(tmp_path / "missing")) == []
