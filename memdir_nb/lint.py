"""Memory checks: derivable content, secrets, relative dates, structure and the two indexes.

`lint_memory_dir` reads every memory file (not just the 200 newest the selector sees) with a
bounded read, and returns one `Finding` per problem. Severity policy: "error" is for things
that make a memory dir wrong or unsafe (a credential in team memory, a user memory shared
with the team, an unknown type, an index line pointing at nothing, an index the loader cuts);
"warning" is for style and hygiene that weakens recall without breaking anything.

Rules are deliberately narrow: ordinary memory prose (a deadline with its date, a rule with
its Why and How-to-apply lines, a Grafana board name) produces no findings.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from memdir_nb import textseg
from memdir_nb.access import ContainedReader, ReadRefused
from memdir_nb.age import memory_age_days
from memdir_nb.constants import (
    ENTRYPOINT_NAME,
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
    MAX_INDEX_LINE_CHARS,
    MEMORY_FILE_READ_MAX_BYTES,
    RECALL_MAX_BYTES,
    RECALL_MAX_LINES,
    TEAM_DIRNAME,
)
from memdir_nb.dates import ABSOLUTE_DATE
from memdir_nb.dates import find_relative_dates as find_date_phrases
from memdir_nb.draft import has_how_to_apply_line, has_why_line
from memdir_nb.frontmatter import Frontmatter, parse_frontmatter
from memdir_nb.index import IndexEntry, load_entrypoint, parse_index
from memdir_nb.scan import MemoryHeader, SkippedFile, scan_memory_dir
from memdir_nb.secret_scan import scan_for_secrets
from memdir_nb.types import TYPE_NAMES, MemoryType, Scope, scope_of_path, scope_violation

Severity = Literal["error", "warning"]

# Each memory file is read up to this many bytes (through memdir_nb.access): enough for any
# sane memory, bounded for a 10 MB file someone dropped in the folder.
MAX_READ_BYTES = MEMORY_FILE_READ_MAX_BYTES
# Recall injects at most RECALL_MAX_LINES / RECALL_MAX_BYTES of one memory; longer ones are cut.
STALE_PROJECT_DAYS = 365
# The secret scan covers the first 64 KB of a body, in windows of 1,000 characters per line.
MAX_SECRET_SCAN_CHARS = 64 * 1024
SECRET_LINE_WINDOW = 1000
SECRET_LINE_OVERLAP = 200
MAX_HEADER_SCAN_CHARS = 4096
MAX_DESCRIPTION_CHARS = 150
MIN_DESCRIPTION_WORDS = 3
VAGUE_DESCRIPTIONS = frozenset(
    {
        "misc",
        "misc notes",
        "miscellaneous",
        "notes",
        "note",
        "stuff",
        "things",
        "various",
        "various notes",
        "todo",
        "tbd",
        "info",
        "general",
        "random",
        "memory",
        "untitled",
        "n/a",
    }
)
# Rule id -> severity. Secrets vary with scope and are decided where they are found.
SEVERITIES: dict[str, Severity] = {
    "unreadable": "error",
    "not-text": "warning",
    "invalid-utf8": "warning",
    "missing-frontmatter": "warning",
    "malformed-frontmatter": "warning",
    "missing-name": "warning",
    "missing-type": "warning",
    "unknown-type": "error",
    "missing-description": "warning",
    "vague-description": "warning",
    "long-description": "warning",
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
    "index-invalid-utf8": "error",
    "index-over-cap": "error",
    "index-line-too-long": "warning",
    "index-not-pointer": "warning",
    "index-duplicate-entry": "warning",
    "index-dangling-entry": "error",
    "index-outside-link": "warning",
    "not-in-index": "warning",
    "skipped-by-scan": "warning",
}


@dataclass(frozen=True)
class Finding:
    """One problem in a memory dir: where, which rule, how bad, what, and how to fix it."""

    path: str  # relative to the memory dir, '/'-separated
    rule: str
    severity: Severity
    message: str
    hint: str
    line: int | None = None

    def format(self) -> str:
        """One line: 'path:line: severity [rule] message (fix: hint)'."""
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        return f"{where}: {self.severity} [{self.rule}] {self.message} (fix: {self.hint})"


@dataclass(frozen=True)
class MemoryText:
    """A memory file as lint and analysis read it: bounded, decoded, split into header and body."""

    rel: str
    scope: str
    size: int
    mtime_ms: float
    text: str  # at most MAX_READ_BYTES of the file, decoded, CRLF normalised
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


def scope_of(rel: str) -> Scope:
    """'team' for a path under team/, else 'private' (types.scope_of_path; kept for callers)."""
    return scope_of_path(rel)


# ---------------------------------------------------------------------------- reading


def _inside(real: str, real_root: str) -> bool:
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


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
    st, data, capped = res.stat, res.data, res.truncated
    binary = b"\x00" in data
    text, invalid = res.text, not res.valid_utf8  # a character cut by the cap is not invalid
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    fm, body = parse_frontmatter(text)
    head_lines = text[: len(text) - len(body)].count("\n") if body else text.count("\n")
    return MemoryText(
        rel=header.filename,
        scope=header.scope,
        size=st.st_size,
        mtime_ms=st.st_mtime_ns / 1_000_000,
        text=text,
        capped=capped,
        binary=binary,
        invalid_utf8=invalid,
        header=fm,
        body=body,
        body_line=head_lines + 1,
    )


def _resolve_target(scope_dir: str, target: str) -> str | None:
    """The absolute path an index target names inside scope_dir, or None if it is not a file link."""
    target = target.split("#", 1)[0].strip()
    if not target or re.match(r"^[a-z][a-z0-9+.\-]*:", target, re.IGNORECASE):
        return None  # an anchor or a URL, not a memory file
    return os.path.normpath(os.path.join(scope_dir, target))


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
        entries = parse_index(text)
        referenced: set[str] = set()
        dangling: list[IndexEntry] = []
        outside: list[IndexEntry] = []
        for entry in entries:
            resolved = _resolve_target(scope_dir, entry.target)
            if resolved is None:
                continue
            if entry.target.startswith("~") or not _inside(resolved, scope_dir):
                outside.append(entry)
                continue
            if os.path.isfile(resolved):
                referenced.add(os.path.relpath(resolved, root).replace(os.sep, "/"))
            else:
                dangling.append(entry)
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
            )
        )
    return out


# ---------------------------------------------------------------------------- content rules

_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_FILE_EXT = r"(?:py|pyi|js|jsx|ts|tsx|mjs|cjs|go|rs|java|kt|kts|scala|rb|php|c|h|cc|cpp|hpp|cs|swift|m|sql|sh|bash|zsh|ps1|yaml|yml|toml|json|ini|cfg|tf|proto|vue|svelte|lua|ex|exs|erl|hs|ml|r|jl|dart|gradle)"
_FILE_LINE = re.compile(
    rf"(?<![\w/.-])(?:[\w.\-]+/)*[\w.\-]+\.{_FILE_EXT}(?::\d+(?::\d+)?\b|,?\s+(?:line|lines|l\.)\s*\d+)",
    re.IGNORECASE,
)
_GIT_SHA_CONTEXT = re.compile(
    r"\b(?:commit|commits|sha|revert(?:ed|s)?|cherry-pick(?:ed)?|fixed in|landed in|introduced in|merged as)\b[^\n]{0,40}?\b([0-9a-f]{7,40})\b",
    re.IGNORECASE,
)
_LONG_SHA = re.compile(r"(?<![\w/])[0-9a-f]{40}(?![\w])")
_PR_REF = re.compile(r"(?:\bPRs?\s*#?\d+|(?<![\w&])#\d{2,}\b|/pull/\d+)", re.IGNORECASE)
_CODE_SYMBOL = re.compile(
    rf"`(?:[A-Za-z_][\w.]*\(\)|(?:class|def|fn|func|function)\s+[A-Za-z_]\w*)`"
    rf"[^\n]{{0,40}}?\b(?:in|from|inside|defined in|lives in|at)\s+`?(?:[\w.\-]+/)*[\w.\-]+\.{_FILE_EXT}\b",
    re.IGNORECASE,
)
_EPHEMERAL = re.compile(
    r"\b(?:currently\s+(?:working\s+on|debugging|fixing|implementing|investigating|looking\s+(?:at|into)|refactoring)"
    r"|(?:I'?m|I\s+am|we'?re|we\s+are)\s+(?:now\s+)?(?:working\s+on|in\s+the\s+middle\s+of)"
    r"|TODO\s*[:(\-]|FIXME\s*:|WIP\b|work\s+in\s+progress"
    r"|(?:in|during)\s+this\s+(?:conversation|session|chat)"
    r"|(?:status|state)\s*:\s*(?:in\s+progress|ongoing|todo|wip|not\s+started))",
    re.IGNORECASE,
)
_IN_PROGRESS = re.compile(r"\bin\s+progress\b", re.IGNORECASE)
# Words that, right after "in progress", show it is the name of something (a status, a hook).
_NAMED_AFTER = re.compile(
    r"^[\s\"'`\u201d]*(?:hooks?|status(?:es)?|states?|columns?|labels?|tags?|lanes?|badges?|"
    r"filters?|values?|options?|events?|steps?|buckets?|icons?|colou?rs?|field|enum|flag)\b",
    re.IGNORECASE,
)


def _names_a_status(line: str, m: re.Match[str]) -> bool:
    """Whether an "in progress" hit names a status or hook rather than saying work is under way.

    A table row listing statuses, a quoted or backticked phrase ('the "in progress" hook'), or
    the phrase followed by a noun such as status, column or hook is vocabulary, not task state.
    """
    if "progress" not in m.group(0).lower():
        return False
    if line.lstrip().startswith("|"):
        return True
    before = line[: m.start()].rstrip()
    if before[-1:] in ("`", '"', "'", "\u201c", "\u2018"):
        return True
    return _NAMED_AFTER.match(line[m.end() :]) is not None


def find_relative_dates(text: str) -> list[tuple[int, str]]:
    """(line index, phrase) for each relative date; an adapter over memdir_nb.dates for old callers."""
    return [(hit.line, hit.phrase) for hit in find_date_phrases(text)]


_LATIN_LETTER = re.compile(r"[A-Za-z\u00c0-\u024f]")
_ANY_LETTER = re.compile(r"[^\W\d_]")


def _mostly_other_script(line: str) -> bool:
    """Whether most letters of a line are outside the Latin script (CJK, Hangul, Cyrillic...)."""
    letters = len(_ANY_LETTER.findall(line))
    return letters > 0 and len(_LATIN_LETTER.findall(line)) < letters / 2


def _content_lines(body: str) -> Iterable[tuple[int, str, bool]]:
    """(line index, line, inside a fenced block) for each body line."""
    fenced = False
    for i, line in enumerate(body.split("\n")):
        if _FENCE.match(line):
            fenced = not fenced
            yield i, line, True
            continue
        yield i, line, fenced


# ---------------------------------------------------------------------------- per-file checks


class _Collector:
    """Builds findings for one file, with severities from SEVERITIES."""

    def __init__(self, rel: str) -> None:
        self.rel = rel
        self.items: list[Finding] = []

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


def _clip(text: str, limit: int = 80) -> str:
    """text cut to limit characters with an ellipsis, for messages."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


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


