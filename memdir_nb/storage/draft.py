"""The one set of rules a memory must meet before it is written: validate_draft.

MemoryStore.save and update refuse a draft whose verdict has errors, and the editor shows the same
verdict, so a problem is named once, in one wording, wherever it is caught. Errors stop the write;
warnings are reported (the store keeps them in `store.warnings`) and the write goes ahead.

Errors: a missing or multi-line name or description, a type outside the four, a body that is
not text, an unknown scope, a user memory in team scope, and anything that looks like a secret in
team scope. Warnings: a secret in private scope, a feedback or project memory without a "Why:" or
"How to apply:" line, and a relative date in a project memory (each with the absolute date it
means on the draft's day). See docs/decisions.md ("One draft validation").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from memdir_nb.clock import resolve_now_ms
from memdir_nb.security.secret_scan import SecretFinding, scan_for_secrets
from memdir_nb.spec.constants import STORE_WRITE_MAX_BYTES
from memdir_nb.spec.dates import (
    find_relative_dates,
    local_date,
    names_a_span,
    resolve_relative_date,
)
from memdir_nb.spec.taxonomy import (
    SCOPES,
    TYPE_GUIDANCE,
    TYPE_NAMES,
    MemoryType,
    parse_memory_type,
    scope_violation,
)
from memdir_nb.spec.text import lone_surrogate_problem
from memdir_nb.storage.write_errors import write_size_problem

# The Why / How-to-apply lines: a label line ('**Why:**', 'Why this worked:') or a heading
# ('## Why'), in English or in the languages real memory dirs are written in.
_WHY_WORDS = (
    r"(?:why|reason|理由|原因|为什么|為什麼|なぜ|이유|왜|почему|причина|чому|warum|grund|"
    r"por\s+qu[eé]|porqu[eé]|pourquoi|raz[aã]o|motivo)"
)
_HOW_WORDS = (
    r"(?:how\s+to\s+apply|如何应用|应用方式|适用方式|如何適用|適用方法|適用|적용\s*방법|적용|"
    r"как\s+применять|применение|як\s+застосовувати|застосування|anwendung|wie\s+anwenden|"
    # half-translated labels are common: German "Wie zu apply:", "Wie anwenden:"
    r"wie\s+zu\s+(?:apply|anwenden)|c[oó]mo\s+aplicar|como\s+aplicar|comment\s+appliquer)"
)
_WHY = re.compile(  # a label may end in ':' or be a question ('**Why RTK Query?**')
    rf"^(?:\W{{0,6}}{_WHY_WORDS}[^\n:：?？]{{0,40}}[:：?？]|#{{1,6}}\s*\W{{0,3}}{_WHY_WORDS}\b)",
    re.IGNORECASE | re.MULTILINE,
)
_HOW = re.compile(
    rf"^(?:\W{{0,6}}{_HOW_WORDS}[^\n:：]{{0,40}}[:：]|#{{1,6}}\s*\W{{0,3}}{_HOW_WORDS})",
    re.IGNORECASE | re.MULTILINE,
)

# A bold label may also stand inside a paragraph: real memories write the rule, then
# "**Why:** the incident. **How to apply:** what to do." on one line (the colon inside or just
# after the bold). Without the bold marks a word inside a sentence is no label.
_BOLD_WHY = re.compile(
    rf"\*\*\*?\s?{_WHY_WORDS}[^\n*:：?？]{{0,40}}(?:[:：?？]\s?\*\*|\*\*\s?[:：])", re.IGNORECASE
)
_BOLD_HOW = re.compile(
    rf"\*\*\*?\s?{_HOW_WORDS}[^\n*:：]{{0,40}}(?:[:：]\s?\*\*|\*\*\s?[:：])", re.IGNORECASE
)


def has_why_line(body: str) -> bool:
    """Whether a body has a 'Why:' label: at a line start (any emphasis or bullet before it),
    or in bold inside a line."""
    return _matches_at_a_line_start(_WHY, body) or _bold_label(_BOLD_WHY, body)


def has_how_to_apply_line(body: str) -> bool:
    """Whether a body has a 'How to apply:' label: at a line start (any emphasis or bullet
    before it), or in bold inside a line."""
    return _matches_at_a_line_start(_HOW, body) or _bold_label(_BOLD_HOW, body)


def _bold_label(pattern: re.Pattern[str], text: str) -> bool:
    """Whether pattern, which starts with '**', matches where a '**' stands in text (one
    bounded match per pair of marks, never a search from every character)."""
    at = text.find("**")
    while at >= 0:
        if pattern.match(text, at) is not None:
            return True
        at = text.find("**", at + 1)
    return False


def _matches_at_a_line_start(pattern: re.Pattern[str], text: str) -> bool:
    """Whether pattern, which starts with a MULTILINE '^', finds a match in text: what
    pattern.search says, found by trying the line starts alone.

    Such a match can begin only where a line begins, and search tries every position of
    the text for it (a regex call per character); here it is one call per line.
    """
    if pattern.match(text) is not None:
        return True
    at = text.find("\n")
    while at >= 0:
        if pattern.match(text, at + 1) is not None:
            return True
        at = text.find("\n", at + 1)
    return False


@dataclass(frozen=True)
class DraftProblem:
    """One problem with a draft: a stable code (what the UI and tests key on) and a message."""

    code: str
    message: str


@dataclass(frozen=True)
class DraftVerdict:
    """What the rules say about a draft: errors refuse the write, warnings do not."""

    errors: tuple[DraftProblem, ...] = ()
    warnings: tuple[DraftProblem, ...] = ()
    secret_findings: tuple[SecretFinding, ...] = field(default=(), repr=False)

    @property
    def ok(self) -> bool:
        """True when nothing stops the write."""
        return not self.errors

    @property
    def error_messages(self) -> list[str]:
        """The errors' messages, in the order they were found."""
        return [p.message for p in self.errors]

    @property
    def warning_messages(self) -> list[str]:
        """The warnings' messages, in the order they were found."""
        return [p.message for p in self.warnings]

    def codes(self) -> set[str]:
        """Every problem code, errors and warnings alike."""
        return {p.code for p in (*self.errors, *self.warnings)}


