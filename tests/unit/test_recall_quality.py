"""Selection quality on both labelled sets, and the synonym table's freeze.

The tuning set is ../shared/eval/recall_cases.json (beside the checkout in CI); the holdout set,
benchmarks/data/recall_cases_holdout.json, is never tuned on. In CI a missing tuning set fails
instead of skipping. The floors below sit a little under the figures in docs/selection.md so a
regression shows, not noise.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
from pathlib import Path

import pytest

from memdir_nb.recall.lexical import SYNONYM_GROUPS

REPO = Path(__file__).resolve().parents[2]
NOW = 1_760_000_000_000.0


def _recall_eval():
    spec = importlib.util.spec_from_file_location("recall_eval", REPO / "benchmarks/recall_eval.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def recall_eval():
    return _recall_eval()


@pytest.fixture(scope="module")
def tuning_cases(recall_eval) -> dict:
    path = recall_eval.DEFAULT_CASES
    if not path.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(
                f"tuning cases not found at {path}; CI must check out shared/ beside the repo"
            )
        pytest.skip(f"tuning cases not found at {path} (check out shared/ next to the repo)")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def holdout_cases(recall_eval) -> dict:
    return json.loads(recall_eval.HOLDOUT_CASES.read_text(encoding="utf-8"))


def _texts(cases: dict) -> str:
    parts = []
    for m in cases["memories"]:
        parts += [m["name"], m["description"], m.get("body", ""), m["path"]]
    parts += [q["query"] for q in cases["queries"]]
    return "\n".join(parts).lower()


def _mentions(text: str, term: str) -> bool:
    return re.search(rf"(?<![a-z0-9]){re.escape(term)}(?![a-z0-9])", text) is not None


def test_synonym_groups_used_only_by_the_tuning_set_stay_near_zero(tuning_cases, holdout_cases):
    from memdir_nb.ui.demo import demo_memories

    tuning = _texts(tuning_cases)
    elsewhere = _texts(holdout_cases) + "\n" + "\n".join(str(m) for m in demo_memories(NOW)).lower()
    only_tuning = [
        group[0]
        for group in SYNONYM_GROUPS
        if any(_mentions(tuning, t) for t in group)
        and not any(_mentions(elsewhere, t) for t in group)
    ]
    print(f"synonym groups found only in the tuning set's texts: {len(only_tuning)} {only_tuning}")
    assert len(only_tuning) <= 3, only_tuning


def test_holdout_set_has_the_shape_and_mix_the_issue_asks_for(holdout_cases, tuning_cases):
    queries = holdout_cases["queries"]
    paths = {m["path"] for m in holdout_cases["memories"]}
    assert len(queries) >= 50
    assert sum(1 for q in queries if not q["relevant"]) >= 8
    assert {q["kind"] for q in queries} >= {"lexical", "paraphrase", "multi", "tools", "none"}
    assert sum(1 for q in queries if len(q["relevant"]) >= 2) >= 6
    for q in queries:
        assert set(q["relevant"]) | set(q["acceptable"]) <= paths, q["id"]
    assert not paths & {m["path"] for m in tuning_cases["memories"]}


def test_semantic_selector_meets_its_bars_on_both_sets(recall_eval, tuning_cases, holdout_cases):
    only = ("semantic (default)", "baseline: BM25 top-5")
    tuning = recall_eval.evaluate(tuning_cases, now_ms=NOW, only=only)
    holdout = recall_eval.evaluate(holdout_cases, now_ms=NOW, only=only)
    t = tuning["semantic (default)"]
    h = holdout["semantic (default)"]
    summary = {
        "tuning": t["ALL"]["mean_f1"],
        "holdout": h["ALL"]["mean_f1"],
        "holdout_paraphrase": h["paraphrase"]["mean_f1"],
        "holdout_lexical": h["lexical"]["mean_f1"],
        "holdout_tools": h["tools"]["mean_f1"],
        "holdout_none_empty": h["none"]["empty_on_none"],
    }
    print(summary)
    assert summary["holdout"] >= 0.70, summary
    # over-fitting shows as tuning far above holdout; a holdout that scores higher is no warning
    assert summary["tuning"] - summary["holdout"] <= 0.08, summary
    assert summary["holdout_paraphrase"] >= 0.45, summary
    assert summary["holdout_lexical"] >= 0.85, summary
    assert summary["holdout_tools"] >= 0.70, summary
    assert summary["holdout_none_empty"] >= 0.75, summary
    assert t["none"]["empty_on_none"] >= 0.75, summary
    for res in (tuning, holdout):
        assert (
            res["semantic (default)"]["ALL"]["mean_f1"]
            >= res["baseline: BM25 top-5"]["ALL"]["mean_f1"] + 0.2
        )
