"""validate_draft: the store's write rules as one verdict, each problem named once."""

from __future__ import annotations

import datetime as dt
import string
from pathlib import Path

import pytest

from memdir_nb.security.secret_scan import SecretInTeamMemoryError
from memdir_nb.storage.draft import DraftVerdict, validate_draft
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.store_checks import MemoryValidationError

WEDNESDAY_NOON = dt.datetime(2026, 11, 18, 12, 0).timestamp() * 1000  # local noon
GOOD_BODY = "Use the staging db.\n\n**Why:** prod data is private.\n**How to apply:** in tests."


def aws_key() -> str:
    """An AWS-access-key-shaped string, built at run time so no literal key sits in the repo."""
    tail = "".join(
        string.ascii_uppercase[(i * 7) % 26] if i % 3 else str(i % 10) for i in range(16)
    )
    return "AKIA" + tail


def verdict(**changes: object) -> DraftVerdict:
    fields: dict[str, object] = dict(
        name="Staging db", description="Tests use the staging database", type="feedback"
    )
    fields["body"] = GOOD_BODY
    scope = changes.pop("scope", "private")
    fields.update(changes)
    return validate_draft(
        fields["name"],
        fields["description"],
        fields["type"],
        fields["body"],
        scope=scope,
        now_ms=WEDNESDAY_NOON,
    )


def test_a_complete_draft_has_no_problems() -> None:
    v = verdict()
    assert v.ok and v.errors == () and v.warnings == ()


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        (dict(name="  "), "name"),
        (dict(description="one\ntwo"), "description"),
        (dict(type="opinion"), "type"),
        (dict(type=""), "type"),
        (dict(body=None), "body"),
        (dict(scope="public"), "scope"),
        (dict(type="user", scope="team"), "user-memory-in-team"),
    ],
)
def test_each_broken_rule_is_one_error(changes: dict[str, object], code: str) -> None:
    v = verdict(**changes)
    assert [p.code for p in v.errors] == [code]


def test_user_memory_in_team_is_refused_in_the_one_wording() -> None:
    (problem,) = verdict(type="user", scope="team", body="Role.").errors
    assert "always private" in problem.message


def test_missing_why_and_how_are_warnings_not_errors() -> None:
    v = verdict(body="Use the staging db.")
    assert v.ok
    assert [p.code for p in v.warnings] == ["missing-why", "missing-how-to-apply"]


def test_a_bold_why_or_how_to_apply_label_inside_a_paragraph_is_one() -> None:
    # real memories write the rule, then "**Why:** ... **How to apply:** ..." in one paragraph;
    # both labels are there, and "has no 'How to apply:' line" was a wrong warning
    one_line = "Keep the old card. **Why:** the new one lost a field. **How to apply:** diff first."
    assert verdict(body=one_line).warnings == ()
    joined = "Rebuild from this note.\n**Why:** no backup existed. **How to apply**: copy it back."
    assert verdict(body=joined).warnings == ()
    assert verdict(body="See ***Why:*** above; ***How to apply:*** below.").warnings == ()
    # an unmarked word inside a sentence is no label
    plain = "Nobody knows why: the notes say how to apply: nothing."
    assert [p.code for p in verdict(body=plain).warnings] == ["missing-why", "missing-how-to-apply"]


def test_reference_memories_need_no_why() -> None:
    assert verdict(type="reference", body="Board is api-latency.").warnings == ()


def test_relative_date_in_project_memory_warns_with_the_absolute_date() -> None:
    v = verdict(type="project", body=GOOD_BODY + "\nFreeze starts next monday.")
    (problem,) = v.warnings
    assert problem.code == "relative-date" and "2026-11-23" in problem.message
    assert verdict(type="feedback", body=GOOD_BODY + "\nnext monday").warnings == ()


