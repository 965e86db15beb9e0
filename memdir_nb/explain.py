"""Display-oriented views of a memory dir: the data the widgets (and notebooks) show.

Nothing here decides policy: every rule comes from the core modules (scan, index, age, store,
team_paths, secret_scan, types, recall). This module arranges their answers for display:
the rows of the memory table, a save form's checks and previews, each index's use of its two
budgets, freshness histogram data, a key's path-security checks step by step, and the recall
playground's manifest and request. It writes nothing, except `plant_example_symlink`, which
creates one demonstration symlink inside team/ when a user explicitly asks for it.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from memdir_nb.types import MEMORY_TYPES, TYPE_GUIDANCE, MemoryType, Scope, parse_memory_type

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.recall.base import Selector
    from memdir_nb.recall.session import InjectedMemory, RecallSession
    from memdir_nb.scan import MemoryHeader
    from memdir_nb.secret_scan import SecretFinding

TEAM_DIRNAME = "team"
STALE_AFTER_DAYS = 90
MAX_PREVIEW_BYTES = 64 * 1024
ProgressFn = Callable[[int, int], None]

__all__ = [
    "AGE_BINS",
    "ATTACK_EXAMPLES",
    "STALE_AFTER_DAYS",
    "AttackExample",
    "CheckStep",
    "DraftCheck",
    "DroppedLine",
    "FreshnessData",
    "IndexBudget",
    "MemoryDetail",
    "MemoryRow",
    "PromotionVerdict",
    "RecallPreview",
    "RelativeDate",
    "ScopeRule",
    "absolute_date_for",
    "check_draft",
    "check_team_key",
    "compose_body",
    "filter_rows",
    "find_relative_dates",
    "freshness_badge",
    "freshness_data",
    "index_budget",
    "is_demo_dir",
    "memory_detail",
    "memory_rows",
    "plant_example_symlink",
    "promotion_verdict",
    "recall_preview",
    "request_json",
    "scope_rules",
]


def _now(now_ms: float | None) -> float:
    return time.time() * 1000.0 if now_ms is None else float(now_ms)


def _scope_of(filename: str) -> Scope:
    return "team" if filename.startswith(TEAM_DIRNAME + "/") else "private"


# ---------------------------------------------------------------------------- memory table


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


def freshness_badge(age_days: int, *, stale_after_days: int = STALE_AFTER_DAYS) -> str:
    """'fresh' (recalled without a caveat), 'aging' (recalled with one) or 'stale' (old enough to doubt)."""
    if age_days <= 1:
        return "fresh"
    return "stale" if age_days >= stale_after_days else "aging"


def _index_lines(memory_dir: Path) -> dict[str, str]:
    """Relative filename -> its index line, from both scopes' MEMORY.md (first line wins)."""
    from memdir_nb.index import parse_index, read_entrypoint

    lines: dict[str, str] = {}
    for scope_dir, prefix in ((memory_dir, ""), (memory_dir / TEAM_DIRNAME, TEAM_DIRNAME + "/")):
        for entry in parse_index(read_entrypoint(scope_dir, memory_dir=memory_dir)):
            lines.setdefault(prefix + entry.target, entry.raw.strip())
    return lines


