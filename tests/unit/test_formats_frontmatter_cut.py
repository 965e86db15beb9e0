"""Where a description was cut at a ' #' (formats/frontmatter_cut.py)."""

from __future__ import annotations

import pytest

from memdir_nb.formats.frontmatter import parse_frontmatter
from memdir_nb.formats.frontmatter_cut import description_cut_at_hash


def _cut(header: str, body: str) -> tuple[str, str] | None:
    fm, parsed_body = parse_frontmatter(f"---\n{header}\n---\n{body}")
    return description_cut_at_hash(fm, parsed_body)


@pytest.mark.parametrize(
    ("header", "body", "expected"),
    [
        # committed already cut: the body's first line (or title) goes on past a ' #'
        (
            "description: Issue",
            "Issue #184 broke the sync.\n",
            ("Issue", "Issue #184 broke the sync."),
        ),
        ("description: Issue", "\n# Issue #184 sync\n", ("Issue", "Issue #184 sync")),
        # a plain value: YAML tools cut it, this reader keeps it whole as Claude Code does
        ("description: Issue #184", "text\n", ("Issue", "Issue #184")),
        # a quoted value with a comment after it on the line
        ('description: "Plant" # Brno contacts', "x\n", ("Plant", "Plant # Brno contacts")),
    ],
)
def test_a_description_cut_at_a_hash_gives_what_was_kept_and_the_whole(
    header: str, body: str, expected: tuple[str, str]
) -> None:
    assert _cut(header, body) == expected


@pytest.mark.parametrize(
    ("header", "body"),
    [
        ('description: "Issue #184 broke the sync"', "Issue #184 broke the sync.\n"),
        ("description: Issue", "Issues #184 and #185 broke the sync.\n"),  # not its own word
        ("description: Deploy notes", "Deploy notes for the #ops channel.\n"),  # no ' #' next
        ("name: x", "Issue #1\n"),
    ],
)
def test_a_whole_description_is_not_called_cut(header: str, body: str) -> None:
    assert _cut(header, body) is None
