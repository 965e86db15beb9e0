"""The editor's view-model: a save form's verdict, its body text, and the file and index-line previews.

The rules are the store's: `check_draft` composes the body and asks `memdir_nb.storage.draft.validate_draft`
(the one draft validation MemoryStore.save uses), so the editor names each problem once, in the
store's words, with the store's split into errors (the save is refused) and warnings (it goes
ahead). The only thing added here is a note that the file name is taken, which is a preview of
where the store will write, not a rule.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from memdir_nb.clock import resolve_now_ms
from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.formats.index import format_index_entry
from memdir_nb.spec.constants import TEAM_DIRNAME
from memdir_nb.spec.taxonomy import TYPE_GUIDANCE, MemoryType, parse_memory_type
from memdir_nb.storage.draft import DraftProblem, DraftVerdict, validate_draft
from memdir_nb.storage.store_checks import default_filename

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.security.secret_scan import SecretFinding

__all__ = ["FILE_NAME_TAKEN", "DraftCheck", "check_draft", "compose_body"]

FILE_NAME_TAKEN = "file-name-taken"  # the code of the editor's one note that is not a store rule


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
    """A save form checked: the store's verdict on it, the body it makes, and the previews."""

    verdict: DraftVerdict
    notes: tuple[DraftProblem, ...]  # editor-only warnings (the file name is taken)
    body: str
    filename: str  # the file name the store will choose first ('' when unknown)
    relative_path: str  # relative to the memory dir ('team/x.md' for team)
    preview_file: str  # the file text that would be written ('' when the draft has errors)
    preview_index_line: str
    secret_findings: list[SecretFinding] = field(default_factory=list)

    @property
    def errors(self) -> list[str]:
        """What refuses the save: the store's errors, each named once."""
        return self.verdict.error_messages

    @property
    def warnings(self) -> list[str]:
        """What the save goes ahead with: the store's warnings, then the editor's notes."""
        return self.verdict.warning_messages + [n.message for n in self.notes]

    @property
    def ok(self) -> bool:
        """True when nothing blocks the save."""
        return self.verdict.ok


def _file_name_taken(memory_dir: Path, relative: str) -> DraftProblem | None:
    """A note when the store's first-choice file name already exists, else None."""
    if not (memory_dir / relative).exists():
        return None
    return DraftProblem(
        FILE_NAME_TAKEN,
        f"{relative} already exists: the store keeps it and saves this one under a numbered "
        "name (unless the text is identical); use update to change the existing memory",
    )


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
    """Compose the body, take the store's verdict on the draft, and build the previews."""

    mtype = parse_memory_type(type)
    body = compose_body(mtype, rule, why, how)
    verdict = validate_draft(name, description, type, body, scope=scope, now_ms=now_ms)
    codes = {p.code for p in verdict.errors}
    notes: list[DraftProblem] = []
    filename = relative = preview = index_line = ""
    if mtype is not None and "name" not in codes:
        filename = default_filename(name.strip(), mtype)
        relative = f"{TEAM_DIRNAME}/{filename}" if scope == "team" else filename
        note = _file_name_taken(Path(memory_dir), relative)
        if note is not None:
            notes.append(note)
        if "description" not in codes:
            preview = render_memory_file(  # as the store writes it, with its `modified:` time
                name.strip(), description.strip(), mtype, body, modified_ms=resolve_now_ms(now_ms)
            )
            index_line = format_index_entry(name.strip(), filename, description.strip())
    return DraftCheck(
        verdict=verdict,
        notes=tuple(notes),
        body=body,
        filename=filename,
        relative_path=relative,
        preview_file=preview,
        preview_index_line=index_line,
        secret_findings=list(verdict.secret_findings),
    )
