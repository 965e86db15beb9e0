"""benchmarks/shortlist_sizes.py: its simulated shortlist gives the features the selector gives."""

from __future__ import annotations

from pathlib import Path

import pytest
import shortlist_sizes

from memdir_nb.recall.semantic import SemanticSelector
from memdir_nb.recall.shortlist import (
    BODY_SHORTLIST_ALL_UP_TO,
    BODY_SHORTLIST_BY_FULL_TEXT,
    BODY_SHORTLIST_BY_MANIFEST,
    BODY_SHORTLIST_BY_WINDOW_TERMS,
)
from memdir_nb.storage.scan import scan_memory_files
from tests.conftest import build_large_ops_dir
from tests.support.benchmarks import encoder_installed

SHIPPED = (
    BODY_SHORTLIST_ALL_UP_TO,
    BODY_SHORTLIST_BY_MANIFEST,
    BODY_SHORTLIST_BY_FULL_TEXT,
    BODY_SHORTLIST_BY_WINDOW_TERMS,
)


@pytest.mark.skipif(not encoder_installed(), reason="the model package is not installed")
@pytest.mark.parametrize(
    "query", ["what are the billing rate limits?", "we changed sleep to 10 minutes", "lisbon"]
)
def test_the_simulated_shortlist_scores_every_memory_as_the_selector_does(
    tmp_path: Path, query: str
) -> None:
    d = build_large_ops_dir(tmp_path / "ops")
    headers = scan_memory_files(d)
    every = SemanticSelector(cache_dir=tmp_path / "cache", progress=False, shortlist=False)
    shipped = SemanticSelector(cache_dir=tmp_path / "cache", progress=False)
    simulated, compared = shortlist_sizes.shortlisted(every.score(query, headers), SHIPPED)
    real = {e.filename: e.features for e in shipped.score(query, headers)}
    assert compared < len(headers)
    for e in simulated:
        assert e.features == pytest.approx(real[e.filename], abs=1e-6), e.filename


def test_an_empty_answer_to_a_nothing_relevant_query_scores_one() -> None:
    assert shortlist_sizes.f1([], []) == 1.0
    assert shortlist_sizes.f1(["a.md"], []) == 0.0
    assert shortlist_sizes.f1(["a.md", "b.md"], ["a.md"]) == pytest.approx(2 / 3)


def test_a_holdout_file_is_refused(tmp_path: Path) -> None:
    holdout = tmp_path / "recall_holdout.json"
    holdout.write_text('{"dirs": [], "questions": []}', encoding="utf-8")
    with pytest.raises(SystemExit):
        shortlist_sizes.main([str(holdout)])
