"""benchmarks/locomo.py: the file check, the dir layout, evidence parsing and the grep baseline."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import locomo
import pytest
from recall_baselines import grep_rank

from memdir_nb.recall.semantic import SemanticSelector
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


def _run_locomo(*args: str) -> subprocess.CompletedProcess[str]:
    """benchmarks/locomo.py run as a user runs it, from the repository."""
    command = [sys.executable, str(REPO / "benchmarks" / "locomo.py"), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=REPO)


def test_another_file_is_refused_with_its_hash_and_the_fix(tmp_path: Path) -> None:
    bad = tmp_path / "locomo10.json"
    bad.write_text("[]", encoding="utf-8")
    out = _run_locomo(str(bad))
    assert out.returncode == 2
    assert "not the expected 79fa87e9" in out.stderr and "snap-research/LoCoMo" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_data_file_is_read_up_to_the_cap_and_never_past_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # attack round 26: check_file read a name linked to a large file whole before hashing it
    # (1 GB of RSS for a 1 GB sparse file); REALTALK's reader is this same function
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(4096)
    (tmp_path / "locomo10.json").symlink_to(big)
    monkeypatch.setattr(locomo, "FILE_MAX_BYTES", 1024)
    read_sizes: list[int] = []
    real_read = os.read

    def counted_read(fd: int, n: int) -> bytes:
        read_sizes.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(os, "read", counted_read)
    with pytest.raises(locomo.LocomoFileError, match="is larger than 1,024 bytes"):
        locomo.check_file(tmp_path / "locomo10.json")
    assert sum(read_sizes) <= 1025


def test_a_fifo_or_no_file_at_the_data_files_name_is_refused_at_once_naming_which(
    tmp_path: Path,
) -> None:
    # attack round 26: a FIFO swapped in after the is_file check blocked the open for good
    os.mkfifo(tmp_path / "locomo10.json")
    with pytest.raises(locomo.LocomoFileError, match="FIFO, not a regular file"):
        locomo.check_file(tmp_path / "locomo10.json")
    with pytest.raises(locomo.LocomoFileError, match="does not exist.*snap-research/LoCoMo"):
        locomo.check_file(tmp_path / "absent.json")


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


def _second_conversation() -> dict[str, object]:
    """Another made-up conversation whose session numbers overlap SAMPLE's."""
    return {
        "sample_id": "conv-y",
        "conversation": {
            "session_1_date_time": "8:00 am on 2 June, 2023",
            "session_1": [
                {"speaker": "Cy", "dia_id": "D1:1", "text": "My violin lessons start on Friday."}
            ],
        },
        "session_summary": {"session_1_summary": "Cy starts violin lessons."},
        "qa": [
            {"question": "When do Cy's violin lessons start?", "evidence": ["D1:1"], "category": 4},
            {"question": "What is unanswerable here?", "evidence": [], "category": 5},
        ],
    }


def test_pooled_dir_keeps_every_session_under_its_conversation_id(tmp_path: Path) -> None:
    pooled = locomo.pooled_dir([SAMPLE, _second_conversation()], tmp_path)
    names = sorted(h.filename for h in pooled.headers)
    assert names == ["conv-x_session_01.md", "conv-x_session_02.md", "conv-y_session_01.md"]
    assert sorted(pooled.bodies) == names
    # the same text as the per-conversation layout, so both share one vector cache
    alone = locomo.write_dir(SAMPLE, tmp_path / "alone")
    assert pooled.bodies["conv-x_session_01.md"] == alone["session_01.md"]


def test_pooled_gold_names_the_sessions_of_the_question_s_own_conversation() -> None:
    known = {"conv-x_session_01.md", "conv-y_session_01.md"}
    gold = locomo.gold_of(
        {"evidence": ["D1:1"]}, known, locomo.pooled_prefix({"sample_id": "conv-y"})
    )
    assert gold == {"conv-y_session_01.md"}


def test_pooled_run_asks_each_conversation_s_questions_of_the_whole_dir(tmp_path: Path) -> None:
    second = _second_conversation()
    pooled = locomo.pooled_dir([SAMPLE, second], tmp_path / "dirs")
    selector = SemanticSelector(cache_dir=tmp_path / "cache", progress=False)
    tallies = {name: locomo.Tally() for name in locomo.RANKERS}
    rng = random.Random(0)
    locomo.run_sample(second, pooled, selector, tallies, rng, locomo.pooled_prefix(second))
    assert [row[0] for row in tallies["grep"].rows] == [4]  # category 5 is not answerable
    assert tallies["grep"].summary()["hit@5"] == 1.0  # grep finds conv-y's violin session
    assert tallies["ranking"].summary()["mrr"] == 1.0  # and so does the selector, first


def test_the_f1_row_is_the_default_answer_and_a_larger_beta_never_picks_fewer(
    tmp_path: Path,
) -> None:
    haystack = locomo.conversation_dir(SAMPLE, tmp_path / "dirs")
    selector = SemanticSelector(cache_dir=tmp_path / "cache", progress=False)
    for question in ("Which cat did Ana adopt?", "Who ran a race?", "What did they talk about?"):
        explained = selector.score(question, haystack.headers)
        default = [e.filename for e in explained if e.selected]
        assert locomo.answer_with_beta(explained, selector, 1.0) == default
        wider = locomo.answer_with_beta(explained, selector, 3.0)
        assert wider[: len(default)] == default and len(wider) >= len(default)


def test_a_beta_that_is_not_positive_is_refused_before_any_work() -> None:
    out = _run_locomo("none.json", "--beta", "0")
    assert out.returncode == 2
    assert "--beta must be a positive number" in out.stderr
