"""Per-memory rules: header, Why/How-to-apply structure, derivable content, dates, staleness.

`lint_memory` runs every per-file rule on one memory read by `read_memory_text`; the secret
rule lives in memdir_nb.lint.secret_context.
"""

from __future__ import annotations

import re

from memdir_nb.formats.frontmatter_cli import cli_header_end
from memdir_nb.lint.code_blocks import content_lines, first_code_block
from memdir_nb.lint.content_patterns import (
    CODE_SYMBOL,
    EPHEMERAL,
    FILE_LINE,
    IN_PROGRESS,
    LINE_PATTERNS,
    lowered,
    matches_somewhere,
    names_a_status,
)
from memdir_nb.lint.description_audit import check_description_coverage, vague_description_fix
from memdir_nb.lint.findings import Collector, Finding, MemoryText, field_line
from memdir_nb.lint.fix_commands import relative_date_fix
from memdir_nb.lint.git_history import HistoryRefs
from memdir_nb.lint.secret_context import check_secrets
from memdir_nb.spec import text as textseg
from memdir_nb.spec.constants import RECALL_MAX_BYTES, RECALL_MAX_LINES
from memdir_nb.spec.dates import ABSOLUTE_DATE, may_hold_relative_date
from memdir_nb.spec.dates import find_relative_dates as find_date_phrases
from memdir_nb.spec.freshness import memory_age_days
from memdir_nb.spec.taxonomy import TYPE_NAMES, MemoryType, scope_violation
from memdir_nb.storage.draft import has_how_to_apply_line, has_why_line

STALE_PROJECT_DAYS = 365
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

_LATIN_LETTER = re.compile(r"[A-Za-z\u00c0-\u024f]")
_ANY_LETTER = re.compile(r"[^\W\d_]")


def _mostly_other_script(line: str) -> bool:
    """Whether most letters of a line are outside the Latin script (CJK, Hangul, Cyrillic...)."""
    letters = len(_ANY_LETTER.findall(line))
    return letters > 0 and len(_LATIN_LETTER.findall(line)) < letters / 2


def _check_readings(mem: MemoryText, c: Collector) -> None:
    """Headers Claude Code reads otherwise than YAML or this reader does: a plain value holding
    ' #', and a '---' inside the header, where Claude Code ends it."""
    fm = mem.header
    for key, (cut, whole) in sorted(fm.inline_hash.items()):
        shown_whole, shown_cut = c.quote_pair(whole, cut)
        c.add(
            "inline-hash-value",
            f"{key} holds ' #': Claude Code 2.1.214+ reads {shown_whole!r}, while older "
            f"versions and YAML tools cut it to {shown_cut!r}",
            "quote the value so every reader agrees, or delete the ' #' part if it was meant as "
            "a comment",
            field_line(mem, key),
        )
    early = cli_header_end(fm)
    if early is not None:
        lost = ", ".join(early.lost)
        after = f"the keys after it ({lost}) are" if lost else "the rest of that line is"
        c.add(
            "header-ends-early",
            f"this line holds '---', where Claude Code ends the header (it closes at the first "
            f"'---', even inside a value or quotes): to it the header stops at "
            f"{c.quote(early.kept)!r}, and {after} body",
            "write the value without '---' (an em dash or '--' reads the same); quoting does not "
            "help",
            early.index + 2,  # the opening fence is the file's line 1
        )


def _check_header(mem: MemoryText, c: Collector) -> None:
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
            fm.problem_line or 1,
        )
    _check_readings(mem, c)
    if not (fm.name or "").strip():
        c.add("missing-name", "no name in the header", "add 'name: <short title>' to the header", 1)
    if fm.type is None:
        if fm.raw_type:
            c.add(
                "unknown-type",
                f"unknown type {c.quote(fm.raw_type)!r}",
                f"use one of: {', '.join(TYPE_NAMES)}",
                field_line(mem, "type"),
            )
        elif not fm.typeless_by_design:  # Claude Code's own writer leaves the type out
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
            f"description {c.quote(desc)!r} is too vague to recall by",
            vague_description_fix(mem, c),
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


def _check_structure(mem: MemoryText, c: Collector) -> None:
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


def _check_content(mem: MemoryText, c: Collector) -> None:
    texts = _texts_outside_code(mem, c)
    # Each pattern is tried on the lines only when it matches somewhere in them all: a match
    # on one line also matches the lines joined (no pattern needs a line's start or end), and
    # most memories hold none, so most files cost one C-level pass per pattern.
    blob = "\n".join(line for _, line in texts)
    low = lowered(blob)
    wanted = {p for p in LINE_PATTERNS if matches_somewhere(p, blob, low)}
    # "in progress" counts only in a memory with no absolute date in it
    if matches_somewhere(IN_PROGRESS, blob, low) and not ABSOLUTE_DATE.search(mem.text):
        wanted.add(IN_PROGRESS)
    seen_rules: set[str] = set()
    history = HistoryRefs(wanted)
    previous = ""  # a sentence that says "merged (#301," may wrap onto the next line
    for line_no, line in texts if wanted else ():
        _check_line(c, line_no, line, wanted, seen_rules)
        history.collect(line_no, line, previous)
        previous = line
    history.report(c)
    if mem.header.type is MemoryType.PROJECT and may_hold_relative_date(blob):
        _report_relative_date(c, texts)


