"""The calibrated decision of the offline selector: answer at all (a gate), and which memories (a logistic model).

* **Whether to answer**: an *evidence* model, a logistic model over absolute scores only (the
  best window's or manifest's similarity, the saturated full-text BM25, the query coverage),
  gives each memory a probability of being relevant on its own. When no memory's evidence
  reaches `gate`, the answer is empty (apart from the recent-tools rule's warnings). Nothing in
  it depends on the other candidates, so a dir of one memory is judged like a dir of 200.
* **Which memories**: the *pick* model adds how far each memory is behind the best one
  (similarity gap, BM25 relative to the best) and gives each a calibrated P(relevant). The
  answer is the set with the highest **expected F-measure** (F-beta, `beta` in the model) under
  those probabilities, taken as independent: a top-k of the ranking, k found exactly
  (`best_set_size`; the decision-theoretic approach of Nan Ye et al. 2012, "Optimizing
  F-measures: a tale of two approaches"). One memory that stands out gives k = 1; probability
  spread over several similar memories gives a larger k. At most five.

No pool statistics (means, spreads, z-scores, centred cosines) enter either model: they made
small dirs behave unlike large ones. The coefficients, beta and the gate are data
(`selector_model.json` in this package), written by `benchmarks/fit_selector.py`.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import islice
from pathlib import Path

from memdir_nb.formats.jsonio import JSONLimitError, loads_bounded
from memdir_nb.spec.constants import PACKAGE_DATA_MAX_BYTES
from memdir_nb.spec.records import Record
from memdir_nb.storage.regular_file import read_regular_file

MODEL_RESOURCE = "selector_model.json"

# The per-memory scores the pick model reads, in order.
FEATURES: tuple[str, ...] = (
    "semantic",  # best cosine similarity of the query to the memory (manifest or best window)
    "semantic_gap",  # best semantic similarity among candidates minus this memory's
    "bm25_saturated",  # full-text BM25 / (BM25 + bm25_saturation): 0..1
    "bm25_relative",  # BM25 / best BM25 for this query (0 when nothing matched)
    "coverage",  # share of the query's IDF mass covered by the memory's words
    "coverage_window",  # the largest share of it that one window of the body holds
    "semantic_manifest",  # cosine of the query to the manifest line (name + description)
    "semantic_window",  # cosine of the query to the best body window (0 without a body)
)
# The absolute scores the evidence (gate) model reads: nothing relative to other candidates.
# Not "coverage": fitted beside the others its weight came out negative, so a memory holding
# more of the query's words got less evidence (docs/selection.md, "The evidence model without
# coverage", eighteenth session).
GATE_FEATURES: tuple[str, ...] = ("semantic", "bm25_saturated", "coverage_window")
# A query mostly in Chinese, Japanese or Korean is decided by the full-text channel alone (the
# encoder was trained on English): its own pick and evidence models over these.
FULL_TEXT_FEATURES: tuple[str, ...] = (
    "bm25_saturated",
    "bm25_relative",
    "coverage",
    "coverage_window",
)
FULL_TEXT_GATE_FEATURES: tuple[str, ...] = ("bm25_saturated", "coverage", "coverage_window")


@dataclass(frozen=True)
class DecisionModel:
    """The pick model over FEATURES with the set rule's beta, the evidence model over GATE_FEATURES with its gate."""

    coefficients: tuple[float, ...]
    intercept: float
    beta: float
    gate: float
    bm25_saturation: float
    gate_coefficients: tuple[float, ...] = (0.0,) * len(GATE_FEATURES)
    gate_intercept: float = 0.0
    features: tuple[str, ...] = FEATURES
    gate_features: tuple[str, ...] = GATE_FEATURES
    fitted_on: str = ""
    full_text: DecisionModel | None = None  # the models for CJK queries (full-text features)

    def __post_init__(self) -> None:
        if len(self.coefficients) != len(self.features):
            raise ValueError(
                f"the decision model has {len(self.coefficients)} coefficients for "
                f"{len(self.features)} features ({', '.join(self.features)})"
            )
        if len(self.gate_coefficients) != len(self.gate_features):
            raise ValueError(
                f"the evidence model has {len(self.gate_coefficients)} coefficients for "
                f"{len(self.gate_features)} features ({', '.join(self.gate_features)})"
            )
        if not 0.0 < self.gate < 1.0:
            raise ValueError(f"gate must be a probability between 0 and 1, got {self.gate}")
        if not 0.0 < self.beta <= 10.0:
            raise ValueError(
                f"beta (the F-measure's recall weight) must be in (0, 10], got {self.beta}"
            )
        if self.bm25_saturation <= 0:
            raise ValueError(f"bm25_saturation must be positive, got {self.bm25_saturation}")

    def probability(self, values: Mapping[str, float]) -> float:
        """P(relevant) for one memory's feature values (the pick model)."""
        return _logistic(self.coefficients, self.intercept, self.features, values)

    def evidence(self, values: Mapping[str, float]) -> float:
        """P(relevant) from this memory's absolute scores alone (the evidence model, gated)."""
        return _logistic(self.gate_coefficients, self.gate_intercept, self.gate_features, values)

    def probabilities(self, rows: Sequence[Mapping[str, float]]) -> list[float]:
        """`probability` of each row, in one call (the same values)."""
        return _logistic_many(self.coefficients, self.intercept, self.features, rows)

    def evidences(self, rows: Sequence[Mapping[str, float]]) -> list[float]:
        """`evidence` of each row, in one call (the same values)."""
        return _logistic_many(self.gate_coefficients, self.gate_intercept, self.gate_features, rows)

    def to_json(self) -> dict[str, object]:
        """The JSON object selector_model.json holds."""
        return {
            "features": list(self.features),
            "coefficients": [round(c, 6) for c in self.coefficients],
            "intercept": round(self.intercept, 6),
            "set_rule": "expected F-beta over the pick probabilities",
            "beta": self.beta,
            "gate_features": list(self.gate_features),
            "gate_coefficients": [round(c, 6) for c in self.gate_coefficients],
            "gate_intercept": round(self.gate_intercept, 6),
            "gate": self.gate,
            "bm25_saturation": self.bm25_saturation,
            "fitted_on": self.fitted_on,
            **({"full_text": self.full_text.to_json()} if self.full_text else {}),
        }

    @classmethod
    def from_json(
        cls, data: Mapping[str, object], *, source: str = "decision model"
    ) -> DecisionModel:
        """Build from the JSON object; ValueError names a missing or wrong field."""
        try:
            features = tuple(str(f) for f in data["features"])  # type: ignore[attr-defined]
            gate_features = tuple(str(f) for f in data["gate_features"])  # type: ignore[attr-defined]
            unknown = set(features) - set(FEATURES) | set(gate_features) - set(FEATURES)
            if unknown:
                raise ValueError(
                    f"unknown features {sorted(unknown)}; known: {', '.join(FEATURES)}"
                )
            return cls(
                coefficients=tuple(float(c) for c in data["coefficients"]),  # type: ignore[attr-defined]
                intercept=float(data["intercept"]),  # type: ignore[arg-type]
                beta=float(data["beta"]),  # type: ignore[arg-type]
                gate=float(data["gate"]),  # type: ignore[arg-type]
                bm25_saturation=float(data["bm25_saturation"]),  # type: ignore[arg-type]
                gate_coefficients=tuple(float(c) for c in data["gate_coefficients"]),  # type: ignore[attr-defined]
                gate_intercept=float(data["gate_intercept"]),  # type: ignore[arg-type]
                features=features,
                gate_features=gate_features,
                fitted_on=str(data.get("fitted_on", "")),
                full_text=(
                    cls.from_json(data["full_text"], source=f"{source} (full_text)")  # type: ignore[arg-type]
                    if data.get("full_text") is not None
                    else None
                ),
            )
        except (KeyError, TypeError) as err:
            raise ValueError(f"{source} is missing or has a wrong field: {err}") from err

    @classmethod
    def load(cls, path: Path | str | None = None) -> DecisionModel:
        """The shipped model (package data), or the one in `path`."""
        if path is None:
            text = resources.files("memdir_nb.recall").joinpath(MODEL_RESOURCE).read_text("utf-8")
            source = f"memdir_nb/recall/{MODEL_RESOURCE}"
        else:  # a regular file, read up to the cap (a FIFO or a huge file: attack round 26)
            read = read_regular_file(path, PACKAGE_DATA_MAX_BYTES)
            if read.truncated:
                raise JSONLimitError(
                    f"{path} is {read.total_size:,} bytes, over the "
                    f"{PACKAGE_DATA_MAX_BYTES:,}-byte limit of a model file; it was not read"
                )
            text, source = read.text, str(path)
        data = loads_bounded(text, max_bytes=PACKAGE_DATA_MAX_BYTES, what=source)
        return cls.from_json(data, source=source)


