"""The calibrated decision of the offline selector: answer at all (a gate), and which memories (a logistic model).

* **Whether to answer** depends on one absolute figure that does not grow or shrink with the
  query's length: the best semantic similarity among the candidates. Below `gate`, the answer
  is empty (apart from the recent-tools rule's warnings).
* **Which memories**: a logistic model over a few per-memory scores gives a probability that
  the memory is relevant; those at or above `cutoff` are kept, most probable first, at most five.

The coefficients, the cutoff and the gate are data (`selector_model.json` in this package),
written by `benchmarks/fit_selector.py` from labelled query-memory pairs of the tuning set.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from memdir_nb.formats.jsonio import loads_bounded
from memdir_nb.spec.constants import PACKAGE_DATA_MAX_BYTES

MODEL_RESOURCE = "selector_model.json"

# The per-memory scores the logistic model reads, in order.
FEATURES: tuple[str, ...] = (
    "semantic",  # best cosine similarity of the query to the memory (manifest or manifest+body)
    "semantic_gap",  # best semantic similarity among candidates minus this memory's
    "bm25_saturated",  # BM25 / (BM25 + bm25_saturation): 0..1, large scores stop mattering
    "bm25_relative",  # BM25 / best BM25 for this query (0 when nothing matched)
    "coverage",  # share of the query's IDF mass the memory's words cover
    "semantic_z",  # (semantic - mean over candidates) / their standard deviation: stands out?
)


@dataclass(frozen=True)
class DecisionModel:
    """Logistic coefficients over FEATURES, the probability cutoff and the answer gate."""

    coefficients: tuple[float, ...]
    intercept: float
    cutoff: float
    gate: float
    bm25_saturation: float
    features: tuple[str, ...] = FEATURES
    fitted_on: str = ""

    def __post_init__(self) -> None:
        if len(self.coefficients) != len(self.features):
            raise ValueError(
                f"the decision model has {len(self.coefficients)} coefficients for "
                f"{len(self.features)} features ({', '.join(self.features)})"
            )
        if not 0.0 < self.cutoff < 1.0:
            raise ValueError(f"cutoff must be a probability between 0 and 1, got {self.cutoff}")
        if self.bm25_saturation <= 0:
            raise ValueError(f"bm25_saturation must be positive, got {self.bm25_saturation}")

    def probability(self, values: Mapping[str, float]) -> float:
        """P(relevant) for one memory's feature values."""
        z = self.intercept + sum(
            c * values[name] for c, name in zip(self.coefficients, self.features, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def to_json(self) -> dict[str, object]:
        """The JSON object selector_model.json holds."""
        return {
            "features": list(self.features),
            "coefficients": [round(c, 6) for c in self.coefficients],
            "intercept": round(self.intercept, 6),
            "cutoff": self.cutoff,
            "gate": self.gate,
            "bm25_saturation": self.bm25_saturation,
            "fitted_on": self.fitted_on,
        }

    @classmethod
    def from_json(
        cls, data: Mapping[str, object], *, source: str = "decision model"
    ) -> DecisionModel:
        """Build from the JSON object; ValueError names a missing or wrong field."""
        try:
            features = tuple(str(f) for f in data["features"])  # type: ignore[attr-defined]
            unknown = set(features) - set(FEATURES)
            if unknown:
                raise ValueError(
                    f"unknown features {sorted(unknown)}; known: {', '.join(FEATURES)}"
                )
            return cls(
                coefficients=tuple(float(c) for c in data["coefficients"]),  # type: ignore[attr-defined]
                intercept=float(data["intercept"]),  # type: ignore[arg-type]
                cutoff=float(data["cutoff"]),  # type: ignore[arg-type]
                gate=float(data["gate"]),  # type: ignore[arg-type]
                bm25_saturation=float(data["bm25_saturation"]),  # type: ignore[arg-type]
                features=features,
                fitted_on=str(data.get("fitted_on", "")),
            )
        except (KeyError, TypeError) as err:
            raise ValueError(f"{source} is missing or has a wrong field: {err}") from err

    @classmethod
    def load(cls, path: Path | str | None = None) -> DecisionModel:
        """The shipped model (package data), or the one in `path`."""
        if path is None:
            text = resources.files("memdir_nb.recall").joinpath(MODEL_RESOURCE).read_text("utf-8")
            source = f"memdir_nb/recall/{MODEL_RESOURCE}"
        else:
            text = Path(path).read_text(encoding="utf-8")
            source = str(path)
        data = loads_bounded(text, max_bytes=PACKAGE_DATA_MAX_BYTES, what=source)
        return cls.from_json(data, source=source)


def feature_values(
    semantic: float,
    best_semantic: float,
    bm25: float,
    best_bm25: float,
    coverage: float,
    *,
    saturation: float,
    semantic_mean: float,
    semantic_std: float,
) -> dict[str, float]:
    """The FEATURES of one memory from its raw scores and the query's best, mean and spread."""
    return {
        "semantic_z": (semantic - semantic_mean) / semantic_std if semantic_std > 1e-6 else 0.0,
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


@dataclass(frozen=True)
class Verdict:
    """One candidate's decision: its probability, whether it is picked, and why."""

    filename: str
    probability: float
    selected: bool
    reason: str


def decide(
    candidates: Sequence[tuple[str, float, str | None, Mapping[str, float]]],
    model: DecisionModel,
    *,
    limit: int,
) -> list[Verdict]:
    """Verdicts for (filename, semantic, tool_class, features) rows, picked ones first.

    1. The recent-tools rule: usage notes of a tool in use are dropped, warnings about it kept
       and ranked first.
    2. The gate: if the best similarity (usage notes aside) is below `gate`, nothing else is
       picked. Otherwise the answer is not empty: when no warning was kept, the closest memory
       is picked whatever its probability.
    3. Every other memory is picked when its probability reaches `cutoff`; at most `limit`.
    """
    eligible = [c for c in candidates if c[2] != "usage"]
    best = max((c[1] for c in eligible), default=0.0)
    gate_open = best >= model.gate
    has_warning = any(c[2] == "warning" for c in candidates)
    plain = [c for c in eligible if c[2] is None]
    closest = max(plain, key=lambda c: (c[1], c[0]))[0] if plain else None
    drafts: list[tuple[int, float, str, bool, str]] = []
    for filename, _semantic, tool_class, features in candidates:
        prob = model.probability(features)
        if tool_class == "usage":
            ok, reason, rank = (
                False,
                "recent-tools rule: usage notes for a tool already in use (skipped)",
                2,
            )
        elif tool_class == "warning":
            ok, reason, rank = (
                True,
                "recent-tools rule: a warning about a tool in use (kept, ranked first)",
                0,
            )
        elif not gate_open:
            ok, rank = False, 2
            reason = f"gate closed: best similarity {best:.2f} < {model.gate:.2f}, so nothing is clearly relevant"
        elif prob >= model.cutoff:
            ok, reason, rank = True, f"probability {prob:.2f} >= cutoff {model.cutoff:.2f}", 1
        elif filename == closest and not has_warning:
            ok, rank = True, 1
            reason = (
                f"gate open (best similarity {best:.2f} >= {model.gate:.2f}) and this is the "
                f"closest memory, though its probability {prob:.2f} < cutoff {model.cutoff:.2f}"
            )
        else:
            ok, reason, rank = False, f"probability {prob:.2f} < cutoff {model.cutoff:.2f}", 2
        drafts.append((rank, prob, filename, ok, reason))
    # Probabilities are compared as printed (two decimals): two that differ only in the last
    # digits (another machine's float arithmetic) never swap rows; equal ones go by filename.
    drafts.sort(key=lambda d: (d[0], -round(d[1], 2), d[2]))
    verdicts: list[Verdict] = []
    picked = 0
    for _, prob, filename, ok, reason in drafts:
        if ok and picked >= limit:
            ok, reason = False, f"{reason}, but the {limit} slots are taken"
        picked += ok
        verdicts.append(Verdict(filename, prob, ok, reason))
    return verdicts
