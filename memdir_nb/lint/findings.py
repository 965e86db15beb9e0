"""Lint's vocabulary: the Finding type, rule severities and the shapes of what lint reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from memdir_nb.formats.frontmatter import Frontmatter
from memdir_nb.formats.index import IndexEntry
from memdir_nb.security.secret_scan import mask_secret_values
from memdir_nb.spec.records import Record
from memdir_nb.spec.shown_names import terminal_name
from memdir_nb.spec.text import clip, terminal_line

Severity = Literal["error", "warning"]
DIFF_LEAD = 30  # characters a quote of two readings keeps before the first difference
# Rule id -> severity. Secrets vary with scope and are decided where they are found.
SEVERITIES: dict[str, Severity] = {
    "unreadable": "error",
    "not-text": "warning",
    "invalid-utf8": "warning",
    "missing-frontmatter": "warning",
    "malformed-frontmatter": "warning",
    "inline-hash-value": "warning",
    "header-ends-early": "warning",
    "missing-name": "warning",
    "missing-type": "warning",
    "unknown-type": "error",
    "missing-description": "warning",
    "vague-description": "warning",
    "long-description": "warning",
    "description-misses-body": "warning",
    "user-memory-in-team": "error",
    "missing-why": "warning",
    "missing-how-to-apply": "warning",
    "relative-date": "warning",
    "derivable-file-path": "warning",
    "derivable-code-block": "warning",
    "derivable-git-history": "warning",
    "derivable-code-symbol": "warning",
    "ephemeral-task-state": "warning",
    "memory-too-long": "warning",
    "stale-project": "warning",
    "index-missing": "warning",
    "index-refused": "error",
    "index-never-loaded": "error",  # an agent memory root's own index (storage.agent_root_index)
    "index-invalid-utf8": "error",
    "index-over-cap": "error",
    "index-line-too-long": "warning",
    "index-not-pointer": "warning",
    "index-duplicate-entry": "warning",
    "index-dangling-entry": "error",
    "index-dangling-name": "warning",
    "index-outside-link": "warning",
    "not-in-index": "warning",
    "skipped-by-scan": "warning",
    "dangling-link": "warning",  # a [[name]] no memory answers to (lint.links)
    "name-twins": "warning",  # NFC/NFD twins: two files, one name on screen (lint.name_twins)
    "store-journal-pending": "error",
    "store-journal-corrupt": "error",
    "folder-of-memory-dirs": "error",
    "not-a-memory-dir": "error",  # the walk stopped at MEMORY_DIR_MAX_ENTRIES (a home folder)
}


class Finding(Record, frozen=True):
    """One problem in a memory dir: where, which rule, how bad, what, and how to fix it."""

    path: str  # relative to the memory dir, '/'-separated
    rule: str
    severity: Severity
    message: str
    hint: str
    line: int | None = None

    def format(self) -> str:
        """One line: 'path:line: severity [rule] message (fix: hint)'; a newline in a name (a
        file the scan skipped) is shown as an escape, so it never starts a line of its own, and
        the path is shown so it reads back (spec.shown_names.terminal_name: two skipped files
        named `bad<0xff>.md` and `bad\\udcff.md` printed alike, attack36)."""
        where = terminal_name(self.path) + (f":{self.line}" if self.line is not None else "")
        return where + terminal_line(
            f": {self.severity} [{self.rule}] {self.message} (fix: {self.hint})"
        )


class MemoryText(Record, frozen=True):
    """A memory file as lint and analysis read it: bounded, decoded, split into header and body."""

    rel: str
    scope: str
    size: int
    mtime_ms: float
    text: str  # at most MAX_READ_BYTES of the file, decoded, line ends by spec.text.as_lf
    capped: bool  # the file is longer than what was read
    binary: bool
    invalid_utf8: bool
    header: Frontmatter
    body: str
    body_line: int  # 1-based file line where the body starts

    @property
    def lines(self) -> int:
        """Number of lines in what was read."""
        if not self.text:
            return 0
        return self.text.count("\n") + (0 if self.text.endswith("\n") else 1)


@dataclass(frozen=True)
class ScopeIndex:
    """One MEMORY.md: its entries, which memory files it points at, and which entries dangle."""

    scope: str
    path: str  # relative to the memory dir: "MEMORY.md" or "team/MEMORY.md"
    exists: bool
    text: str
    entries: list[IndexEntry] = field(default_factory=list)
    referenced: frozenset[str] = frozenset()  # memory-dir-relative paths the entries resolve to
    dangling: list[IndexEntry] = field(default_factory=list)
    outside: list[IndexEntry] = field(default_factory=list)  # targets that leave the scope dir
    problem: str = ""  # why a MEMORY.md that is there counts as missing (a FIFO, a link out)
    valid_utf8: bool = True
    # line number -> key folder, of an outside target in another project's memory dir
    other_projects: dict[int, str] = field(default_factory=dict)


class Collector:
    """Builds findings for one file, with severities from SEVERITIES."""

    def __init__(self, rel: str) -> None:
        self.rel = rel
        self.items: list[Finding] = []
        # the credentials the secret rule found in this file: never shown by a quote
        self.secret_values: frozenset[str] = frozenset()

    def quote(self, text: str, limit: int = 80) -> str:
        """text from the file, for a message: its credentials masked, then clipped to limit.

        Every rule that quotes what a file holds quotes through here, so a message never shows
        a credential the secret rule masks in its own finding.
        """
        return clip(mask_secret_values(text, self.secret_values), limit)

    def quote_pair(self, one: str, other: str, limit: int = 80) -> tuple[str, str]:
        """Two readings of one value, each quoted as quote() does, from a shared start that
        keeps where they part in view.

        When the readings agree past what a quote shows, two plain quotes read the same (a
        description whose ' #' stands past character 90 was quoted twice as the same 79
        characters): both then start DIFF_LEAD characters before the first difference, after
        an ellipsis.
        """
        one, other = (mask_secret_values(t, self.secret_values) for t in (one, other))
        same = next(
            (i for i, (a, b) in enumerate(zip(one, other, strict=False)) if a != b),
            min(len(one), len(other)),
        )
        if same < limit - DIFF_LEAD // 2:
            return clip(one, limit), clip(other, limit)
        start = same - DIFF_LEAD
        return "\u2026" + clip(one[start:], limit - 1), "\u2026" + clip(other[start:], limit - 1)

    def add(
        self,
        rule: str,
        message: str,
        hint: str,
        line: int | None = None,
        severity: Severity | None = None,
    ) -> None:
        self.items.append(
            Finding(self.rel, rule, severity or SEVERITIES[rule], message, hint, line)
        )


def field_line(mem: MemoryText, key: str) -> int:
    """The 1-based line of a header field ('description: ...'), or 1 when it cannot be found."""
    head = mem.text.split("\n", mem.body_line)[: mem.body_line]
    for no, line in enumerate(head, start=1):
        if line.startswith(key + ":"):
            return no
    if key == "type" and mem.header.type_nested:  # `type:` under `metadata:`
        for no, line in enumerate(head, start=1):
            if line[:1] in (" ", "\t") and line.lstrip(" \t").startswith("type:"):
                return no
    return 1
