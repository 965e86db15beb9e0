"""The memory browser's view-model: one row per memory, filters, and a selected memory's detail."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.clock import resolve_now_ms
from memdir_nb.formats.frontmatter import parse_frontmatter
from memdir_nb.formats.index import index_mentions, parse_index
from memdir_nb.formats.index_lines import wiki_entry_memory
from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.formats.wikilinks import LinkTargets
from memdir_nb.lint.description_audit import DescriptionAudit, audit_description
from memdir_nb.lint.reading import read_memory_text
from memdir_nb.spec.constants import MODIFIED_MTIME_TOLERANCE_MS, TEAM_DIRNAME
from memdir_nb.spec.freshness import (
    is_stale_age,
    memory_age,
    memory_age_days,
    memory_freshness_note,
    memory_header,
)
from memdir_nb.spec.shown_names import terminal_name
from memdir_nb.spec.taxonomy import Scope
from memdir_nb.spec.text import as_lf, terminal_safe
from memdir_nb.storage.access import ContainedReader, ReadRefused, read_contained
from memdir_nb.storage.containment import absolute_dir
from memdir_nb.storage.index_files import (
    IndexTargets,
    load_entrypoint,
    nested_index_lines,
    read_entrypoint,
)
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.ui.views.common import STALE_AFTER_DAYS, ProgressFn, index_title

MAX_PREVIEW_BYTES = 64 * 1024  # the detail pane shows at most this much of a file

__all__ = [
    "MAX_PREVIEW_BYTES",
    "MemoryDetail",
    "MemoryRow",
    "audit_row",
    "filter_rows",
    "freshness_badge",
    "index_problems",
    "memory_detail",
    "memory_rows",
    "rows_summary",
]


@dataclass(frozen=True)
class MemoryRow:
    """One memory as the browser's table shows it."""

    filename: str  # relative to the memory dir, e.g. "team/project_x.md"
    file_path: str
    scope: Scope
    type: str  # the type's value, or "" when missing/unknown
    name: str
    description: str
    mtime_ms: float
    age_days: int
    age: str  # "today" | "yesterday" | "N days ago"
    badge: str  # "fresh" | "aging" | "stale"
    index_line: str | None  # the MEMORY.md line that points at it, None when unindexed
    malformed: bool
    # the description audit's verdict: "covered" | "partly" | "misses-body" ("" when unread)
    audit: str = ""
    audit_note: str = ""  # e.g. "misses-body: 82% of the body unseen (12 sentences)"
    # The memory's time (mtime_ms) is its `modified:` time when the file has one; both sources:
    file_mtime_ms: float | None = None
    modified_ms: float | None = None

    @property
    def times_disagree(self) -> bool:
        """True when the file's mtime and its `modified:` time are over a minute apart."""
        if self.modified_ms is None or self.file_mtime_ms is None:
            return False
        return abs(self.file_mtime_ms - self.modified_ms) > MODIFIED_MTIME_TOLERANCE_MS

    def time_note(self, now_ms: float) -> str:
        """'' when the times agree; else what the file's mtime says beside the `modified:` time."""
        if not self.times_disagree or self.file_mtime_ms is None:
            return ""
        return (
            f"modified: says {self.age}; the file's mtime says "
            f"{memory_age(self.file_mtime_ms, now_ms)} (restored or copied?)"
        )


def freshness_badge(age_days: int, *, stale_after_days: int = STALE_AFTER_DAYS) -> str:
    """'fresh' (recalled without a caveat), 'aging' (recalled with one) or 'stale' (old enough to doubt)."""
    if age_days <= 1:
        return "fresh"
    return "stale" if is_stale_age(age_days, stale_after_days) else "aging"


def audit_row(reader: ContainedReader, root: Path, header: MemoryHeader) -> DescriptionAudit | None:
    """The description audit of one scanned memory (bounded read), None when it cannot be read."""
    try:
        mem = read_memory_text(root, header, reader=reader)
    except (ReadRefused, OSError):
        return None
    if mem.binary:
        return None
    return audit_description(mem.header.name, mem.header.description, mem.body, mem.rel)


