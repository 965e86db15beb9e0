"""A moved home's former project key: the one rule for which other key names a memory dir.

A home copied to another machine (or a CLAUDE_CONFIG_DIR inside a project that moved) files a
session under the key of the folder it is in now, while the session's own tool calls still
name ``…/projects/<old key>/memory/…``: the key of the folder it ran in, as its records say.
Those paths are the dir beside the transcript. The replay (reports.replay) and the extractor's
scheduler (extract.scheduler) both read a session's memory writes by this rule.
"""

from __future__ import annotations

import os
from pathlib import Path

from memdir_nb.formats.session_model import ENVELOPE_FACTS, Session
from memdir_nb.home.moved_keys import former_project_keys
from memdir_nb.home.sessions import project_folder
from memdir_nb.home.transcript_head import read_transcript_head
from memdir_nb.spec.constants import PROJECTS_DIRNAME

_CWD = dict(ENVELOPE_FACTS)["cwd"]  # the record key Session.cwd is read from


def former_keys(session: Session, memory_dir: str | os.PathLike[str]) -> tuple[str, ...]:
    """The keys the session's records name for memory_dir, when its project moved: the key its
    recorded working folder had, for the dir beside its transcript's project folder when that
    folder now has another name; the key a folder above it had (its git root's: a session run
    in a subfolder), for that folder's dir under its key now (home.moved_keys). Empty for any
    other dir (given by hand, another project's), for a transcript outside a home's
    ``projects/<key>/`` and for no working folder or a relative one."""
    return former_keys_at(session.path, session.cwd, memory_dir)


def former_keys_at(
    transcript: str | os.PathLike[str], cwd: str | None, memory_dir: str | os.PathLike[str]
) -> tuple[str, ...]:
    """former_keys for a transcript path and the working folder its records name: the old
    keys (home.moved_keys) whose key now is memory_dir's project folder, when that folder is
    in the transcript's projects folder."""
    if not os.fspath(transcript):
        return ()
    folder = project_folder(transcript)
    project = Path(os.path.abspath(memory_dir)).parent
    if folder.parent.name != PROJECTS_DIRNAME or project.parent != folder.parent:
        return ()  # a loose transcript beside a loose dir is no home's project folder
    return former_project_keys(cwd, folder.name, project.name)


def former_keys_of_file(
    transcript: str | os.PathLike[str], memory_dir: str | os.PathLike[str]
) -> tuple[str, ...]:
    """former_keys for a transcript file not read whole: its working folder is the first one
    its head names (head_cwd), as the session model takes the first. A file whose head names
    none, or that cannot be read, has none."""
    return former_keys_at(transcript, head_cwd(transcript), memory_dir)


def head_cwd(path: str | os.PathLike[str]) -> str | None:
    """The first working folder a transcript's records name in its first
    SESSION_HEAD_READ_MAX_BYTES (home.transcript_head: the line the cap cuts is not parsed);
    None when none does or the file cannot be read. Claude Code writes it on every message
    record, so the head holds it unless the file begins with a long run of records that carry
    none."""
    try:
        head = read_transcript_head(path)
    except OSError:
        return None
    for record in head.records():
        value = record.get(_CWD)
        if isinstance(value, str):
            return value
    return None
