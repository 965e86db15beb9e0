"""What lint keeps between passes in one process: each memory's findings, by what was read.

A memory's findings, but for stale-project, are a function of its path, scope, size and the
text read from it (content.content_findings): no rule looks at the time, the mtime, another
file or the environment. A notebook, the browser or the dashboard lints the same dir again and
again while one file changes, so a later pass in this process takes the findings of every file
whose key is the same as before from here, and runs the rules only on the others. Each file is
still read and parsed (the key is what was read, not a stat that could miss a change), and
stale-project is worked out anew each pass.

Keyed by the text itself (no digest two contents could share), in a
`spec.bounded_cache.ByteBoundedLRU`, the package's one in-process cache bounded in entries and
in bytes. A pass over more files than KEPT_MAX_FILES neither asks nor fills it: a pass in the
listing's order over more files than the store holds would drop each entry before it is asked
for again (the least recently used goes first), so there the store would be pure cost.
"""

from __future__ import annotations

from memdir_nb.lint.findings import Finding, MemoryText
from memdir_nb.spec.bounded_cache import ByteBoundedLRU, weight_of

# The interactive sizes: 5,000 memories of up to about 3 KB each (bench files: about 1.5 KB
# with their findings). Bigger dirs take seconds whatever is kept (docs/performance.md).
KEPT_MAX_FILES = 5_000
KEPT_MAX_BYTES = 16 * 1024 * 1024

# rel, scope, size (stat), capped, binary, invalid_utf8, text: all content_findings reads
LintKey = tuple[str, str, int, bool, bool, bool, str]
# A file's key and its findings (content_findings), found in one process to be kept in another
Kept = tuple[LintKey, tuple[Finding, ...]]

_FINDING_BYTES = 120  # a Finding and its tuple slot, beyond its message (hints are shared)


def _weigh(key: LintKey, found: tuple[Finding, ...]) -> int:
    """An entry's bytes: its text and path as allocated (weight_of: getsizeof's number, without
    its argument parsing for an exact str), and each finding with its message."""
    return (
        weight_of(key[6])
        + weight_of(key[0])
        + sum(weight_of(f.message) + _FINDING_BYTES for f in found)
    )


_KEPT: ByteBoundedLRU[LintKey, tuple[Finding, ...]] = ByteBoundedLRU(
    max_entries=KEPT_MAX_FILES, max_bytes=KEPT_MAX_BYTES, weigh=_weigh
)


def keeps(n_files: int) -> bool:
    """Whether a pass over n_files asks the store and fills it."""
    return n_files <= KEPT_MAX_FILES


def lint_key(mem: MemoryText) -> LintKey:
    """Everything of mem that content_findings reads (the header and body are parsed from text)."""
    return (mem.rel, mem.scope, mem.size, mem.capped, mem.binary, mem.invalid_utf8, mem.text)


def kept_findings(key: LintKey) -> tuple[Finding, ...] | None:
    """The findings kept for key, or None."""
    return _KEPT.get(key)


def keep(entries: list[Kept]) -> None:
    """Keep each file's findings under its key (the least recently used go past the bounds)."""
    for key, found in entries:
        _KEPT.put(key, found)


def forget_kept() -> None:
    """Drop everything kept (tests, or a caller that changed a rule in this process)."""
    _KEPT.clear()
