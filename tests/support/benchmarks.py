"""Load a script from benchmarks/ as a module, so a test can reuse its corpus or reference code."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from memdir_nb.recall.embedding import load_encoder
from memdir_nb.recall.model_files import ModelUnavailable

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """benchmarks/<name>.py imported under its own name (once per process)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"benchmarks/{name}.py cannot be loaded")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look the module up by name
    spec.loader.exec_module(module)
    return module


def corpus_memory(
    path: str, name: str, description: str, body: str, *, age_days: float = 3
) -> dict[str, Any]:
    """One memory as the recall corpora write it (benchmarks/data/recall_*.json), type project."""
    return {
        "path": path,
        "name": name,
        "description": description,
        "type": "project",
        "body": body,
        "age_days": age_days,
    }


# A two-memory garden dir in our own words, shared by the benchmark scripts' tests.
GARDEN_MEMORIES = [
    corpus_memory(
        "project_tomatoes.md",
        "Tomato beds",
        "How the tomato beds are watered",
        "The tomato beds get two litres each at dawn. Mulch went down in May.",
    ),
    corpus_memory(
        "project_compost.md",
        "Compost heap",
        "Turning schedule for the compost",
        "The compost heap is turned every second Sunday and kept damp.",
    ),
]
# The garden's one direct question that both of those tests ask.
GARDEN_WATER_QUERY = {
    "id": "g1",
    "query": "How much water do the tomato beds get?",
    "relevant": ["project_tomatoes.md"],
    "kind": "direct",
}


def encoder_installed() -> bool:
    """Whether the embedding model's package is installed (tests that encode skip without it)."""
    try:
        load_encoder()
    except ModelUnavailable:
        return False
    return True