def _check_header(mem: MemoryText, c: _Collector) -> None:
    fm = mem.header
    if not fm.has_frontmatter:
        c.add(
            "missing-frontmatter",
            "no frontmatter: the file does not start with a '---' header",
            "add a header with name, description and type (see any other memory file)",
            1,
        )
        return
    if fm.malformed:
        why = "; ".join(fm.problems) or "the header could not be parsed as YAML"
        c.add(
            "malformed-frontmatter",
            f"malformed header ({why})",
            "quote values that contain ':' or '#', and close the header with a '---' line",
            1,
        )
    if not (fm.name or "").strip():
        c.add("missing-name", "no name in the header", "add 'name: <short title>' to the header", 1)
    if fm.type is None:
        if fm.raw_type:
            c.add(
                "unknown-type",
                f"unknown type {_clip(fm.raw_type)!r}",
                f"use one of: {', '.join(TYPE_NAMES)}",
                field_line(mem, "type"),
            )
        else:
            c.add(
                "missing-type",
                "no type in the header",
                f"add 'type:' with one of {', '.join(TYPE_NAMES)}",
                1,
            )
    desc = " ".join((fm.description or "").split())
    if not desc:
        c.add(
            "missing-description",
            "no description: the selector has nothing to match on",
            "add a one-line description saying when this memory is useful",
            1,
        )
    elif (
        desc.casefold().strip(".!") in VAGUE_DESCRIPTIONS
        or textseg.word_count(desc) < MIN_DESCRIPTION_WORDS
    ):
        c.add(
            "vague-description",
            f"description {_clip(desc)!r} is too vague to recall by",
            "say what the memory is about and when it applies, in one specific line",
            field_line(mem, "description"),
        )
    elif len(desc) > MAX_DESCRIPTION_CHARS:
        c.add(
            "long-description",
            f"description is {len(desc)} characters; the index hook keeps about {MAX_DESCRIPTION_CHARS}",
            "shorten it to a one-line hook and move the detail into the body",
            field_line(mem, "description"),
        )
    if scope_violation(fm.type, mem.scope):
        c.add(
            "user-memory-in-team",
            "a user memory is in team scope, so every teammate's agent reads it",
            "move it to the private memory dir (user memories are always private)",
            field_line(mem, "type"),
        )


