"""The store's edits of one pointer line in a scope's MEMORY.md, inside a transaction.

A save writes the line from the memory's name and description; an update rewrites it when the
name or description changed; a promote or demote moves it to the other scope's index; a forget
removes it. A line whose hook cites where its fact comes from (IndexEntry.cited, real44) is a
person's record: no step rewrites it, and a move carries it to the other index as written.

What a forget drops is kept beside the copy it trashes, `.trash/<stamp>-x.md.index-line`
(storage.targets.kept_lines_name), byte for byte; a restore of that copy puts those lines back
as written when the index has none for the memory by then (dream.forgotten). A copy with no
such file (forgotten by an older version, or a memory the index did not list) gets the line
save writes, as before (left45).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memdir_nb.formats import index
from memdir_nb.formats.index_edits import append_entry_lines, entry_lines_for
from memdir_nb.spec.constants import INDEX_READ_MAX_BYTES, NAME_MAX_BYTES
from memdir_nb.storage.targets import kept_lines_name
from memdir_nb.storage.transaction import StoreTransaction

__all__ = [
    "IndexWrite",
    "cited_line",
    "keep_dropped_lines",
    "kept_lines",
    "put_index_line",
    "put_kept_lines",
    "remove_index_line",
]


@dataclass(frozen=True)
class IndexWrite:
    """What putting a line did: written (and the index's cap verdict after), or left alone
    because a line was there ("kept") or a line there cites a source ("kept-cited")."""

    outcome: Literal["written", "kept", "kept-cited"]
    verdict: index.IndexCapVerdict | None = None


def _entries_for(text: str, plain: str) -> list[index.IndexEntry]:
    return [e for e in index.parse_index(text) if e.target == plain]


def cited_line(tx: StoreTransaction, entry_path: Path, plain: str) -> str | None:
    """The line pointing at plain as written, when it cites a source and is a link a move may
    carry (IndexEntry.repointable); else None."""
    for entry in _entries_for(tx.read_text(entry_path) or "", plain):
        if entry.cited and entry.repointable:
            return entry.raw
    return None


def put_index_line(
    tx: StoreTransaction, entry_path: Path, plain: str, line: str, *, keep_existing: bool
) -> IndexWrite:
    """Point the index at plain with line; with keep_existing a line already there is left as
    written, and a line there that cites a source always is."""
    read = tx.read_text(entry_path)
    current = read or ""
    existing = _entries_for(current, plain)
    if existing and keep_existing:
        return IndexWrite("kept")
    if any(e.cited for e in existing) and line not in (e.raw for e in existing):
        return IndexWrite("kept-cited")
    updated = index.upsert_index_entry(current, line, plain)
    tx.write_edit(entry_path, read, updated)  # a person's edit meanwhile is kept
    return IndexWrite("written", index.index_cap_verdict(updated))


def remove_index_line(
    tx: StoreTransaction, entry_path: Path, plain: str
) -> tuple[index.IndexCapVerdict | None, list[str]]:
    """Drop plain's line(s): the index's cap verdict after (None when nothing changed), and
    the lines dropped as written (for keep_dropped_lines)."""
    current = tx.read_text(entry_path) or ""
    if not current:
        return None, []
    updated = index.remove_index_entry(current, plain)
    if updated == current:
        return None, []
    tx.write_edit(entry_path, current, updated)
    return index.index_cap_verdict(updated), entry_lines_for(current, plain)


def keep_dropped_lines(tx: StoreTransaction, trash_path: Path, lines: list[str]) -> bool:
    """Keep the index lines a forget dropped beside the copy it moved to trash_path, one a
    line, as written; False when there were none, or the kept file's name would be longer than
    a name may be (the forget goes on: a restore writes the line from the header)."""
    name = kept_lines_name(trash_path.name)
    if not lines or len(name.encode("utf-8", "surrogateescape")) > NAME_MAX_BYTES:
        return False
    tx.write(trash_path.with_name(name), "".join(f"{line}\n" for line in lines), create_only=True)
    return True


def kept_lines(tx: StoreTransaction, trash_rel: str, plain: str) -> tuple[list[str], str | None]:
    """The index lines a forget kept beside the copy trash_rel ('.trash/<stamp>-x.md') and,
    when a file is there but cannot be used, why: not UTF-8, too large, or a line that is not
    an entry for plain (a kept file edited by hand). ([], None): no file, an older forget's."""
    rel = trash_rel.rsplit("/", 1)
    path = "/".join([*rel[:-1], kept_lines_name(rel[-1])])
    try:
        text = tx.read_text(path, max_bytes=INDEX_READ_MAX_BYTES)
    except (OSError, ValueError) as exc:
        return [], f"{path} cannot be read ({exc})"
    if text is None:
        return [], None
    lines = text.removesuffix("\n").split("\n")
    if not text or entry_lines_for(text, plain) != lines:
        return [], f"{path} holds a line that is not an index entry for {plain}"
    return lines, None


def put_kept_lines(
    tx: StoreTransaction, entry_path: Path, plain: str, lines: list[str]
) -> IndexWrite:
    """Put the lines a forget kept back at the index's end as written, unless a line for plain
    is there by now (a person's, or save's since: "kept")."""
    read = tx.read_text(entry_path)
    current = read or ""
    if _entries_for(current, plain):
        return IndexWrite("kept")
    updated = append_entry_lines(current, lines)
    tx.write_edit(entry_path, read, updated)
    return IndexWrite("written", index.index_cap_verdict(updated))