def text_problem(value: object, what: str, *, one_line: bool) -> str | None:
    """Why a name or description is unusable, or None when it is fine."""
    if not isinstance(value, str):
        return f"the memory {what} must be a string, got {type(value).__name__}"
    text = value.strip()
    if not text:
        return f"the memory {what} is empty: give a short, specific {what}"
    if one_line and ("\n" in text or "\r" in text):
        return (
            f"the memory {what} must be one line (it becomes the MEMORY.md pointer); "
            "move the detail into the body"
        )
    if "\0" in text:
        return f"the memory {what} contains a NUL byte; remove it"
    not_text = lone_surrogate_problem(text)
    return f"the memory {what} {not_text}" if not_text else None


def type_problem(raw: object) -> str | None:
    """Why a memory type is unusable, or None when it is one of the four."""
    if parse_memory_type(raw) is not None:
        return None
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return f"no memory type given: the type must be one of {', '.join(TYPE_NAMES)}"
    return (
        f"unknown memory type {raw!r}: the type must be one of "
        f"{', '.join(TYPE_NAMES)} (the taxonomy is closed)"
    )


def body_problem(body: object) -> str | None:
    """Why a body is unusable, or None when it is fine (an empty body is allowed)."""
    if not isinstance(body, str):
        return f"the memory body must be a string, got {type(body).__name__}"
    if "\0" in body:
        return "the memory body contains a NUL byte; remove it"
    not_text = lone_surrogate_problem(body)
    if not_text:
        return f"the memory body {not_text}"
    return _body_size_problem(body)


def _body_size_problem(body: str) -> str | None:
    """Why a body is too large to write (the store's write cap), else None."""
    if len(body) * 4 <= STORE_WRITE_MAX_BYTES:  # at most 4 UTF-8 bytes a character: no encode
        return None
    return write_size_problem("the memory", len(body.encode("utf-8")))


