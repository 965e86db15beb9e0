"""formats.session_ledger: file-history snapshots and token totals, read in the reader's pass."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from memdir_nb.formats.session_ledger import (
    COST_USD_MAX,
    TOKENS_MAX,
    TRACKED_FILES_KEPT,
    SessionLedger,
    ledger_of,
)
from memdir_nb.home.sessions import read_session
from tests.conftest import LEDGER_TRACKED, build_ledger_session


def _answer(mid: object, usage: object, **extra: object) -> dict[str, object]:
    return {"type": "assistant", "message": {"id": mid, "usage": usage}, **extra}


def test_a_session_read_carries_its_snapshots_and_token_totals(tmp_path: Path) -> None:
    ledger = read_session(build_ledger_session(tmp_path)).ledger
    assert ledger == SessionLedger(
        snapshots=4,
        snapshot_updates=1,
        tracked_files=LEDGER_TRACKED,
        bad_snapshots=1,
        messages=4,  # the first message's two records counted once
        input_tokens=15,
        output_tokens=190,
        cache_creation_input_tokens=2000,
        cache_read_input_tokens=12000,
        no_usage=1,
        bad_fields=2,  # a string for a token count, a string for a cost
        cost_usd=0.0125,
        costed_messages=1,
    )
    assert ledger.total_tokens == 14_205


def test_records_of_one_message_count_once_with_the_usage_of_the_last() -> None:
    ledger = ledger_of(
        [
            _answer("m1", {"input_tokens": 5, "output_tokens": 1}),
            {"type": "user", "message": {"content": "a tool result between them"}},
            _answer("m2", {"input_tokens": 7, "output_tokens": 3}),  # another agent's, between
            _answer("m1", {"input_tokens": 5, "output_tokens": 30}),
        ]
    )
    assert (ledger.messages, ledger.input_tokens, ledger.output_tokens) == (2, 12, 33)


def test_a_message_without_an_id_is_a_message_of_its_own() -> None:
    usage = {"input_tokens": 1, "output_tokens": 2}
    ledger = ledger_of([_answer(None, usage), _answer(None, usage), _answer("", usage)])
    assert (ledger.messages, ledger.input_tokens) == (3, 3)


@pytest.mark.parametrize(
    "value",
    ["12", -4, 1.5, True, [3], {"n": 1}, float("nan")],
)
def test_a_token_count_of_the_wrong_type_is_counted_as_bad_and_left_out(value: object) -> None:
    ledger = ledger_of([_answer("m", {"input_tokens": value, "output_tokens": 9})])
    assert (ledger.bad_fields, ledger.input_tokens, ledger.output_tokens) == (1, 0, 9)


@pytest.mark.parametrize("value", ["0.5", -0.01, float("inf"), float("nan"), False, [1]])
def test_a_cost_that_is_no_dollar_amount_is_counted_as_bad(value: object) -> None:
    ledger = ledger_of([_answer("m", {}, costUSD=value)])
    assert (ledger.bad_fields, ledger.cost_usd, ledger.costed_messages) == (1, None, 0)


def test_costs_are_summed_over_the_messages_that_carry_one() -> None:
    ledger = ledger_of(
        [_answer("a", {}, costUSD=0.25), _answer("b", {}), _answer("c", {}, costUSD=1)]
    )
    assert (ledger.cost_usd, ledger.costed_messages, ledger.messages) == (1.25, 2, 3)


@pytest.mark.parametrize("message", [None, "text", 3, ["usage"]])
def test_an_assistant_record_without_a_message_map_is_passed_over(message: object) -> None:
    assert ledger_of([{"type": "assistant", "message": message}]) == SessionLedger()


@pytest.mark.parametrize("usage", [None, "lots", 12, [1, 2]])
def test_a_message_without_a_usage_map_is_counted_as_having_none(usage: object) -> None:
    ledger = ledger_of([_answer("m", usage)])
    assert (ledger.messages, ledger.no_usage, ledger.total_tokens) == (1, 1, 0)


@pytest.mark.parametrize(
    "record",
    [
        {"type": "file-history-snapshot"},
        {"type": "file-history-snapshot", "snapshot": None},
        {"type": "file-history-snapshot", "snapshot": {"trackedFileBackups": ["a.py"]}},
        {"type": "file-history-snapshot", "snapshot": {"trackedFileBackups": "a.py"}},
    ],
)
def test_a_snapshot_without_a_map_of_tracked_files_is_counted_as_bad(
    record: dict[str, object],
) -> None:
    ledger = ledger_of([record])
    assert (ledger.snapshots, ledger.bad_snapshots, ledger.tracked_files) == (1, 1, ())


def test_tracked_files_are_kept_once_each_in_order_and_up_to_the_cap() -> None:
    def snap(*paths: str) -> dict[str, object]:
        backups = {p: {"version": 1} for p in paths}
        return {"type": "file-history-snapshot", "snapshot": {"trackedFileBackups": backups}}

    many = [f"/w/f{n}.py" for n in range(TRACKED_FILES_KEPT + 5)]
    ledger = ledger_of([snap("/w/b.py", "/w/a.py"), snap("/w/a.py", "  "), snap(*many)])
    assert ledger.tracked_files[:3] == ("/w/b.py", "/w/a.py", "/w/f0.py")
    assert len(ledger.tracked_files) == TRACKED_FILES_KEPT and ledger.more_tracked_files
    assert ledger.snapshots == 3 and ledger.bad_snapshots == 0


def test_a_record_written_again_with_its_uuid_is_not_counted_twice(tmp_path: Path) -> None:
    path = build_ledger_session(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    answers = [ln for ln in lines if '"type":"assistant"' in ln]
    path.write_text("\n".join([*lines, *answers]) + "\n", encoding="utf-8")
    assert read_session(path).ledger.input_tokens == 15


def test_a_transcript_with_neither_record_has_an_empty_ledger(tmp_path: Path) -> None:
    path = tmp_path / "plain.jsonl"
    path.write_text('{"type":"user","message":{"role":"user","content":"hi"}}\n', encoding="utf-8")
    ledger = read_session(path).ledger
    assert ledger.is_empty and ledger.total_tokens == 0 and ledger.cost_usd is None


def test_counts_and_costs_past_any_real_message_are_bad_and_the_totals_stay_json(
    tmp_path: Path,
) -> None:
    # attack44: two records of 1e308 dollars summed to inf, which the kernel's JSON refuses
    # (allow_nan=False) when the replay widget sends its `ledger` state; 10**30 tokens were
    # summed as given. Read from a file, with JSON's NaN and Infinity literals and a count of
    # more digits than int() reads beside them.
    answers = [
        f'{{"type":"assistant","message":{{"id":"m{i}","usage":{{"input_tokens":{tokens}}}}},'
        f'"costUSD":{cost}}}'
        for i, (tokens, cost) in enumerate(
            [
                (10**30, "1e308"),
                (TOKENS_MAX + 1, "1e308"),
                ("NaN", "Infinity"),
                ("-Infinity", "NaN"),
                ("9" * 5000, "1"),
                (TOKENS_MAX, repr(COST_USD_MAX)),
            ]
        )
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(answers) + "\n", encoding="utf-8")
    ledger = read_session(path).ledger
    assert ledger.input_tokens == TOKENS_MAX and ledger.cost_usd == COST_USD_MAX + 1
    assert ledger.bad_fields >= 8
    json.dumps(dataclasses.asdict(ledger), allow_nan=False)


@pytest.mark.parametrize("head", [4, 16, 30])
def test_a_tracked_path_past_the_cap_keeps_whole_folders_never_a_names_head(head: int) -> None:
    # attack44: the path was cut at 1,000 characters inside its last name, and a token there
    # kept its head (26 of its 36 secret characters), which the masker no longer knew
    token = "ghp_" + "R4nd0mT0k3nV4lu3" * 2 + "x9Yq"
    folder = "/w/" + "d" * (1_000 - head - 4)
    backups: dict[str, object] = {folder + "/" + token + ".txt": {}, "x" * 1_200: {}}
    ledger = ledger_of(
        [{"type": "file-history-snapshot", "snapshot": {"trackedFileBackups": backups}}]
    )
    assert ledger.tracked_files == (folder + "/\u2026",)
