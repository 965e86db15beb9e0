"""benchmarks/fit_compare.py: the baseline folds never train on the left-out domain, and bad input is refused."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import fit_compare
import pytest
from fit_data import Query

from memdir_nb.recall.decision import FEATURES
from memdir_nb.recall.explain_selection import MemoryExplanation


def _item(filename: str, strength: float) -> MemoryExplanation:
    features = dict.fromkeys(FEATURES, 0.0)
    features.update(
        semantic=strength,
        semantic_manifest=strength,
        semantic_window=strength,
        bm25_saturated=strength,
        bm25_relative=strength,
        coverage=strength,
        coverage_window=strength,
    )
    return MemoryExplanation(
        filename, strength, strength, strength, strength, strength, None, None, False, "", features
    )


def _dir(group: str, *, inverted: bool = False) -> list[Query]:
    """Three questions over three memories: the relevant one scores high (low when inverted)."""
    hi, lo = (0.1, 0.8) if inverted else (0.8, 0.1)
    out = []
    for k, target in enumerate(["a.md", "b.md"]):
        items = [_item(f, hi if f == target else lo) for f in ("a.md", "b.md", "c.md")]
        case = {"id": f"{group}-q{k}", "relevant": [target], "kind": "direct", "language": "en"}
        out.append(Query(group, case, items))
    none = {"id": f"{group}-none", "relevant": [], "kind": "none", "language": "en"}
    out.append(Query(group, none, [_item(f, 0.05) for f in ("a.md", "b.md", "c.md")]))
    return out


def test_each_fold_trains_on_the_other_dirs_and_the_baseline_only_on_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    queries = [q for g in ("old1", "old2", "new1") for q in _dir(g)]
    seen: list[tuple[set[str], set[str]]] = []  # (trained on, answered) per fit
    real = fit_compare.fold_f1

    def recording(
        train: list[Query], test: list[Query], beta: float
    ) -> tuple[tuple[float, float], list[float]]:
        seen.append(({q.group for q in train}, {q.group for q in test}))
        return real(train, test, beta)

    monkeypatch.setattr(fit_compare, "fold_f1", recording)
    f1, gates = fit_compare.compare(queries, {"old1", "old2"}, beta=1.0)
    assert set(f1["refit"]) == set(f1["baseline"]) == {q.case["id"] for q in queries}
    assert sum(gates["baseline"].values()) == sum(gates["refit"].values()) == 3
    everything = {"old1", "old2", "new1"}
    for held in everything:
        refit, baseline = [train for train, test in seen if test == {held}]
        assert refit == everything - {held}
        assert baseline == {"old1", "old2"} - {held}
    assert all(v == 1.0 for v in f1["baseline"].values())  # a clean toy: every answer right


def test_a_holdout_file_or_a_domain_no_dir_has_is_refused(tmp_path: Path) -> None:
    corpus = {"dirs": [{"id": "d1", "domain": "web", "memories": []}], "questions": []}
    holdout = tmp_path / "recall_holdout.json"
    holdout.write_text(json.dumps(corpus), encoding="utf-8")
    with pytest.raises(SystemExit):
        fit_compare.main([str(holdout), "--baseline-without", "short"])
    tune = tmp_path / "tune.json"
    tune.write_text(json.dumps(corpus), encoding="utf-8")
    features = tmp_path / "f.pkl"
    features.write_bytes(b"\x80\x04]\x94.")  # an empty list: no collection needed
    with pytest.raises(SystemExit):
        fit_compare.main([str(tune), "--baseline-without", "short", "--features", str(features)])


def test_the_baseline_leaves_out_every_domain_named(tmp_path: Path) -> None:
    dirs: list[dict[str, object]] = [
        {"id": f"d-{dom}", "domain": dom, "memories": []} for dom in ("web", "short", "logs")
    ]
    tune = tmp_path / "tune.json"
    tune.write_text(json.dumps({"dirs": dirs, "questions": []}), encoding="utf-8")
    features = tmp_path / "f.pkl"
    features.write_bytes(b"\x80\x04]\x94.")  # an empty list: no collection needed
    parser = argparse.ArgumentParser()
    args = argparse.Namespace(
        cases=[str(tune)],
        baseline_without=["short", "logs"],
        features=str(features),
        full_text_language=None,
    )
    _, baseline = fit_compare.load(args, parser)
    assert len(baseline) == 1 and all("web" in group for group in baseline)
