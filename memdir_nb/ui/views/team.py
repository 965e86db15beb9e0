"""The team view's view-model: each type's scope rule, and whether a private memory may be promoted."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memdir_nb.security.secret_scan import scan_for_secrets
from memdir_nb.spec.constants import TEAM_DIRNAME
from memdir_nb.spec.taxonomy import (
    MEMORY_TYPES,
    TYPE_GUIDANCE,
    Scope,
    allowed_in_team,
    scope_of_path,
    scope_violation,
)
from memdir_nb.storage.containment import absolute_dir
from memdir_nb.storage.draft import type_problem
from memdir_nb.storage.headers import parse_memory_file

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.security.secret_scan import SecretFinding

__all__ = ["PromotionVerdict", "ScopeRule", "promotion_verdict", "scope_rules"]


@dataclass(frozen=True)
class ScopeRule:
    """Where memories of one type go."""

    type: str
    default_scope: Scope
    allowed_in_team: bool
    rule: str


def scope_rules() -> list[ScopeRule]:
    """The scope rule of each of the four types, in the taxonomy's order."""

    return [
        ScopeRule(
            t.value, TYPE_GUIDANCE[t].default_scope, allowed_in_team(t), TYPE_GUIDANCE[t].scope_rule
        )
        for t in MEMORY_TYPES
    ]


@dataclass(frozen=True)
class PromotionVerdict:
    """Whether a private memory may move to team/, and every reason it may not."""

    filename: str
    allowed: bool
    reasons: list[str]
    secret_findings: list[SecretFinding]

    def summary(self) -> str:
        """One line for display."""
        if self.allowed:
            return f"{self.filename}: may be promoted (no credential found, type allowed in team)"
        return f"{self.filename}: cannot be promoted: " + "; ".join(self.reasons)


def promotion_verdict(memory_dir: str | os.PathLike[str], filename: str) -> PromotionVerdict:
    """Check a private memory the way promote() will: its type, its fields, and the secret scan."""

    if scope_of_path(filename) == "team":
        return PromotionVerdict(filename, False, ["it is already in team memory"], [])
    root = absolute_dir(memory_dir)
    fm, body = parse_memory_file(root / filename, root=root)
    reasons: list[str] = []
    violation = scope_violation(fm.type, "team")
    if violation:
        reasons.append(violation)
    elif fm.type is None:
        reasons.append(f"{type_problem(fm.raw_type)}; set one first")
    if not (fm.name or "").strip() or not (fm.description or "").strip():
        reasons.append("its frontmatter lacks a name or description")
    if (root / TEAM_DIRNAME / filename).exists():
        reasons.append(f"{TEAM_DIRNAME}/{filename} already exists")
    findings = scan_for_secrets(
        {"name": fm.name or "", "description": fm.description or "", "body": body}
    )
    reasons.extend(
        f"{f.describe()} (team memory is shared, so secrets are refused)" for f in findings
    )
    return PromotionVerdict(filename, not reasons, reasons, list(findings))
