"""What a transcript's `attachment` records say: the memory indexes the CLI loaded into the
context, the memories its own recall surfaced, and a file that changed outside the agent's
own tools; and the `system` note of the memory files the CLI's background agents saved.

The CLI writes these records beside the conversation (`type: "attachment"`); they are not
turns, but they tell which memory dir a session used and which memory files something else
edited while it ran. docs/sessions.md lists the shapes.
"""

from __future__ import annotations

from collections.abc import Iterable

from memdir_nb.spec.constants import PATH_MAX_BYTES, RECORD_MEMORY_PATHS_MAX


def loaded_memory_indexes(attachment: object) -> list[str]:
    """The auto-memory indexes an `instructions` attachment says the CLI loaded, else [].

    2.1.25x notes the instruction files it put in the context as an attachment of type
    `instructions`: each file a `path` with its `type` (`User`, `Project`, ... and `AutoMem`
    for the memory dir's MEMORY.md). That path is the memory dir the session used, even when
    it is not the one beside the transcript's folder (a git root above the folder it ran in).
    """
    if not isinstance(attachment, dict) or attachment.get("type") != "instructions":
        return []
    files = attachment.get("files")
    return [
        f["path"]
        for f in (files if isinstance(files, list) else [])
        if isinstance(f, dict) and f.get("type") == "AutoMem" and isinstance(f.get("path"), str)
    ]


OUTSIDE_EDIT = "edited_text_file"  # the attachment (and pseudo tool) of a file changed outside


def outside_edit_path(attachment: object) -> str | None:
    """The file an `edited_text_file` attachment names, else None.

    The CLI writes one when a file the agent read earlier changed on disk through anything
    but the agent's own file tools (another session of the project, an editor, a background
    agent, a shell command): its `filename` and a `snippet` of the changed lines, which the
    model is shown. 2.1.2xx transcripts carry them for memory files (MEMORY.md edited by
    another session working in the same project).
    """
    if not isinstance(attachment, dict) or attachment.get("type") != OUTSIDE_EDIT:
        return None
    name = attachment.get("filename")
    return name if isinstance(name, str) and name and len(name) <= PATH_MAX_BYTES else None


RECALLED = "relevant_memories"  # the attachment the CLI's own recall writes on a turn


def recalled_memory_paths(attachment: object) -> list[str]:
    """The memory files a `relevant_memories` attachment says the CLI's recall surfaced, else [].

    When its per-turn recall is on (2.1.2xx, behind a rollout flag or `CLAUDE_MEMORY_STORES`),
    the CLI picks up to five memories for the prompt and writes them on the turn as
    `memories: [{path, content, mtimeMs}]`, each body cut to 200 lines / 4 KB. The CLI counts
    what it surfaced, and the bytes it spent, from these records, so a memory named here is not
    offered again later in the session. Each path once, at most RECORD_MEMORY_PATHS_MAX.
    """
    if not isinstance(attachment, dict) or attachment.get("type") != RECALLED:
        return []
    memories = attachment.get("memories")
    items = memories if isinstance(memories, list) else []
    return _record_paths(m.get("path") if isinstance(m, dict) else None for m in items)


MEMORY_SAVED = "memory_saved"  # the system record (and pseudo tool) of a background memory save


def saved_memory_paths(record: object) -> list[str]:
    """The files a `system` record of subtype `memory_saved` says were written, else [].

    After a turn, the CLI's background memory extractor (and auto-dream, with `verb:
    "Improved"`) writes memory files in an agent of its own whose calls go to no transcript; the
    main session gets one record, `writtenPaths` (and `teamCount`), shown as "Saved N
    memories". It is the only trace in the transcript that those files changed. Each path once,
    at most RECORD_MEMORY_PATHS_MAX.
    """
    if not isinstance(record, dict) or record.get("subtype") != MEMORY_SAVED:
        return []
    written = record.get("writtenPaths")
    return _record_paths(written if isinstance(written, list) else [])


def _record_paths(paths: Iterable[object]) -> list[str]:
    """The paths one record names: text of a path's length, each once, at most
    RECORD_MEMORY_PATHS_MAX (the rest are not read)."""
    found: list[str] = []
    for path in paths:
        if isinstance(path, str) and path and len(path) <= PATH_MAX_BYTES and path not in found:
            found.append(path)
            if len(found) >= RECORD_MEMORY_PATHS_MAX:
                break
    return found