def _check_structure(mem: MemoryText, c: _Collector) -> None:
    if mem.header.type not in (MemoryType.FEEDBACK, MemoryType.PROJECT):
        return
    kind = mem.header.type.value
    if not has_why_line(mem.body):
        c.add(
            "missing-why",
            f"{kind} memory has no 'Why:' line",
            "add '**Why:**' with the reason or incident behind it, so edge cases can be judged",
        )
    if not has_how_to_apply_line(mem.body):
        c.add(
            "missing-how-to-apply",
            f"{kind} memory has no 'How to apply:' line",
            "add '**How to apply:**' saying when and where this should change what is done",
        )


def _check_content(mem: MemoryText, c: _Collector) -> None:
    fm = mem.header
    sources = [
        (field_line(mem, k), v)
        for k, v in (("name", fm.name), ("description", fm.description))
        if v
    ]
    body_lines = list(_content_lines(mem.body))
    block_start: int | None = None
    pr_refs: list[tuple[int, str]] = []
    sha_hits: list[tuple[int, str]] = []
    for i, line, _fenced in body_lines:
        if _FENCE.match(line):
            if block_start is None:
                block_start = mem.body_line + i
            continue
    if block_start is not None:
        c.add(
            "derivable-code-block",
            "a fenced code block: code lives in the repository, not in memory",
            "remove the code and keep only what the code cannot tell (the decision, the reason)",
            block_start,
        )
    texts = sources + [(mem.body_line + i, line) for i, line, fenced in body_lines if not fenced]
    anchored = bool(ABSOLUTE_DATE.search(mem.text))
    seen_rules: set[str] = set()
    for line_no, line in texts:
        m = _FILE_LINE.search(line)
        if m and "derivable-file-path" not in seen_rules:
            seen_rules.add("derivable-file-path")
            c.add(
                "derivable-file-path",
                f"file path with a line number ({_clip(m.group(0))!r}) goes stale as code moves",
                "drop the location; say what is non-obvious about it, or where to look by name",
                line_no,
            )
        m = _CODE_SYMBOL.search(line)
        if m and "derivable-code-symbol" not in seen_rules:
            seen_rules.add("derivable-code-symbol")
            c.add(
                "derivable-code-symbol",
                f"records where code lives ({_clip(m.group(0))!r}), which reading the code shows",
                "keep only the reason or surprise behind it, not the code map",
                line_no,
            )
        for sm in _GIT_SHA_CONTEXT.finditer(line):
            if re.search(r"[a-f]", sm.group(1)) and re.search(r"\d", sm.group(1)):
                sha_hits.append((line_no, sm.group(1)))
        sha_hits += [(line_no, x.group(0)) for x in _LONG_SHA.finditer(line)]
        pr_refs += [(line_no, x.group(0)) for x in _PR_REF.finditer(line)]
        m = _EPHEMERAL.search(line)
        if m is None and not anchored:
            m = _IN_PROGRESS.search(line)
        if m and _names_a_status(line, m):
            m = None
        if m and "ephemeral-task-state" not in seen_rules:
            seen_rules.add("ephemeral-task-state")
            c.add(
                "ephemeral-task-state",
                f"ephemeral task state ({_clip(m.group(0))!r}) is stale by the next session",
                "save only lasting facts; use a task list or plan for work in flight",
                line_no,
            )
    if sha_hits:
        c.add(
            "derivable-git-history",
            f"git commit ids ({', '.join(s for _, s in sha_hits[:3])}) are git history",
            "use git log / git blame; keep only the decision or incident they explain",
            sha_hits[0][0],
        )
    elif len({r for _, r in pr_refs}) >= 3:
        c.add(
            "derivable-git-history",
            f"a list of {len(pr_refs)} PR references is git history",
            "link the tracking issue instead, or keep only what was decided",
            pr_refs[0][0],
        )
    if fm.type is MemoryType.PROJECT:
        for line_no, line in texts:
            if _mostly_other_script(line):
                continue  # an English 'today' inside Korean or Chinese prose is a label, not a date
            hits = find_date_phrases(line)
            if hits:
                c.add(
                    "relative-date",
                    f"relative date {hits[0].phrase!r} in a project memory means nothing weeks later",
                    "replace it with an absolute date, e.g. 'Thursday' -> '2026-03-05'",
                    line_no,
                )
                break


