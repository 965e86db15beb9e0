"""The calibrated decision: the model as data, its fit, and decide()'s rules."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.recall.decision import (
    FEATURES,
    GATE_FEATURES,
    DecisionModel,
    decide,
    feature_values,
    fit_logistic,
)
from memdir_nb.recall.embedding import MODEL_PACKAGE, MODEL_PACKAGE_VERSION

REPO = Path(__file__).resolve().parents[2]


def _model(**overrides: Any) -> DecisionModel:
    values: dict[str, Any] = dict(
        coefficients=(4.0, -2.0, 1.0, 1.0, 1.0, 1.0),
        intercept=-3.0,
        cutoff=0.5,
        gate=0.3,
        bm25_saturation=5.0,
        gate_coefficients=(8.0, 2.0, 2.0, 2.0),
        gate_intercept=-5.0,
    )
    values.update(overrides)
    return DecisionModel(**values)


def _features(
    sem: float, best: float, bm25: float = 0.0, coverage: float = 0.0
) -> dict[str, float]:
    return feature_values(sem, best, bm25, max(bm25, 5.0), coverage, saturation=5.0)


def test_the_shipped_model_loads_and_names_every_feature() -> None:
    model = DecisionModel.load()
    assert model.features == FEATURES
    assert model.gate_features == GATE_FEATURES
    assert 0 < model.cutoff < 1 and 0 < model.gate < 1
    assert "recall_cases" in model.fitted_on


def test_no_feature_depends_on_the_spread_of_the_other_candidates() -> None:
    # z-scores and centred cosines made a 1-memory dir unlike a 200-memory one (issue 19)
    assert not any("_z" in f or "mean" in f or "centred" in f for f in FEATURES + GATE_FEATURES)
    absolute = {"semantic", "bm25_saturated", "coverage", "coverage_window"}
    assert set(GATE_FEATURES) <= absolute  # nothing relative to the other candidates


def test_the_gate_reads_only_a_memorys_own_scores() -> None:
    model = _model()
    alone = model.evidence(_features(0.5, 0.5, bm25=4.0, coverage=0.5))
    among_better = model.evidence(_features(0.5, 0.9, bm25=4.0, coverage=0.5))
    assert alone == among_better


def test_a_model_file_with_a_missing_field_is_refused_by_name(tmp_path: Path) -> None:
    data = DecisionModel.load().to_json()
    del data["gate"]
    path = tmp_path / "model.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="missing or has a wrong field: 'gate'"):
        DecisionModel.load(path)


def test_coefficients_must_match_the_features() -> None:
    with pytest.raises(ValueError, match="2 coefficients for 6 features"):
        _model(coefficients=(1.0, 2.0))
    with pytest.raises(ValueError, match="evidence model has 1 coefficients for 4 features"):
        _model(gate_coefficients=(1.0,))


def test_probability_rises_with_similarity() -> None:
    model = _model()
    assert model.probability(_features(0.6, 0.6)) > model.probability(_features(0.4, 0.6))


def test_gate_closed_answers_nothing_but_tool_warnings() -> None:
    model = _model(gate=0.9)
    verdicts = decide(
        [
            ("a.md", None, _features(0.45, 0.45, bm25=20.0)),
            ("warn.md", "warning", _features(0.1, 0.45)),
            ("usage.md", "usage", _features(0.9, 0.45, bm25=20.0, coverage=1.0)),
        ],
        model,
        limit=5,
    )
    picked = [v.filename for v in verdicts if v.selected]
    assert picked == ["warn.md"]
    reasons = {v.filename: v.reason for v in verdicts}
    assert re.match(r"gate closed: best evidence 0\.\d\d < 0\.90", reasons["a.md"])
    assert "usage notes" in reasons["usage.md"]  # its strong scores do not open the gate


def test_gate_open_always_keeps_the_strongest_memory() -> None:
    model = _model(cutoff=0.99, gate=0.01)
    verdicts = decide(
        [("near.md", None, _features(0.4, 0.4)), ("far.md", None, _features(0.2, 0.4))],
        model,
        limit=5,
    )
    assert [v.filename for v in verdicts if v.selected] == ["near.md"]
    assert "strongest memory" in verdicts[0].reason


def test_at_most_limit_are_picked_and_the_rest_say_why() -> None:
    model = _model(cutoff=0.01, gate=0.01)
    rows = [(f"m{i}.md", None, _features(0.5, 0.5)) for i in range(7)]
    verdicts = decide(rows, model, limit=5)
    assert sum(v.selected for v in verdicts) == 5
    assert sum("slots are taken" in v.reason for v in verdicts) == 2


def test_fit_logistic_separates_separable_data() -> None:
    rows = [[x / 10] for x in range(20)]
    labels = [1 if x >= 10 else 0 for x in range(20)]
    (coef,), intercept = fit_logistic(rows, labels, l2=0.01)
    assert coef > 0
    assert 0.9 < -intercept / coef < 1.0  # the boundary falls between the two classes


def test_the_install_pin_and_the_load_check_name_the_same_version() -> None:
    text = (REPO / "requirements-model.txt").read_text(encoding="utf-8")
    pins = re.findall(r"^([\w.-]+)==([\w.]+) --hash=sha256:[0-9a-f]{64}$", text, re.MULTILINE)
    assert pins == [(MODEL_PACKAGE, MODEL_PACKAGE_VERSION)]
