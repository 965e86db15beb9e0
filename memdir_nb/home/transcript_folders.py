"""Where a Claude home keeps one project's transcripts, and how the folders are walked.

A project folder ``<claude home>/projects/<key>/`` holds each session's ``<session id>.jsonl``
and, beside it, a ``<session id>/`` folder whose ``subagents/`` holds the session's subagent
transcripts (``agent-<id>.jsonl``), with one more folder per Workflow run below it
(``subagents/workflows/wf_<run id>/agent-<id>.jsonl``); the project's ``memory/`` folder is
not a session's. The walk never follows a symlink and leaves out a folder it cannot list.
home.sessions lists and reads what it finds.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from memdir_nb.spec.constants import PROJECT_MEMORY_DIRNAME
from memdir_nb.storage.fsutil import is_folder

WORKFLOWS_DIRNAME = "workflows"  # <session id>/subagents/workflows/wf_<run id>/agent-*.jsonl


def project_transcripts(project: Path) -> Iterator[Path]:
    """Every transcript of one project folder, sorted: its sessions' `<id>.jsonl`, each followed
    by its subagents' and workflow agents' (the memory/ folder is not looked into)."""
    try:
        # <id>.jsonl before its <id>/ folder of subagents ("<id>" alone sorts first by name)
        entries = sorted(
            os.scandir(project),
            key=lambda e: (e.name.removesuffix(".jsonl"), not e.name.endswith(".jsonl")),
        )
    except OSError:
        return
    for entry in entries:
        if entry.name.endswith(".jsonl") and entry.is_file(follow_symlinks=False):
            yield Path(entry.path)
        elif entry.is_dir(follow_symlinks=False) and entry.name != PROJECT_MEMORY_DIRNAME:
            yield from _agent_files(Path(entry.path) / "subagents")


def _agent_files(sub: Path) -> Iterator[Path]:
    """A session's subagent transcripts: those in subagents/, then each workflow run's
    (subagents/workflows/wf_<run id>/), sorted; symlinked files and folders are left out, and
    so is a folder that cannot be looked at or listed (past PATH_MAX, or one `sudo claude`
    left that this user cannot enter: pathlib raised, and took the whole listing down)."""
    if not is_folder(sub, follow=False):
        return
    yield from _agent_files_in(sub)
    runs = sub / WORKFLOWS_DIRNAME
    if not is_folder(runs, follow=False):
        return
    for run in _sorted_entries(runs):
        if run.is_dir(follow_symlinks=False):
            yield from _agent_files_in(Path(run.path))


def _agent_files_in(folder: Path) -> Iterator[Path]:
    """The regular `agent-*.jsonl` files of one folder (no symlinks), sorted by name."""
    for entry in _sorted_entries(folder):
        name = entry.name
        if (
            name.startswith("agent-")
            and name.endswith(".jsonl")
            and entry.is_file(follow_symlinks=False)
        ):
            yield Path(entry.path)


def _sorted_entries(folder: Path) -> list[os.DirEntry[str]]:
    """The entries of a folder sorted by name; none when it cannot be listed."""
    try:
        with os.scandir(folder) as entries:
            return sorted(entries, key=lambda e: e.name)
    except OSError:
        return []


def owning_session(path: str | os.PathLike[str]) -> str | None:
    """The id of the session an agent transcript belongs to: the ``<session id>/`` folder its
    ``subagents/`` is in (a workflow run's agents' too); None for a session's own transcript.
    A snapshot of a home can hold that folder without ``<session id>.jsonl`` (real40: a
    published home left out three main transcripts over 4 MiB and kept their 163 agents)."""
    folder = Path(os.path.abspath(path)).parent
    if folder.parent.name == WORKFLOWS_DIRNAME and folder.parent.parent.name == "subagents":
        folder = folder.parent.parent
    return folder.parent.name if folder.name == "subagents" else None
