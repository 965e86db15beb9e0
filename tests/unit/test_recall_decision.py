"""The calibrated decision: the model as data, its fit, and decide()'s rules."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.recall.decision import (
    _COUNT_CAP,
    FEATURES,
    GATE_FEATURES,
    DecisionModel,
    _add_bernoulli,
    best_set_size,
    decide,
    feature_values,
    fit_logistic,
)
from memdir_nb.recall.model_files import MODEL_PACKAGE, MODEL_PACKAGE_VERSION

REPO = Path(__file__).resolve().parents[2]


def _model(**overrides: Any) -> DecisionModel:
    values: dict[str, Any] = dict(
        coefficients=(4.0, -2.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0),
        intercept=-3.0,
        beta=2.0,
        gate=0.3,
        bm25_saturation=5.0,
        gate_coefficients=(8.0, 2.0, 2.0),
        gate_intercept=-5.0,
    )
    values.update(overrides)
    return DecisionModel(**values)


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


def _features(
    sem: float, best: float, bm25: float = 0.0, coverage: float = 0.0
) -> dict[str, float]:
    return feature_values(sem, best, bm25, max(bm25, 5.0), coverage, saturation=5.0)


def test_the_shipped_model_loads_and_names_every_feature() -> None:
    model = DecisionModel.load()
    assert model.features == FEATURES
    assert model.gate_features == GATE_FEATURES
    assert 0 < model.beta <= 10 and 0 < model.gate < 1
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


def test_a_model_file_is_read_as_a_regular_file_up_to_its_cap(tmp_path: Path) -> None:
    # attack round 26: load(path) read the whole file before its size was checked (a FIFO
    # blocked for good, a 2 GB file took 2 GB)
    os.mkfifo(tmp_path / "fifo.json")
    with pytest.raises(OSError, match="FIFO, not a regular file"):
        DecisionModel.load(tmp_path / "fifo.json")
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(2 * 1024**3)
    with pytest.raises(ValueError, match="2,147,483,648 bytes, over the 4,194,304-byte limit"):
        DecisionModel.load(big)


def test_coefficients_must_match_the_features() -> None:
    with pytest.raises(ValueError, match="2 coefficients for 8 features"):
        _model(coefficients=(1.0, 2.0))
    with pytest.raises(ValueError, match="evidence model has 1 coefficients for 3 features"):
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
    assert re.match(r"gate closed: best evidence 0\.\d\d\d < 0\.9,", reasons["a.md"])
    assert "usage notes" in reasons["usage.md"]  # its strong scores do not open the gate


def test_closed_gate_prints_the_evidence_below_the_gate() -> None:
    # an evidence of 0.0745 under the shipped gate of 0.075 once printed as "0.07 < 0.07"
    model = _model(gate=0.075)
    evidence = model.evidence(_features(0.45, 0.45, bm25=20.0))
    shifted = dataclasses.replace(
        model, gate_intercept=model.gate_intercept + _logit(0.0745) - _logit(evidence)
    )
    verdicts = decide([("a.md", None, _features(0.45, 0.45, bm25=20.0))], shifted, limit=5)
    assert verdicts[0].evidence == pytest.approx(0.0745)
    assert verdicts[0].reason.startswith("gate closed: best evidence 0.074 < 0.075,")


def test_gate_open_always_keeps_the_most_probable_memory() -> None:
    model = _model(gate=0.01, intercept=-9.0)  # every probability under 0.01
    rows = [("near.md", None, _features(0.4, 0.4))]
    rows += [(f"far{i}.md", None, _features(0.1, 0.4)) for i in range(3)]
    verdicts = decide(rows, model, limit=5)
    assert verdicts[0].filename == "near.md" and verdicts[0].selected
    assert "in the best set (" in verdicts[0].reason
    assert all(v.probability < 0.01 for v in verdicts)


def test_at_most_limit_are_picked_and_the_rest_say_why() -> None:
    model = _model(gate=0.01, intercept=3.0)  # every probability high
    rows = [(f"m{i}.md", None, _features(0.5, 0.5)) for i in range(7)]
    verdicts = decide(rows, model, limit=5)
    assert sum(v.selected for v in verdicts) == 5
    assert sum("outside the best set (5 picked" in v.reason for v in verdicts) == 2


def _brute_force_expected_f(probs: list[float], k: int, beta: float, certain: int = 0) -> float:
    """E[F-beta] of the top-k set by enumerating every outcome (independent memories)."""
    total = 0.0
    for outcome in itertools.product((0, 1), repeat=len(probs)):
        weight = 1.0
        for p, y in zip(probs, outcome, strict=True):
            weight *= p if y else 1 - p
        tp = sum(outcome[:k]) + certain
        relevant = sum(outcome) + certain
        b2 = beta * beta
        total += weight * ((1 + b2) * tp / (b2 * relevant + k + certain) if tp else 0.0)
    return total


@pytest.mark.parametrize("beta", [1.0, 2.0])
@pytest.mark.parametrize(
    "probs",
    [[0.9, 0.3, 0.2, 0.1, 0.05, 0.01], [0.45, 0.4, 0.4, 0.35, 0.3, 0.3], [0.2, 0.02, 0.01]],
)
def test_best_set_size_is_the_exact_expected_f_optimum(probs: list[float], beta: float) -> None:
    k, expected = best_set_size(probs, beta, max_size=5)
    brute = {j: _brute_force_expected_f(probs, j, beta) for j in range(1, min(5, len(probs)) + 1)}
    assert expected == pytest.approx(brute[k], abs=1e-9)
    assert brute[k] == pytest.approx(max(brute.values()), abs=1e-12)


def test_one_standout_memory_is_answered_alone_and_a_spread_with_several() -> None:
    assert best_set_size([0.95, 0.03, 0.02, 0.02], 2.0)[0] == 1
    assert best_set_size([0.3] * 8, 2.0)[0] == 5
    assert best_set_size([0.3] * 8, 1.0)[0] > 1


def test_a_certain_warning_makes_weak_extra_memories_not_worth_a_slot() -> None:
    k, _ = best_set_size([0.05, 0.02], 2.0, certain=1, min_size=0, max_size=4)
    assert k == 0
    k, expected = best_set_size([0.3, 0.3], 1.0, certain=1, min_size=0, max_size=4)
    assert expected == pytest.approx(
        max(_brute_force_expected_f([0.3, 0.3], j, 1.0, certain=1) for j in range(3))
    )


def test_best_set_size_refuses_unsorted_probabilities() -> None:
    with pytest.raises(ValueError, match="sorted best first"):
        best_set_size([0.1, 0.5], 2.0)


def test_beta_must_be_a_sensible_recall_weight() -> None:
    with pytest.raises(ValueError, match="beta"):
        _model(beta=0.0)


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


def _add_bernoulli_by_loop(dist: list[float], p: float) -> list[float]:
    """The count distribution's update as one loop over the counts (what the fast path unrolls)."""
    q = 1.0 - p
    out = [d * q for d in dist]
    for i, d in enumerate(dist):
        j = min(i + 1, _COUNT_CAP)
        if j >= len(out):
            out.append(0.0)
        out[j] += d * p
    if len(out) > 2 and out[-1] < 1e-12:
        out[-2] += out.pop()
    return out


