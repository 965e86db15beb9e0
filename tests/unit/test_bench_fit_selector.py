"""benchmarks/fit_selector.py: the fit writes a loadable model, refuses holdouts, and its fast grid answers exactly as decide()."""

from __future__ import annotations

import json
from pathlib import Path

import fit_selector
import pytest

from memdir_nb.recall.decision import DecisionModel
from tests.support.benchmarks import (
    GARDEN_MEMORIES,
    GARDEN_WATER_QUERY,
    corpus_memory,
    encoder_installed,
)

REPO = Path(__file__).resolve().parents[2]


# Two small dirs in our own words: a garden and a build server.
CASES = {
    "dirs": [
        {
            "id": "garden",
            "memories": GARDEN_MEMORIES,
            "queries": [
                GARDEN_WATER_QUERY,
                {
                    "id": "g2",
                    "query": "When is the compost turned?",
                    "relevant": ["project_compost.md"],
                    "kind": "direct",
                },
                {
                    "id": "g3",
                    "query": "What is the capital of Peru?",
                    "relevant": [],
                    "kind": "none",
                },
            ],
        },
        {
            "id": "builds",
            "memories": [
                corpus_memory(
                    "project_ci_cache.md",
                    "CI cache",
                    "Where the build cache lives",
                    "The build cache lives on the runner's second disk and is wiped on Fridays.",
                ),
                corpus_memory(
                    "project_release_tags.md",
                    "Release tags",
                    "How releases are tagged",
                    "Releases are tagged vYEAR.MONTH.N by the release script, never by hand.",
                ),
            ],
            "queries": [
                {
                    "id": "b1",
                    "query": "When is the build cache wiped?",
                    "relevant": ["project_ci_cache.md"],
                    "kind": "direct",
                },
                {
                    "id": "b2",
                    "query": "How are releases tagged?",
                    "relevant": ["project_release_tags.md"],
                    "kind": "direct",
                },
                {
                    "id": "b3",
                    "query": "Recommend a novel for the weekend.",
                    "relevant": [],
                    "kind": "none",
                },
            ],
        },
    ]
}


def test_a_holdout_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "recall_holdout.json"
    path.write_text(json.dumps(CASES), encoding="utf-8")
    with pytest.raises(SystemExit):
        fit_selector.main([str(path), "--dry-run"])


@pytest.mark.skipif(not encoder_installed(), reason="the embedding model is not installed")
def test_the_fit_writes_a_model_the_selector_loads(tmp_path: Path) -> None:
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(CASES), encoding="utf-8")
    out = tmp_path / "model.json"
    # main() also checks that its fast grid answers every query exactly as decide() does
    assert fit_selector.main([str(cases), "--out", str(out), "--beta", "2"]) == 0
    model = DecisionModel.load(out)
    assert model.beta == 2.0
    assert 0 < model.gate < 1
    assert "2 source dirs" in model.fitted_on
    assert model.full_text is None  # no CJK question, so no full-text models
