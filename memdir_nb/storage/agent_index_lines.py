"""The lines an agent's index takes from the root's MEMORY.md when it is created.

At an agent memory root holding an index of its own (storage.agent_root_index), an agent's
folder with no MEMORY.md yet owns its files: rebuild-index and the dream create its index
there. The person's line for such a file is in the root's index, which no agent loads; the
created index takes it, re-pointed, instead of a line generated from the file's description.
Kept apart from agent_root_index, which the scan process imports, so that process does not
load the index parser.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from memdir_nb.formats.index import parse_index
from memdir_nb.formats.index_lines import retarget_entry_line
from memdir_nb.formats.moved_files import MovedFiles


def carried_root_lines(
    root_text: str, agent: str, points_at: Callable[[str], str | None], files: Iterable[str]
) -> dict[str, str]:
    """The lines a person wrote in the root's MEMORY.md for an agent's files, for the index
    of that agent the rebuild or the dream creates: file (agent relative) -> the root's line
    with only its target re-pointed there (title, hook, list marker and link form as written),
    in the root's order, the first line for a file winning. Without it the new index got a
    line generated from the file's description, and the person's words stayed only in the
    root's line, which no agent loads (and which --drop-dangling or a dream sends to the trash).

    points_at: what a target of the root's index is (merge_index's rule: the root-relative
    file when it exists, '' when missing, None when not a memory of the root); files: the
    root's memory files (root relative), to follow a dangling line to the one file of its
    name (formats.moved_files.MovedFiles, as a rebuild re-points it). Only repointable entry
    lines are carried (a heading or prose naming a file stays the root's)."""
    out: dict[str, str] = {}
    moved: MovedFiles | None = None
    for entry in parse_index(root_text):
        found = points_at(entry.target) if entry.repointable else None
        if found == "":
            moved = moved or MovedFiles(files)
            found = moved.find(entry.target)
        head, sep, rel = (found or "").partition("/")
        if head != agent or not sep or rel in out:
            continue
        line = retarget_entry_line(entry.raw, rel)
        if line is not None:
            out[rel] = line
    return out