def _secret_window(text: str) -> str:
    """Text with very long lines cut into overlapping pieces, each on its own line.

    The secret scanner's cost grows with the square of a line's length (a 32,000-character
    line takes seconds), so a pasted blob is scanned in windows; overlap keeps a token that
    straddles a cut whole in one piece. Line numbers shift only inside such blobs.
    """
    if all(len(line) <= SECRET_LINE_WINDOW for line in text.split("\n")):
        return text
    out = []
    step = SECRET_LINE_WINDOW - SECRET_LINE_OVERLAP
    for line in text.split("\n"):
        if len(line) <= SECRET_LINE_WINDOW:
            out.append(line)
            continue
        out.extend(
            line[i : i + SECRET_LINE_WINDOW]
            for i in range(0, len(line) - SECRET_LINE_OVERLAP, step)
        )
    return "\n".join(out)


# Values that look random but are public by what the line says they are. Lint masks them
# before the secret scan (the detectors in secret_scan.py are shared with the store's team
# guard, which stays strict); each pattern names its context, so a bare token is still scanned.
_PUBLIC_KEY = re.compile(
    r"(?P<pre>(?i:\bpub(?:lic)?[ _-]?key)[^\w\n+/]{0,6}(?:is\s+|=\s*|:\s*)?[`'\"]?)"
    r"(?P<v>[A-Za-z0-9+/]{20,}={0,2})"
)
_CHANNEL_ID = re.compile(r"(?P<pre>)\b(?P<v>[CG][A-Z0-9]{8,11})\b")
_PUBLIC_VALUE_PATTERNS = (
    # an environment variable's NAME (HOLIDAY_API_KEY), not its value
    re.compile(r"(?P<pre>)(?<![\w=:])(?P<v>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![\w=])"),
    # a file name, or an absolute or home path: the path to a credential is not the credential
    re.compile(
        r"(?P<pre>)(?<![\w/])(?P<v>(?:~|/)?(?:[\w.-]+/)*[\w-]+\.(?:py|pyi|js|ts|tsx|json|ya?ml|"
        r"toml|md|txt|csv|sh|go|rs|java|sql|ipynb|log|conf|cfg|ini|xml|html))(?![\w])"
    ),
    re.compile(r"(?P<pre>)(?<![\w/])(?P<v>~?/(?:[\w.-]+/)+[\w.-]*)"),
    # an agent session id (ses_...), which names a transcript and grants nothing
    re.compile(r"(?P<pre>)\b(?P<v>ses_[A-Za-z0-9]{16,})\b"),
)
# Lines that speak of a credential keep their identifier-like values: a password can be CamelCase.
_CREDENTIAL_WORDS = re.compile(
    r"(?i)pass(?:word|wd|phrase)?\b|\bpwd\b|secret|token|api[_ -]?key|credential|bearer"
)
_IDENTIFIER = re.compile(r"(?<![\w+/=-])[A-Za-z][A-Za-z0-9_]{7,}(?![\w+/=])")
_WORDLIKE_PART = re.compile(r"[A-Z]?[a-z]{2,}")