def _texts_outside_code(mem: MemoryText, c: Collector) -> list[tuple[int, str]]:
    """(file line, text) of the name, the description and the body outside code blocks.

    A fenced code block is reported once (derivable-code-block); its lines are not searched.
    """
    fm = mem.header
    sources = [
        (field_line(mem, k), v)
        for k, v in (("name", fm.name), ("description", fm.description))
        if v
    ]
    body_lines = list(content_lines(mem.body))
    # Every fence holds ``` or ~~~: a body without either has no block, line by line unasked
    fenced = "```" in mem.body or "~~~" in mem.body
    block_start = first_code_block(body_lines, mem.body_line) if fenced else None
    if block_start is not None:
        c.add(
            "derivable-code-block",
            "a fenced code block: code lives in the repository, not in memory",
            "remove the code and keep only what the code cannot tell (the decision, the reason)",
            block_start,
        )
    return sources + [(mem.body_line + i, line) for i, line, fenced in body_lines if not fenced]


def _check_line(
    c: Collector, line_no: int, line: str, wanted: set[re.Pattern[str]], seen: set[str]
) -> None:
    """The per-line rules (file paths, code maps, task state), each reported once per file."""
    m = FILE_LINE.search(line) if FILE_LINE in wanted else None
    if m and "derivable-file-path" not in seen:
        seen.add("derivable-file-path")
        c.add(
            "derivable-file-path",
            f"file path with a line number ({c.quote(m.group(0))!r}) goes stale as code moves",
            "drop the location; say what is non-obvious about it, or where to look by name",
            line_no,
        )
    m = CODE_SYMBOL.search(line) if CODE_SYMBOL in wanted else None
    if m and "derivable-code-symbol" not in seen:
        seen.add("derivable-code-symbol")
        c.add(
            "derivable-code-symbol",
            f"records where code lives ({c.quote(m.group(0))!r}), which reading the code shows",
            "keep only the reason or surprise behind it, not the code map",
            line_no,
        )
    m = EPHEMERAL.search(line) if EPHEMERAL in wanted else None
    if m is None and IN_PROGRESS in wanted:
        m = IN_PROGRESS.search(line)
    if m and names_a_status(line, m):
        m = None
    if m and "ephemeral-task-state" not in seen:
        seen.add("ephemeral-task-state")
        c.add(
            "ephemeral-task-state",
            f"ephemeral task state ({c.quote(m.group(0))!r}) is stale by the next session",
            "save only lasting facts; use a task list or plan for work in flight",
            line_no,
        )


def _report_relative_date(c: Collector, texts: list[tuple[int, str]]) -> None:
    """The first relative date of a project memory (in its own script), reported once."""
    before = ""  # the last line above that is not blank: it may hold the date a weekday names
    for line_no, line in texts:
        if _mostly_other_script(line):
            before = line if line.strip() else before
            continue  # an English 'today' inside Korean or Chinese prose is a label, not a date
        hits = find_date_phrases(line, before)
        before = line if line.strip() else before
        if hits:
            c.add(
                "relative-date",
                f"relative date {c.quote(hits[0].phrase)!r} in a project memory means nothing weeks later",
                # not one fixed example ("e.g. 'Thursday' -> '2026-03-05'" whatever was found:
                # fresh34, fresh36), but where the date it meant comes from, and the command
                # that works each one out
                relative_date_fix(None),  # the dir is named by the driver (named_dir)
                line_no,
            )
            return


def is_stale(memory_type: MemoryType | None, age_days: int) -> bool:
    """The stale rule: a project memory unchanged for more than STALE_PROJECT_DAYS days."""
    return memory_type is MemoryType.PROJECT and age_days > STALE_PROJECT_DAYS


def lint_memory(mem: MemoryText, *, now_ms: float | None = None) -> list[Finding]:
    """Every finding for one memory file read with read_memory_text."""
    return stale_findings(mem, now_ms) + content_findings(mem)


def stale_findings(mem: MemoryText, now_ms: float | None) -> list[Finding]:
    """The one finding of a memory that depends on the time (stale-project), first of its findings."""
    days = memory_age_days(mem.mtime_ms, now_ms)
    if not is_stale(mem.header.type, days):
        return []
    c = Collector(mem.rel)
    c.add(
        "stale-project",
        f"project memory last changed {days} days ago; goals and deadlines drift",
        "check it still holds: update it (with absolute dates) or forget it",
    )
    return c.items


def content_findings(mem: MemoryText) -> list[Finding]:
    """Every finding for one memory but stale-project: a function of what lint.kept.lint_key
    holds (its path, scope, size and what was read), never of the time or its mtime."""
    c = Collector(mem.rel)
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
    secrets = Collector(mem.rel)
    # first, so that every rule's quote masks what the secret rule found (Collector.quote)
    c.secret_values = check_secrets(mem, secrets)
    _check_header(mem, c)
    _check_structure(mem, c)
    _check_content(mem, c)
    check_description_coverage(mem, c)
    c.items += secrets.items
    if mem.capped or mem.size > RECALL_MAX_BYTES or mem.lines > RECALL_MAX_LINES:
        c.add(
            "memory-too-long",
            f"{mem.size:,} bytes / {'more than ' if mem.capped else ''}{mem.lines} lines; recall shows only the "
            f"first {RECALL_MAX_LINES} lines or {RECALL_MAX_BYTES:,} bytes",
            "split it into focused topic files or cut it down to what is not derivable",
        )
    return c.items
