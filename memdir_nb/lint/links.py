"""The dangling-link rule: a `[[name]]` link in a memory that no memory of the dir answers to.

A memory answers to its `name:`, its file's stem, the stem with hyphens and both without the type
(formats.wikilinks.names_linking); a private memory's link finds memories of both scopes, a team
memory's only team ones (formats.wikilinks, the scope rule). The rule needs every memory's
names, so it runs once per lint over what the per-file pass gathered: one name index built once
(formats.wikilinks.LinkTargets), each link looked up in it, no pair of files compared.

Claude Code's late-2026 prompt lets a link name a memory not written yet (a reminder to write
it), so the finding is a warning and its fix says so; a link left by a memory that was
forgotten, deleted, renamed or merged reads the same, and is the one worth fixing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.formats.wikilinks import LinkTargets, link_key, shown_link
from memdir_nb.lint.findings import SEVERITIES, Finding
from memdir_nb.spec.taxonomy import scope_of_path
from memdir_nb.spec.text import terminal_line

RULE = "dangling-link"
# (0-based line in the file's text, name) of each link a file holds (formats.wikilinks.link_uses)
LinkUses = Sequence[tuple[int, str]]


def link_findings(headers: Iterable[MemoryHeader], uses: dict[str, LinkUses]) -> list[Finding]:
    """A finding for each name a memory links that no memory it can see answers to (once per
    file and name, at its first line). uses: the memory-dir-relative files that hold links."""
    if not uses:
        return []
    targets = LinkTargets((h.filename, h.scope, h.name) for h in headers)
    out: list[Finding] = []
    for rel in sorted(uses):
        scope = scope_of_path(rel)
        seen: set[str] = set()
        for line, name in uses[rel]:
            key = link_key(name)
            if key in seen or targets.finds(name, scope):
                continue
            seen.add(key)
            out.append(_finding(rel, scope, line + 1, name, targets.private_only(name)))
    return out


def _finding(rel: str, scope: str, line: int, name: str, private: str | None) -> Finding:
    link = shown_link(name)
    if scope == "team" and private is not None:
        message = (
            f"links {link}, which only the private memory {terminal_line(private)} answers "
            "to: teammates reading team/ do not have it"
        )
        hint = f"promote {terminal_line(private)} to team/ if the team should have it, or drop the link"
    else:
        message = (
            f"links {link}, which no memory {'in team/ ' if scope == 'team' else ''}answers "
            "to (by name:, file stem, the stem with hyphens, or either without its type)"
        )
        hint = (
            "if its memory was renamed, merged or forgotten, point the link at the memory that "
            "holds it now (its name: or file stem), or restore it from .trash/; a link kept on "
            "purpose for a memory still to write can stay"
        )
    return Finding(rel, RULE, SEVERITIES[RULE], message, hint, line)