def _looks_like_identifier(token: str) -> bool:
    """A CamelCase or snake_case name made mostly of word-like parts (AlphaXmfRpt1270LowLiq)."""
    parts = _WORDLIKE_PART.findall(token)
    return len(parts) >= 2 and sum(map(len, parts)) >= 0.6 * len(token)


def _public(m: re.Match[str]) -> str:
    return m.group("pre")


# A memory that speaks of Google Docs or Drive holds document and folder ids: 25-50 characters
# of [A-Za-z0-9_-]. They name a file (sharing settings decide who can open it) and are removed
# before the scan, unless they carry a provider's key prefix.
_DRIVE_CONTEXT = re.compile(
    r"(?i)google\s*(?:docs|drive|sheets|slides)|(?:docs|drive)\.google\.com|구글\s*(?:드라이브|독스|문서)|"
    r"谷歌(?:文档|云端硬盘)|\bfolders/"
)
_DRIVE_ID = re.compile(r"(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9_-]{25,50}(?![\w-])")
_KEY_PREFIXES = (
    "AIza",
    "sk-",
    "sk_",
    "ghp_",
    "gho_",
    "ghs_",
    "github_pat_",
    "xox",
    "AKIA",
    "glpat-",
)


def mask_public_values(text: str) -> str:
    """text with values that are public by context removed before the secret scan.

    Public keys, chat channel ids on a line that says "channel", environment variable names,
    file names and paths, agent session ids, Google Docs/Drive ids in a memory about those,
    and (on lines that do not speak of a credential) CamelCase or snake_case identifiers look
    random but grant nothing. The detectors
    (secret_scan.py) are shared with the store's team guard, which stays strict; this context
    handling is lint's own. Line breaks are kept, so line numbers hold.
    """
    text = _PUBLIC_KEY.sub(_public, text)
    if _DRIVE_CONTEXT.search(text):
        text = _DRIVE_ID.sub(
            lambda m: m.group(0) if m.group(0).startswith(_KEY_PREFIXES) else "", text
        )
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if "channel" in line.lower():
            line = _CHANNEL_ID.sub(_public, line)
        for pattern in _PUBLIC_VALUE_PATTERNS:
            line = pattern.sub(_public, line)
        if not _CREDENTIAL_WORDS.search(line):
            line = _IDENTIFIER.sub(
                lambda m: "" if _looks_like_identifier(m.group(0)) else m.group(0), line
            )
        lines[i] = line
    return "\n".join(lines)


