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
