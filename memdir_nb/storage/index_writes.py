"""The store's edits of one pointer line in a scope's MEMORY.md, inside a transaction.

A save writes the line from the memory's name and description; an update rewrites it when the
name or description changed; a promote or demote moves it to the other scope's index; a forget
removes it. A line whose hook cites where its fact comes from (IndexEntry.cited, real44) is a
person's record: no step rewrites it, and a move carries it to the other index as written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memdir_nb.formats import index
from memdir_nb.storage.transaction import StoreTransaction

__all__ = ["IndexWrite", "cited_line", "put_index_line", "remove_index_line"]


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
) -> index.IndexCapVerdict | None:
    """Drop plain's line; the index's cap verdict after, or None when nothing changed."""
    current = tx.read_text(entry_path) or ""
    if not current:
        return None
    updated = index.remove_index_entry(current, plain)
    if updated == current:
        return None
    tx.write_edit(entry_path, current, updated)
    return index.index_cap_verdict(updated)
