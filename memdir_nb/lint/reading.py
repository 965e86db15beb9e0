"""Reading for lint: one memory file (contained, bounded) and both MEMORY.md indexes, resolved."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import replace

from memdir_nb.formats.frontmatter import normalise_newlines, parse_frontmatter
from memdir_nb.formats.index import IndexEntry, parse_index, strip_entrypoint_extras
from memdir_nb.formats.index_lines import wiki_entry_memory
from memdir_nb.formats.index_mentions import index_mentions, nested_target
from memdir_nb.formats.manifest import MemoryHeader, memory_time_ms
from memdir_nb.formats.transcript_paths import other_project_memory_key
from memdir_nb.formats.wikilinks import LinkTargets
from memdir_nb.lint.findings import MemoryText, ScopeIndex
from memdir_nb.spec.constants import ENTRYPOINT_NAME, MEMORY_FILE_READ_MAX_BYTES, TEAM_DIRNAME
from memdir_nb.spec.text import as_lf, is_not_text
from memdir_nb.storage.access import ContainedReader, ReadRefused, ReadResult
from memdir_nb.storage.containment import unreadable_reason
from memdir_nb.storage.headers import header_from_read
from memdir_nb.storage.index_files import IndexTargets, load_entrypoint
from memdir_nb.storage.listing import ListedFile, SkippedFile, refusal_reason

# Each memory file is read up to this many bytes (through memdir_nb.storage.access): enough for any
# sane memory, bounded for a 10 MB file someone dropped in the folder.
MAX_READ_BYTES = MEMORY_FILE_READ_MAX_BYTES


def read_memory_text(
    memory_dir: str | os.PathLike[str],
    header: MemoryHeader,
    *,
    real_root: str | None = None,
    reader: ContainedReader | None = None,
) -> MemoryText:
    """Read one scanned memory file (contained, bounded) and parse it; ReadRefused/OSError propagate."""
    if reader is None:
        reader = ContainedReader(memory_dir, real_root=real_root)
    res = reader.read(header.file_path, MAX_READ_BYTES)
    return memory_text_from_read(header.filename, header.scope, res)


def memory_text_from_read(rel: str, scope: str, res: ReadResult) -> MemoryText:
    """A memory file already read (at most MAX_READ_BYTES), decoded and split for lint."""
    st, data, capped = res.stat, res.data, res.truncated
    binary = is_not_text(data)  # the one rule (spec.text), as the rebuild and the dream read it
    text, invalid = res.text, not res.valid_utf8  # a character cut by the cap is not invalid
    text = normalise_newlines(text)  # BOM off, line ends by the one rule (spec.text.as_lf)
    fm, body = parse_frontmatter(text)
    head_lines = text[: len(text) - len(body)].count("\n") if body else text.count("\n")
    return MemoryText(
        rel=rel,
        scope=scope,
        size=st.st_size,
        mtime_ms=memory_time_ms(st.st_mtime_ns / 1_000_000, fm.modified_ms),
        text=text,
        capped=capped,
        binary=binary,
        invalid_utf8=invalid,
        header=fm,
        body=body,
        body_line=head_lines + 1,
    )


def read_listed(
    reader: ContainedReader, listed: ListedFile
) -> tuple[MemoryText, MemoryHeader] | SkippedFile:
    """One read of a listed file: lint's view of it and the header a scan would give, or why not.

    The file is read once (at most MAX_READ_BYTES); its scan header comes from the same bytes
    (storage.headers.header_from_read), so lint, analysis and the dream planner never read a
    file twice. A file the reader refuses is passed over with the reason a scan gives.
    """
    try:
        res = reader.read(listed.open_path, MAX_READ_BYTES)
    except ReadRefused as exc:  # replaced by a FIFO, a link out, ... since the listing
        return SkippedFile(listed.rel, refusal_reason(exc))
    except OSError as exc:
        return SkippedFile(listed.rel, unreadable_reason(exc, listed.open_path))
    mem = memory_text_from_read(listed.rel, listed.scope, res)
    fm = header_from_read(res, mem.header)
    header = MemoryHeader(
        filename=listed.rel,
        file_path=listed.path,
        mtime_ms=res.stat.st_mtime_ns / 1_000_000,
        name=fm.name,
        description=fm.description,
        type=fm.type,
        malformed=fm.malformed,
    )
    return mem, header


def read_scope_indexes(memory_dir: str | os.PathLike[str]) -> list[ScopeIndex]:
    """Parse MEMORY.md (and team/MEMORY.md when team/ exists) and resolve every entry."""
    root = os.path.abspath(os.fspath(memory_dir))
    scopes = [("private", root, ENTRYPOINT_NAME)]
    if os.path.isdir(os.path.join(root, TEAM_DIRNAME)):
        scopes.append(
            ("team", os.path.join(root, TEAM_DIRNAME), f"{TEAM_DIRNAME}/{ENTRYPOINT_NAME}")
        )
    out = []
    for scope, scope_dir, rel in scopes:
        loaded = load_entrypoint(scope_dir, memory_dir=root)
        text, exists = loaded.text, loaded.exists
        # An entry in the frontmatter or a block-level HTML comment is never loaded (2.1.211+).
        loaded_lines = strip_entrypoint_extras(text).entry_lines
        entries = [e for e in parse_index(text) if e.line_no in loaded_lines]
        referenced: set[str] = set()
        dangling: list[IndexEntry] = []
        outside: list[IndexEntry] = []
        other_projects: dict[int, str] = {}
        targets = IndexTargets(scope_dir, memory_dir=root)
        for entry in entries:
            found = targets.locate(entry.target)
            if found is None:
                continue
            if not found.inside:
                outside.append(entry)
                key = other_project_memory_key(found.path, root)
                if key is not None:
                    other_projects[entry.line_no] = key
            elif found.is_file:
                referenced.add(os.path.relpath(found.path, root).replace(os.sep, "/"))
            elif (nested := _nested_file(targets, text, entry)) is not None:
                referenced.add(os.path.relpath(nested, root).replace(os.sep, "/"))
            else:
                dangling.append(entry)
        # a memory file a line names past its entry (or in prose) is listed; it never dangles
        for no, target in index_mentions(text):
            found = targets.locate(target) if no in loaded_lines else None
            if found is not None and found.inside and found.is_file:
                referenced.add(os.path.relpath(found.path, root).replace(os.sep, "/"))
        out.append(
            ScopeIndex(
                scope,
                rel,
                exists,
                text,
                entries,
                frozenset(referenced),
                dangling,
                outside,
                loaded.note() if not exists else "",
                valid_utf8=loaded.valid_utf8,
                other_projects=other_projects,
            )
        )
    return out


def _nested_file(targets: IndexTargets, text: str, entry: IndexEntry) -> str | None:
    """The path of the file a bare name listed under a folder's line names there
    (formats.index_mentions.nested_target), or None."""
    if entry.linked or not entry.raw[:1].isspace():
        return None
    nested = nested_target(as_lf(text).split("\n"), entry.line_no, entry.target)
    found = targets.locate(nested) if nested is not None else None
    return found.path if found is not None and found.inside and found.is_file else None


def resolve_wiki_entries(
    indexes: list[ScopeIndex], headers: Iterable[MemoryHeader]
) -> list[ScopeIndex] | None:
    """indexes with each dangling `[[name]]` line that names a memory of its scope by `name:`
    (formats.index_lines.wiki_entry_memory) listing that memory instead; None when no line does.
    read_scope_indexes looks only for the file of the link's stem, before any header is read."""
    if not any(e.wiki for ix in indexes for e in ix.dangling):
        return None
    names = LinkTargets((h.filename, h.scope, h.name) for h in headers)
    out: list[ScopeIndex] = []
    changed = False
    for ix in indexes:
        found: dict[int, str] = {}
        for e in ix.dangling:
            rel = wiki_entry_memory(e, names, ix.scope)
            if rel is not None and _in_scope(rel, ix):
                found[e.line_no] = rel
        if found:
            changed = True
            ix = replace(
                ix,
                referenced=ix.referenced | frozenset(found.values()),
                dangling=[e for e in ix.dangling if e.line_no not in found],
            )
        out.append(ix)
    return out if changed else None


def _in_scope(rel: str, index: ScopeIndex) -> bool:
    """Whether a memory-dir-relative memory is one index lists: team/ files for the team index."""
    return rel.startswith(f"{TEAM_DIRNAME}/") == (index.scope == "team")
