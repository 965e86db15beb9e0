"""Tests for memdir_nb.storage.store: real files, real symlinks and real processes under tmp_path."""

from __future__ import annotations

import multiprocessing
import os
import re
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from memdir_nb.formats import index
from memdir_nb.home.config import MemdirConfig
from memdir_nb.security.secret_scan import SecretInTeamMemoryError
from memdir_nb.spec.dates import iso_utc
from memdir_nb.spec.taxonomy import MemoryType
from memdir_nb.storage.containment import PathTraversalError
from memdir_nb.storage.headers import read_frontmatter
from memdir_nb.storage.index_files import read_entrypoint
from memdir_nb.storage.index_rebuild import IndexOverCapsError
from memdir_nb.storage.scan import scan_memory_files
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.store_checks import MemoryNotFoundError, MemoryValidationError, slugify
from tests.conftest import build_folder_blocker
from tests.support import snapshot as support_snapshot
from tests.support.in_place_editor import start_in_place_save

# 2026-04-02T10:15:30.123Z
NOW_MS = 1_775_124_930_123.0


def aws_key() -> str:
    """An AWS-access-key-shaped string, built at runtime so no literal key sits in the repo."""
    tail = "".join(
        string.ascii_uppercase[(i * 7) % 26] if i % 3 else str(i % 10) for i in range(16)
    )
    return "AKIA" + tail


def rsa_block() -> str:
    return (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA"
        + "q" * 40
        + "\n-----END RSA PRIVATE KEY-----"
    )


def snapshot(root: Path) -> dict[str, tuple[Any, ...]]:
    """Every entry under root, the store's lock file included (a refusal must not even lock)."""
    return support_snapshot(root, ignore=())


def index_targets(scope_dir: Path) -> list[str]:
    return [e.target for e in index.parse_index(read_entrypoint(scope_dir))]


@pytest.fixture
def mem(tmp_path: Path) -> Path:
    return tmp_path / "memory"


@pytest.fixture
def store(mem: Path) -> MemoryStore:
    return MemoryStore(mem, now_ms=NOW_MS)


def save_feedback(store: MemoryStore, name: str = "Testing policy", **kw: Any) -> Path:
    return store.save(
        name,
        kw.pop("description", "Integration tests hit a real database, never mocks"),
        kw.pop("type", "feedback"),
        kw.pop(
            "body",
            "Use the real database.\n\n**Why:** mocks hid a broken migration.\n"
            "**How to apply:** every integration test.",
        ),
        **kw,
    )


# --- save -----------------------------------------------------------------------------------


def test_save_writes_the_topic_file_and_exactly_one_index_line(
    store: MemoryStore, mem: Path
) -> None:
    path = save_feedback(store)
    assert path == mem / "feedback_testing_policy.md"
    assert path.read_text().startswith("---\nname: Testing policy\n")
    lines = (mem / "MEMORY.md").read_text().splitlines()
    assert lines == [
        "- [Testing policy](feedback_testing_policy.md) — Integration tests hit a real database, never mocks"
    ]


def test_saved_frontmatter_round_trips_through_scan(store: MemoryStore, mem: Path) -> None:
    store.save(
        'Deploy: the "blue" way', "Use blue/green: never # in-place", "project", "Body text."
    )
    [header] = scan_memory_files(mem)
    assert header.filename == "project_deploy_the_blue_way.md"
    assert header.name == 'Deploy: the "blue" way'
    assert header.description == "Use blue/green: never # in-place"
    assert header.type is MemoryType.PROJECT
    assert not header.malformed


def test_team_save_writes_under_team_with_its_own_index(store: MemoryStore, mem: Path) -> None:
    path = store.save(
        "Merge freeze", "Freeze from 2026-03-05", "project", "No merges.", scope="team"
    )
    assert path == mem / "team" / "project_merge_freeze.md"
    assert (mem / "team" / "MEMORY.md").read_text() == (
        "- [Merge freeze](project_merge_freeze.md) — Freeze from 2026-03-05\n"
    )
    assert not (mem / "MEMORY.md").exists()
    assert [h.filename for h in store.list("team")] == ["team/project_merge_freeze.md"]
    assert store.list("private") == []


def test_saving_the_identical_memory_again_makes_no_duplicate(
    store: MemoryStore, mem: Path
) -> None:
    first = save_feedback(store)
    second = save_feedback(store)
    assert first == second
    assert index_targets(mem) == ["feedback_testing_policy.md"]
    assert sorted(p.name for p in mem.glob("*.md")) == ["MEMORY.md", "feedback_testing_policy.md"]


def test_a_different_memory_with_the_same_name_gets_a_numbered_file(
    store: MemoryStore, mem: Path
) -> None:
    a = save_feedback(store, body="first")
    b = save_feedback(store, body="second")
    c = save_feedback(store, body="third")
    assert [a.name, b.name, c.name] == [
        "feedback_testing_policy.md",
        "feedback_testing_policy_2.md",
        "feedback_testing_policy_3.md",
    ]
    assert "first" in a.read_text() and "second" in b.read_text()
    assert index_targets(mem) == [a.name, b.name, c.name]


def test_explicit_filename_never_overwrites_another_memory(store: MemoryStore, mem: Path) -> None:
    save_feedback(store, filename="testing.md", body="original")
    before = snapshot(mem)
    with pytest.raises(MemoryValidationError, match=r"already holds another memory.*update"):
        save_feedback(store, filename="testing.md", body="replacement")
    assert snapshot(mem) == before


def test_slug_is_lowercase_ascii_words_capped_with_a_hash_fallback() -> None:
    assert slugify("Café Ünïcode: Testing Policy!!") == "cafe_unicode_testing_policy"
    long = slugify("word " * 40)
    assert len(long) <= 60 and long.endswith("word") and "__" not in long
    cjk = slugify("日本語のメモ")
    assert re.fullmatch(r"m[0-9a-f]{8}", cjk)
    assert cjk == slugify("日本語のメモ") and cjk != slugify("別のメモ")


def test_non_ascii_name_gets_a_hashed_default_filename(store: MemoryStore, mem: Path) -> None:
    path = store.save("日本語のメモ", "A note written in Japanese", "user", "本文")
    assert re.fullmatch(r"user_m[0-9a-f]{8}\.md", path.name)
    assert read_frontmatter(path).name == "日本語のメモ"


