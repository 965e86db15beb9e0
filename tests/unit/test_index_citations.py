"""formats/index_citations.py: which hooks of MEMORY.md's entry lines cite their source."""

from __future__ import annotations

import pytest

from memdir_nb.formats.index_citations import cites


@pytest.mark.parametrize(
    "hook",
    [
        "deploys run midweek (source: https://wiki.example.org/ops)",
        "the co-op [source: supplier email of 2026-03-02]",
        "cone 6 for every glaze [^1]",
        "cone 6 for every glaze[^glaze-test]",
        "keep replies short ([style guide](https://example.org/style))",
        "needs a 40 A breaker (see the electrician's notes in kiln-incident.md)",
        "HTTP caching rules (ref: RFC 9110)",
        "the landlord heats open days only (according to the lease)",
        "opening hours. Source: the 2025 audit",
        "see https://status.example.org for outages",
        "retry budget is three tries (cf. the incident review)",
        "the three rules of glazing [3]",
        "details in [the kiln log](kiln_log.md)",
        # real44: a research index names where each memory's full write-up is
        "the validated purpose; Full doc: `~/plans/kiln-north-star.md`",
        "design first. Approved plan: `~/plans/glaze-rework.md`",
    ],
)
def test_a_hook_that_names_where_its_fact_comes_from_cites(hook: str) -> None:
    assert cites(hook)


@pytest.mark.parametrize(
    "hook",
    [
        "deploys run Tuesday to Thursday only",
        "three firings (per week)",
        "reach the box (via SSH) from the office",
        "the kiln (seen from the yard) is the small one",
        "a [draft] of the price list",
        "ratio 3:1 of clay to grog",
        "the v2 [beta] release",
        "plan: fire on Tuesday, details: ask the studio",
        "",
    ],
)
def test_a_hook_naming_no_source_does_not_cite(hook: str) -> None:
    assert not cites(hook)


@pytest.mark.timeout(10)
@pytest.mark.parametrize(
    ("hook", "cited"),
    [
        ("[^" * 200_000, False),  # every "[^" opens a marker that never closes
        ("[^a" * 130_000, False),
        ("[^a" * 130_000 + " [^1]", True),  # the real marker after them is still found
        ("](" * 200_000, False),
        ("(see " * 80_000, False),
        ("docs :" * 60_000, False),
    ],
    ids=["carets", "carets-and-labels", "then-a-marker", "link-halves", "open-sees", "labels"],
)
def test_a_hook_of_unclosed_citation_openers_is_read_in_linear_time(hook: str, cited: bool) -> None:
    # attack44: the footnote marker's label ran to the hook's end from each "[^" (400,000
    # characters: minutes); a fit asks this of every line of an index
    assert cites(hook) is cited