def test_a_span_after_the_is_named_without_a_calendar_week_to_write() -> None:
    # real35: "covering the past week's changes" was told to write "the week of 2026-11-16",
    # a calendar week for the seven days before the day written
    v = verdict(type="project", body=GOOD_BODY + "\nCovers the past week's load tests.")
    (problem,) = v.warnings
    assert problem.code == "relative-date" and "'past week'" in problem.message
    assert "the week of" not in problem.message and "exact date" in problem.message


def test_the_same_phrase_twice_is_named_once() -> None:
    v = verdict(type="project", description="Ship tomorrow", body=GOOD_BODY + "\ntomorrow")
    assert [p.code for p in v.warnings] == ["relative-date"]


def test_a_secret_refuses_team_and_warns_private() -> None:
    body = GOOD_BODY + f"\nkey {aws_key()}"
    team, private = verdict(scope="team", type="project", body=body), verdict(body=body)
    assert [p.code for p in team.errors] == ["secret-in-team"]
    assert private.ok and "secret-in-private" in private.codes()
    assert aws_key() not in team.errors[0].message


def test_store_save_raises_the_verdicts_errors_and_writes_nothing(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "m")
    with pytest.raises(MemoryValidationError, match="name is empty.*unknown memory type"):
        store.save("", "d", "opinion", "b")
    with pytest.raises(SecretInTeamMemoryError):
        store.save("Key", "The deploy key", "project", aws_key(), scope="team")
    assert not (tmp_path / "m").exists() or list((tmp_path / "m").rglob("*.md")) == []


def test_store_keeps_the_verdicts_warnings_after_writing(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "m", now_ms=WEDNESDAY_NOON)
    path = store.save("Freeze", "Merge freeze for the release", "project", "Starts tomorrow.")
    assert path.is_file()
    assert [w.split(": ", 1)[0] for w in store.warnings] == [path.name] * 3
    assert "2026-11-19" in store.warnings[-1]


def test_store_update_checks_the_resulting_memory(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "m")
    path = store.save("Role", "Data scientist", "user", "Role.")
    with pytest.raises(MemoryValidationError, match="description is empty"):
        store.update(path.name, description=" ")


def test_a_body_past_the_write_cap_is_refused_by_the_draft_check_and_the_save(
    tmp_path: Path,
) -> None:
    # attack round 11: nothing capped a body, so a save wrote a file no later step could read
    # back to edit, after a secret scan of about a second per megabyte of it
    body = "db password: Xk9#mQ2$vL7pR4w\n" + "x" * 3_000_000
    verdict = validate_draft("Big", "a big one", "user", body)
    assert [p.code for p in verdict.errors] == ["body"]
    assert "over the 1,048,576-byte limit" in verdict.errors[0].message
    assert verdict.secret_findings == ()  # refused before the scan, which would find it
    with pytest.raises(MemoryValidationError, match="1,048,576-byte limit"):
        MemoryStore(tmp_path).save("Big", "a big one", "user", body, filename="user_big.md")
    assert not (tmp_path / "user_big.md").exists()


@pytest.mark.parametrize("seed", range(6))
def test_why_and_how_lines_are_found_as_a_search_of_the_whole_body_finds_them(seed: int) -> None:
    # tried at line starts only: a label may follow marks on the lines above it ("-\nWhy:")
    import random

    from memdir_nb.storage import draft

    pieces = ["Why", "why?", "**Why:**", "## ", "#", "How to apply", ":", "：", "- ", "**"]
    pieces += ["Grund", "理由", "reason", "wie zu apply", " ", "  ", "\n", "\n", "word", "é", "?"]
    rng = random.Random(seed)
    for _ in range(200):
        body = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        why = draft._WHY.search(body) or draft._BOLD_WHY.search(body)
        how = draft._HOW.search(body) or draft._BOLD_HOW.search(body)
        assert draft.has_why_line(body) == (why is not None), body
        assert draft.has_how_to_apply_line(body) == (how is not None), body
