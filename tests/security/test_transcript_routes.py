"""Attack round 29: transcript records whose fields hold JSON of another type.

A transcript is outside input (a downloaded home, a teammate's session): any field may hold a
list, an object, a number, null or a bool where Claude Code writes a string. Every reader of
transcripts promises one bad record is a problem or is ignored, never an exception. Tried by
class: every field of every record of two real-shaped transcripts, replaced in turn by each
such value, through every reader.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.extract.transcript import read_transcript
from memdir_nb.home.sessions import head_kind, read_session
from memdir_nb.recall.lexical import LexicalSelector
from memdir_nb.reports.replay import replay_session
from memdir_nb.ui.demo import DEMO_NOW_MS, build_demo_memory_dir

ROOT = Path(__file__).resolve().parents[2]
SESSIONS = ROOT / "tests" / "data" / "sessions"
OTHER_TYPES: list[Any] = [[1], {"a": 1}, 7, None, True]


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _field_paths(value: object, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, inner in items:
        yield (*prefix, key)
        yield from _field_paths(inner, (*prefix, key))


def _replaced(record: dict[str, Any], path: tuple[Any, ...], value: object) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(record))
    here: Any = copy
    for key in path[:-1]:
        here = here[key]
    here[path[-1]] = value
    return copy


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _system_record_with_a_list_subtype(tmp_path: Path) -> Path:
    records = _records(SESSIONS / "a_plain_session_memory_writes.jsonl")
    at = next(i for i, r in enumerate(records) if r.get("type") == "system" and "subtype" in r)
    records[at] = _replaced(records[at], ("subtype",), ["turn_duration"])
    return _write(tmp_path / "hostile.jsonl", records)


def _readers_raising(tmp_path: Path, name: str, kinds: tuple[str, ...] | None) -> list[str]:
    """Each (reader, line, field, value) that raised: every field of every record (of the
    given record types; None: all) replaced in turn by each value of OTHER_TYPES."""
    records = _records(SESSIONS / name)
    target = tmp_path / "t.jsonl"
    failures: list[str] = []
    for at, record in enumerate(records):
        if kinds is not None and record.get("type") not in kinds:
            continue
        for path in _field_paths(record):
            for value in OTHER_TYPES:
                changed = [*records[:at], _replaced(record, path, value), *records[at + 1 :]]
                _write(target, changed)
                for reader in (read_session, read_transcript, head_kind):
                    try:
                        reader(target)
                    except Exception as exc:  # any exception is the failure
                        failures.append(
                            f"{reader.__name__} line {at + 1} {path}={value!r}: {exc!r}"
                        )
    return failures


def test_a_system_or_attachment_field_of_another_json_type_never_raises_out_of_a_reader(
    tmp_path: Path,
) -> None:
    """Failed before the fix: a system record's `subtype` holding a list or an object raised
    TypeError ("unhashable type") out of read_session (44 of 63,795 reads over every field of
    every sample transcript, 2 of the 5 values on each system record; measured)."""
    failures = _readers_raising(
        tmp_path, "a_plain_session_memory_writes.jsonl", ("system", "attachment")
    )
    assert not failures, failures[:5]


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    ["a_plain_session_memory_writes.jsonl", "b_compaction.jsonl", "d_interrupts_and_queue.jsonl"],
)
def test_any_field_of_another_json_type_never_raises_out_of_a_transcript_reader(
    tmp_path: Path, name: str
) -> None:
    """The whole class on three transcripts (about 45 s): every field of every record."""
    failures = _readers_raising(tmp_path, name, None)
    assert not failures, failures[:5]


def test_replay_and_sessions_read_a_system_record_whose_subtype_is_a_list(tmp_path: Path) -> None:
    """Failed before the fix: a TypeError traceback from `memdir-nb replay` and from
    `memdir-nb sessions`, where one such transcript stopped the listing of the whole home."""
    transcript = _system_record_with_a_list_subtype(tmp_path)
    memory = build_demo_memory_dir(tmp_path / "memory", now_ms=DEMO_NOW_MS)
    replay = replay_session(
        transcript, memory, selector=LexicalSelector(), now_ms=DEMO_NOW_MS, progress=False
    )
    assert replay.turns
    project = tmp_path / "home" / "projects" / "-work-x"
    project.mkdir(parents=True)
    (project / "11111111-2222-3333-4444-555555555555.jsonl").write_bytes(transcript.read_bytes())
    for args in (["replay", str(transcript)], ["sessions", "--home", str(tmp_path / "home")]):
        out = subprocess.run(
            [sys.executable, "-m", "memdir_nb.cli", *args],
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert out.returncode == 0 and "Traceback" not in out.stderr, (args, out.stderr)
    assert "11111111" in out.stdout
