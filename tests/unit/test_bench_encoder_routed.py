"""benchmarks/encoder_routed.py: rule V routes only the queries MiniLM does not read, and leaves
every other query's answer as the shipped decision gives it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import encoder_routed
import pytest
from fit_data import is_full_text

from memdir_nb.recall.decision import DecisionModel
from memdir_nb.recall.embedding import load_encoder
from tests.support.benchmarks import (
    GARDEN_MEMORIES,
    GARDEN_WATER_QUERY,
    corpus_memory,
    encoder_installed,
)


def _russian_dir(name: str, topic: str) -> dict[str, Any]:
    """A small Russian dir in our own words: a move, a backup and one question on each."""
    return {
        "id": name,
        "memories": [
            corpus_memory(
                "project_pereezd.md",
                "Переезд бота",
                f"Когда {topic} переезжает на новый сервер",
                f"{topic.capitalize()} переезжает на новый сервер в пятницу вечером.",
            ),
            corpus_memory(
                "project_backup.md",
                "Резервные копии",
                "Где лежат резервные копии базы",
                "Резервные копии базы лежат на втором диске и хранятся две недели.",
            ),
        ],
        "queries": [
            {
                "id": f"{name}-1",
                "query": f"Когда {topic} переезжает?",
                "relevant": ["project_pereezd.md"],
                "kind": "direct",
                "language": "ru",
            },
            {
                "id": f"{name}-2",
                "query": "Где хранятся резервные копии?",
                "relevant": ["project_backup.md"],
                "kind": "direct",
                "language": "ru",
            },
        ],
    }


@pytest.mark.parametrize("variant", encoder_routed.VARIANTS)
def test_cjk_and_cyrillic_queries_are_routed_in_every_variant(variant: str) -> None:
    assert encoder_routed.routed("Когда переезжает бот?", variant)
    assert encoder_routed.routed("デプロイの手順はどこ?", variant)
    assert not encoder_routed.routed("When is the build cache wiped?", variant)


def test_only_the_v2_variants_route_a_european_language() -> None:
    query = "Wann ist die Besprechung mit dem Team?"
    assert [encoder_routed.routed(query, v) for v in encoder_routed.VARIANTS] == [
        False,
        False,
        True,
        True,
    ]


@pytest.mark.skipif(not encoder_installed(), reason="the embedding model is not installed")
def test_a_query_not_routed_keeps_the_shipped_answer(tmp_path: Path) -> None:
    cases = {
        "dirs": [
            {"id": "garden", "memories": GARDEN_MEMORIES, "queries": [GARDEN_WATER_QUERY]},
            _russian_dir("ru-a", "бот"),
            _russian_dir("ru-b", "сайт"),
        ]
    }
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    # MiniLM stands in for the second encoder: what is checked is the routing, not USE
    first, second = encoder_routed.collect_both(path, tmp_path / "cache", load_encoder())
    russian = [q.case.get("language") == "ru" for q in first]
    # the shipped selector gives a Cyrillic query to the full-text channel alone; the second
    # encoder's run scores it semantically
    assert [is_full_text(q) for q in first] == russian
    assert not any(is_full_text(q) for q in second)

    base = encoder_routed.shipped_answers(first, DecisionModel.load())
    got, count = encoder_routed.variant_answers(base, second, second, "V1b", leave_one_dir_out=True)
    assert count == sum(russian) == 4
    assert [a for a, ru in zip(got, russian, strict=True) if not ru] == [
        a for a, ru in zip(base, russian, strict=True) if not ru
    ]
    result = encoder_routed.measure((first, second), None)
    assert result["tune"]["shipped"]["routed"] == 0
    assert {row["routed"] for label, row in result["tune"].items() if label != "shipped"} == {4}