def _check_secrets(mem: MemoryText, c: _Collector) -> None:

    fm = mem.header
    fields = {
        "name": _secret_window(mask_public_values((fm.name or "")[:MAX_HEADER_SCAN_CHARS])),
        "description": _secret_window(
            mask_public_values((fm.description or "")[:MAX_HEADER_SCAN_CHARS])
        ),
        "body": _secret_window(mask_public_values(mem.body[:MAX_SECRET_SCAN_CHARS])),
    }
    findings = scan_for_secrets(fields)
    if not findings:
        return
    team = mem.scope == "team"
    first = findings[0]
    line = mem.body_line + first.line - 1 if first.field == "body" else field_line(mem, first.field)
    kinds = ", ".join(sorted({f.kind for f in findings}))
    where = "team memory, shared with everyone in the project" if team else "private memory"
    c.add(
        "secret",
        f"looks like a credential ({kinds}; e.g. `{first.excerpt}`) in {where}",
        "remove it and name where it is stored instead (e.g. the vault entry); rotate it if it was shared",
        line,
        severity="error" if team else "warning",
    )


def is_stale(memory_type: MemoryType | None, age_days: int) -> bool:
    """The stale rule: a project memory unchanged for more than STALE_PROJECT_DAYS days."""
    return memory_type is MemoryType.PROJECT and age_days > STALE_PROJECT_DAYS


def lint_memory(mem: MemoryText, *, now_ms: float | None = None) -> list[Finding]:
    """Every finding for one memory file read with read_memory_text."""

    c = _Collector(mem.rel)
    days = memory_age_days(mem.mtime_ms, now_ms)
    if is_stale(mem.header.type, days):
        c.add(
            "stale-project",
            f"project memory last changed {days} days ago; goals and deadlines drift",
            "check it still holds: update it (with absolute dates) or forget it",
        )
    if mem.binary:
        c.add(
            "not-text",
            "binary content (NUL bytes) in a memory file",
            "remove the file or move it out of the memory dir; memories are Markdown text",
        )
        return c.items
    if mem.invalid_utf8:
        c.add(
            "invalid-utf8",
            "the file is not valid UTF-8; invalid bytes were replaced when reading",
            "re-save the file as UTF-8",
        )
    _check_header(mem, c)
    _check_structure(mem, c)
    _check_content(mem, c)
    _check_secrets(mem, c)
    if mem.capped or mem.size > RECALL_MAX_BYTES or mem.lines > RECALL_MAX_LINES:
        c.add(
            "memory-too-long",
            f"{mem.size:,} bytes / {'more than ' if mem.capped else ''}{mem.lines} lines; recall shows only the "
            f"first {RECALL_MAX_LINES} lines or {RECALL_MAX_BYTES:,} bytes",
            "split it into focused topic files or cut it down to what is not derivable",
        )
    return c.items


# ---------------------------------------------------------------------------- index checks


MAX_LISTED_LINES = 8
_HTML_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
_RULE_LINE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,}|\|?[\s:|-]+\|[\s:|-]*)$")


