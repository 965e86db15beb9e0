"""benchmarks/locomo_dump.py: locomo.py's per-question rows (--dump) say what each ranker did."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import locomo
import locomo_dump

from memdir_nb.recall.semantic import SemanticSelector

# A made-up conversation in LoCoMo's shape (no LoCoMo text): three sessions, two questions.
SAMPLE: dict[str, Any] = {
    "sample_id": "conv-d",
    "conversation": {
        "session_1_date_time": "9:00 am on 1 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a grey cat called Pixel."},
        ],
        "session_2_date_time": "6:30 pm on 9 May, 2023",
        "session_2": [{"speaker": "Ben", "dia_id": "D2:1", "text": "I ran my first marathon."}],
        "session_3_date_time": "7:00 pm on 20 May, 2023",
        "session_3": [{"speaker": "Ana", "dia_id": "D3:1", "text": "We planted tomatoes today."}],
    },
    "session_summary": {
        "session_1_summary": "Ana tells Ben about her new cat.",
        "session_2_summary": "Ben ran a marathon.",
        "session_3_summary": "Ana gardens.",
    },
    "qa": [
        {"question": "What is the name of Ana's cat?", "evidence": ["D1:1"], "category": 4},
        {"question": "Who ran a marathon?", "evidence": ["D2:1"], "category": 1},
        {"question": "Not answerable", "evidence": [], "category": 5},
    ],
}


def _dumped(tmp_path: Path) -> tuple[list[dict[str, Any]], dict[str, locomo.Tally]]:
    haystack = locomo.conversation_dir(SAMPLE, tmp_path / "dirs")
    selector = SemanticSelector(cache_dir=tmp_path / "cache", progress=False)
    tallies = {name: locomo.Tally() for name in locomo.RANKERS}
    dump: list[dict[str, Any]] = []
    locomo.run_sample(SAMPLE, haystack, selector, tallies, random.Random(0), dump=dump)
    return dump, tallies


def test_one_row_per_answerable_question_with_its_gold_and_every_ranker(tmp_path: Path) -> None:
    dump, _ = _dumped(tmp_path)
    assert [row["question"] for row in dump] == [
        "What is the name of Ana's cat?",
        "Who ran a marathon?",
    ]  # category 5 is not answerable, so not dumped
    first = dump[0]
    assert first["sample_id"] == "conv-d" and first["category"] == 4
    assert first["gold"] == ["session_01.md"] and first["evidence"] == ["D1:1"]
    assert first["grep"][0] == "session_01.md"  # "cat" is only in session 1
    ranking = first["ranking"]
    assert len(ranking) == 3  # every candidate, up to TOP
    probabilities = [r["probability"] for r in ranking]
    assert probabilities == sorted(probabilities, reverse=True)
    assert {"semantic", "bm25_relative", "semantic_gap"} <= set(ranking[0]["features"])
    assert [r["gold"] for r in ranking].count(True) == 1
    assert first["gold_rank"] == 1 + [r["gold"] for r in ranking].index(True)


def test_the_dump_s_hits_are_the_tallies_hits(tmp_path: Path) -> None:
    dump, tallies = _dumped(tmp_path)
    for name in ("default", "ranking", "grep"):
        assert [float(row["hits"][name]) for row in dump] == [r[1] for r in tallies[name].rows]
    for row in dump:
        selected = [r["file"] for r in row["ranking"] if r["selected"]]
        assert sorted(selected) == sorted(row["default"])


def test_rows_round_trip_through_json_lines(tmp_path: Path) -> None:
    dump, _ = _dumped(tmp_path)
    handle = io.StringIO()
    assert locomo_dump.write_rows(dump, handle) == 2
    path = tmp_path / "dump.jsonl"
    path.write_text(handle.getvalue(), encoding="utf-8")
    assert locomo_dump.read_rows(path) == dump


def test_the_ranking_is_cut_at_top(tmp_path: Path) -> None:
    haystack = locomo.conversation_dir(SAMPLE, tmp_path / "dirs")
    selector = SemanticSelector(cache_dir=tmp_path / "cache", progress=False)
    explained = selector.score("Who ran a marathon?", haystack.headers)
    row = locomo_dump.question_row("conv-d", SAMPLE["qa"][1], set(), explained, [], top=2)
    ranking = row["ranking"]
    assert isinstance(ranking, list) and len(ranking) == 2 and row["gold_rank"] is None
    assert row["hits"] == {"default": False, "ranking": False, "grep": False}