def _logistic(
    coefficients: Sequence[float],
    intercept: float,
    names: Sequence[str],
    values: Mapping[str, float],
) -> float:
    return _logistic_many(coefficients, intercept, names, (values,))[0]


def _logistic_many(
    coefficients: Sequence[float],
    intercept: float,
    names: Sequence[str],
    rows: Sequence[Mapping[str, float]],
) -> list[float]:
    """The logistic of each row's feature values: `_logistic` for many rows, one Python call.

    Each row's products are added in the features' order, as a generator would, with the
    loops in C; a warm recall asks it of every candidate twice (pick and evidence models).
    """
    if len(coefficients) != len(names):
        raise ValueError(f"{len(coefficients)} coefficients for {len(names)} features")
    mul, exp = operator.mul, math.exp
    if len(names) > 1:  # itemgetter of two or more names gives a tuple in the names' order
        zs = [
            intercept + sum(map(mul, coefficients, values))
            for values in map(operator.itemgetter(*names), rows)
        ]
    else:
        zs = [intercept + sum(map(mul, coefficients, map(row.__getitem__, names))) for row in rows]
    # z clipped to [-60, 60] as max(-60.0, min(60.0, z)) does (NaN to 60.0), without two calls
    return [
        1.0 / (1.0 + exp(-(z if -60.0 <= z <= 60.0 else -60.0 if z < -60.0 else 60.0))) for z in zs
    ]