def pointless_lines(index: ScopeIndex) -> list[int]:
    """Line numbers of MEMORY.md lines that point at no file and are not headings or layout.

    Headings, blank lines, one-line HTML comments, horizontal rules, table header and
    separator rows are layout, not content.
    """
    entry_lines = {e.line_no for e in index.entries}
    lines = index.text.replace("\r\n", "\n").split("\n")
    out = []
    for no, ln in enumerate(lines, 1):
        if not ln.strip() or no in entry_lines or ln.lstrip().startswith("#"):
            continue
        if _HTML_COMMENT.match(ln) or _RULE_LINE.match(ln):
            continue
        if ln.lstrip().startswith("|") and no < len(lines) and _RULE_LINE.match(lines[no]):
            continue  # a table's header row
        out.append(no)
    return out


def lint_index(index: ScopeIndex, memory_files: Iterable[str]) -> list[Finding]:
    """Findings for one MEMORY.md given the memory files of its scope (memory-dir relative)."""
    c = _Collector(index.path)
    files = sorted(memory_files)
    if not index.exists:
        if index.problem:
            c.add(
                "index-refused",
                f"{index.problem}: not loaded into any prompt",
                "replace it with a regular file inside the memory dir: remove the link or FIFO, "
                "then run `memdir-nb rebuild-index DIR`",
            )
        elif files:
            c.add(
                "index-missing",
                f"no {index.path} although {len(files)} memory files exist in this scope",
                "run `memdir-nb rebuild-index DIR` to write one from the files' frontmatter",
            )
        return c.items
    if not index.valid_utf8:
        c.add(
            "index-invalid-utf8",
            f"{index.path} is not valid UTF-8; the invalid bytes reach the prompt as replacement characters",
            "re-save it as UTF-8, or rebuild it with `memdir-nb rebuild-index DIR`",
        )
    text = index.text.strip()
    lines = text.split("\n") if text else []
    n_bytes = len(text.encode("utf-8"))
    if len(lines) > MAX_ENTRYPOINT_LINES or n_bytes > MAX_ENTRYPOINT_BYTES:
        c.add(
            "index-over-cap",
            f"{len(lines)} lines / {n_bytes:,} bytes (caps {MAX_ENTRYPOINT_LINES} lines, "
            f"{MAX_ENTRYPOINT_BYTES:,} bytes): everything past the cap is never loaded",
            "keep one short pointer line per memory; move notes into topic files",
        )
    non_pointer = pointless_lines(index)
    if non_pointer:
        shown = ", ".join(str(n) for n in non_pointer[:MAX_LISTED_LINES])
        more = ", \u2026" if len(non_pointer) > MAX_LISTED_LINES else ""
        c.add(
            "index-not-pointer",
            f"{len(non_pointer)} lines point at no memory file (lines {shown}{more}); "
            "content in the index costs its line and byte budget",
            "keep only '- [Title](file.md) — hook' lines; move the rest into a memory file",
            non_pointer[0],
        )
    for no, ln in enumerate(index.text.replace("\r\n", "\n").split("\n"), 1):
        if len(ln) > MAX_INDEX_LINE_CHARS:
            c.add(
                "index-line-too-long",
                f"line is {len(ln)} characters (keep entries under ~{MAX_INDEX_LINE_CHARS})",
                "shorten the hook to one line; detail belongs in the topic file",
                no,
            )
    seen: dict[str, int] = {}
    for e in index.entries:
        if e.target in seen:
            c.add(
                "index-duplicate-entry",
                f"{e.target} is listed again (first on line {seen[e.target]})",
                "keep one entry per memory file",
                e.line_no,
            )
        else:
            seen[e.target] = e.line_no
    for e in index.dangling:
        c.add(
            "index-dangling-entry",
            f"entry points at {e.target}, which does not exist",
            "remove the line, or restore the file if it was deleted by mistake",
            e.line_no,
        )
    for e in index.outside:
        c.add(
            "index-outside-link",
            f"line links {e.target}, outside the memory dir: recall never loads it",
            "keep pointers to memory files only; mention outside docs in CLAUDE.md instead",
            e.line_no,
        )
    return c.items


def indexed_files(indexes: Iterable[ScopeIndex]) -> frozenset[str]:
    """Memory files some index points at (a private index may list team/ files too)."""
    return frozenset().union(*(ix.referenced for ix in indexes))