def memory_rows(
    memory_dir: str | os.PathLike[str],
    *,
    now_ms: float | None = None,
    stale_after_days: int = STALE_AFTER_DAYS,
    progress: ProgressFn | None = None,
) -> list[MemoryRow]:
    """Every memory in the dir (no 200 cap), newest first, with scope, age, badge and index line."""
    from memdir_nb.age import memory_age, memory_age_days
    from memdir_nb.scan import scan_memory_dir

    now = _now(now_ms)
    root = Path(os.path.abspath(os.fspath(memory_dir)))
    headers = scan_memory_dir(root, limit=None).headers
    indexed = _index_lines(root)
    rows: list[MemoryRow] = []
    for i, h in enumerate(headers, start=1):
        days = memory_age_days(h.mtime_ms, now)
        rows.append(
            MemoryRow(
                filename=h.filename,
                file_path=h.file_path,
                scope=_scope_of(h.filename),
                type=h.type.value if h.type is not None else "",
                name=h.name or "",
                description=h.description or "",
                mtime_ms=h.mtime_ms,
                age_days=days,
                age=memory_age(h.mtime_ms, now),
                badge=freshness_badge(days, stale_after_days=stale_after_days),
                index_line=indexed.get(h.filename),
                malformed=h.malformed,
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


def memory_detail(row: MemoryRow, *, now_ms: float | None = None) -> MemoryDetail:
    """Read one memory (bounded) and describe how recall would present it."""
    from memdir_nb.access import ReadRefused, read_contained
    from memdir_nb.age import memory_freshness_note, memory_header

    path = row.file_path
    root = path[: -len(row.filename)] if path.endswith(row.filename) else os.path.dirname(path)
    try:
        res = read_contained(root, path, MAX_PREVIEW_BYTES)
        text, truncated = res.text, res.truncated
    except ReadRefused as exc:  # a FIFO or a link out planted since the scan: say so, read nothing
        text, truncated = f"(not shown: {exc})", False
    note = memory_freshness_note(row.mtime_ms, now_ms)
    index_file = "team/MEMORY.md" if row.scope == "team" else "MEMORY.md"
    return MemoryDetail(
        row=row,
        text=text,
        truncated=truncated,
        index_line=row.index_line
        or f"(not listed in {index_file}: recall can still find it, "
        "but the index the model reads every session does not point to it)",
        freshness_note=note or f"(none: saved {row.age}, so recall adds no staleness caveat)",
        header=memory_header(row.file_path, row.mtime_ms, now_ms),
    )


# ---------------------------------------------------------------------------- save form

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_RELATIVE = re.compile(
    r"\b(?:"
    r"(?P<rel_day>today|tonight|tomorrow|yesterday)"
    r"|(?P<mod>next|this|last|coming)\s+(?P<mod_day>" + "|".join(_WEEKDAYS) + r")"
    r"|(?P<day>" + "|".join(_WEEKDAYS) + r")"
    r"|(?P<period_mod>next|this|last|coming)\s+(?P<period>week|month|quarter|year|sprint)"
    r"|in\s+(?P<in_n>\d{1,3})\s+(?P<in_unit>days?|weeks?)"
    r"|(?P<ago_n>\d{1,3})\s+(?P<ago_unit>days?|weeks?)\s+ago"
    r"|end\s+of\s+(?:the\s+)?(?P<eo>week|month|quarter|year)"
    r")\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class RelativeDate:
    """A relative date phrase found in text, and the absolute date it means (when one is clear)."""

    phrase: str
    absolute: str | None  # ISO date, or None when the phrase names no single day

    def message(self) -> str:
        """A validation message naming the phrase and the fix."""
        fix = (
            f"write {self.absolute} instead"
            if self.absolute
            else "write the exact date (YYYY-MM-DD)"
        )
        return (
            f"relative date {self.phrase!r} in a project memory: it stops making sense once the "
            f"week has passed; {fix}"
        )


def _local_date(ms: float) -> _dt.date:
    return _dt.date(*time.localtime(ms / 1000)[:3])


def absolute_date_for(phrase: str, *, now_ms: float | None = None) -> str | None:
    """The ISO date a relative phrase means ('next Thursday' -> the coming Thursday), or None."""
    m = _RELATIVE.search(phrase)
    if m is None:
        return None
    today = _local_date(_now(now_ms))
    absolute: _dt.date | None = None
    if m.group("rel_day"):
        word = m.group("rel_day").lower()
        absolute = today + _dt.timedelta(days={"yesterday": -1, "tomorrow": 1}.get(word, 0))
    elif m.group("mod_day") or m.group("day"):
        target = _WEEKDAYS.index((m.group("mod_day") or m.group("day")).lower())
        if (m.group("mod") or "").lower() == "last":
            absolute = today - _dt.timedelta(days=(today.weekday() - target) % 7 or 7)
        else:
            absolute = today + _dt.timedelta(days=(target - today.weekday()) % 7 or 7)
    elif m.group("in_n"):
        n = int(m.group("in_n")) * (7 if m.group("in_unit").lower().startswith("week") else 1)
        absolute = today + _dt.timedelta(days=n)
    elif m.group("ago_n"):
        n = int(m.group("ago_n")) * (7 if m.group("ago_unit").lower().startswith("week") else 1)
        absolute = today - _dt.timedelta(days=n)
    return absolute.isoformat() if absolute else None


def find_relative_dates(text: str, *, now_ms: float | None = None) -> list[RelativeDate]:
    """The relative dates lint finds in text, each with the absolute date it means when one is clear."""
    from memdir_nb.lint import find_relative_dates as lint_relative_dates

    return [
        RelativeDate(phrase, absolute_date_for(phrase, now_ms=now_ms))
        for _, phrase in lint_relative_dates(text)
    ]


def compose_body(
    memory_type: MemoryType | str | None, rule: str, why: str = "", how: str = ""
) -> str:
    """The body text: the rule or fact, then **Why:** and **How to apply:** lines for types that need them."""
    parts = [rule.strip()]
    mtype = parse_memory_type(memory_type)
    if mtype is not None and TYPE_GUIDANCE[mtype].needs_why_and_how:
        if why.strip():
            parts.append(f"**Why:** {why.strip()}")
        if how.strip():
            parts.append(f"**How to apply:** {how.strip()}")
    return "\n\n".join(p for p in parts if p)


@dataclass(frozen=True)
class DraftCheck:
    """A save form's state checked: what blocks a save, what only warns, and the previews."""

    errors: list[str]
    warnings: list[str]
    body: str
    filename: str  # the file name the store will choose first ('' when unknown)
    relative_path: str  # relative to the memory dir ('team/x.md' for team)
    preview_file: str  # the file text that would be written ('' when the type is invalid)
    preview_index_line: str
    secret_findings: list[SecretFinding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing blocks the save."""
        return not self.errors


def check_draft(
    memory_dir: str | os.PathLike[str],
    *,
    name: str,
    description: str,
    type: str | MemoryType | None,
    rule: str,
    why: str = "",
    how: str = "",
    scope: str = "private",
    now_ms: float | None = None,
) -> DraftCheck:
    """Check a save form against the store's rules and build the file and index-line previews."""
    from memdir_nb.frontmatter import render_memory_file
    from memdir_nb.index import format_index_entry
    from memdir_nb.secret_scan import scan_for_secrets
    from memdir_nb.store import default_filename

    errors: list[str] = []
    warnings: list[str] = []
    mtype = parse_memory_type(type)
    choices = ", ".join(t.value for t in MEMORY_TYPES)
    if mtype is None and (type is None or not str(type).strip()):
        errors.append(f"no memory type chosen: pick one of {choices}")
    elif mtype is None:
        errors.append(f"unknown memory type {str(type)!r}: the type must be one of {choices}")
    if scope not in ("private", "team"):
        errors.append(f"unknown scope {scope!r}: choose private or team")
    for label, value in (("name", name), ("description", description)):
        if not value.strip():
            errors.append(f"the {label} is empty: give a short, specific {label}")
        elif "\n" in value.strip():
            errors.append(f"the {label} must be one line (it becomes the index pointer)")
    if not rule.strip():
        errors.append("the memory text is empty: write the rule or fact to remember")
    if mtype is not None and TYPE_GUIDANCE[mtype].needs_why_and_how:
        if not why.strip():
            errors.append(
                f"a {mtype.value} memory needs a Why: the reason behind it, so edge cases can be judged"
            )
        if not how.strip():
            errors.append(f"a {mtype.value} memory needs a How to apply: when and where it applies")
    if mtype is MemoryType.USER and scope == "team":
        errors.append(
            "a user memory describes one person and is always private: switch the scope to private"
        )

    body = compose_body(mtype, rule, why, how)
    findings = scan_for_secrets({"name": name, "description": description, "body": body})
    for f in findings:
        if scope == "team":
            errors.append(
                f"{f.describe()}: team memory is shared with everyone, so this save is refused; "
                "remove the secret (name where it is stored instead) or save privately"
            )
        else:
            warnings.append(
                f"{f.describe()}: credentials do not belong in memory, even private memory"
            )
    if mtype is MemoryType.PROJECT:
        for rel in find_relative_dates("\n".join((name, description, body)), now_ms=now_ms):
            errors.append(rel.message())

    filename = ""
    relative = ""
    preview = ""
    index_line = ""
    if mtype is not None and name.strip():
        filename = default_filename(name.strip(), mtype)
        relative = f"{TEAM_DIRNAME}/{filename}" if scope == "team" else filename
        if (Path(memory_dir) / relative).exists():
            warnings.append(
                f"{relative} already exists: the store keeps it and saves this one under a numbered "
                "name (unless the text is identical); use update to change the existing memory"
            )
        if description.strip() and "\n" not in name.strip() + description.strip():
            preview = render_memory_file(name.strip(), description.strip(), mtype, body)
            index_line = format_index_entry(name.strip(), filename, description.strip())
    return DraftCheck(
        errors=errors,
        warnings=warnings,
        body=body,
        filename=filename,
        relative_path=relative,
        preview_file=preview,
        preview_index_line=index_line,
        secret_findings=list(findings),
    )


# ---------------------------------------------------------------------------- index budgets


@dataclass(frozen=True)
class DroppedLine:
    """A line of MEMORY.md that truncation leaves out of the prompt."""

    line_no: int  # 1-based line in the file
    text: str
    reason: str  # "line cap" | "byte cap" | "byte cap (cut mid-line)"


@dataclass(frozen=True)
class IndexBudget:
    """One scope's MEMORY.md against its two caps, and exactly what loading it would drop."""

    scope: Scope
    path: str
    exists: bool
    line_count: int
    byte_count: int
    max_lines: int
    max_bytes: int
    kept_line_count: int
    was_line_truncated: bool
    was_byte_truncated: bool
    dropped_lines: list[DroppedLine]
    warning: str
    problem: str = (
        ""  # why the file counts as missing (a FIFO, a link out), or what the read cap cut
    )

    @property
    def line_fraction(self) -> float:
        """Lines used over the line cap (can exceed 1)."""
        return self.line_count / self.max_lines

    @property
    def byte_fraction(self) -> float:
        """Bytes used over the byte cap (can exceed 1)."""
        return self.byte_count / self.max_bytes


def index_budget(memory_dir: str | os.PathLike[str], scope: Scope = "private") -> IndexBudget:
    """Measure a scope's MEMORY.md against 200 lines / 25,000 bytes and list the dropped lines."""
    from memdir_nb.index import (
        MAX_ENTRYPOINT_BYTES,
        MAX_ENTRYPOINT_LINES,
        load_entrypoint,
        truncate_entrypoint_content,
    )

    if scope not in ("private", "team"):
        raise ValueError(f"scope must be 'private' or 'team', got {scope!r}")
    scope_dir = Path(memory_dir) / TEAM_DIRNAME if scope == "team" else Path(memory_dir)
    loaded = load_entrypoint(scope_dir, memory_dir=memory_dir)
    raw = loaded.text
    result = truncate_entrypoint_content(raw)
    # truncation works on the stripped text: map its line numbers back to the file's
    trimmed = raw.strip()
    offset = raw[: len(raw) - len(raw.lstrip())].count("\n")
    lines = trimmed.split("\n") if trimmed else []
    kept_text = (
        result.content[: len(result.content) - len(result.warning)].rstrip("\n")
        if result.warning
        else trimmed
    )
    kept_lines = kept_text.split("\n") if kept_text else []
    dropped: list[DroppedLine] = []
    if result.warning:
        last = len(kept_lines) - 1
        if kept_lines and lines and kept_lines[last] != lines[last]:
            dropped.append(DroppedLine(last + 1 + offset, lines[last], "byte cap (cut mid-line)"))
        for i in range(len(kept_lines), len(lines)):
            reason = "line cap" if i >= MAX_ENTRYPOINT_LINES else "byte cap"
            dropped.append(DroppedLine(i + 1 + offset, lines[i], reason))
    return IndexBudget(
        scope=scope,
        path=loaded.path,
        exists=loaded.exists,
        line_count=result.line_count,
        byte_count=result.byte_count,
        max_lines=MAX_ENTRYPOINT_LINES,
        max_bytes=MAX_ENTRYPOINT_BYTES,
        kept_line_count=result.kept_line_count,
        was_line_truncated=result.was_line_truncated,
        was_byte_truncated=result.was_byte_truncated,
        dropped_lines=dropped,
        warning=result.warning,
        problem=loaded.note(),
    )


# ---------------------------------------------------------------------------- freshness

# (label, lowest age in days, highest age in days or None for open-ended)
AGE_BINS: tuple[tuple[str, int, int | None], ...] = (
    ("today", 0, 0),
    ("yesterday", 1, 1),
    ("2-7 days", 2, 7),
    ("8-30 days", 8, 30),
    ("31-90 days", 31, 90),
    ("91-365 days", 91, 365),
    ("over a year", 366, None),
)
UNTYPED = "(no type)"


@dataclass(frozen=True)
class FreshnessData:
    """Histogram counts per age bin and type, and a timeline point per memory."""

    bins: list[str]
    types: list[str]
    counts: dict[str, list[int]]  # type -> count per bin
    timeline: list[tuple[str, str, int, bool]]  # (filename, type, age_days, stale), oldest first
    stale_after_days: int

    @property
    def stale(self) -> list[str]:
        """Filenames at or past the stale threshold, oldest first."""
        return [f for f, _, _, s in self.timeline if s]


def _bin_index(age_days: int) -> int:
    for i, (_, lo, hi) in enumerate(AGE_BINS):
        if age_days >= lo and (hi is None or age_days <= hi):
            return i
    return len(AGE_BINS) - 1


def freshness_data(
    rows: Sequence[MemoryRow], *, stale_after_days: int = STALE_AFTER_DAYS
) -> FreshnessData:
    """Count memories per age bin and type, and list each one's age, marking the stale ones."""
    types = [t.value for t in MEMORY_TYPES]
    if any(not r.type for r in rows):
        types.append(UNTYPED)
    counts = {t: [0] * len(AGE_BINS) for t in types}
    for r in rows:
        counts[r.type or UNTYPED][_bin_index(r.age_days)] += 1
    timeline = [
        (r.filename, r.type or UNTYPED, r.age_days, r.age_days >= stale_after_days)
        for r in sorted(rows, key=lambda r: (-r.age_days, r.filename))
    ]
    return FreshnessData(
        bins=[label for label, _, _ in AGE_BINS],
        types=types,
        counts=counts,
        timeline=timeline,
        stale_after_days=stale_after_days,
    )


# ---------------------------------------------------------------------------- team scope


@dataclass(frozen=True)
class ScopeRule:
    """Where memories of one type go."""

    type: str
    default_scope: Scope
    allowed_in_team: bool
    rule: str


def scope_rules() -> list[ScopeRule]:
    """The scope rule of each of the four types, in the taxonomy's order."""
    from memdir_nb.types import allowed_in_team

    return [
        ScopeRule(
            t.value, TYPE_GUIDANCE[t].default_scope, allowed_in_team(t), TYPE_GUIDANCE[t].scope_rule
        )
        for t in MEMORY_TYPES
    ]


@dataclass(frozen=True)
class PromotionVerdict:
    """Whether a private memory may move to team/, and every reason it may not."""

    filename: str
    allowed: bool
    reasons: list[str]
    secret_findings: list[SecretFinding]

    def summary(self) -> str:
        """One line for display."""
        if self.allowed:
            return f"{self.filename}: may be promoted (no credential found, type allowed in team)"
        return f"{self.filename}: cannot be promoted: " + "; ".join(self.reasons)


def promotion_verdict(memory_dir: str | os.PathLike[str], filename: str) -> PromotionVerdict:
    """Check a private memory the way promote() will: its type, its fields, and the secret scan."""
    from memdir_nb.frontmatter import parse_memory_file
    from memdir_nb.secret_scan import scan_for_secrets

    if _scope_of(filename) == "team":
        return PromotionVerdict(filename, False, ["it is already in team memory"], [])
    fm, body = parse_memory_file(Path(memory_dir) / filename, root=memory_dir)
    reasons: list[str] = []
    if fm.type is MemoryType.USER:
        reasons.append("user memories are always private")
    elif fm.type is None:
        reasons.append(f"it has no valid type (found {fm.raw_type!r}); set one first")
    if not (fm.name or "").strip() or not (fm.description or "").strip():
        reasons.append("its frontmatter lacks a name or description")
    if (Path(memory_dir) / TEAM_DIRNAME / filename).exists():
        reasons.append(f"team/{filename} already exists")
    findings = scan_for_secrets(
        {"name": fm.name or "", "description": fm.description or "", "body": body}
    )
    reasons.extend(
        f"{f.describe()} (team memory is shared, so secrets are refused)" for f in findings
    )
    return PromotionVerdict(filename, not reasons, reasons, list(findings))


# ---------------------------------------------------------------------------- path security

# Checks in the order sanitize_path_key and validate_team_mem_key apply them; each pairs a
# step id with the PathTraversalError rules that mean that step failed.
KEY_CHECKS: tuple[tuple[str, str, frozenset[str]], ...] = (
    ("empty", "key is not empty", frozenset({"empty"})),
    ("null-byte", "no null byte", frozenset({"null-byte"})),
    ("invalid-unicode", "valid Unicode (no lone surrogates)", frozenset({"invalid-unicode"})),
    (
        "encoded",
        "no traversal hidden by percent-encoding or Unicode normalisation",
        frozenset({"url-encoded-traversal", "unicode-traversal", "mixed-encoding-traversal"}),
    ),
    ("backslash", "no backslash", frozenset({"backslash"})),
    ("absolute", "relative, not absolute", frozenset({"absolute"})),
    ("parent-segment", "no '..' segment", frozenset({"parent-segment"})),
    ("not-a-file", "names a file, not a folder", frozenset({"not-a-file"})),
    (
        "pass-1",
        "pass 1: resolved path stays inside team/ (string containment)",
        frozenset({"escapes-dir"}),
    ),
    (
        "pass-2",
        "pass 2: real path of the deepest existing ancestor stays inside team/",
        frozenset({"symlink-escape", "dangling-symlink", "symlink-loop", "cannot-verify"}),
    ),
    ("length", "file and path names within the filesystem's limits", frozenset({"too-long"})),
)
SANITIZER_STEPS = 8  # the first eight checks belong to sanitize_path_key


@dataclass(frozen=True)
class CheckStep:
    """One check applied to a key: passed, failed (with the rule and message) or not reached."""

    step: str
    title: str
    status: str  # "pass" | "fail" | "not reached"
    rule: str = ""
    detail: str = ""


def _failing_step(exc: Exception, key: str, stage: str) -> str:
    """The step id a PathTraversalError (or ValueError) belongs to."""
    rule = getattr(exc, "rule", "")
    if rule == "null-byte" and stage == "sanitize" and "\0" not in key:
        return "encoded"  # a percent-encoded %00 is caught by the decoding step
    if rule == "null-byte":
        return "null-byte"
    for step, _, rules in KEY_CHECKS:
        if rule in rules:
            return step
    return "pass-2" if stage == "contain" else "encoded"


def _mark(
    steps: list[CheckStep],
    ids: Sequence[str],
    failed: str | None,
    exc: Exception | None,
    extra: Mapping[str, str],
) -> None:
    reached = True
    for step_id in ids:
        title = next(t for s, t, _ in KEY_CHECKS if s == step_id)
        if not reached:
            steps.append(CheckStep(step_id, title, "not reached"))
        elif step_id == failed:
            steps.append(CheckStep(step_id, title, "fail", getattr(exc, "rule", "error"), str(exc)))
            reached = False
        else:
            steps.append(CheckStep(step_id, title, "pass", "", extra.get(step_id, "")))


def check_team_key(
    key: str, team_dir: str | os.PathLike[str], *, run_all: bool = False
) -> list[CheckStep]:
    """Each check a team key goes through, in order, with pass/fail; writes nothing.

    run_all=True still runs the containment passes after the sanitizer rejects the key, to
    show what the second layer alone would have caught.
    """
    from memdir_nb.team_paths import (
        PathTraversalError,
        realpath_deepest_existing,
        sanitize_path_key,
        validate_team_mem_write_path,
    )

    ids = [s for s, _, _ in KEY_CHECKS]
    steps: list[CheckStep] = []
    failed: str | None = None
    exc: Exception | None = None
    try:
        sanitize_path_key(key)
    except (PathTraversalError, TypeError) as err:
        failed, exc = _failing_step(err, key, "sanitize"), err
    _mark(steps, ids[:SANITIZER_STEPS], failed, exc, {})
    if failed is not None and not run_all:
        steps.extend(CheckStep(s, t, "not reached") for s, t, _ in KEY_CHECKS[SANITIZER_STEPS:])
        return steps

    base = os.path.abspath(os.fspath(team_dir))
    candidate = os.path.join(base, key)
    extra: dict[str, str] = {}
    c_failed: str | None = None
    c_exc: Exception | None = None
    try:
        resolved = validate_team_mem_write_path(candidate, base)
        extra["pass-1"] = f"resolves to {resolved}"
        extra["pass-2"] = f"really points to {realpath_deepest_existing(resolved)}"
    except (PathTraversalError, ValueError) as err:
        c_failed, c_exc = _failing_step(err, key, "contain"), err
        if c_failed != "pass-1" and "\0" not in candidate:
            extra["pass-1"] = f"resolves to {os.path.abspath(candidate)}"
    _mark(steps, ids[SANITIZER_STEPS:], c_failed, c_exc, extra)
    return steps


@dataclass(frozen=True)
class AttackExample:
    """A key from the attack menu; `symlink` names a link it needs planted in team/ first."""

    label: str
    key: str
    expected_rule: str | None  # None for a key that must be accepted
    symlink: tuple[str, str] | None = None  # (link name in team/, target kind)


ATTACK_EXAMPLES: tuple[AttackExample, ...] = (
    AttackExample("ordinary key (accepted)", "notes/deploy.md", None),
    AttackExample("parent traversal", "../../.ssh/authorized_keys", "parent-segment"),
    AttackExample("null byte", "notes.md\0.png", "null-byte"),
    AttackExample(
        "percent-encoded traversal %2e%2e%2f",
        "%2e%2e%2f%2e%2e%2fetc/passwd",
        "url-encoded-traversal",
    ),
    AttackExample("double percent-encoding", "%252e%252e%252fsecrets.md", "url-encoded-traversal"),
    AttackExample(
        "fullwidth dots and slash \uff0e\uff0e\uff0f",
        "\uff0e\uff0e\uff0fsecrets.md",
        "unicode-traversal",
    ),
    AttackExample("backslash", "..\\..\\secrets.md", "backslash"),
    AttackExample("absolute path", "/etc/passwd", "absolute"),
    AttackExample(
        "planted symlink to outside the memory dir",
        "leak/stolen.md",
        "symlink-escape",
        ("leak", "outside"),
    ),
    AttackExample(
        "dangling symlink", "dangling/new.md", "dangling-symlink", ("dangling", "missing")
    ),
    AttackExample("symlink loop", "loop/x.md", "symlink-loop", ("loop", "loop")),
)


def plant_example_symlink(team_dir: str | os.PathLike[str], example: AttackExample) -> Path:
    """Create the symlink an attack example needs inside team/ (only on explicit request); returns it.

    'outside' points at the memory dir's parent folder, 'missing' at a path that does not
    exist, 'loop' at itself. An existing link with the same target is left as it is.
    """
    if example.symlink is None:
        raise ValueError(f"the example {example.label!r} needs no symlink; nothing to plant")
    name, kind = example.symlink
    team = Path(os.path.abspath(os.fspath(team_dir)))
    link = team / name
    if kind == "outside":
        target = str(team.parent.parent)
    elif kind == "missing":
        target = str(team.parent.parent / "memdir-nb-lab-missing-target")
    elif kind == "loop":
        target = str(link)
    else:
        raise ValueError(f"unknown symlink kind {kind!r}: use outside, missing or loop")
    if os.path.lexists(link):
        if link.is_symlink() and os.readlink(link) == target:
            return link
        raise FileExistsError(
            f"{link} already exists and is not the lab's example link; remove it by hand if you "
            "want the lab to plant its example there"
        )
    team.mkdir(parents=True, exist_ok=True)
    os.symlink(target, link)
    return link


# ---------------------------------------------------------------------------- recall


@dataclass(frozen=True)
class RecallPreview:
    """One playground run: what was sent, what came back, and the session after it."""

    manifest: str
    request_json: str
    selected: list[InjectedMemory]
    rendered: str
    last_error: str | None
    surfaced: list[str]
    bytes_used: int
    budget_bytes: int
    status: str


def request_json(
    query: str,
    headers: Sequence[MemoryHeader],
    recent_tools: Sequence[str] = (),
    *,
    model: str | None = None,
) -> str:
    """The Messages API request a Claude selection would send, as indented JSON (no key needed)."""
    from memdir_nb.recall.anthropic_selector import AnthropicSelector

    selector = AnthropicSelector() if model is None else AnthropicSelector(model=model)
    return json.dumps(
        selector.build_request(query, headers, recent_tools), indent=2, ensure_ascii=False
    )


def recall_preview(
    query: str,
    memory_dir: str | os.PathLike[str],
    session: RecallSession,
    selector: Selector,
    *,
    recent_tools: Sequence[str] = (),
    now_ms: float | None = None,
) -> RecallPreview:
    """Run one recall turn in `session`, keeping the manifest and request as they were sent."""
    from memdir_nb.recall.find import drop_surfaced
    from memdir_nb.scan import format_memory_manifest, scan_memory_files

    tools = [t for t in recent_tools if t.strip()]
    candidates = drop_surfaced(scan_memory_files(memory_dir), session.surfaced)
    manifest = format_memory_manifest(candidates)
    sent = request_json(query, candidates, tools, model=getattr(selector, "model", None))
    injected = session.recall(
        query, memory_dir, recent_tools=tools, selector=selector, now_ms=now_ms
    )
    return RecallPreview(
        manifest=manifest,
        request_json=sent,
        selected=list(injected),
        rendered=session.render(injected),
        last_error=session.last_selector_error,
        surfaced=sorted(session.surfaced),
        bytes_used=session.bytes_used,
        budget_bytes=session.max_session_bytes,
        status=session.status,
    )


def is_demo_dir(memory_dir: str | os.PathLike[str]) -> bool:
    """True when the dir was built by memdir_nb.demo (it holds the demo marker file)."""
    from memdir_nb.demo import MARKER_NAME

    marker = Path(memory_dir) / MARKER_NAME
    return marker.is_file() and not marker.is_symlink()