def feature_values(
    semantic: float,
    best_semantic: float,
    bm25: float,
    best_bm25: float,
    coverage: float,
    *,
    saturation: float,
    coverage_window: float = 0.0,
    manifest: float = 0.0,
    window: float = 0.0,
) -> dict[str, float]:
    """The FEATURES of one memory from its raw scores and the query's best ones."""
    return {
        "coverage_window": coverage_window,
        "semantic_manifest": manifest,
        "semantic_window": window,
        "semantic": semantic,
        "semantic_gap": best_semantic - semantic,
        "bm25_saturated": bm25 / (bm25 + saturation) if bm25 > 0 else 0.0,
        "bm25_relative": bm25 / best_bm25 if best_bm25 > 0 else 0.0,
        "coverage": coverage,
    }


def fit_logistic(
    rows: Sequence[Sequence[float]],
    labels: Sequence[int],
    *,
    l2: float = 1.0,
    positive_weight: float = 1.0,
    steps: int = 50,
) -> tuple[list[float], float]:
    """Coefficients and intercept of an L2-regularised, optionally class-weighted logistic regression (Newton's method)."""
    import numpy as np

    x = np.asarray(rows, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    sample = np.where(y > 0, positive_weight, 1.0)
    if x.ndim != 2 or len(x) != len(y) or not len(y):
        raise ValueError("rows and labels must be non-empty and of equal length")
    design = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(design.shape[1])
    penalty = np.eye(design.shape[1]) * l2
    penalty[-1, -1] = 0.0  # the intercept is not shrunk
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ w, -60, 60)))
        grad = design.T @ (sample * (p - y)) + penalty @ w
        hess = (design * (sample * p * (1 - p))[:, None]).T @ design + penalty
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-9:
            break
    return [float(v) for v in w[:-1]], float(w[-1])


