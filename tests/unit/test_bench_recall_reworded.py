"""benchmarks/recall_reworded.py: ranks per channel are counted right, feedback is per query, holdouts are refused."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import numpy as np
import pytest
import recall_reworded

from tests.support.benchmarks import corpus_memory, encoder_installed

REPO = Path(__file__).resolve().parents[2]


_memory = partial(corpus_memory, age_days=2)  # this file's memories are two days old


def _query(qid: str, text: str, relevant: list[str], kind: str) -> dict[str, object]:
    return {"id": qid, "query": text, "relevant": relevant, "kind": kind}


# Two small dirs in our own words: a bakery and a bicycle workshop.
CASES = {
    "dirs": [
        {
            "id": "bakery",
            "memories": [
                _memory(
                    "project_sourdough.md",
                    "Sourdough starter",
                    "Feeding the starter",
                    "The starter is fed at seven with equal weights of rye and water. "
                    "It lives on the top shelf, away from the oven.",
                ),
                _memory(
                    "project_ovens.md",
                    "Oven servicing",
                    "When the ovens are serviced",
                    "The deck oven is descaled every March. The engineer is booked by Ana.",
                ),
            ],
            "queries": [
                _query(
                    "k1", "When is the sourdough starter fed?", ["project_sourdough.md"], "direct"
                ),
                _query("k2", "Who books the oven engineer?", ["project_ovens.md"], "direct"),
                _query("k3", "What is the tallest mountain in Chile?", [], "none"),
            ],
        },
        {
            "id": "bikes",
            "memories": [
                _memory(
                    "project_tyres.md",
                    "Tyre stock",
                    "Which tyres are kept in stock",
                    "We keep 28 mm and 32 mm tyres. Tubeless sealant is reordered monthly.",
                ),
                _memory(
                    "project_wheels.md",
                    "Wheel truing",
                    "How wheels are trued",
                    "Wheels are trued on the stand by the window. Spoke keys hang on the left.",
                ),
            ],
            "queries": [
                _query("w1", "Which tyre widths are in stock?", ["project_tyres.md"], "direct"),
                _query("w2", "Where are wheels trued?", ["project_wheels.md"], "direct"),
                _query("w3", "Suggest a film for tonight.", [], "none"),
            ],
        },
    ]
}


def _unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_segment_max_takes_each_memorys_best_row_and_gives_empty_to_a_memory_without_rows() -> None:
    values = np.array([0.1, 0.7, 0.3, 0.9])
    best = recall_reworded.segment_max(values, (0, 2, 2, 4), empty=-1.0)
    assert best.tolist() == [0.7, -1.0, 0.9]


def test_rank_of_counts_from_one_and_takes_the_best_placed_relevant_memory() -> None:
    scores = [0.2, 0.9, 0.5, 0.4]
    assert recall_reworded.rank_of(scores, [1]) == 1
    assert recall_reworded.rank_of(scores, [3, 0]) == 3
    assert recall_reworded.rank_of([0.5, 0.5], [1]) == 2  # a tie goes to the earlier memory


def _dir() -> dict[str, object]:
    # two memories: the first has one window along x, the second two windows along y and z
    return {
        "group": "d",
        "files": ["a.md", "b.md"],
        "manifests": np.stack([_unit(1, 0, 0), _unit(0, 1, 0)]),
        "windows": np.stack([_unit(1, 0, 0), _unit(0, 1, 0), _unit(0, 0, 1)]),
        "offsets": (0, 1, 3),
        "doc_terms": [("garden", "tomato"), ("garden", "compost", "heap")],
        "window_terms": [(frozenset({"garden", "tomato"}),), (frozenset(), frozenset({"heap"}))],
    }


def test_rocchio_moves_the_query_towards_its_own_top_window() -> None:
    query = {"qvec": _unit(1, 0.2, 0), "bm25": [1.0, 0.0], "qterms": ["tomato"]}
    plain = recall_reworded._semantic_for(_dir(), query["qvec"])
    fed = recall_reworded.rocchio(1.0, 1)(_dir(), query)["prf_semantic"]
    assert fed[0] > plain[0]  # towards memory a's window
    assert fed[1] < plain[1]


def test_the_bridge_adds_the_top_lexical_memorys_window_with_most_query_terms() -> None:
    query = {"qvec": _unit(0, 1, 1), "bm25": [0.0, 2.0], "qterms": ["heap"]}
    fed = recall_reworded.bridge(1.0)(_dir(), query)["prf_semantic"]
    # the query moved towards b's "heap" window (z), so b's best similarity rises
    assert fed[1] > recall_reworded._semantic_for(_dir(), query["qvec"])[1]


def test_rm3_adds_terms_of_the_top_semantic_windows_that_the_query_lacks() -> None:
    query = {"qvec": _unit(0, 0, 1), "bm25": [0.0, 0.0], "qterms": ["compost"]}
    out = recall_reworded.rm3(1, 5, 1.0)(_dir(), query)
    # the top window (b's "heap") brings "heap": b now has lexical evidence, a none
    assert out["prf_bm25"][1] > 0
    assert out["prf_bm25"][0] == 0
    assert out["prf_bm25_relative"][1] == 1.0


def test_a_holdout_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "recall_holdout.json"
    path.write_text(json.dumps(CASES), encoding="utf-8")
    with pytest.raises(SystemExit):
        recall_reworded.main([str(path)])


@pytest.mark.skipif(not encoder_installed(), reason="the embedding model is not installed")
def test_the_diagnosis_and_every_experiment_run_on_real_dirs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(CASES), encoding="utf-8")
    args = [str(cases), "--kind", "direct", "--sentences", "--experiments"]
    assert recall_reworded.main(args) == 0
    out = capsys.readouterr().out
    assert "direct questions (not CJK, dirs of 2+ memories): 4" in out
    assert "best sentence" in out
    for label in ("shipped features", "Rocchio", "bridge", "RM3", "best sentence, pick+gate"):
        assert label in out
