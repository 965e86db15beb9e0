"""benchmarks/locomo.py: the file check, the dir layout, evidence parsing and the grep baseline."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import locomo
import pytest
from recall_baselines import grep_rank

from memdir_nb.storage.scan import scan_memory_files

REPO = Path(__file__).resolve().parents[2]

# A made-up conversation in LoCoMo's shape (no LoCoMo text).
SAMPLE = {
    "sample_id": "conv-x",
    "conversation": {
        "speaker_a": "Ana",
        "speaker_b": "Ben",
        "session_1_date_time": "9:00 am on 1 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a grey cat called Pixel."},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "Lovely, cats are great."},
        ],
        "session_2_date_time": "6:30 pm on 9 May, 2023",
        "session_2": [{"speaker": "Ben", "dia_id": "D2:1", "text": "I ran my first marathon."}],
        "session_3_date_time": "no turns in this one",
    },
    "session_summary": {
        "session_1_summary": "Ana tells Ben about her new cat. They talk about pets.",
        "session_2_summary": "Ben ran a marathon. Ana congratulates him.",
    },
    "qa": [],
}


def test_another_file_is_refused_with_its_hash_and_the_fix(tmp_path: Path) -> None:
    bad = tmp_path / "locomo10.json"
    bad.write_text("[]", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "locomo.py"), str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert out.returncode == 2
    assert "not the expected 79fa87e9" in out.stderr and "snap-research/LoCoMo" in out.stderr
    assert "Traceback" not in out.stderr


def test_one_memory_per_session_with_summary_description_and_dated_dialogue(tmp_path: Path) -> None:
    bodies = locomo.write_dir(SAMPLE, tmp_path / "conv")
    assert sorted(bodies) == ["session_01.md", "session_02.md"]  # session 3 has no turns
    headers = {h.filename: h for h in scan_memory_files(tmp_path / "conv")}
    assert headers["session_01.md"].description == "Ana tells Ben about her new cat."
    assert bodies["session_01.md"].startswith("# Chat session at 9:00 am on 1 May, 2023")
    assert "Ana: I adopted a grey cat called Pixel." in bodies["session_01.md"]
    assert headers["session_02.md"].mtime_ms > headers["session_01.md"].mtime_ms


def test_malformed_evidence_ids_still_name_their_sessions() -> None:
    qa = {"evidence": ["D1:3", "D2:1; D9:4", "D", "D:11:26"]}
    assert locomo.gold_of(qa, {"session_01.md", "session_02.md"}) == {
        "session_01.md",
        "session_02.md",
    }


def test_grep_counts_substrings_and_favours_documents_matching_more_terms() -> None:
    bodies = {"a.md": "the cat and the party", "b.md": "cat cat cat cat", "c.md": "nothing"}
    ranked = grep_rank("Where is the cat at the party?", bodies)
    assert ranked == ["a.md", "b.md"]  # both terms beat one term four times; c matches none
    assert grep_rank("art", {"x.md": "a party"}) == ["x.md"]  # substring, as theirs


@pytest.mark.parametrize(
    ("picks", "hit", "recall", "mrr"), [(["b", "a"], 1, 0.5, 0.5), ([], 0, 0, 0)]
)
def test_hit_recall_and_mrr_per_question(
    picks: list[str], hit: int, recall: float, mrr: float
) -> None:
    tally = locomo.Tally()
    tally.add(1, picks, {"a", "c"})
    s = tally.summary()
    assert (s["hit@5"], s["recall@5"], s["mrr"]) == (hit, recall, mrr)