def _index_lines(memory_dir: Path, headers: list[MemoryHeader]) -> dict[str, str]:
    """Relative filename -> its index line, from both scopes' MEMORY.md (first line wins)."""

    lines: dict[str, str] = {}
    names: LinkTargets | None = None  # made at the first `[[name]]` line with no file
    for scope_dir, scope in ((memory_dir, "private"), (memory_dir / TEAM_DIRNAME, "team")):
        prefix = "" if scope == "private" else TEAM_DIRNAME + "/"
        targets = IndexTargets(scope_dir, memory_dir=memory_dir)
        text = read_entrypoint(scope_dir, memory_dir=memory_dir)
        raw = as_lf(text).split("\n")  # the lines index_mentions numbers
        # an entry's line first, then a line that names the file besides its entry (lint
        # counts both as listed: formats.index_mentions.line_mentions)
        entries = parse_index(text)
        named = [(e.target, e.raw) for e in entries]
        named += [(target, raw[no - 1]) for no, target in index_mentions(text)]
        for target, line in named:
            # resolved as lint and the rebuild resolve it: `c.md#part`, and `memory/b.md`
            # written from the repository root, name files of this scope too; a line pointing
            # out of its scope (or through a link leading out) names none of them
            found = targets.locate(target)
            if found is not None and found.inside:
                rel = os.path.relpath(found.path, scope_dir).replace(os.sep, "/")
                lines.setdefault(prefix + rel, line.strip())
        # a `[[name]]` line with no file of that stem lists the memory its name finds, as lint,
        # the rebuild and the dream read it (formats.index_lines.wiki_entry_memory)
        for e in entries:
            if e.wiki and not ((at := targets.locate(e.target)) is not None and at.is_file):
                names = names or LinkTargets((h.filename, h.scope, h.name) for h in headers)
                by_name = wiki_entry_memory(e, names, scope)
                # a memory of this index's own scope, as lint lists it (team/ files for team)
                if by_name is not None and by_name.startswith(TEAM_DIRNAME + "/") == bool(prefix):
                    lines.setdefault(by_name, e.raw.strip())
    return lines


def index_problems(memory_dir: str | os.PathLike[str]) -> dict[str, str]:
    """Each scope's reason its MEMORY.md was not (wholly) read, as the contained reader gives it.

    Only scopes with a reason are listed: a FIFO or a link out of the dir counts as missing (lint
    reports it as index-refused), and a file past the read cap is read only in part.
    """

    root = Path(os.path.abspath(os.fspath(memory_dir)))
    found: dict[str, str] = {}
    for scope, scope_dir in (("private", root), ("team", root / TEAM_DIRNAME)):
        note = load_entrypoint(scope_dir, memory_dir=root).note()
        if note:
            found[scope] = note
    return found


def skipped_files(memory_dir: str | os.PathLike[str]) -> dict[str, str]:
    """Files the scan passed over (a refused name, a FIFO, a link out...) -> why, shown safely.

    One bad file never takes the view down: it is left out of the rows and listed here, its
    name with every control, bidi or non-UTF-8 character shown as a visible escape, and so
    that it reads back (spec.shown_names.terminal_name): keyed by terminal_safe, a file
    `bad<0xff>.md` and one named `bad\\udcff.md` were one key, and one of them was not
    listed at all (attack36).
    """
    report = scan_memory_dir(absolute_dir(memory_dir), limit=0)
    return {
        terminal_name(s.path): terminal_safe(s.reason, keep_newlines=False) for s in report.skipped
    }