def test_private_secret_is_saved_with_a_warning(
    store: MemoryStore, mem: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = store.save("S3 deploy", "How deploys reach S3", "reference", f"deploy uses {aws_key()}")
    assert path.exists()
    assert len(store.warnings) == 1
    assert "AWS access key" in store.warnings[0] and "reference_s3_deploy.md" in store.warnings[0]
    assert aws_key() not in store.warnings[0]
    assert any("AWS access key" in r.getMessage() for r in caplog.records)


# --- bad input writes nothing ---------------------------------------------------------------


BAD_SAVES = {
    "unknown type": (dict(type="opinion"), r"user, feedback, project, reference"),
    "empty name": (dict(name=""), r"name is empty"),
    "whitespace name": (dict(name="   \t"), r"name is empty"),
    "whitespace description": (dict(description="  \n "), r"description is empty"),
    "two-line name": (dict(name="one\ntwo"), r"must be one line"),
    "folder in filename": (dict(filename="sub/x.md"), r"is a path"),
    "dotdot filename": (dict(filename="../x.md"), r"is a path"),
    "dotdot inside filename": (dict(filename="a..b.md"), r"'\.\.'"),
    "index as filename": (dict(filename="MEMORY.md"), r"index file"),
    "index as filename lowercase": (dict(filename="memory.md"), r"index file"),
    "hidden filename": (dict(filename=".hidden.md"), r"starts with a dot"),
    "not markdown": (dict(filename="notes.txt"), r"does not end in \.md"),
    "NUL in filename": (dict(filename="a\0b.md"), r"NUL"),
    "backslash in filename": (dict(filename="a\\b.md"), r"backslash"),
    "user type in team": (dict(type="user", scope="team"), r"always private"),
    "unknown scope": (dict(scope="public"), r"'private' or 'team'"),
    "non-string body": (dict(body=None), r"body must be a string"),
}


@pytest.mark.parametrize("filename", ["%2e%2e%2fescape.md", "\uff0e\uff0e\uff0fescape.md"])
def test_encoded_traversal_in_filename_is_refused(
    store: MemoryStore, mem: Path, filename: str
) -> None:
    save_feedback(store)
    before = snapshot(mem)
    with pytest.raises(PathTraversalError):
        store.save("Another", "Something else", "project", "text", filename=filename)
    assert snapshot(mem) == before


def test_overwrite_keeps_the_file_permissions(store: MemoryStore, mem: Path) -> None:
    path = save_feedback(store)
    os.chmod(path, 0o600)
    store.update(path.name, body="changed")
    assert path.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("case", sorted(BAD_SAVES))
def test_bad_input_raises_a_clear_error_and_writes_nothing(
    store: MemoryStore, mem: Path, case: str
) -> None:
    save_feedback(store)  # an existing memory, index and lock file
    before = snapshot(mem)
    overrides, message = BAD_SAVES[case]
    args: dict[str, Any] = dict(
        name="Another", description="Something else", type="feedback", body="text"
    )
    args.update(cast("dict[str, Any]", overrides))
    with pytest.raises(MemoryValidationError, match=message):
        store.save(
            args.pop("name"), args.pop("description"), args.pop("type"), args.pop("body"), **args
        )
    assert snapshot(mem) == before


def test_bad_input_on_a_fresh_dir_does_not_even_create_it(store: MemoryStore, mem: Path) -> None:
    with pytest.raises(MemoryValidationError):
        store.save("x", "y", "opinion", "z")
    assert not mem.exists()


# --- symlinks: no write leaves the memory dir -----------------------------------------------


def test_team_dir_symlinked_outside_refuses_the_save(
    store: MemoryStore, mem: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    mem.mkdir()
    (mem / "team").symlink_to(elsewhere, target_is_directory=True)
    before = snapshot(tmp_path)
    with pytest.raises(PathTraversalError) as err:
        store.save("Freeze", "Freeze from 2026-03-05", "project", "x", scope="team")
    assert err.value.rule == "symlink-escape"
    assert snapshot(tmp_path) == before
    assert list(elsewhere.iterdir()) == []


def test_team_file_symlinked_outside_refuses_the_save(
    store: MemoryStore, mem: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("precious\n")
    (mem / "team").mkdir(parents=True)
    (mem / "team" / "x.md").symlink_to(outside)
    before = snapshot(tmp_path)
    with pytest.raises(PathTraversalError):
        store.save("X", "An x", "project", "overwrite?", scope="team", filename="x.md")
    assert snapshot(tmp_path) == before
    assert outside.read_text() == "precious\n"


def test_team_index_symlinked_outside_refuses_the_save(
    store: MemoryStore, mem: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside_index.md"
    outside.write_text("keep me\n")
    (mem / "team").mkdir(parents=True)
    (mem / "team" / "MEMORY.md").symlink_to(outside)
    before = snapshot(tmp_path)
    with pytest.raises(PathTraversalError):
        store.save("Freeze", "Freeze from 2026-03-05", "project", "x", scope="team")
    assert snapshot(tmp_path) == before


def test_private_file_symlinked_outside_refuses_the_save(
    store: MemoryStore, mem: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "id_rsa"
    outside.write_text("not yours\n")
    mem.mkdir()
    (mem / "feedback_testing_policy.md").symlink_to(outside)
    before = snapshot(tmp_path)
    with pytest.raises(PathTraversalError):
        save_feedback(store)
    assert snapshot(tmp_path) == before


def test_trash_symlinked_outside_refuses_forget(
    store: MemoryStore, mem: Path, tmp_path: Path
) -> None:
    save_feedback(store)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (mem / ".trash").symlink_to(elsewhere, target_is_directory=True)
    before = snapshot(tmp_path)
    with pytest.raises(PathTraversalError):
        store.forget("feedback_testing_policy.md")
    assert snapshot(tmp_path) == before


def test_lock_file_symlinked_outside_is_refused(
    store: MemoryStore, mem: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n")
    mem.mkdir()
    (mem / ".memdir.lock").symlink_to(victim)
    before = snapshot(tmp_path)
    with pytest.raises(PathTraversalError):
        save_feedback(store)
    assert snapshot(tmp_path) == before


# --- secrets in team memory -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "kind"),
    [("body", "AWS access key"), ("description", "AWS access key"), ("body", "private key")],
)
def test_team_save_with_a_secret_is_refused_and_writes_nothing(
    store: MemoryStore, mem: Path, field: str, kind: str
) -> None:
    secret = rsa_block() if kind == "private key" else f"key {aws_key()}"
    args = {"name": "S3 access", "description": "Where S3 creds live", "body": "See the vault."}
    args[field] = secret if field == "body" else f"S3 key {aws_key()}"
    save_feedback(store)
    before = snapshot(mem)
    with pytest.raises(SecretInTeamMemoryError) as err:
        store.save(args["name"], args["description"], "reference", args["body"], scope="team")
    assert kind in str(err.value) and field in str(err.value)
    assert aws_key() not in str(err.value)
    assert snapshot(mem) == before


def test_update_that_adds_a_secret_to_team_memory_is_refused(store: MemoryStore, mem: Path) -> None:
    store.save("S3 access", "Where S3 creds live", "reference", "See the vault.", scope="team")
    before = snapshot(mem)
    with pytest.raises(SecretInTeamMemoryError):
        store.update("team/reference_s3_access.md", body=f"it is {aws_key()}")
    assert snapshot(mem) == before


# --- update ---------------------------------------------------------------------------------


def test_update_rerenders_the_file_and_its_index_line(store: MemoryStore, mem: Path) -> None:
    path = save_feedback(store)
    store.save("Other", "Another memory", "project", "x")
    store.update(
        "feedback_testing_policy.md",
        description="Real DB in integration tests, since the Q3 outage",
    )
    fm = read_frontmatter(path)
    assert fm.name == "Testing policy" and fm.type is MemoryType.FEEDBACK
    assert fm.description == "Real DB in integration tests, since the Q3 outage"
    assert "**Why:** mocks hid a broken migration." in path.read_text()  # body kept
    lines = (mem / "MEMORY.md").read_text().splitlines()
    assert lines == [
        "- [Testing policy](feedback_testing_policy.md) — Real DB in integration tests, since the Q3 outage",
        "- [Other](project_other.md) — Another memory",
    ]


def test_update_can_change_name_type_and_body(store: MemoryStore, mem: Path) -> None:
    path = save_feedback(store)
    store.update("feedback_testing_policy.md", name="DB policy", type="project", body="New body")
    fm = read_frontmatter(path)
    assert (fm.name, fm.type) == ("DB policy", MemoryType.PROJECT)
    assert path.read_text().rstrip().endswith("New body")
    assert index_targets(mem) == ["feedback_testing_policy.md"]
    assert "[DB policy]" in (mem / "MEMORY.md").read_text()


def test_update_of_a_missing_file_names_it_and_writes_nothing(
    store: MemoryStore, mem: Path
) -> None:
    save_feedback(store)
    before = snapshot(mem)
    with pytest.raises(MemoryNotFoundError, match=r"'nope\.md'.*store\.list\(\)"):
        store.update("nope.md", body="x")
    with pytest.raises(MemoryValidationError, match="user, feedback"):
        store.update("feedback_testing_policy.md", type="opinion")
    assert snapshot(mem) == before


# --- forget ---------------------------------------------------------------------------------


def test_forget_moves_the_file_to_trash_and_drops_its_line(store: MemoryStore, mem: Path) -> None:
    path = save_feedback(store)
    content = path.read_bytes()
    store.save("Other", "Another memory", "project", "x")
    trashed = store.forget("feedback_testing_policy.md")
    assert trashed == mem / ".trash" / "20260402T101530123Z-feedback_testing_policy.md"
    assert trashed.read_bytes() == content
    assert not path.exists()
    assert index_targets(mem) == ["project_other.md"]
    assert [h.filename for h in store.list()] == ["project_other.md"]  # scans skip .trash


def test_forget_team_memory_flattens_the_trash_name(mem: Path) -> None:
    cfg = MemdirConfig.for_tests(home=mem.parent, cwd=mem.parent, now_ms=NOW_MS)
    store = MemoryStore(mem, config=cfg)
    store.save("Freeze", "Freeze from 2026-03-05", "project", "x", scope="team")
    trashed = store.forget("team/project_freeze.md")
    assert trashed.name == "20260402T101530123Z-team__project_freeze.md"
    assert index_targets(mem / "team") == []
    # forgetting the same name again later does not clobber the first trashed copy
    store.save("Freeze", "Freeze from 2026-03-05", "project", "x", scope="team")
    again = store.forget("team/project_freeze.md")
    assert again != trashed and again.exists() and trashed.exists()


def test_forget_names_the_memories_still_linking_it_and_rewrites_none_of_them(
    real_dir: Callable[[str], Path], caplog: pytest.LogCaptureFixture
) -> None:
    root = real_dir("wikilinked")
    linking = {
        n: (root / n).read_bytes()
        for n in ("reference_glaze_sheet.md", "feedback_short_answers.md")
    }
    store = MemoryStore(root, now_ms=NOW_MS)
    store.forget("project_kiln_schedule.md")
    assert [(i.rel, i.names) for i in store.last_links_left.items] == [
        ("feedback_short_answers.md", ("project-kiln-schedule", "project_kiln_schedule")),
        ("reference_glaze_sheet.md", ("kiln-schedule",)),
    ]
    (warning,) = store.warnings
    assert warning.startswith(
        "2 memories still link project_kiln_schedule.md, which was forgotten,"
    )
    assert "reference_glaze_sheet.md ([[kiln-schedule]])" in warning
    assert any(warning == r.getMessage() for r in caplog.records)
    assert {n: (root / n).read_bytes() for n in linking} == linking
    # a memory nothing links is forgotten without a word
    store.forget("project_kiln_firing.md")
    assert not store.last_links_left and len(store.warnings) == 1


def test_renaming_a_memory_by_update_names_the_links_by_its_old_name_and_the_new_one(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("wikilinked")
    # a stem that is not the old name (as project_kiln_schedule, without its type, would be)
    os.rename(root / "project_kiln_schedule.md", root / "project_firing_plan.md")
    glaze = (root / "reference_glaze_sheet.md").read_bytes()
    store = MemoryStore(root, now_ms=NOW_MS)
    store.update("project_firing_plan.md", name="kiln-cooling")
    # links by the file's stem still find it; the one by its old name: does not
    assert [(i.rel, i.names, i.new_names) for i in store.last_links_left.items] == [
        ("reference_glaze_sheet.md", ("kiln-schedule",), ("kiln-cooling",))
    ]
    assert store.warnings[-1].startswith(
        "1 memory still links project_firing_plan.md, now kiln-cooling, by a name no memory "
        "answers to now: reference_glaze_sheet.md ([[kiln-schedule]] -> [[kiln-cooling]])."
    )
    assert (root / "reference_glaze_sheet.md").read_bytes() == glaze
    store.update("project_firing_plan.md", description="Cone 6 firing with a slow cool")
    assert not store.last_links_left  # no new name: nothing read, nothing said


def test_demoting_a_team_memory_names_the_team_memories_whose_links_no_longer_see_it(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("wikilinked-scopes")
    store = MemoryStore(root, now_ms=NOW_MS)
    store.demote("team/project_release_freeze.md")
    assert [(i.rel, i.names) for i in store.last_links_left.items] == [
        ("team/feedback_team_style.md", ("release-freeze",))
    ]
    assert "now private as project_release_freeze.md" in store.warnings[-1]
    store.promote("project_release_freeze.md")  # back in team/: every link finds it again
    assert not store.last_links_left


def test_forget_a_missing_file_says_how_to_list(store: MemoryStore, mem: Path) -> None:
    save_feedback(store)
    before = snapshot(mem)
    with pytest.raises(MemoryNotFoundError, match=r"'ghost\.md'.*store\.list\(\).*memdir-nb scan"):
        store.forget("ghost.md")
    with pytest.raises(MemoryValidationError, match="team/name.md"):
        store.forget("other/x.md")
    assert snapshot(mem) == before


# --- promote / demote -----------------------------------------------------------------------


def test_promote_moves_to_team_and_updates_both_indexes(store: MemoryStore, mem: Path) -> None:
    save_feedback(store)
    store.save("Keep", "Stays private", "feedback", "x")
    content = (mem / "feedback_testing_policy.md").read_bytes()
    new = store.promote("feedback_testing_policy.md")
    assert new == mem / "team" / "feedback_testing_policy.md"
    assert new.read_bytes() == content
    assert not (mem / "feedback_testing_policy.md").exists()
    assert index_targets(mem) == ["feedback_keep.md"]
    assert index_targets(mem / "team") == ["feedback_testing_policy.md"]


def test_demote_moves_back_to_private_and_updates_both_indexes(
    store: MemoryStore, mem: Path
) -> None:
    store.save("Freeze", "Freeze from 2026-03-05", "project", "x", scope="team")
    new = store.demote("team/project_freeze.md")
    assert new == mem / "project_freeze.md"
    assert index_targets(mem / "team") == []
    assert index_targets(mem) == ["project_freeze.md"]


def test_a_promote_carries_a_cited_index_line_as_written(store: MemoryStore, mem: Path) -> None:
    # real44: the line the team index got was written anew from the header, and the person's
    # citation on the private line was gone with it
    save_feedback(store)
    cited = "- [DB rule](feedback_testing_policy.md) — real DB in tests [^outage]"
    (mem / "MEMORY.md").write_text(f"{cited}\n\n[^outage]: the 2026-03 outage review\n")
    store.promote("feedback_testing_policy.md")
    assert (mem / "team" / "MEMORY.md").read_text() == cited + "\n"
    assert index_targets(mem) == []


def test_promote_refuses_user_memories(store: MemoryStore, mem: Path) -> None:
    store.save("Role", "Senior backend engineer, new to Rust", "user", "x")
    before = snapshot(mem)
    with pytest.raises(MemoryValidationError, match="always private"):
        store.promote("user_role.md")
    assert snapshot(mem) == before


def test_promote_refuses_a_memory_holding_a_secret(store: MemoryStore, mem: Path) -> None:
    store.save("Deploy key", "How we deploy", "reference", rsa_block())
    before = snapshot(mem)
    with pytest.raises(SecretInTeamMemoryError, match="private key"):
        store.promote("reference_deploy_key.md")
    assert snapshot(mem) == before


def test_promote_during_an_in_place_save_scans_what_the_save_wrote(
    store: MemoryStore, mem: Path
) -> None:
    """Held (attack45, §68): promote reads the memory once it stands still before the move,
    so the key an editor's in-place save was writing is seen and refused."""
    path = store.save("Deploy notes", "How we deploy", "reference", "Argo CD.")
    editor = start_in_place_save(path, path.read_text() + rsa_block())
    with pytest.raises(SecretInTeamMemoryError, match="private key"):
        store.promote(path.name)
    assert editor.wait(timeout=10) == 0
    assert not (mem / "team" / path.name).exists() and "PRIVATE KEY" in path.read_text()


def test_promote_refuses_when_the_team_already_has_that_file(store: MemoryStore, mem: Path) -> None:
    save_feedback(store)
    save_feedback(store, scope="team", body="the team's own version")
    before = snapshot(mem)
    with pytest.raises(MemoryValidationError, match="already exists"):
        store.promote("feedback_testing_policy.md")
    with pytest.raises(MemoryValidationError, match="already in team"):
        store.promote("team/feedback_testing_policy.md")
    assert snapshot(mem) == before


def test_promote_into_a_symlinked_team_dir_is_refused(
    store: MemoryStore, mem: Path, tmp_path: Path
) -> None:
    save_feedback(store)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (mem / "team").symlink_to(elsewhere, target_is_directory=True)
    before = snapshot(tmp_path)
    with pytest.raises(PathTraversalError):
        store.promote("feedback_testing_policy.md")
    assert snapshot(tmp_path) == before


def test_a_failed_index_write_restores_the_previous_state(store: MemoryStore, mem: Path) -> None:
    save_feedback(store)
    (mem / "team").mkdir()
    (mem / "team" / "MEMORY.md").mkdir()  # the team index cannot be read or replaced
    before = snapshot(mem)
    with pytest.raises(IsADirectoryError):
        store.promote("feedback_testing_policy.md")
    assert snapshot(mem) == before
    with pytest.raises(IsADirectoryError):
        store.save("Freeze", "Freeze from 2026-03-05", "project", "x", scope="team")
    assert snapshot(mem) == before


def test_a_body_only_update_keeps_the_index_line_a_person_wrote(
    store: MemoryStore, mem: Path
) -> None:
    save_feedback(store)
    own = "## Tests\n- [DB rule, my words](feedback_testing_policy.md) — ask me before mocking\n"
    (mem / "MEMORY.md").write_text(own)
    store.update(
        "feedback_testing_policy.md",
        body="Use the real database.\n\n**Why:** x\n**How to apply:** y",
    )
    assert (mem / "MEMORY.md").read_text() == own
    store.update("feedback_testing_policy.md", description="Real database in every SQL test")
    assert "— Real database in every SQL test" in (mem / "MEMORY.md").read_text()
    assert (mem / "MEMORY.md").read_text().startswith("## Tests\n")


def test_an_update_keeps_an_index_line_that_cites_a_source_and_says_so(
    store: MemoryStore, mem: Path
) -> None:
    # real44: a person cites where a hook's fact comes from; an update with a new description
    # rewrote the line from the new header, and the citation was gone
    save_feedback(store)
    own = (
        "- [DB rule](feedback_testing_policy.md) — real database in tests "
        "(source: the 2026-03 outage review)\n"
    )
    (mem / "MEMORY.md").write_text(own)
    store.update("feedback_testing_policy.md", description="Real database in every SQL test")
    assert (mem / "MEMORY.md").read_text() == own
    assert (
        "description: Real database in every SQL test"
        in (mem / "feedback_testing_policy.md").read_text()
    )
    [warning] = [w for w in store.warnings if "cites a source" in w]
    assert warning.startswith("feedback_testing_policy.md: its line in MEMORY.md cites a source")
    assert "Real database in every SQL test" in warning and "by hand" in warning


def test_an_update_still_rewrites_a_line_that_cites_nothing(store: MemoryStore, mem: Path) -> None:
    save_feedback(store)
    store.update("feedback_testing_policy.md", description="Real database in every SQL test")
    assert "— Real database in every SQL test" in (mem / "MEMORY.md").read_text()
    assert not [w for w in store.warnings if "cites a source" in w]


# --- list and rebuild -----------------------------------------------------------------------


def test_list_filters_by_scope_and_refuses_unknown_scopes(store: MemoryStore) -> None:
    save_feedback(store)
    store.save("Freeze", "Freeze from 2026-03-05", "project", "x", scope="team")
    assert {h.filename for h in store.list()} == {
        "feedback_testing_policy.md",
        "team/project_freeze.md",
    }
    assert [h.filename for h in store.list("private")] == ["feedback_testing_policy.md"]
    assert [h.filename for h in store.list("team")] == ["team/project_freeze.md"]
    with pytest.raises(MemoryValidationError):
        store.list("public")


def test_rebuild_indexes_regenerates_both_from_frontmatter(store: MemoryStore, mem: Path) -> None:
    save_feedback(store)
    store.save("Role", "Backend engineer", "user", "x")
    store.save("Freeze", "Freeze from 2026-03-05", "project", "x", scope="team")
    (mem / "MEMORY.md").write_text("garbage\n")
    (mem / "team" / "MEMORY.md").unlink()
    written = store.rebuild_indexes()
    assert set(written) == {"private", "team"}
    assert index_targets(mem) == ["user_role.md", "feedback_testing_policy.md"]
    assert index_targets(mem / "team") == ["project_freeze.md"]


def test_a_rebuild_kept_within_the_caps_writes_nothing_when_it_would_load_less(
    store: MemoryStore, mem: Path
) -> None:
    mem.mkdir(parents=True, exist_ok=True)
    for i in range(205):
        (mem / f"project_m{i:03d}.md").write_text(
            f"---\nname: m{i}\ndescription: memory {i}\ntype: project\n---\n\nbody\n"
        )
    (mem / "MEMORY.md").write_text("# Index\n")
    with pytest.raises(IndexOverCapsError, match="nothing was written") as info:
        store.rebuild_index_files(keep_within_caps=True)
    assert (mem / "MEMORY.md").read_text() == "# Index\n" and not (mem / ".trash").exists()
    (private,) = [r for r in info.value.rebuilds if r.scope == "private"]
    assert private.lines_it_would_unload > 0
    written = store.rebuild_index_files()  # asked to: written, the old index kept
    assert "private" in written.written and (mem / ".trash").is_dir()


def test_a_rebuild_keeps_an_index_a_person_saved_while_it_ran(
    store: MemoryStore, mem: Path
) -> None:
    # the rebuild read MEMORY.md and kept a copy in .trash/, then a person's editor saved the
    # index by renaming its new file over it (as vim and most editors do): the rebuilt text,
    # made from the old index, went over that save, and the trash held only the old index
    save_feedback(store)
    index_path = mem / "MEMORY.md"
    index_path.write_text("# Index\n")
    theirs = "# Index\n- [Mine](user_mine.md) — typed by hand meanwhile\n"

    def a_person_saves_the_index(point: str) -> None:
        if point == "write:MEMORY.md:journaled":
            (mem / ".MEMORY.md.swp").write_text(theirs)
            os.replace(mem / ".MEMORY.md.swp", index_path)

    racing = MemoryStore(mem, now_ms=NOW_MS, crash_hook=a_person_saves_the_index)
    with pytest.raises(ValueError, match="MEMORY.md was changed by another program"):
        racing.rebuild_index_files()
    assert index_path.read_text() == theirs


def test_a_kept_copy_never_replaces_a_file_another_program_made_at_its_name(mem: Path) -> None:
    # keep_copy checks the name is free, journals, then links; a file another program makes at
    # that name in between made os.link fail with EEXIST, and the copy fallback (meant for file
    # systems without hard links) renamed its copy over that file
    source = save_feedback(MemoryStore(mem, now_ms=NOW_MS))
    kept = mem / ".trash" / "batch" / source.name
    theirs = "made by another program meanwhile\n"

    def another_program_writes_there(point: str) -> None:
        if point == f"copy:.trash/batch/{source.name}:journaled":
            kept.write_text(theirs)

    racing = MemoryStore(mem, now_ms=NOW_MS, crash_hook=another_program_writes_there)
    with pytest.raises(FileExistsError), racing.transaction() as tx:
        tx.keep_copy(source.name, f".trash/batch/{source.name}")
    assert kept.read_text() == theirs
    assert "Use the real database." in source.read_text()


# --- atomic writes --------------------------------------------------------------------------


def test_temp_files_are_dot_prefixed_never_md_and_never_left_behind(
    store: MemoryStore, mem: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources: list[str] = []

    def spy(real: Callable[..., None]) -> Callable[..., None]:
        def published(src: Any, dst: Any, *a: Any, **kw: Any) -> None:
            sources.append(os.path.basename(os.fspath(src)))
            return real(src, dst, *a, **kw)

        return published

    # the transaction renames over a file relative to a dir fd, and links a new one
    monkeypatch.setattr(os, "rename", spy(os.rename))
    monkeypatch.setattr(os, "link", spy(os.link))
    save_feedback(store)
    store.save("Freeze", "Freeze from 2026-03-05", "project", "x", scope="team")
    store.update("feedback_testing_policy.md", body="changed")
    tmp_names = [s for s in sources if s.startswith(".")]
    # file + index for each save; a body-only update leaves the index line alone
    assert len(tmp_names) >= 5
    assert all(not s.endswith(".md") for s in tmp_names)
    leftovers = [p for p in mem.rglob(".*") if p.name not in (".memdir.lock",)]
    assert leftovers == []


def test_the_lock_file_lives_in_the_memory_dir(store: MemoryStore, mem: Path) -> None:
    save_feedback(store)
    assert store.lock_path == mem / ".memdir.lock"
    assert store.lock_path.exists()
    assert all(h.filename != ".memdir.lock" for h in store.list())


# --- concurrency: real processes ------------------------------------------------------------


def _save_many(mem: str, worker: int, count: int, same_name: bool) -> None:
    s = MemoryStore(mem)
    for i in range(count):
        name = "Shared topic" if same_name else f"Topic {worker} {i}"
        s.save(name, f"hook from worker {worker} item {i}", "project", f"body {worker}/{i}")


def _run_workers(mem: Path, workers: int, count: int, same_name: bool) -> None:
    ctx = multiprocessing.get_context("spawn")
    procs = [
        ctx.Process(target=_save_many, args=(str(mem), w, count, same_name)) for w in range(workers)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0] * workers


@pytest.mark.slow
def test_concurrent_saves_from_four_processes_lose_no_index_line(mem: Path) -> None:
    _run_workers(mem, workers=4, count=20, same_name=False)
    targets = index_targets(mem)
    assert len(targets) == 80 and len(set(targets)) == 80
    files = {p.name for p in mem.glob("*.md")} - {"MEMORY.md"}
    assert files == set(targets)


@pytest.mark.slow
def test_concurrent_saves_of_one_name_get_distinct_numbered_files(mem: Path) -> None:
    _run_workers(mem, workers=4, count=5, same_name=True)
    targets = index_targets(mem)
    expected = {"project_shared_topic.md"} | {f"project_shared_topic_{n}.md" for n in range(2, 21)}
    assert set(targets) == expected and len(targets) == 20
    bodies = {
        p.read_text().rstrip().rsplit("\n", 1)[-1] for p in mem.glob("project_shared_topic*.md")
    }
    assert len(bodies) == 20


# ---- realdirs: updates keep the header keys the store does not own, in either shape


def test_update_of_a_nested_header_keeps_metadata_and_updates_the_type_there(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("nested")
    store = MemoryStore(root, now_ms=NOW_MS)
    store.update("feedback_no_force_push.md", description="Revert, never rewrite", type="project")
    text = (root / "feedback_no_force_push.md").read_text(encoding="utf-8")
    head = text.split("---\n")[1]
    assert "\ntype:" not in "\n" + head.split("metadata:")[0]  # no top-level type added
    assert "  type: project\n" in head
    assert "  node_type: memory\n" in head
    assert "  originSessionId: 0b6c1d0e-1111-4a2b-9c3d-000000000001\n" in head
    # the memory's time is updated where the file keeps it (under metadata:), not duplicated
    assert f"  modified: {iso_utc(NOW_MS)}\n" in head and "2026-09-08T10:00" not in head
    assert "\nmodified:" not in "\n" + head.split("metadata:")[0]
    fm = read_frontmatter(root / "feedback_no_force_push.md")
    assert fm.modified_ms == float(int(NOW_MS))
    assert (fm.type, fm.description) == (MemoryType.PROJECT, "Revert, never rewrite")


def test_update_of_a_flat_header_keeps_unknown_top_level_keys(
    mem: Path, store: MemoryStore
) -> None:
    mem.mkdir(parents=True, exist_ok=True)
    (mem / "x.md").write_text(
        "---\nname: X\ndescription: d\ntype: user\nsource: interview # kept\ntags: [a, b]\n---\n\nbody\n",
        encoding="utf-8",
    )
    store.update("x.md", name="X2")
    head = (mem / "x.md").read_text(encoding="utf-8").split("---\n")[1]
    assert head == (
        "name: X2\ndescription: d\ntype: user\nsource: interview # kept\ntags: [a, b]\n"
        f"modified: {iso_utc(NOW_MS)}\n"
    )


def test_new_memories_use_the_spec_top_level_shape(store: MemoryStore) -> None:
    path = save_feedback(store)
    head = path.read_text(encoding="utf-8").split("---\n")[1]
    assert "metadata" not in head and "\ntype: feedback\n" in "\n" + head


def test_save_writes_the_memory_time_as_modified(mem: Path, store: MemoryStore) -> None:
    path = store.save("Deploy day", "Deploys happen on Tuesdays", "project", "Body.")
    assert f"\nmodified: {iso_utc(NOW_MS)}\n" in path.read_text(encoding="utf-8")
    assert read_frontmatter(path).modified_ms == float(int(NOW_MS))


def test_saving_the_same_memory_later_is_still_no_duplicate(mem: Path) -> None:
    first = MemoryStore(mem, now_ms=NOW_MS).save("Deploy day", "On Tuesdays", "project", "B.")
    again = MemoryStore(mem, now_ms=NOW_MS + 86_400_000).save(
        "Deploy day", "On Tuesdays", "project", "B."
    )
    assert again == first and sorted(p.name for p in mem.glob("project_*.md")) == [first.name]


def test_the_store_gives_api_callers_the_index_cap_verdict(mem: Path, store: MemoryStore) -> None:
    store.save("Deploy day", "Deploys happen on Tuesdays", "project", "Body.")
    assert store.last_index_verdict is not None and store.last_index_verdict.message is None
    assert store.index_verdict().lines == 1
    filler = "".join(f"- [n{i}](n{i}.md) — hook\n" for i in range(200))
    (mem / "MEMORY.md").write_text((mem / "MEMORY.md").read_text() + filler)
    store.save("Freeze", "Merge freeze before launches", "project", "Body.")
    verdict = store.last_index_verdict
    assert verdict is not None and verdict.over and verdict.message is not None
    assert "about 70% of the cap" in verdict.message
    assert (mem / "project_freeze.md").exists()  # the save itself stands
    assert store.index_verdict() == verdict
    assert store.index_verdict("team").lines == 0


# --- a rewrite never loses bytes it cannot read as UTF-8 (attack round 5) ---------------------

HAND_WRITTEN_LATIN1 = b"# Index\nCaf\xe9 notes written by hand in Latin-1\n"


@pytest.mark.parametrize("route", ["save", "update", "forget", "promote"])
def test_a_rewrite_refuses_a_file_that_is_not_utf8_and_writes_nothing(
    store: MemoryStore, mem: Path, route: str
) -> None:
    save_feedback(store, filename="feedback_t.md")
    if route == "update":  # the memory itself holds the byte a rewrite would replace
        victim = mem / "feedback_t.md"
        victim.write_bytes(victim.read_bytes() + b"caf\xe9\n")
    else:  # the index the step rewrites holds it
        victim = mem / "MEMORY.md"
        victim.write_bytes(HAND_WRITTEN_LATIN1 + victim.read_bytes())
    before = snapshot(mem)
    with pytest.raises(ValueError, match=r"is not valid UTF-8 text \(byte \d+\)") as info:
        if route == "save":
            store.save("Coffee", "The user drinks coffee", "user", "Coffee.", filename="user_c.md")
        elif route == "update":
            store.update("feedback_t.md", description="A new description")
        elif route == "forget":
            store.forget("feedback_t.md")
        else:
            store.promote("feedback_t.md")
    assert "re-save it as UTF-8" in str(info.value) and "nothing was written" in str(info.value)
    # The fix it names must not be a command that leaves the file as it is (rebuild-index
    # finds such an index up to date and does not rewrite it).
    assert "rebuild-index" not in str(info.value)
    assert snapshot(mem) == before  # every byte a person wrote is still there


@pytest.mark.parametrize("kind", ["huge", "fifo", "folder"])
def test_a_save_whose_index_cannot_be_rewritten_names_the_fix_and_writes_nothing(
    store: MemoryStore, mem: Path, kind: str
) -> None:
    mem.mkdir()
    entry = mem / "MEMORY.md"
    if kind == "huge":  # a hand-kept index far over the read cap: never read whole, never cut
        with open(entry, "wb") as fh:
            fh.write(b"- prose kept by hand\n" * 100_000)
    elif kind == "fifo":
        os.mkfifo(entry)
    else:
        entry.mkdir()
    kept = entry.read_bytes() if kind == "huge" else None
    with pytest.raises(OSError) as info:
        store.save("Coffee", "The user drinks coffee", "user", "Coffee.", filename="user_c.md")
    message = str(info.value)
    assert "MEMORY.md" in message and "nothing was written" in message
    assert {"huge": "shorten it", "fifo": "move it aside", "folder": "move it aside"}[
        kind
    ] in message
    assert sorted(p.name for p in mem.iterdir()) == [".memdir.lock", "MEMORY.md"]
    if kept is not None:
        assert entry.read_bytes() == kept


@pytest.mark.parametrize("kind", ["a FIFO", "a regular file"])
def test_a_save_into_a_dir_under_a_fifo_or_a_file_names_the_blocker_and_writes_nothing(
    tmp_path: Path, kind: str
) -> None:
    # attack40: "[Errno 20] Not a directory: '<dir>'", naming the dir and not what is above it
    blocker = build_folder_blocker(tmp_path, kind)
    with pytest.raises(NotADirectoryError) as info:
        MemoryStore(blocker / "memory").save("Coffee", "The user drinks coffee", "user", "Coffee.")
    message = str(info.value)
    assert f"cannot be made: {blocker} is {kind}, not a folder" in message
    assert "nothing was written" in message and "move it away" in message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home"]


def test_save_and_forget_keep_the_crlf_line_ends_of_a_hand_written_index(
    store: MemoryStore, mem: Path
) -> None:
    mem.mkdir()
    hand = b"# Index kept on Windows\r\n\r\nSome prose by hand.\r\n"
    (mem / "MEMORY.md").write_bytes(hand)
    save_feedback(store, filename="feedback_t.md")
    after_save = (mem / "MEMORY.md").read_bytes()
    assert after_save.startswith(hand) and after_save.endswith(b"\r\n")
    assert after_save.count(b"\n") == after_save.count(b"\r\n")  # every line end still CRLF
    store.forget("feedback_t.md")
    assert (mem / "MEMORY.md").read_bytes() == hand


def test_save_update_and_forget_keep_a_cr_only_index_and_find_its_entry(
    store: MemoryStore, mem: Path
) -> None:
    """A MEMORY.md with classic-Mac CR line ends was one line to the index editors: a second
    save appended a duplicate entry and forget left the entry (fresh30 noticed; polish30)."""
    mem.mkdir()
    hand = b"# Index kept on an old Mac\r\rSome prose by hand.\r"
    (mem / "MEMORY.md").write_bytes(hand)
    save_feedback(store, filename="feedback_t.md")
    after_save = (mem / "MEMORY.md").read_bytes()
    assert after_save.startswith(hand) and after_save.endswith(b"\r") and b"\n" not in after_save
    store.update("feedback_t.md", description="Tests use the real database")
    after_update = (mem / "MEMORY.md").read_bytes()
    assert after_update.count(b"feedback_t.md") == 1 and b"\n" not in after_update
    store.forget("feedback_t.md")
    assert (mem / "MEMORY.md").read_bytes() == hand


PLAIN_DESCRIPTION = "description: the user drinks coffee\n"
HAND_WRITTEN_HEADERS = {
    "a repeated key": "name: Coffee\nname: Coffee\n" + PLAIN_DESCRIPTION,
    "a line YAML refuses (a tab)": "name: Coffee\n\tnote: kept by hand\n" + PLAIN_DESCRIPTION,
    "a folded description": "name: Coffee\ndescription: >\n  the user drinks\n  coffee\n",
    "a comment under a field": "name: Coffee\n  # renamed from Tea in March\n" + PLAIN_DESCRIPTION,
    "an unclosed quote": 'name: "Coffee\n' + PLAIN_DESCRIPTION,
}


@pytest.mark.parametrize("head", HAND_WRITTEN_HEADERS.values(), ids=HAND_WRITTEN_HEADERS.keys())
def test_a_body_only_update_keeps_every_header_line_a_person_wrote(
    tmp_path: Path, head: str
) -> None:
    # attack round 11: update re-set name, description and type even when unchanged, which
    # replaced each key's block: a repeated key's first line, a comment or any line indented
    # under a field (a tab-indented one included), a folded description were lost, with no copy
    original = f"---\n{head}type: user\n---\n\nOld body.\n"
    (tmp_path / "user_coffee.md").write_text(original, encoding="utf-8")
    MemoryStore(tmp_path, now_ms=NOW_MS).update("user_coffee.md", body="New body.")
    text = (tmp_path / "user_coffee.md").read_text(encoding="utf-8")
    assert text.startswith(f"---\n{head}type: user\nmodified: ")
    assert text.endswith("---\n\nNew body.\n")


def test_save_never_writes_over_a_new_file_another_program_made_meanwhile(mem: Path) -> None:
    # the store picked the free name, then a session of Claude Code wrote that name: the save
    # renamed its own file over it; now it is refused, nothing of it is written, theirs is kept
    target = mem / "feedback_testing_policy.md"

    def another_program(point: str) -> None:
        if point == "write:feedback_testing_policy.md:backed-up":
            target.write_text("theirs\n")

    with pytest.raises(FileExistsError, match="appeared while it was being written"):
        save_feedback(MemoryStore(mem, now_ms=NOW_MS, crash_hook=another_program))
    assert target.read_text() == "theirs\n" and not (mem / "MEMORY.md").exists()
    assert sorted(p.name for p in mem.iterdir()) == [".memdir.lock", "feedback_testing_policy.md"]


def test_save_keeps_a_line_a_person_added_to_the_index_while_it_ran(mem: Path) -> None:
    # the save read MEMORY.md, then a person's editor saved a line into it before the save
    # wrote its new index: the save is refused and rolled back, and the person's line stays
    index_path = mem / "MEMORY.md"
    mem.mkdir(parents=True, exist_ok=True)
    index_path.write_text("- [Old](user_old.md) — an older memory\n")
    edited = "- [Old](user_old.md) — an older memory\n- [Mine](user_mine.md) — typed by hand\n"

    def a_person_edits_the_index(point: str) -> None:
        if point == "write:MEMORY.md:journaled":  # after the save read it
            index_path.write_text(edited)

    with pytest.raises(ValueError, match="MEMORY.md was changed by another program"):
        save_feedback(MemoryStore(mem, now_ms=NOW_MS, crash_hook=a_person_edits_the_index))
    assert index_path.read_text() == edited
    assert sorted(p.name for p in mem.iterdir()) == [".memdir.lock", "MEMORY.md"]


def test_update_keeps_an_edit_made_to_the_memory_while_it_ran(tmp_path: Path) -> None:
    memory = tmp_path / "user_coffee.md"
    memory.write_text("---\nname: Coffee\ndescription: drinks coffee\ntype: user\n---\n\nOld.\n")
    theirs = "---\nname: Coffee\ndescription: drinks coffee\ntype: user\n---\n\nTheirs.\n"

    def claude_code_edits_it(point: str) -> None:
        if point == "write:user_coffee.md:journaled":
            memory.write_text(theirs)

    store = MemoryStore(tmp_path, now_ms=NOW_MS, crash_hook=claude_code_edits_it)
    with pytest.raises(ValueError, match="user_coffee.md was changed by another program"):
        store.update("user_coffee.md", body="Mine.")
    assert memory.read_text() == theirs


@pytest.mark.parametrize(
    "shape",
    [
        pytest.param(("", "\r\n", "Body kept.\r\nSecond line, no newline"), id="crlf"),
        pytest.param(("\ufeff", "\n", "Body kept.\n"), id="bom"),
        pytest.param(("", "\n", "\n\n  Body after two blank lines.\n\n"), id="blank-lines"),
        pytest.param(("", "\n", "Body kept, no final newline"), id="no-final-newline"),
    ],
)
def test_an_update_of_the_header_keeps_the_files_bytes_it_does_not_change(
    tmp_path: Path, shape: tuple[str, str, str]
) -> None:
    # update re-rendered the whole file: a BOM was dropped, CRLF line ends became LF, and an
    # untouched body gained or lost blank lines and a final newline
    bom, eol, body = shape
    memory = tmp_path / "user_coffee.md"
    head = eol.join(["---", "name: Coffee", "description: drinks coffee", "type: user", "---"])
    memory.write_bytes((bom + head + eol + body).encode("utf-8"))
    MemoryStore(tmp_path, now_ms=NOW_MS).update("user_coffee.md", description="drinks tea")
    text = memory.read_bytes().decode("utf-8")
    assert text.startswith(bom + "---" + eol) and text.endswith(eol + "---" + eol + body)
    assert f"description: drinks tea{eol}" in text
    if eol == "\r\n":
        assert text.count("\n") == text.count("\r\n")


def test_an_update_keeps_a_lone_cr_a_person_left_inside_a_body_line(
    store: MemoryStore, mem: Path
) -> None:
    """A lone CR in a file that has LFs stays inside its line for every reader (spec.text.as_lf),
    so a header-only update leaves the body as written; it used to be read as a line end and
    the body rewritten with an LF in its place (polish31)."""
    path = save_feedback(store, filename="feedback_t.md")
    raw = path.read_bytes()
    with_cr = raw.replace(b"Use the real database.", b"Use the real\rdatabase.")
    path.write_bytes(with_cr)
    store.update("feedback_t.md", description="Integration tests hit the real database")
    after = path.read_bytes()
    assert b"description: Integration tests hit the real database" in after
    assert after.split(b"\n---\n", 1)[1] == with_cr.split(b"\n---\n", 1)[1]


def test_trash_symlinked_to_a_folder_inside_the_dir_refuses_forget(
    store: MemoryStore, mem: Path, tmp_path: Path
) -> None:
    # attack round 30: the forgotten memory landed in archive/, listed again as a memory
    save_feedback(store)
    (mem / "archive").mkdir()
    (mem / ".trash").symlink_to("archive", target_is_directory=True)
    before = snapshot(tmp_path)
    with pytest.raises(PathTraversalError, match="not a folder of the memory dir's own"):
        store.forget("feedback_testing_policy.md")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("scope", ["private", "team"])
def test_a_save_naming_a_file_starting_with_a_tilde_is_refused_offering_the_name_without_it(
    store: MemoryStore, mem: Path, scope: str
) -> None:
    # Failed before the fix: save(filename='~notes.md') made a file a shell reads as a home
    # (`~notes.md` is user notes.md's home there), which the memory tool and import refuse.
    before = snapshot(mem)
    with pytest.raises(MemoryValidationError, match=r"starts with '~'.*filename='notes.md'"):
        save_feedback(store, filename="~notes.md", scope=scope)
    assert snapshot(mem) == before


def test_a_memory_named_with_a_tilde_already_there_is_still_updated_and_forgotten(
    store: MemoryStore, mem: Path
) -> None:
    path = save_feedback(store, filename="notes.md")
    (mem / "~notes.md").write_bytes(path.read_bytes())
    assert store.update("~notes.md", body="Changed.").read_text().rstrip().endswith("Changed.")
    store.forget("~notes.md")
    assert not (mem / "~notes.md").exists()


def test_forget_names_a_memory_that_links_it_by_a_markdown_link_and_rewrites_nothing(
    tmp_path: Path,
) -> None:
    # links34: `[text](other.md)` between memories (1nj0k/KSword) was left pointing at nothing
    root = tmp_path / "mem"
    root.mkdir()
    (root / "project_wheel.md").write_text("---\nname: wheel\n---\nServiced monthly.\n")
    linking = "---\nname: orders\n---\nOrders follow [wheel upkeep](project_wheel.md).\n"
    (root / "feedback_orders.md").write_text(linking)
    store = MemoryStore(root, now_ms=NOW_MS)
    store.forget("project_wheel.md")
    (warning,) = store.warnings
    assert warning.startswith("1 memory still links project_wheel.md, which was forgotten,")
    assert "feedback_orders.md ([…](project_wheel.md))" in warning
    assert (root / "feedback_orders.md").read_text() == linking