def test_adding_a_bernoulli_gives_the_loops_floats_exactly_up_to_and_past_the_cap() -> None:
    rng = random.Random(7)
    for length in (1, 2, 3, 7, _COUNT_CAP - 1, _COUNT_CAP, _COUNT_CAP + 1):
        for p in (0.0, 1e-7, 0.013, 0.5, 0.97, 1.0):
            dist = [rng.random() for _ in range(length)]
            assert _add_bernoulli(dist, p) == _add_bernoulli_by_loop(dist, p)


def test_the_batched_probabilities_are_each_rows_own_to_the_last_bit() -> None:
    rng = random.Random(3)
    model = _model(coefficients=(4.1, -2.3, 1.7, 0.9, 1.1, 0.3, -0.7, 0.2), gate_intercept=-4.9)
    rows = [_features(rng.random(), 1.0, rng.random() * 9, rng.random()) for _ in range(50)]
    rows.append(_features(30.0, 0.0, 1e9, 1.0))  # clipped at 60 before the exp
    assert model.probabilities(rows) == [model.probability(r) for r in rows]
    assert model.evidences(rows) == [model.evidence(r) for r in rows]
    z = model.intercept + sum(
        c * rows[0][f] for c, f in zip(model.coefficients, FEATURES, strict=True)
    )
    assert model.probability(rows[0]) == 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))
    one = _model(gate_features=("semantic",), gate_coefficients=(3.0,))
    assert one.evidences(rows[:3]) == [
        1.0 / (1.0 + math.exp(-(one.gate_intercept + 3.0 * r["semantic"]))) for r in rows[:3]
    ]


def test_candidates_rank_by_probability_to_four_decimals_then_by_filename() -> None:
    model = _model(gate=0.01, intercept=-6.0)
    sims = {"d.md": 0.5, "b.md": 0.5, "c.md": 0.5000001, "a.md": 0.3, "e.md": 0.7}
    rows: list[tuple[str, str | None, dict[str, float]]]
    rows = [(f, None, _features(s, 0.7)) for f, s in sims.items()]
    rows += [("w2.md", "warning", _features(0.2, 0.7)), ("w1.md", "warning", _features(0.2, 0.7))]
    prob = dict(zip([r[0] for r in rows], model.probabilities([r[2] for r in rows]), strict=True))
    assert prob["b.md"] != prob["c.md"] and round(prob["b.md"], 4) == round(prob["c.md"], 4)
    verdicts = decide(rows, model, limit=5)
    # picked ones first; within the picked and the rest, the ranking's order
    assert [v.filename for v in verdicts if v.filename in sims] == [
        "e.md",
        "b.md",
        "c.md",
        "d.md",
        "a.md",
    ]
    assert [v.filename for v in verdicts if v.filename.startswith("w")] == ["w1.md", "w2.md"]


def test_a_dense_model_file_under_the_byte_cap_is_refused_by_its_value_cap(
    tmp_path: Path,
) -> None:
    # §44: 4 MB of `[],[],...` under the byte cap parsed to 112 MB of lists
    path = tmp_path / "model.json"
    path.write_text("[" + ",".join(["[]"] * 1_100_000) + "]", encoding="utf-8")
    with pytest.raises(
        ValueError, match=f"{path} holds up to 2,200,001 values, over the limit of 1,048,576"
    ):
        DecisionModel.load(path)