# The count of relevant memories outside the set is tracked up to this many; more is lumped in
# the last bucket (its probability is negligible once the model is calibrated).
_COUNT_CAP = 48
# Probabilities below this add nothing measurable to the expected count: skipped (a 200-memory
# dir has mostly such memories, so this keeps the exact computation cheap).
_NEGLIGIBLE = 1e-6


def _add_bernoulli(dist: list[float], p: float) -> list[float]:
    """The distribution of a count after adding one independent Bernoulli(p) (capped).

    A top count whose probability is below _NEGLIGIBLE² is folded into the one below it, so
    the list stays as long as the counts that matter (a few, in a 200-memory dir).
    """
    q = 1.0 - p
    if len(dist) <= _COUNT_CAP:  # no count capped: count j gets dist[j]·q + dist[j - 1]·p
        # A plain loop: the lists are short (7 counts on average in a 200-memory dir), where
        # slices and maps cost more than they save (195 updates: 335 -> 127 µs).
        below = dist[0]
        out = [below * q]
        for d in islice(dist, 1, None):
            out.append(d * q + below * p)
            below = d
        out.append(0.0 + below * p)
    else:  # the loop the fast path unrolls, with the top count capped
        out = [d * q for d in dist]
        for i, d in enumerate(dist):
            j = min(i + 1, _COUNT_CAP)
            if j >= len(out):
                out.append(0.0)
            out[j] += d * p
    if len(out) > 2 and out[-1] < _NEGLIGIBLE * _NEGLIGIBLE:
        out[-2] += out.pop()
    return out


def best_set_size(
    probabilities: Sequence[float],
    beta: float,
    *,
    certain: int = 0,
    min_size: int = 1,
    max_size: int = 5,
) -> tuple[int, float]:
    """(k, expected F-beta) of the best top-k set, given P(relevant) sorted best first.

    Each memory is relevant independently with its probability; `certain` memories already in
    the set are taken as relevant (kept tool warnings). With TP the relevant ones among the top
    k and FN those outside, F = (1 + b²)·(TP + c) / (b²·(TP + c + FN) + k + c), and its
    expectation is summed exactly over the two independent counts (O(n·k) with the cap).
    Under independence the best set of any size is a top-k of the ranking (Nan Ye et al. 2012),
    so only k is searched, from `min_size` to `max_size`. A set with no relevant memory scores 0.
    """
    if any(map(operator.lt, probabilities, islice(probabilities, 1, None))):
        raise ValueError("probabilities must be sorted best first")
    top = min(max_size, len(probabilities))
    b2 = beta * beta
    outside = [1.0]  # distribution of FN over probabilities[top:]
    for p in probabilities[top:]:
        if p >= _NEGLIGIBLE:
            outside = _add_bernoulli(outside, p)
    suffix = [outside]  # suffix[j]: FN over probabilities[top - j:]
    for p in reversed(probabilities[:top]):
        outside = _add_bernoulli(outside, p)
        suffix.append(outside)
    inside = [1.0]  # distribution of TP over probabilities[:k]
    best = (min_size, -1.0)
    for k in range(top + 1):
        if k >= min_size and k + certain > 0:
            fn_dist = suffix[top - k]
            expected = 0.0
            for a, pa in enumerate(inside):
                if pa == 0.0:
                    continue
                hits = a + certain
                expected += pa * sum(
                    pb * (1 + b2) * hits / (b2 * (hits + b) + k + certain)
                    for b, pb in enumerate(fn_dist)
                )
            if expected > best[1] + 1e-12:
                best = (k, expected)
        if k < top:
            inside = _add_bernoulli(inside, probabilities[k])
    return best if best[1] >= 0 else (min(min_size, top), 0.0)