def scope_problem(scope: object) -> str | None:
    """Why a scope is unusable, or None when it is 'private' or 'team'."""
    if scope in SCOPES:
        return None
    return f"unknown scope {scope!r}: use 'private' or 'team'"


def secret_problem(finding: SecretFinding, scope: str) -> DraftProblem:
    """How a secret finding reads in this scope (team: the refusal; private: the caution)."""
    if scope == "team":
        return DraftProblem(
            "secret-in-team",
            f"{finding.describe()}: team memory is shared with everyone, so this save is refused; "
            "remove the secret (name where it is stored instead) or save privately",
        )
    return DraftProblem(
        "secret-in-private",
        f"{finding.describe()}: credentials do not belong in memory, even private memory",
    )


def relative_date_problems(text: str, now_ms: float) -> list[DraftProblem]:
    """One warning per relative date in a project memory, naming the absolute date it means."""
    today = local_date(now_ms)
    problems: list[DraftProblem] = []
    seen: set[str] = set()
    lines = text.split("\n")
    for hit in find_relative_dates(text):
        if hit.phrase.lower() in seen:
            continue
        seen.add(hit.phrase.lower())
        span = names_a_span(lines[hit.line], hit.start, hit.phrase)  # "the past week": no date
        resolved = None if span else resolve_relative_date(hit.phrase, today)
        fix = f"write {resolved.text} instead" if resolved else "write the exact date (YYYY-MM-DD)"
        problems.append(
            DraftProblem(
                "relative-date",
                f"relative date {hit.phrase!r} in a project memory: it stops making sense once "
                f"the week has passed; {fix}",
            )
        )
    return problems


def validate_draft(
    name: object,
    description: object,
    type: object,
    body: object,
    *,
    scope: object = "private",
    now_ms: float | None = None,
) -> DraftVerdict:
    """Check a memory draft against every write rule; each problem is named once."""

    errors: list[DraftProblem] = []
    warnings: list[DraftProblem] = []
    for code, problem in (
        ("name", text_problem(name, "name", one_line=True)),
        ("description", text_problem(description, "description", one_line=True)),
        ("type", type_problem(type)),
        ("body", body_problem(body)),
        ("scope", scope_problem(scope)),
    ):
        if problem:
            errors.append(DraftProblem(code, problem))
    mtype = parse_memory_type(type)
    scope_text = scope if isinstance(scope, str) else ""
    violation = scope_violation(mtype, scope_text)
    if violation:
        errors.append(
            DraftProblem("user-memory-in-team", f"{violation}; save it with scope='private'")
        )
    texts = {k: v for k, v in (("name", name), ("description", description), ("body", body))}
    if not all(isinstance(v, str) for v in texts.values()):
        return DraftVerdict(tuple(errors), tuple(warnings))
    if _body_size_problem(str(body)) is not None:  # refused: no minute-long scan of it first
        return DraftVerdict(tuple(errors), tuple(warnings))
    str_texts = {k: str(v) for k, v in texts.items()}
    findings = tuple(scan_for_secrets(str_texts))
    for finding in findings:
        (errors if scope_text == "team" else warnings).append(secret_problem(finding, scope_text))
    body_text = str_texts["body"]
    if mtype is not None and TYPE_GUIDANCE[mtype].needs_why_and_how:
        if not has_why_line(body_text):
            warnings.append(
                DraftProblem(
                    "missing-why",
                    f"a {mtype.value} memory should say Why: the reason behind it, so edge "
                    "cases can be judged (add a 'Why:' line)",
                )
            )
        if not has_how_to_apply_line(body_text):
            warnings.append(
                DraftProblem(
                    "missing-how-to-apply",
                    f"a {mtype.value} memory should say How to apply: when and where it applies "
                    "(add a 'How to apply:' line)",
                )
            )
    if mtype is MemoryType.PROJECT:
        joined = "\n".join(str_texts.values())
        warnings.extend(relative_date_problems(joined, resolve_now_ms(now_ms)))
    return DraftVerdict(tuple(errors), tuple(warnings), findings)
