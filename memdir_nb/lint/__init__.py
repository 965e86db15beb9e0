"""Memory checks: derivable content, secrets, relative dates, structure and the two indexes.

`lint_memory_dir` reads every memory file (not just the 200 newest the selector sees) with a
bounded read, and returns one `Finding` per problem. Severity policy: "error" is for things
that make a memory dir wrong or unsafe (a credential in team memory, a user memory shared
with the team, an unknown type, an index line pointing at nothing, an index the loader cuts,
a store journal left pending by a crash); "warning" is for style and hygiene that weakens
recall without breaking anything.

Rules are deliberately narrow: ordinary memory prose (a deadline with its date, a rule with
its Why and How-to-apply lines, a Grafana board name) produces no findings.

The package: `findings` (Finding, severities, what lint reads), `reading` (bounded reads of
memories and indexes), `content` (per-memory rules), `code_blocks` (fenced blocks: which
lines are inside one, which holds code), `secret_context` (the secret rule and its
public-value masking), `identifier_names` (which tokens are names, not keys, for that
masking), `description_audit` (what a manifest-only selector cannot see in a body),
`index_rules` (MEMORY.md rules), `workers` (the files read and linted on two cores), `kept`
(each file's findings kept between passes in one process, by what was read) and `driver` (the
whole-dir pass).
"""

from memdir_nb.lint.content import (
    MAX_DESCRIPTION_CHARS,
    MIN_DESCRIPTION_WORDS,
    STALE_PROJECT_DAYS,
    VAGUE_DESCRIPTIONS,
    is_stale,
    lint_memory,
)
from memdir_nb.lint.description_audit import (
    DescriptionAudit,
    UnseenSentence,
    audit_description,
)
from memdir_nb.lint.driver import (
    PROGRESS_MIN_FILES,
    LintResult,
    count_by_severity,
    lint_dir,
    lint_memory_dir,
    pending_journal,
)
from memdir_nb.lint.findings import (
    SEVERITIES,
    Finding,
    MemoryText,
    ScopeIndex,
    Severity,
    field_line,
)
from memdir_nb.lint.index_rules import (
    MAX_LISTED_LINES,
    index_should_list,
    indexed_files,
    lint_index,
    not_text_files,
    pointless_lines,
)
from memdir_nb.lint.reading import MAX_READ_BYTES, read_memory_text, read_scope_indexes
from memdir_nb.lint.secret_context import (
    MAX_HEADER_SCAN_CHARS,
    MAX_SECRET_SCAN_CHARS,
    SECRET_LINE_OVERLAP,
    SECRET_LINE_WINDOW,
    mask_public_values,
)

__all__ = [
    "MAX_DESCRIPTION_CHARS",
    "MAX_HEADER_SCAN_CHARS",
    "MAX_LISTED_LINES",
    "MAX_READ_BYTES",
    "MAX_SECRET_SCAN_CHARS",
    "MIN_DESCRIPTION_WORDS",
    "PROGRESS_MIN_FILES",
    "SECRET_LINE_OVERLAP",
    "SECRET_LINE_WINDOW",
    "SEVERITIES",
    "STALE_PROJECT_DAYS",
    "VAGUE_DESCRIPTIONS",
    "DescriptionAudit",
    "Finding",
    "LintResult",
    "MemoryText",
    "ScopeIndex",
    "Severity",
    "UnseenSentence",
    "audit_description",
    "count_by_severity",
    "field_line",
    "index_should_list",
    "indexed_files",
    "is_stale",
    "lint_dir",
    "lint_index",
    "lint_memory",
    "lint_memory_dir",
    "mask_public_values",
    "not_text_files",
    "pending_journal",
    "pointless_lines",
    "read_memory_text",
    "read_scope_indexes",
]