def _by_probability(names: list[str], prob: Mapping[str, float]) -> list[str]:
    """names, most probable first, probabilities compared to four decimals, ties by name.

    Sorted by name, then by the rounded probability reversed: a reversed sort keeps equal keys
    in their first order, so this is the order of the key (-round(p, 4), name).
    """
    rounded = {f: round(prob[f], 4) for f in names}
    return sorted(sorted(names), key=rounded.__getitem__, reverse=True)


class Verdict(Record, frozen=True):
    """One candidate's decision: its probability, whether it is picked, and why."""

    filename: str
    probability: float
    selected: bool
    reason: str
    evidence: float = 0.0  # the evidence model's P(relevant), which the gate compares


def _below_gate(best: float, gate: float) -> str:
    """'best evidence E < G', with E cut (never rounded up) to 3 places and G exact.

    Rounded to two places, an evidence of 0.0745 under the gate of 0.075 printed as
    "0.07 < 0.07". Cutting E down keeps the printed comparison true for any E below G.
    """
    return f"best evidence {math.floor(best * 1000) / 1000:.3f} < {gate:g}"


def decide(
    candidates: Sequence[tuple[str, str | None, Mapping[str, float]]],
    model: DecisionModel,
    *,
    limit: int,
) -> list[Verdict]:
    """Verdicts for (filename, tool_class, features) rows, picked ones first.

    1. The recent-tools rule: usage notes of a tool in use are dropped, warnings about it kept
       and ranked first (they fill slots first and count as relevant in step 3).
    2. The gate: if no memory's evidence (usage notes aside) reaches `gate`, nothing else is
       picked.
    3. Otherwise the other memories, most probable first (probabilities compared to four
       decimals, so another machine's last float digits never swap two; then by filename), are
       picked up to the size k with the best expected F-beta (`best_set_size`); k is at least 1
       unless a warning already answers.
    """
    rows = [c[2] for c in candidates]
    evidence = dict(zip([c[0] for c in candidates], model.evidences(rows), strict=True))
    best = max((evidence[c[0]] for c in candidates if c[1] != "usage"), default=0.0)
    gate_open = best >= model.gate
    prob = dict(zip([c[0] for c in candidates], model.probabilities(rows), strict=True))
    warnings = _by_probability([c[0] for c in candidates if c[1] == "warning"], prob)
    plain = _by_probability([c[0] for c in candidates if c[1] is None], prob)
    kept = warnings[:limit]
    size, expected = 0, 0.0
    if gate_open and plain:
        size, expected = best_set_size(
            sorted((prob[f] for f in plain), reverse=True),
            model.beta,
            certain=len(kept),
            min_size=0 if kept else 1,
            max_size=max(0, limit - len(kept)),
        )
    fb = f"F{model.beta:g}"
    verdicts: list[Verdict] = []
    for f in warnings:
        ok = f in kept
        reason = "recent-tools rule: a warning about a tool in use (kept, ranked first)"
        verdicts.append(
            Verdict(
                f,
                prob[f],
                ok,
                reason if ok else f"{reason}, but the {limit} slots are taken",
                evidence[f],
            )
        )
    # the reasons' words shared by every candidate, formatted once (a dir has hundreds)
    closed = f"gate closed: {_below_gate(best, model.gate)}, so nothing is clearly relevant"
    inside = f": in the best set ({size} picked, expected {fb} {expected:.2f})"
    outside = f": outside the best set ({size} picked, expected {fb} {expected:.2f})"
    for rank, f in enumerate(plain):
        if not gate_open:
            reason = closed
        else:
            reason = f"probability {prob[f]:.2f}" + (inside if rank < size else outside)
        verdicts.append(Verdict(f, prob[f], gate_open and rank < size, reason, evidence[f]))
    for c in candidates:
        if c[1] == "usage":
            reason = "recent-tools rule: usage notes for a tool already in use (skipped)"
            verdicts.append(Verdict(c[0], prob[c[0]], False, reason, evidence[c[0]]))
    # picked first, each group in its order (what a stable sort on `not selected` gives)
    return [v for v in verdicts if v.selected] + [v for v in verdicts if not v.selected]