def _not_in_index(indexes: list[ScopeIndex], files_by_scope: dict[str, list[str]]) -> list[Finding]:
    out = []
    referenced = indexed_files(indexes)
    for index in indexes:
        if not index.exists:
            continue
        for rel in sorted(files_by_scope.get(index.scope, [])):
            if rel not in referenced:
                out.append(
                    Finding(
                        rel,
                        "not-in-index",
                        SEVERITIES["not-in-index"],
                        f"not listed in {index.path}, so it is never loaded with the index",
                        f"add a '- [Title]({rel.split('/', 1)[1] if index.scope == 'team' else rel})"
                        " — hook' line, or rebuild the index",
                    )
                )
    return out


# ---------------------------------------------------------------------------- the whole dir


@dataclass(frozen=True)
class LintResult:
    """Findings plus what was read, so analysis can reuse one pass."""

    findings: list[Finding]
    memories: list[MemoryText]
    headers: list[MemoryHeader]
    indexes: list[ScopeIndex]
    skipped: list[SkippedFile]


# Dirs this large take over a second to read and lint, so they get a progress bar by default.
PROGRESS_MIN_FILES = 500


def _with_progress(items: list, *, show: bool, desc: str) -> Any:
    """Wrap items in a tqdm.auto bar (a widget in notebooks, stderr elsewhere) when show is set."""
    if not show:
        return items
    from tqdm.auto import tqdm

    return tqdm(items, desc=desc, unit="file", leave=False)


def lint_dir(
    memory_dir: str | os.PathLike[str], *, now_ms: float | None = None, progress: bool | None = None
) -> LintResult:
    """Lint every memory file and both indexes; return the findings and what was read.

    progress: None shows a bar only for dirs of PROGRESS_MIN_FILES or more; True/False force it.
    """
    root = Path(memory_dir)
    if not root.is_dir():
        raise ValueError(
            f"{memory_dir} is not a directory; pass a memory dir (the folder holding MEMORY.md)"
        )
    report = scan_memory_dir(root, limit=None)
    reader = ContainedReader(root)  # realpath of the dir resolved once for every read
    findings: list[Finding] = []
    memories: list[MemoryText] = []
    skipped = list(report.skipped)
    for s in report.skipped:
        findings.append(
            Finding(
                s.path,
                "skipped-by-scan",
                "warning",
                f"not read: {s.reason}",
                "remove or fix the link/permissions, or move the file out of the memory dir",
            )
        )
    show = progress if progress is not None else len(report.headers) >= PROGRESS_MIN_FILES
    for h in _with_progress(
        sorted(report.headers, key=lambda h: h.filename), show=show, desc=f"reading {root.name}"
    ):
        try:
            mem = read_memory_text(root, h, reader=reader)
        except ReadRefused as exc:  # replaced by a FIFO or a link out since the scan
            skipped.append(SkippedFile(h.filename, str(exc)))
            findings.append(
                Finding(
                    h.filename,
                    "unreadable",
                    "error",
                    f"not read: {exc}",
                    "replace it with a regular file inside the memory dir, or remove it",
                )
            )
            continue
        except OSError as exc:
            skipped.append(SkippedFile(h.filename, f"unreadable: {type(exc).__name__}"))
            findings.append(
                Finding(
                    h.filename,
                    "unreadable",
                    "error",
                    f"cannot read the file ({type(exc).__name__})",
                    "fix its permissions, or remove it",
                )
            )
            continue
        memories.append(mem)
        findings.extend(lint_memory(mem, now_ms=now_ms))
    indexes = read_scope_indexes(root)
    files_by_scope: dict[str, list[str]] = {"private": [], "team": []}
    for h in report.headers:
        files_by_scope[scope_of(h.filename)].append(h.filename)
    for index in indexes:
        findings.extend(lint_index(index, files_by_scope.get(index.scope, [])))
    findings.extend(_not_in_index(indexes, files_by_scope))
    findings.sort(key=lambda f: (f.path, f.line or 0, f.rule))
    return LintResult(findings, memories, list(report.headers), indexes, skipped)


def lint_memory_dir(
    memory_dir: str | os.PathLike[str], *, now_ms: float | None = None, progress: bool | None = None
) -> list[Finding]:
    """Every finding in a memory dir, sorted by file then line."""
    return lint_dir(memory_dir, now_ms=now_ms, progress=progress).findings


def count_by_severity(findings: Iterable[Finding]) -> dict[str, int]:
    """{'error': n, 'warning': m}."""
    out = {"error": 0, "warning": 0}
    for f in findings:
        out[f.severity] += 1
    return out
