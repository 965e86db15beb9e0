"""The derivable-git-history rule: commit ids, and lists of pull requests, in a memory.

The spec leaves git history out of memory: `git log` and `git blame` are the record. A memory
is flagged for a commit id named as one ("reverted in 3f9a2c1d", a 40-digit SHA) or for three
or more pull-request references. `content.lint_memory` feeds it the lines its patterns may
match on.
"""

from __future__ import annotations

import re

from memdir_nb.lint.findings import Collector

GIT_SHA_CONTEXT = re.compile(
    r"\b(?:commit|commits|sha|revert(?:ed|s)?|cherry-pick(?:ed)?|fixed in|landed in|introduced in|merged as)\b[^\n]{0,40}?\b([0-9a-f]{7,40})\b",
    re.IGNORECASE,
)
LONG_SHA = re.compile(r"(?<![\w/])[0-9a-f]{40}(?![\w])")
PR_REF = re.compile(r"(?:\bPRs?\s*#?\d+|(?<![\w&])#\d{2,}\b|/pull/\d+)", re.IGNORECASE)
# Words that make a bare '#123' on the same line a pull request (merged #490, landed in #12)
_PR_CONTEXT = re.compile(
    r"\b(?:PRs?|pull|merg(?:e|ed|es|ing)|land(?:ed|s)?|closed|opened|revert(?:ed|s)?"
    r"|review(?:ed)?|approved|squash(?:ed)?|rebased?|cherry-picked)\b",
    re.IGNORECASE,
)
# A bare '#12' right after the word "issue" is the issue a pull request closed, never a PR
# ("fixed in PR #207 (Issue #164)"), however the line speaks of PRs.
_ISSUE_BEFORE = re.compile(r"\bissues?\s*$", re.IGNORECASE)
_HEX_LETTER = re.compile(r"[a-f]")
_DIGIT = re.compile(r"\d")


class HistoryRefs:
    """One memory's commit ids and PR references, line by line, then its one finding."""

    def __init__(self, wanted: set[re.Pattern[str]]) -> None:
        self.wanted = wanted  # the patterns that may match somewhere in the memory
        self.shas: list[tuple[int, str]] = []
        self.prs: list[tuple[int, str]] = []

    def collect(self, line_no: int, line: str, previous: str) -> None:
        """Commit ids and PR references on one line (after `previous`)."""
        if GIT_SHA_CONTEXT in self.wanted:
            for sm in GIT_SHA_CONTEXT.finditer(line):
                if _HEX_LETTER.search(sm.group(1)) and _DIGIT.search(sm.group(1)):
                    self.shas.append((line_no, sm.group(1)))
        if LONG_SHA in self.wanted:
            self.shas += [(line_no, x.group(0)) for x in LONG_SHA.finditer(line)]
        if PR_REF in self.wanted:
            # A bare '#12' is a PR only where the line (or the one it continues) speaks of PRs
            # or merges: in a design table it is a row id, and after a rule ("Specs hold no
            # code; #1282") an issue it cites; and after the word "issue", an issue anywhere.
            bare_ok = not line.lstrip().startswith("|") and (
                _PR_CONTEXT.search(line) is not None or _PR_CONTEXT.search(previous) is not None
            )
            self.prs += [
                (line_no, x.group(0))
                for x in PR_REF.finditer(line)
                if not x.group(0).startswith("#")
                or (bare_ok and not _ISSUE_BEFORE.search(line, 0, x.start()))
            ]

    @property
    def distinct_prs(self) -> list[str]:
        """The PR references named, each once, in the order first named: what the rule's
        threshold counts and its message says (real38: "18 PR references" counted each
        mention of a handful)."""
        return list(dict.fromkeys(r for _, r in self.prs))

    def report(self, c: Collector) -> None:
        """Commit ids, or a list of three or more PR references, reported as git history."""
        if self.shas:
            ids = list(dict.fromkeys(s for _, s in self.shas))  # an id named twice, listed once
            c.add(
                "derivable-git-history",
                f"git commit ids ({c.quote(', '.join(ids[:3]), 200)}) are git history",
                "use git log / git blame; keep only the decision or incident they explain",
                self.shas[0][0],
            )
        elif len(prs := self.distinct_prs) >= 3:
            c.add(
                "derivable-git-history",
                f"a list of {len(prs)} PR references is git history",
                "link the tracking issue instead, or keep only what was decided",
                self.prs[0][0],
            )