def memory_rows(
    memory_dir: str | os.PathLike[str],
    *,
    now_ms: float | None = None,
    stale_after_days: int = STALE_AFTER_DAYS,
    progress: ProgressFn | None = None,
) -> list[MemoryRow]:
    """Every memory in the dir (no 200 cap), newest first, with scope, age, badge and index line."""

    now = resolve_now_ms(now_ms)
    root = Path(os.path.abspath(os.fspath(memory_dir)))
    headers = scan_memory_dir(root, limit=None).headers
    indexed = _index_lines(root, headers)
    # a file its own sub-folder's MEMORY.md lists (an agent's memory dir) is indexed there, as lint says
    nested = nested_index_lines(root, [h.filename for h in headers if h.filename not in indexed])
    reader = ContainedReader(root)
    rows: list[MemoryRow] = []
    for i, h in enumerate(headers, start=1):
        days = memory_age_days(h.mtime_ms, now)
        audit = audit_row(reader, root, h)
        rows.append(
            MemoryRow(
                filename=h.filename,
                file_path=h.file_path,
                scope=h.scope,
                type=h.type.value if h.type is not None else "",
                name=h.name or "",
                description=h.description or "",
                mtime_ms=h.mtime_ms,
                age_days=days,
                age=memory_age(h.mtime_ms, now),
                badge=freshness_badge(days, stale_after_days=stale_after_days),
                index_line=indexed.get(h.filename, nested.get(h.filename)),
                malformed=h.malformed,
                audit=audit.verdict if audit else "",
                audit_note=audit.summary if audit else "",
                file_mtime_ms=h.file_mtime_ms,
                modified_ms=h.modified_ms,
            )
        )
        if progress is not None:
            progress(i, len(headers))
    return rows


def filter_rows(
    rows: Iterable[MemoryRow],
    *,
    types: Iterable[str] | None = None,
    scope: str | None = None,
    max_age_days: int | None = None,
    min_age_days: int | None = None,
    badge: str | None = None,
    text: str = "",
) -> list[MemoryRow]:
    """Rows matching every given filter (None/empty means no filter); text matches name, description, file."""
    wanted_types = None if types is None else {str(t) for t in types}
    needle = text.strip().casefold()
    out = []
    for r in rows:
        if wanted_types is not None and r.type not in wanted_types:
            continue
        if scope and r.scope != scope:
            continue
        if max_age_days is not None and r.age_days > max_age_days:
            continue
        if min_age_days is not None and r.age_days < min_age_days:
            continue
        if badge and r.badge != badge:
            continue
        if needle and needle not in f"{r.name}\n{r.description}\n{r.filename}".casefold():
            continue
        out.append(r)
    return out


@dataclass(frozen=True)
class MemoryDetail:
    """What selecting a row shows: the file, its index line and its freshness note."""

    row: MemoryRow
    text: str  # the file's text (at most MAX_PREVIEW_BYTES)
    truncated: bool
    index_line: str  # the line, or a sentence saying it is missing
    freshness_note: str  # the <system-reminder> note recall would add, or a sentence saying none
    header: str  # the header line recall would put above it
    audit_note: str = ""  # the description audit's verdict line
    # body sentences the name and description never mention ("line N: sentence"), most salient
    unseen: tuple[str, ...] = ()


def memory_detail(row: MemoryRow, *, now_ms: float | None = None) -> MemoryDetail:
    """Read one memory (bounded) and describe how recall would present it."""

    path = row.file_path
    root = path[: -len(row.filename)] if path.endswith(row.filename) else os.path.dirname(path)
    try:
        res = read_contained(root, path, MAX_PREVIEW_BYTES)
        text, truncated = res.text, res.truncated
    except ReadRefused as exc:  # a FIFO or a link out planted since the scan: say so, read nothing
        text, truncated = f"(not shown: {exc})", False
    note = memory_freshness_note(row.mtime_ms, now_ms)
    index_file = index_title(row.scope)
    fm, body = parse_frontmatter(text)
    audit = audit_description(fm.name, fm.description, body, row.filename)
    body_line = text[: len(text) - len(body)].count("\n") if body else 0
    return MemoryDetail(
        row=row,
        text=text,
        truncated=truncated,
        index_line=row.index_line
        or f"(not listed in {index_file}: recall can still find it, "
        "but the index the model reads every session does not point to it)",
        freshness_note=note or f"(none: saved {row.age}, so recall adds no staleness caveat)",
        header=memory_header(row.file_path, row.mtime_ms, now_ms),
        audit_note=audit.summary,
        unseen=tuple(f"line {body_line + u.line}: {u.text}" for u in audit.unseen),
    )


def rows_summary(
    rows: Iterable[MemoryRow], visible: Iterable[MemoryRow], stale_after_days: int
) -> tuple[int, int, int, int]:
    """(shown, total, team, stale) counts for the browser's summary line."""
    all_rows = list(rows)
    return (
        len(list(visible)),
        len(all_rows),
        sum(r.scope == "team" for r in all_rows),
        sum(r.badge == "stale" for r in all_rows),
    )
