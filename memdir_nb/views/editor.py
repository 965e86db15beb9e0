"""The editor's view-model: a save form's checks, its body text, and the file and index-line previews.

The date rules here are the editor's current copy; issue 11 moves them (and the draft checks)
to one home in the store and a dates module, and this module then shows that verdict.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from memdir_nb.constants import TEAM_DIRNAME
from memdir_nb.types import MEMORY_TYPES, TYPE_GUIDANCE, MemoryType, parse_memory_type
from memdir_nb.views.common import now_or_wall_clock

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.secret_scan import SecretFinding

__all__ = [
    "DraftCheck",
    "RelativeDate",
    "absolute_date_for",
    "check_draft",
    "compose_body",
    "find_relative_dates",
]

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
    today = _local_date(now_or_wall_clock(now_ms))
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
