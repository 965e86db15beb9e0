"""Which `[[name]]` links a forget, delete or rename leaves naming no memory, and saying so.

A memory answers to its `name:`, its file's stem, the stem with hyphens and both without the
type; a link in a team memory sees team memories only (formats.wikilinks). Removing a memory, renaming its file or
moving it between scopes can leave links in other memories that found it and now find nothing;
by Claude Code's late-2026 prompt such a link reads as a memory still to write, so a later
session may write the removed memory again.

No route here rewrites the linking files: they are other memories, which the person or agent
did not name. The route reports them instead (the memory tool's answer, `MemoryStore.warnings`
and `last_links_left`, the editor's status), with the names and where they are, so whoever
removed the memory can point or drop the links (docs/claude_code_2026.md, thirty-third session).

A `LinkSnapshot` is every memory's names and links, read once before the step; the step's moves
applied to it give the memories and names after, so the files are read once, and a link that
already found nothing before the step (a memory still to write) is not blamed on it.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from memdir_nb.formats.names import is_memory_filename
from memdir_nb.formats.wikilinks import (
    LinkTargets,
    file_link_target,
    file_link_uses,
    file_stem,
    link_key,
    link_uses,
    names_linking,
    shown_file_link,
    shown_link,
)
from memdir_nb.spec.constants import MEMORY_FILE_READ_MAX_BYTES
from memdir_nb.spec.taxonomy import scope_of_path
from memdir_nb.spec.text import first_few, plural, terminal_line
from memdir_nb.storage.access import ContainedReader, ReadResult
from memdir_nb.storage.headers import head_of_read, header_from_read, header_of_text
from memdir_nb.storage.listing import list_memory_files

SHOWN_LINKERS = 5  # linking memories a report names before "and N more"


@dataclass(frozen=True)
class LinkLeft:
    """A memory that still links names no memory answers to after the step."""

    rel: str  # the linking memory, memory-dir relative, as it is after the step
    names: tuple[str, ...]  # the names it links that found a memory before and none now
    new_names: tuple[str, ...]  # for each, the moved memory's name of the same form ("" if none)
    # Markdown links (`[text](other.md)`, targets as written) that found a memory file before and
    # none now, and for each the moved file's path from the linking memory ("" if removed)
    files: tuple[str, ...] = ()
    new_files: tuple[str, ...] = ()


@dataclass(frozen=True)
class LinksLeft:
    """The links a step left naming nothing; empty when it left none."""

    items: tuple[LinkLeft, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.items)

    def described(self, prefix: str = "") -> str:
        """The linking memories (each path after prefix) and their links, one line:
        `a.md ([[x]] -> [[y]]), b.md ([[x]])`."""
        shown = []
        for item in self.items:
            links = ", ".join(
                [
                    shown_link(n) + (f" -> {shown_link(new)}" if new else "")
                    for n, new in zip(item.names, item.new_names, strict=True)
                ]
                + [
                    shown_file_link(t) + (f" -> {shown_file_link(new)}" if new else "")
                    for t, new in zip(item.files, item.new_files, strict=True)
                ]
            )
            shown.append(f"{terminal_line(prefix + item.rel)} ({links})")
        return first_few(shown, SHOWN_LINKERS)

    def message(self, what: str, prefix: str = "") -> str:
        """One line for a person or an agent: which memories still link what (e.g. "team/x.md,
        which was forgotten,"; their paths after prefix), and the fix; nothing was rewritten."""
        n = len(self.items)
        pointed = any(new for i in self.items for new in (*i.new_names, *i.new_files))
        return (
            f"{plural(n, 'memory', 'memories')} still {'link' if n > 1 else 'links'} {what} by "
            f"a name no memory answers to now: {self.described(prefix)}. They were left as written; "
            "point each link at the memory that holds this now"
            + (" (its new name is shown after ->)" if pointed else "")
            + ", or drop it"
        )


class _Memory:
    """One memory as the snapshot keeps it: where, the names it links, and its header's bytes
    (parsed for its `name:` only when a step's links need it)."""

    __slots__ = ("_head", "_name", "_parsed", "file_links", "links", "rel")

    def __init__(
        self, rel: str, head: ReadResult | None, links: frozenset[str], file_links: frozenset[str]
    ) -> None:
        self.rel, self._head, self.links, self.file_links = rel, head, links, file_links
        self._name: str | None = None
        self._parsed = False

    @property
    def name(self) -> str | None:
        """Its header's `name:` (None: it has none), parsed on first use."""
        if not self._parsed:
            head = self._head
            self._name, self._parsed = (header_from_read(head).name if head else None), True
        return self._name

    @classmethod
    def of_text(cls, rel: str, text: str) -> _Memory:
        """A memory a step writes new at rel: its `name:` and links as text holds them."""
        links = frozenset(n for _, n in link_uses(text))
        out = cls(rel, None, links, frozenset(t for _, t in file_link_uses(text)))
        out._name, out._parsed = header_of_text(text).name, True
        return out

    def named(self, name: str | None) -> _Memory:
        """This memory as it was with that `name:` (None: none), its links as they are."""
        out = _Memory(self.rel, self._head, self.links, self.file_links)
        out._name, out._parsed = name, True
        return out

    def rewritten(self, text: str) -> _Memory:
        """This memory, its `name:` as it was, keeping only the links text still holds (a link
        a rewrite drops or points elsewhere is not left naming nothing by it)."""
        links = self.links & {n for _, n in link_uses(text)}
        files = self.file_links & {t for _, t in file_link_uses(text)}
        out = _Memory(self.rel, self._head, links, files)
        out._name, out._parsed = self.name, True
        return out

    def forms(self, rel: str | None = None, name: str | None = None) -> tuple[str, ...]:
        """The names it answers to (formats.wikilinks.names_linking), at rel and with the
        `name:` name if given."""
        stem = file_stem(rel or self.rel)
        return names_linking(name or self.name or stem, stem)


class LinkSnapshot:
    """Every memory's names and links, read once (bounded, contained) before a step.

    Most steps touch a memory nothing links: only the moved memories' headers are parsed to
    tell, and every header only when some memory links one of their names (a forget on a dir of
    2,000 memories: docs/claude_code_2026.md, thirty-third session)."""

    def __init__(self, memories: list[_Memory]) -> None:
        self.memories = memories

    @classmethod
    def read(cls, memory_dir: str | os.PathLike[str]) -> LinkSnapshot:
        """The memories of memory_dir as they are now; a file that cannot be read is left out."""
        listing = list_memory_files(memory_dir)
        out: list[_Memory] = []
        with ContainedReader(listing.root, real_root=listing.real_root) as reader:
            for listed in listing.files:
                try:
                    got = reader.read(listed.open_path, MEMORY_FILE_READ_MAX_BYTES)
                except OSError:  # replaced by a FIFO, a link out, ... since the listing
                    continue
                links: frozenset[str] = frozenset()
                if b"[[" in got.data:
                    links = frozenset(n for _, n in link_uses(got.text))
                files: frozenset[str] = frozenset()
                if b"](" in got.data:
                    files = frozenset(t for _, t in file_link_uses(got.text))
                out.append(_Memory(listed.rel, head_of_read(got), links, files))
        return cls(out)

    def left_dangling(
        self, moves: Mapping[str, str | None], names: Mapping[str, str | None] | None = None
    ) -> LinksLeft:
        """The links that found a memory before and find none once each rel in moves is at its
        new rel (None: removed) and each rel in names has that `name:` (None: none, so it
        answers to its stem). Linking memories are named where they are after the moves."""
        names = names or {}
        after_rel = {m.rel: moves.get(m.rel, m.rel) for m in self.memories}
        by_file = _file_links_left(self.memories, after_rel) if moves else {}
        by_name = self._names_left(moves, names, after_rel)
        items = []
        for rel in sorted(by_name.keys() | by_file.keys()):
            lost, new = by_name.get(rel, ((), ()))
            files = by_file.get(rel, [])
            items.append(
                LinkLeft(rel, lost, new, tuple(f for f, _ in files), tuple(n for _, n in files))
            )
        return LinksLeft(tuple(items))

    def _names_left(
        self,
        moves: Mapping[str, str | None],
        names: Mapping[str, str | None],
        after_rel: Mapping[str, str | None],
    ) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
        """left_dangling's `[[name]]` links: linking memory (after the step) -> the names it
        links that found a memory before and none now, and the moved memory's new names."""
        moved = [m for m in self.memories if m.rel in moves or m.rel in names]
        forms = {link_key(f) for m in moved for f in m.forms()}
        linking = [m for m in self.memories if any(link_key(n) in forms for n in m.links)]
        if not linking:
            return {}
        before = LinkTargets((m.rel, scope_of_path(m.rel), m.name) for m in self.memories)
        after = LinkTargets(
            (rel, scope_of_path(rel), names.get(m.rel, m.name))
            for m in self.memories
            if (rel := after_rel[m.rel]) is not None
        )
        renamed = _renamed_forms(moved, after_rel, names)
        out: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        for m in linking:
            rel = after_rel[m.rel]
            if rel is None:
                continue
            old_scope, new_scope = scope_of_path(m.rel), scope_of_path(rel)
            lost = sorted(
                n for n in m.links if before.finds(n, old_scope) and not after.finds(n, new_scope)
            )
            if lost:
                out[rel] = (tuple(lost), tuple(renamed.get(link_key(n), "") for n in lost))
        return out


def _file_links_left(
    memories: list[_Memory], after_rel: Mapping[str, str | None]
) -> dict[str, list[tuple[str, str]]]:
    """left_dangling's Markdown links (`[text](other.md)`, resolved from the linking file's
    folder before the step and after it): linking memory (after the step) -> (target as
    written, the moved file's path from it, "" if removed) for each that found a memory file
    before and finds none now. A file the step did not touch is never blamed."""
    before = set(after_rel)
    after = {rel for rel in after_rel.values() if rel is not None}
    out: dict[str, list[tuple[str, str]]] = {}
    for m in memories:
        new_rel = after_rel[m.rel]
        if new_rel is None or not m.file_links:
            continue
        for written in sorted(m.file_links):
            was = file_link_target(m.rel, written)
            if was is None or was not in before or was == m.rel:
                continue
            now = file_link_target(new_rel, written)
            if now is not None and now in after:
                continue
            moved_to = after_rel[was]
            shown = (
                posixpath.relpath(moved_to, posixpath.dirname(new_rel) or ".") if moved_to else ""
            )
            out.setdefault(new_rel, []).append((written, shown))
    return out


def links_left_by_edit(
    memory_dir: str | os.PathLike[str], rel: str, before: str, after: str
) -> LinksLeft:
    """The links an edit of rel (its text before and after, already written) left naming
    nothing by changing or removing its `name:`; empty, with nothing read, when the name is
    unchanged. As a rename's: `MemoryStore.update(name=...)` reports the same (security.md §42)."""
    old, new = header_of_text(before).name, header_of_text(after).name
    if old == new:
        return LinksLeft()
    snapshot = LinkSnapshot.read(memory_dir)  # as it is now, this memory given its old name
    memories = [m.named(old) if m.rel == rel else m for m in snapshot.memories]
    return LinkSnapshot(memories).left_dangling({}, {rel: new})


def links_left_by_rewrites(
    memory_dir: str | os.PathLike[str],
    before: Mapping[str, str | None],
    after: Mapping[str, str | None],
    steps: Collection[str] | None = None,
    snapshot: LinkSnapshot | None = None,
) -> LinksLeft:
    """The links that rewrites not yet written (rel -> its text now, before, and the text
    proposed, after; None: absent or removed) leave naming nothing, by a new or dropped `name:`
    or a removal of the rels in steps (None: every rel in after). A rewritten memory keeps only
    the links its new text holds; a file the rewrites create answers to its names, and one that
    takes the `name:` of a file they remove is that file moved (a rename by file name: its new
    names are shown). Empty, with nothing read, when no step changes a `name:` or removes a
    file (a dream's Write and retire: dream.claude; a plan applied: dream.link_notes).
    snapshot: the dir as LinkSnapshot.read gives it, when the caller asks more than once."""
    names: dict[str, str | None] = {}
    moves: dict[str, str | None] = {}
    for rel in after if steps is None else steps:
        old, new = before.get(rel), after.get(rel)
        if old is None:
            continue
        if new is None:
            moves[rel] = None
        elif (name := header_of_text(new).name) != header_of_text(old).name:
            names[rel] = name
    if not names and not moves:
        return LinksLeft()
    snapshot = snapshot or LinkSnapshot.read(memory_dir)
    made = {
        r: t
        for r, t in after.items()
        if t is not None and before.get(r) is None and is_memory_filename(posixpath.basename(r))
    }
    moved = _moved_by_name(before, moves, made)
    texts = {**after, **{old: made[new] for old, new in moved.items()}}
    memories = [
        m.rewritten(text) if (text := texts.get(m.rel)) is not None else m
        for m in snapshot.memories
    ]
    memories += [_Memory.of_text(r, t) for r, t in made.items() if r not in moved.values()]
    return LinkSnapshot(memories).left_dangling({**moves, **moved}, names)


def _moved_by_name(
    before: Mapping[str, str | None], removed: Collection[str], made: Mapping[str, str]
) -> dict[str, str]:
    """Removed rel -> the made rel holding the same `name:` (one each; a name two made files
    share moves neither): a file renamed by writing it anew and retiring the old one."""
    by_name: dict[str, list[str]] = {}
    for rel, text in made.items():
        if (name := header_of_text(text).name) is not None:
            by_name.setdefault(name, []).append(rel)
    out: dict[str, str] = {}
    for rel in sorted(removed):
        name = header_of_text(before.get(rel) or "").name
        targets = by_name.get(name or "", [])
        if name is not None and len(targets) == 1 and targets[0] not in out.values():
            out[rel] = targets[0]
    return out


def _renamed_forms(
    moved: list[_Memory], after_rel: Mapping[str, str | None], names: Mapping[str, str | None]
) -> dict[str, str]:
    """Old name (case-folded) -> the moved memory's name of the same form after the step."""
    out: dict[str, str] = {}
    for m in moved:
        new_rel = after_rel[m.rel]
        if new_rel is not None:
            new_name = names.get(m.rel, m.name)
            for a, b in zip(
                m.forms(), m.forms(new_rel, new_name or file_stem(new_rel)), strict=True
            ):
                if a != b:
                    out.setdefault(link_key(a), b)
    return out
