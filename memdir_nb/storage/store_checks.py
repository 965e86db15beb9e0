"""The store's input checks: names, types, bodies and scopes, each refused with the fix.

The rules themselves live in memdir_nb.storage.draft (validate_draft); these raise their verdicts.
Split out of store.py (which re-exports every name here) so the writer stays small.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata

from memdir_nb.formats.names import (
    is_index_name,
    lookalike_problem,
    name_problem,
    tilde_free,
    tilde_problem,
)
from memdir_nb.security import secret_scan
from memdir_nb.spec.quoted import shown_problem
from memdir_nb.spec.taxonomy import MemoryType, require_memory_type
from memdir_nb.spec.text import terminal_safe
from memdir_nb.storage import containment as team_paths
from memdir_nb.storage.draft import (
    DraftVerdict,
    body_problem,
    scope_problem,
    text_problem,
    type_problem,
)
from memdir_nb.storage.name_twins import new_name_twin

MAX_SLUG_CHARS = 60


class MemoryValidationError(ValueError):
    """Bad input to the store; the message names the problem and the fix. Nothing was written."""

    def __init__(self, message: object = "") -> None:
        super().__init__(shown_problem(str(message)))  # a 1 MB filename was quoted whole


class MemoryNotFoundError(MemoryValidationError):
    """The memory file named does not exist."""


def _require_text(value: object, what: str, *, one_line: bool) -> str:
    """A non-blank string (stripped); one_line refuses line breaks that would break the index."""
    problem = text_problem(value, what, one_line=one_line)
    if problem:
        raise MemoryValidationError(problem)
    return str(value).strip()


def _require_type(raw: object) -> MemoryType:
    problem = type_problem(raw)
    if problem:
        raise MemoryValidationError(problem)
    return require_memory_type(raw)


def _require_body(body: object) -> str:
    problem = body_problem(body)
    if problem:
        raise MemoryValidationError(problem)
    return str(body)


def _require_scope(scope: object) -> str:
    problem = scope_problem(scope)
    if problem:
        raise MemoryValidationError(problem)
    return str(scope)


def raise_for_verdict(verdict: DraftVerdict) -> None:
    """Raise the verdict's errors: MemoryValidationError, or SecretInTeamMemoryError for secrets alone."""
    others = [p.message for p in verdict.errors if p.code != "secret-in-team"]
    if others:
        raise MemoryValidationError("; ".join(others))
    if verdict.errors:
        raise secret_scan.SecretInTeamMemoryError(verdict.secret_findings)


def check_plain_md_name(
    filename: object, *, new: bool = False, folder: str | os.PathLike[str] | None = None
) -> str:
    """A bare memory file name, as the name gate (memdir_nb.formats.names) decides; raises otherwise.

    The gate refuses folders, '..', a leading dot, names not ending in .md, MEMORY.md in any
    case, NUL, backslash, C0/C1 controls, DEL, bidi controls and names that are not UTF-8.
    `new`: the name is about to be made (save's filename=), so one starting with '~', which a
    shell reads as a home, is refused too (the gate's tilde_problem); an existing one is not.
    `folder`: where a new name is made, when one there is the name in another Unicode normal
    form (storage.name_twins): refused, as macOS refuses it.
    """
    fix = "pass a plain file name such as 'feedback_testing.md' (the scope picks the folder)"
    if not isinstance(filename, str) or not filename:
        raise MemoryValidationError(f"filename must be a non-empty string; {fix}")
    shown = terminal_safe(repr(filename))
    if is_index_name(filename):
        raise MemoryValidationError(
            f"{shown} is the index file, not a memory; choose another name ({fix})"
        )
    if "/" in filename:
        raise MemoryValidationError(f"filename {shown} is a path, not a file name; {fix}")
    problem = name_problem(filename)
    if problem is not None:
        if lookalike_problem(filename):  # a slash look-alike may hide a traversal: say so first
            team_paths.sanitize_path_key(filename)
        raise MemoryValidationError(f"filename {shown} {problem}; {fix}")
    if ".." in filename:
        raise MemoryValidationError(f"filename {shown} contains '..'; {fix}")
    # percent-encoded or Unicode look-alike traversal ('%2e%2e%2f', fullwidth dots): PathTraversalError
    team_paths.sanitize_path_key(filename)
    tilde = tilde_problem(filename) if new else None
    if tilde is not None:
        raise MemoryValidationError(
            f"filename {shown} is refused: {tilde}, so the store makes no such name; pass "
            f"filename={tilde_free(filename)!r} instead"
        )
    twin = new_name_twin(folder, filename) if new and folder is not None else None
    if twin is not None:
        raise MemoryValidationError(f"filename {shown} is refused: {twin}; nothing was written")
    return filename


def slugify(name: str, *, max_chars: int = MAX_SLUG_CHARS) -> str:
    """Lowercase ascii words joined by '_' (accents dropped), cut at a word end; a short hash if nothing is left."""
    ascii_text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    slug = ""
    for word in words:
        candidate = f"{slug}_{word}" if slug else word
        if len(candidate) > max_chars:
            if not slug:
                slug = word[:max_chars]
            break
        slug = candidate
    if not slug:
        slug = "m" + hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
    return slug


def default_filename(name: str, memory_type: MemoryType | str) -> str:
    """`{type}_{slug(name)}.md`."""
    return f"{_require_type(memory_type).value}_{slugify(name)}.md"
