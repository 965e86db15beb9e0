"""benchmarks/realtalk.py: the hash check, the turn into LoCoMo's shape and one scored run."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import locomo
import pytest
import realtalk

from memdir_nb.recall.semantic import SemanticSelector
from memdir_nb.storage.scan import scan_memory_files

REPO = Path(__file__).resolve().parents[2]


def _turn(dia_id: str, speaker: str, text: str, caption: str = "") -> dict[str, object]:
    turn: dict[str, object] = {
        "clean_text": text,
        "speaker": speaker,
        "date_time": "01.03.2024, 10:00:00",
        "img_file": [],
        "img_url": [],
        "dia_id": dia_id,
    }
    if caption:
        turn["blip_caption"] = caption
    return turn


# A made-up two-person chat in REALTALK's shape (no REALTALK text).
CHAT = {
    "name": {"speaker_1": "Ines", "speaker_2": "Tomas"},
    "session_1": [
        _turn("D1:1", "Ines", "Morning! I finally booked the pottery course"),
        _turn("D1:2", "Tomas", "Nice, which studio?"),
        _turn("D1:3", "Ines", "The one by the canal, Thursdays", "a clay bowl on a wheel"),
    ],
    "events_session_1": {
        "agent_a": [{"sub-event": "Ines books a pottery course.", "date": "", "id": "E"}],
        "agent_b": [],
    },
    "session_2": [
        _turn("D2:1", "Tomas", "My sister's wedding is in Lisbon next month"),
        _turn("D2:2", "Ines", "Are you giving a speech?"),
    ],
    "events_session_2": {"agent_a": [], "agent_b": []},
    "session_1_date_time": "01.03.2024, 10:00:00",
    "session_2_date_time": "04.03.2024, 21:15:00",
    "qa": [
        {"question": "Where is the pottery studio?", "evidence": ["D1:3"], "category": 1},
        {"question": "Where is the sister's wedding?", "evidence": ["D2:1."], "category": 2},
        {"question": "What did they promise?", "evidence": ["D58"], "category": 3},
    ],
}
NAME = "Chat_1_Ines_Tomas.json"


def _write_chat(directory: Path) -> dict[str, str]:
    """CHAT written as a REALTALK data file; the hash table that accepts it."""
    directory.mkdir(parents=True, exist_ok=True)
    raw = json.dumps(CHAT).encode("utf-8")
    (directory / NAME).write_bytes(raw)
    return {NAME: hashlib.sha256(raw).hexdigest()}


def test_a_changed_file_is_refused_naming_it_and_both_hashes(tmp_path: Path) -> None:
    expected = _write_chat(tmp_path)
    (tmp_path / NAME).write_text(json.dumps({**CHAT, "qa": []}), encoding="utf-8")
    with pytest.raises(realtalk.RealtalkFileError, match=r"Chat_1_Ines_Tomas\.json has SHA-256"):
        realtalk.check_dir(tmp_path, expected)


def test_a_missing_file_is_refused_and_the_fix_named(tmp_path: Path) -> None:
    expected = _write_chat(tmp_path)
    with pytest.raises(realtalk.RealtalkFileError, match="has no Chat_2_Other.json"):
        realtalk.check_dir(tmp_path, {**expected, "Chat_2_Other.json": "0" * 64})


def test_the_command_refuses_a_directory_without_realtalk_s_files(tmp_path: Path) -> None:
    _write_chat(tmp_path)  # accepted only by the test's own table, never by the command
    command = [sys.executable, str(REPO / "benchmarks" / "realtalk.py"), str(tmp_path)]
    out = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=REPO)
    assert out.returncode == 2
    assert "has no Chat_1_Emi_Elise.json" in out.stderr and "danny911kr/REALTALK" in out.stderr
    assert "Traceback" not in out.stderr


def test_the_sessions_become_memories_with_sub_event_descriptions_and_captions(
    tmp_path: Path,
) -> None:
    [sample] = realtalk.check_dir(tmp_path / "data", _write_chat(tmp_path / "data"))
    assert sample["sample_id"] == "Chat_1_Ines_Tomas"
    bodies = locomo.write_dir(sample, tmp_path / "dir")
    headers = {h.filename: h for h in scan_memory_files(tmp_path / "dir")}
    assert headers["session_01.md"].description == "Ines books a pottery course."
    assert headers["session_02.md"].description == "Chat session 2."  # no sub-event
    assert headers["session_01.md"].name == "Session 1 (01.03.2024, 10:00:00)"
    body = bodies["session_01.md"]
    assert body.startswith("# Chat session at 01.03.2024, 10:00:00")
    assert "Ines: The one by the canal, Thursdays [image: a clay bowl on a wheel]" in body
    assert headers["session_02.md"].mtime_ms > headers["session_01.md"].mtime_ms


def test_one_run_scores_every_question_with_six_rankers_and_counts_missing_gold(
    tmp_path: Path,
) -> None:
    samples = realtalk.check_dir(tmp_path / "data", _write_chat(tmp_path / "data"))
    assert realtalk.no_gold_count(samples) == 1  # "D58" names no session
    selector = SemanticSelector(cache_dir=tmp_path / "cache", progress=False)
    tallies = realtalk.run(samples, tmp_path / "dirs", selector, seed=0)
    assert list(tallies) == list(realtalk.RANKERS)
    for name in ("grep", realtalk.BM25, "lexical"):
        rows = tallies[name].rows
        assert [(r[0], r[1]) for r in rows] == [(1, 1.0), (2, 1.0), (3, 0.0)], name
    text = locomo.report(tallies, 1.0, title=realtalk.TITLE, categories=realtalk.CATEGORIES)
    assert "BM25 top-5" in text and "3 open-domain" in text and "4 single-hop" not in text


def test_a_data_file_past_the_cap_is_refused_before_it_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # attack round 25: a name linked to a large file was read whole before its hash was checked
    expected = _write_chat(tmp_path / "data")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2048)
    (tmp_path / "data" / NAME).unlink()
    (tmp_path / "data" / NAME).symlink_to(big)
    monkeypatch.setattr(locomo, "FILE_MAX_BYTES", 1024)  # the one reader's cap
    with pytest.raises(realtalk.RealtalkFileError, match="is larger than 1,024 bytes"):
        realtalk.check_dir(tmp_path / "data", expected)


def test_a_symlinked_data_file_and_extra_files_are_read_by_their_content(tmp_path: Path) -> None:
    # attack round 25, held: the hash is of the bytes read, wherever the name points
    expected = _write_chat(tmp_path / "elsewhere")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / NAME).symlink_to(tmp_path / "elsewhere" / NAME)
    (tmp_path / "data" / "Chat_99_Extra.json").write_text("not json")
    [sample] = realtalk.check_dir(tmp_path / "data", expected)
    assert sample["qa"]
