"""Attacks on the one writer: every route that writes a memory dir goes through the store's
transaction, which checks each target when it is written, never writes through a symlinked
folder, and guards every route into team/ with the secret scan.

Each test plays the attacker (a folder swapped for a symlink between plan and write, a plan or
tool call aiming outside, a credential smuggled past a fragment check) and asserts that nothing
was written outside and that the error names the problem and the fix.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import stat
import string
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError

from memdir_nb import MemdirMemoryTool, dream
from memdir_nb.extract import ToolRunner
from memdir_nb.security.secret_scan import SecretInTeamMemoryError, scan_for_secrets
from memdir_nb.storage import daily_log as kairos
from memdir_nb.storage import fsutil
from memdir_nb.storage.containment import PathTraversalError
from memdir_nb.storage.rebuild import rebuild_index
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.targets import resolve_target
from memdir_nb.storage.write_errors import ChangedMeanwhileError
from tests.support.unix_socket import unix_socket_at

NOW_MS = 1_772_700_000_000.0
RACE_WRITES = 150


def github_token() -> str:
    """A GitHub-token-shaped string built at runtime (no literal credential in the repo)."""
    rng = random.Random(42)
    return "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))


def aws_key_parts() -> tuple[str, str]:
    """An AWS access key id split in two; neither half is a credential on its own."""
    rng = random.Random(7)
    tail = "".join(rng.choice(string.ascii_uppercase + "234567") for _ in range(16))
    return "AKIA", tail


def files_under(root: Path) -> list[str]:
    """Every entry under root (symlinks not followed), relative."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """(memory dir with team/ and one memory each, an outside folder that must stay empty)."""
    mem = tmp_path / "memory"
    outside = tmp_path / "outside"
    outside.mkdir()
    store = MemoryStore(mem, now_ms=NOW_MS)
    store.save("Testing policy", "Integration tests hit a real db", "feedback", "Use the db.")
    store.save("Freeze", "Merge freeze from 2026-03-05", "project", "No merges.", scope="team")
    return mem, outside


def swap_for_symlink(folder: Path, outside: Path) -> Callable[[], None]:
    """Replace `folder` by a symlink to `outside`; returns a function that puts it back."""
    aside = folder.with_name(folder.name + ".real")
    os.rename(folder, aside)
    os.symlink(outside, folder, target_is_directory=True)

    def put_back() -> None:
        os.unlink(folder)
        os.rename(aside, folder)

    return put_back


def swap_at(point: str, folder: Path, outside: Path) -> Callable[[str], None]:
    """A crash hook that swaps `folder` for a symlink the first time `point` is reached."""
    done: list[bool] = []

    def hook(reached: str) -> None:
        if reached == point and not done:
            done.append(True)
            swap_for_symlink(folder, outside)

    return hook


# --- a folder swapped for a symlink between the check and the write -------------------------


def test_save_refuses_a_team_folder_swapped_between_check_and_write(
    tree: tuple[Path, Path],
) -> None:
    mem, outside = tree
    store = MemoryStore(
        mem, now_ms=NOW_MS, crash_hook=swap_at("checked:team/project_q2.md", mem / "team", outside)
    )
    with pytest.raises(fsutil.SymlinkSwapError) as err:
        store.save("Q2", "Quarter two plan", "project", "Plan.", scope="team")
    assert "'team'" in str(err.value) and "symlink" in str(err.value)
    assert "Remove the symlink and retry" in str(err.value)
    assert files_under(outside) == []


def test_dream_apply_refuses_a_folder_swapped_during_the_apply(tree: tuple[Path, Path]) -> None:
    mem, outside = tree
    (mem / "team" / "project_freeze.md").write_text(
        (mem / "team" / "project_freeze.md").read_text() + "Decided yesterday.\n"
    )
    plan = dream.plan_consolidation(mem, now_ms=NOW_MS)
    assert any("team/project_freeze.md" in a.files for a in plan.actions)
    store = MemoryStore(
        mem, crash_hook=swap_at("checked:team/project_freeze.md", mem / "team", outside)
    )
    with pytest.raises(fsutil.SymlinkSwapError):
        dream.apply_plan(plan, store=store)
    assert files_under(outside) == []
    assert dream.list_dreams(mem) == []  # rolled back: no batch, no manifest


def test_dream_apply_refuses_a_folder_swapped_after_planning(tree: tuple[Path, Path]) -> None:
    mem, outside = tree
    (mem / "team" / "project_freeze.md").write_text(
        "---\nname: x\ntype: project\n---\nDecided yesterday.\n"
    )
    plan = dream.plan_consolidation(mem, now_ms=NOW_MS)
    swap_for_symlink(mem / "team", outside)
    with pytest.raises((PathTraversalError, dream.PlanStaleError)):
        dream.apply_plan(plan)
    assert files_under(outside) == []


def test_restore_never_writes_through_a_folder_swapped_for_a_symlink(
    tree: tuple[Path, Path],
) -> None:
    mem, outside = tree
    (mem / "team" / "project_freeze.md").write_text(
        (mem / "team" / "project_freeze.md").read_text() + "Decided yesterday.\n"
    )
    plan = dream.plan_consolidation(mem, now_ms=NOW_MS)
    result = dream.apply_plan(plan)
    # the attacker plants a copy of team/ outside and swaps the folder for a link to it
    put_back = swap_for_symlink(mem / "team", outside)
    for p in (mem / "team.real").iterdir():
        (outside / p.name).write_bytes(p.read_bytes())
    before = {p: p.read_bytes() for p in outside.iterdir()}
    with pytest.raises(PathTraversalError) as err:
        dream.restore(mem, result.batch)
    assert err.value.rule == "symlink-escape" and "Remove the symlink" in str(err.value)
    assert {p: p.read_bytes() for p in outside.iterdir()} == before
    put_back()
    assert dream.restore(mem, result.batch)  # once the folder is real again it works


def test_restore_swap_during_the_step_is_refused(tree: tuple[Path, Path]) -> None:
    mem, outside = tree
    (mem / "team" / "project_freeze.md").write_text(
        (mem / "team" / "project_freeze.md").read_text() + "Decided yesterday.\n"
    )
    result = dream.apply_plan(dream.plan_consolidation(mem, now_ms=NOW_MS))
    store = MemoryStore(
        mem, crash_hook=swap_at("checked:team/project_freeze.md", mem / "team", outside)
    )
    with pytest.raises(fsutil.SymlinkSwapError):
        dream.restore(mem, result.batch, store=store)
    assert files_under(outside) == []


def test_extraction_write_swap_between_sandbox_check_and_write_is_refused(
    tree: tuple[Path, Path],
) -> None:
    mem, outside = tree
    (mem / "notes").mkdir()
    runner = ToolRunner(mem, crash_hook=swap_at("checked:notes/a.md", mem / "notes", outside))
    out = runner.run("Write", {"file_path": str(mem / "notes" / "a.md"), "content": "hello\n"})
    assert out.is_error and "SymlinkSwapError" in out.content and "'notes'" in out.content
    assert files_under(outside) == []


def test_rebuild_index_refuses_a_team_folder_that_links_outside(tree: tuple[Path, Path]) -> None:
    mem, outside = tree
    put_back = swap_for_symlink(mem / "team", outside)
    (outside / "project_x.md").write_text("---\nname: X\ndescription: x\ntype: project\n---\nx\n")
    with pytest.raises(ValueError, match="outside the memory dir") as err:
        rebuild_index(mem / "team", scope="team")
    assert "remove the link" in str(err.value)
    assert files_under(outside) == ["project_x.md"]  # no MEMORY.md written out there
    put_back()


def test_daily_log_append_refuses_a_logs_folder_swapped_for_a_symlink(
    tree: tuple[Path, Path],
) -> None:
    mem, outside = tree
    kairos.append_daily_log(mem, "first note", now_ms=NOW_MS)
    swap_for_symlink(mem / "logs", outside)
    with pytest.raises(PathTraversalError) as err:
        kairos.append_daily_log(mem, "second note", now_ms=NOW_MS)
    assert err.value.rule == "symlink-escape"
    assert files_under(outside) == []


def test_daily_log_walk_refuses_a_symlink_swapped_in_after_the_check(
    tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    mem, outside = tree
    kairos.append_daily_log(mem, "first note", now_ms=NOW_MS)
    real_resolve = resolve_target

    def resolve_then_swap(
        root: Any, path: Any, **kw: Any
    ) -> Any:  # the attacker wins the race right after the check
        target = real_resolve(root, path, **kw)
        swap_for_symlink(mem / "logs", outside)
        return target

    monkeypatch.setattr(kairos, "resolve_target", resolve_then_swap)
    with pytest.raises(fsutil.SymlinkSwapError):
        kairos.append_daily_log(mem, "second note", now_ms=NOW_MS)
    assert files_under(outside) == []


def test_store_lock_planted_as_a_symlink_never_truncates_its_target(
    tree: tuple[Path, Path],
) -> None:
    mem, outside = tree
    victim = outside / "precious.txt"
    victim.write_text("do not truncate me\n")
    (mem / ".memdir.lock").unlink()
    (mem / ".memdir.lock").symlink_to(victim)
    with pytest.raises(PathTraversalError, match="remove it"):
        MemoryStore(mem).save("A", "b", "project", "c")
    assert victim.read_text() == "do not truncate me\n"


# --- targets that leave the dir -------------------------------------------------------------


@pytest.mark.parametrize("rel", ["../outside/evil.md", "team/../../outside/evil.md"])
def test_dream_plan_whose_target_leaves_the_dir_is_refused(
    tree: tuple[Path, Path], rel: str
) -> None:
    mem, outside = tree
    plan = dream.ConsolidationPlan(
        memory_dir=mem,
        actions=[
            dream.PlanAction("evil", "write", "escape", (rel,), (dream.WriteFile(rel, "pwned\n"),))
        ],
        snapshot={rel: None},
        hashes={rel: None},
        created_ms=NOW_MS,
    )
    with pytest.raises(PathTraversalError) as err:
        dream.apply_plan(plan)
    assert err.value.rule == "escapes-dir" and "outside the memory folder" in str(err.value)
    assert files_under(outside) == []


def test_dream_plan_with_an_absolute_target_is_refused(tree: tuple[Path, Path]) -> None:
    mem, outside = tree
    rel = str(outside / "evil.md")
    plan = dream.ConsolidationPlan(
        mem, [dream.PlanAction("evil", "write", "abs", (rel,), (dream.WriteFile(rel, "x"),))],
        {rel: None}, {rel: None}, NOW_MS,
    )  # fmt: skip
    with pytest.raises(PathTraversalError):
        dream.apply_plan(plan)
    assert files_under(outside) == []


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlinked-folder"])
def test_extraction_write_outside_is_refused_by_the_sandbox_and_by_the_transaction(
    tree: tuple[Path, Path], how: str
) -> None:
    mem, outside = tree
    if how == "dotdot":
        path = str(mem / ".." / "outside" / "x.md")
    elif how == "absolute":
        path = str(outside / "x.md")
    else:
        (mem / "linked").symlink_to(outside, target_is_directory=True)
        path = str(mem / "linked" / "x.md")
    runner = ToolRunner(mem)
    out = runner.run("Write", {"file_path": path, "content": "x\n"})
    assert out.is_error and "outside the memory dir is not allowed" in out.content
    # the sandbox is not the only wall: the write itself refuses too
    with pytest.raises(PathTraversalError):
        runner._tool_write({"file_path": path, "content": "x\n"})
    assert files_under(outside) == []


def test_extraction_write_into_a_dot_folder_is_refused_when_written(
    tree: tuple[Path, Path],
) -> None:
    mem, _ = tree
    (mem / "alias").symlink_to(".trash", target_is_directory=True)
    (mem / ".trash").mkdir(exist_ok=True)
    with pytest.raises(ValueError, match="dot-file or dot-folder"):
        ToolRunner(mem)._tool_write({"file_path": str(mem / "alias" / "x.md"), "content": "x"})


def test_the_journal_and_lock_names_cannot_be_written(tree: tuple[Path, Path]) -> None:
    mem, _ = tree
    with MemoryStore(mem).transaction() as tx, pytest.raises(PathTraversalError) as err:
        tx.write(".memdir.journal", "[]")
    assert err.value.rule == "reserved"


# --- the secret guard on every route into team/ ---------------------------------------------


def test_team_edit_whose_result_holds_a_credential_is_refused_though_the_fragment_is_clean(
    tree: tuple[Path, Path],
) -> None:
    mem, _ = tree
    head, tail = aws_key_parts()
    assert scan_for_secrets({"fragment": tail}) == []  # the fragment alone passes
    assert scan_for_secrets({"result": head + tail}) != []  # the file it produces does not
    f = mem / "team" / "reference_aws.md"
    f.write_text(f"---\nname: AWS\ndescription: account\ntype: reference\n---\nid {head}XXXX\n")
    before = f.read_bytes()
    runner = ToolRunner(mem)
    assert not runner.run("Read", {"file_path": str(f)}).is_error  # an Edit needs a Read
    out = runner.run("Edit", {"file_path": str(f), "old_string": "XXXX", "new_string": tail})
    assert out.is_error and "SecretInTeamMemoryError" in out.content
    assert (
        "team/reference_aws.md line 6" in out.content and "save the memory privately" in out.content
    )
    assert f.read_bytes() == before


@pytest.mark.parametrize("where", ["yaml-comment", "extra-key"])
def test_promote_scans_the_raw_file_comment_and_extra_keys_included(
    tree: tuple[Path, Path], where: str
) -> None:
    mem, _ = tree
    token = github_token()
    extra = f"# deploy with {token}\n" if where == "yaml-comment" else f"ci_token: {token}\n"
    (mem / "reference_ci.md").write_text(
        f"---\nname: CI\ndescription: how CI deploys\ntype: reference\n{extra}---\nSee the wiki.\n"
    )
    team_index = (mem / "team" / "MEMORY.md").read_bytes()
    with pytest.raises(SecretInTeamMemoryError) as err:
        MemoryStore(mem).promote("reference_ci.md")
    assert "reference_ci.md line 5" in str(err.value) and token not in str(err.value)
    assert (mem / "reference_ci.md").exists() and not (mem / "team" / "reference_ci.md").exists()
    assert (mem / "team" / "MEMORY.md").read_bytes() == team_index


def test_a_team_filename_holding_a_secret_is_refused(tree: tuple[Path, Path]) -> None:
    mem, _ = tree
    name = f"reference_{github_token()}.md"
    with pytest.raises(SecretInTeamMemoryError) as err:
        MemoryStore(mem).save("CI", "ci notes", "reference", "x", scope="team", filename=name)
    assert "in file name" in str(err.value)
    assert not (mem / "team" / name).exists()


def test_a_team_index_line_holding_a_secret_is_refused(tree: tuple[Path, Path]) -> None:
    mem, _ = tree
    entry = mem / "team" / "MEMORY.md"
    before = entry.read_text()
    line = f"- [CI](reference_ci.md) — deploy token {github_token()}\n"
    store = MemoryStore(mem)
    with (
        pytest.raises(SecretInTeamMemoryError, match="added index lines"),
        store.transaction() as tx,
    ):
        tx.write("team/MEMORY.md", before + line)
    assert entry.read_text() == before


def test_dream_apply_into_team_goes_through_the_guard(tree: tuple[Path, Path]) -> None:
    mem, _ = tree
    rel = "team/project_freeze.md"
    text = (mem / rel).read_text()
    secret = text + f"password: '{github_token()}'\n"
    plan = dream.ConsolidationPlan(
        mem, [dream.PlanAction("w", "write", "rewrite", (rel,), (dream.WriteFile(rel, secret),))],
        {rel: text}, {rel: dream.actions._sha(text.encode())}, NOW_MS,
    )  # fmt: skip
    with pytest.raises(SecretInTeamMemoryError):
        dream.apply_plan(plan)
    assert (mem / rel).read_text() == text and dream.list_dreams(mem) == []


def test_an_alias_folder_linking_to_team_is_team(tree: tuple[Path, Path]) -> None:
    mem, _ = tree
    (mem / "shared").symlink_to("team", target_is_directory=True)
    assert resolve_target(mem, "shared/x.md").team
    assert resolve_target(mem, mem / "shared" / "x.md").rel == "team/x.md"
    body = f"---\nname: X\ndescription: x\ntype: project\n---\ntoken {github_token()}\n"
    with pytest.raises(SecretInTeamMemoryError), MemoryStore(mem).transaction() as tx:
        tx.write("shared/x.md", body)
    out = ToolRunner(mem).run("Write", {"file_path": str(mem / "shared" / "x.md"), "content": body})
    assert out.is_error and "secret" in out.content
    assert not (mem / "team" / "x.md").exists()


def test_private_writes_are_not_secret_guarded(tree: tuple[Path, Path]) -> None:
    mem, _ = tree
    body = f"token {github_token()}\n"
    with MemoryStore(mem).transaction() as tx:
        tx.write("notes/x.md", body)
    assert (mem / "notes" / "x.md").read_text() == body


# --- rollback ---------------------------------------------------------------------------------


def test_a_journal_naming_a_temp_file_past_name_max_is_rolled_back_not_wedged(
    tmp_path: Path,
) -> None:
    # What an earlier version left after a create of a long name in another script (its temp
    # name cut at 180 characters, past NAME_MAX): undoing it raised ENAMETOOLONG, so every
    # later write in the dir failed with "an interrupted store step could not be rolled back"
    mem = tmp_path / "mem"
    mem.mkdir()
    name = "user_" + "記" * 78 + ".md"
    record = {"op": "write", "path": name, "backup": None,
              "tmp": f".{name[:180]}.4242-0a1b2c3d-1.tmp", "size": 4, "sha256": "0" * 64}  # fmt: skip
    (mem / ".memdir.journal").write_text(json.dumps(record) + "\n")
    MemoryStore(mem).save(name="x", description="d", type="user", body="b")
    assert not (mem / ".memdir.journal").exists() and (mem / "user_x.md").is_file()


def test_a_step_that_fails_halfway_is_rolled_back_completely(tree: tuple[Path, Path]) -> None:
    mem, _ = tree
    before = {p: p.read_bytes() for p in mem.rglob("*") if p.is_file() and ".memdir" not in p.name}
    with pytest.raises(RuntimeError, match="boom"), MemoryStore(mem).transaction() as tx:
        tx.write("MEMORY.md", "replaced\n")
        tx.write("new_dir/new.md", "new\n")
        tx.move("team/project_freeze.md", "project_freeze.md")
        raise RuntimeError("boom")
    after = {p: p.read_bytes() for p in mem.rglob("*") if p.is_file() and ".memdir" not in p.name}
    assert after == before
    assert not (mem / ".memdir.journal").exists()
    assert [p.name for p in mem.rglob(".*.bak")] == []


# --- a real race: a process flips a folder between real and symlink while writes run ---------


def _flip_forever(folder: Path, outside: Path, started: int) -> None:
    """Child process: swap `folder` for a symlink to `outside` and back, until killed."""
    aside = folder.with_name(folder.name + ".aside")
    first = True
    while True:
        os.rename(folder, aside)
        os.symlink(outside, folder, target_is_directory=True)
        if first:
            os.write(started, b"1")  # the parent starts writing once the race is on
            first = False
        os.unlink(folder)
        _put_back(folder, aside)
        for _ in range(200):  # stay real a little, so some writes get through whole
            pass


def _put_back(folder: Path, aside: Path) -> None:
    """Move the real folder back; a writer may have created a fresh one meanwhile (inside the dir)."""
    try:
        os.rename(aside, folder)
    except OSError:
        os.rename(folder, folder.with_name(f"{folder.name}.fresh-{time.monotonic_ns()}"))
        os.rename(aside, folder)


def _start_flipper(folder: Path, outside: Path) -> int:
    """Fork a child that flips `folder`; return its pid once the first flip is done."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child never returns into pytest
        try:
            _flip_forever(folder, outside, write_end)
        finally:
            os._exit(3)
    os.close(write_end)
    os.read(read_end, 1)
    os.close(read_end)
    return pid


def _restore_folder(folder: Path) -> None:
    """Leave `folder` real again after a flipper stopped (a link removed, the real one back)."""
    aside = folder.with_name(folder.name + ".aside")
    if folder.is_symlink():
        folder.unlink()
    if aside.exists():
        _put_back(folder, aside)


def _race(folder: Path, outside: Path, write: Callable[[int], None], n: int) -> tuple[int, int]:
    """Run `write(i)` at least n times (until one was refused) while a child flips `folder`.

    A writer can leave the folder in a state the flipper's next rename refuses (it then exits);
    the flipper is restarted so the race goes on rather than quietly stopping.
    """
    pid = _start_flipper(folder, outside)
    landed = refused = i = 0
    deadline = time.monotonic() + 60
    try:
        while i < n or (refused == 0 and time.monotonic() < deadline):
            try:
                write(i)
                landed += 1
            except (OSError, ValueError):  # PathTraversalError, SymlinkSwapError, vanished folders
                refused += 1
            assert files_under(outside) == [], f"write {i} landed outside the memory dir"
            i += 1
            if os.waitpid(pid, os.WNOHANG)[0] == pid:  # the flipper stopped: restart it
                _restore_folder(folder)
                pid = _start_flipper(folder, outside)
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    _restore_folder(folder)
    return landed, refused


@pytest.mark.timeout(120)
@pytest.mark.parametrize("route", ["store-save-team", "extraction-write", "daily-log"])
def test_a_folder_flipped_to_a_symlink_in_a_loop_never_lets_a_write_out(
    tree: tuple[Path, Path], route: str
) -> None:
    mem, outside = tree
    scan_for_secrets({"body": "warm the detectors before forking"})
    store = MemoryStore(mem, now_ms=NOW_MS)
    (mem / "notes").mkdir()
    kairos.append_daily_log(mem, "first", now_ms=NOW_MS)
    runner = ToolRunner(mem)

    def write(i: int) -> None:
        if route == "store-save-team":
            store.save(f"Note {i}", f"race note {i}", "project", f"body {i}", scope="team")
        elif route == "extraction-write":
            out = runner._tool_write({"file_path": str(mem / "notes" / f"n{i}.md"), "content": "x"})
            assert out.startswith("Created")
        else:
            kairos.append_daily_log(mem, f"note {i}", now_ms=NOW_MS)

    folder = {"store-save-team": "team", "extraction-write": "notes", "daily-log": "logs"}[route]
    landed, refused = _race(mem / folder, outside, write, RACE_WRITES)
    assert files_under(outside) == []
    assert refused > 0, "the flipper never won a race: the test did not exercise anything"
    assert landed + refused >= RACE_WRITES
    store.recover()  # whatever a refused step left half-done is rolled back
    assert not (mem / ".memdir.journal").exists()


# --- bounded, non-blocking I/O under the lock -------------------------------------------------


@pytest.mark.timeout(20)
def test_a_fifo_planted_as_the_team_index_fails_the_save_without_blocking(
    tree: tuple[Path, Path],
) -> None:
    mem, _ = tree
    (mem / "team" / "MEMORY.md").unlink()
    os.mkfifo(mem / "team" / "MEMORY.md")
    with pytest.raises(OSError, match="not a regular file"):
        MemoryStore(mem).save("Q2", "quarter two", "project", "Plan.", scope="team")
    assert not (mem / "team" / "project_q2.md").exists()  # rolled back with the step


def test_a_team_file_over_the_read_cap_is_refused_as_too_large_to_check(
    tree: tuple[Path, Path],
) -> None:
    from memdir_nb.spec.constants import STORE_READ_MAX_BYTES

    mem, _ = tree
    store = MemoryStore(mem)
    with pytest.raises(ValueError, match="too large to check"), store.transaction() as tx:
        tx.write("team/big.md", "x" * (STORE_READ_MAX_BYTES + 1))
    assert not (mem / "team" / "big.md").exists()


def test_a_nested_transaction_on_the_same_store_is_refused_not_deadlocked(
    tree: tuple[Path, Path],
) -> None:
    from memdir_nb.storage.transaction import TransactionError

    mem, _ = tree
    store = MemoryStore(mem)
    with store.transaction(), pytest.raises(TransactionError, match="already inside"):
        store.save("A", "b", "project", "c")


def test_a_transaction_used_outside_its_block_is_refused(tree: tuple[Path, Path]) -> None:
    from memdir_nb.storage.transaction import TransactionError

    mem, _ = tree
    with MemoryStore(mem).transaction() as tx:
        pass
    with pytest.raises(TransactionError, match="with store.transaction"):
        tx.write("x.md", "x")


def test_forget_of_a_symlinked_memory_moves_the_link_not_the_file_it_names(
    tree: tuple[Path, Path],
) -> None:
    mem, _ = tree
    (mem / "alias.md").symlink_to("feedback_testing_policy.md")
    target_bytes = (mem / "feedback_testing_policy.md").read_bytes()
    trashed = MemoryStore(mem, now_ms=NOW_MS).forget("alias.md")
    assert trashed.is_symlink() and not os.path.lexists(mem / "alias.md")
    assert (mem / "feedback_testing_policy.md").read_bytes() == target_bytes


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c"])
def test_a_team_index_line_cut_by_a_separator_that_ends_no_line_is_guarded_whole(
    tmp_path: Path, separator: str
) -> None:
    # attack round 11: the guard of a team MEMORY.md scanned its added lines after
    # str.splitlines, which cuts at these too; the scanner's lines end only at '\n' (as the
    # file's reader's do), so `password:<U+2028>value` reached team/ as two harmless lines
    line = f"- [DB](db.md) — prod db password:{separator}Xk9#mQ2$vL7pR4w\n"
    assert scan_for_secrets({"line": line})  # the scanner reads it as one line
    store = MemoryStore(tmp_path)
    with pytest.raises(SecretInTeamMemoryError), store.transaction() as tx:
        tx.write("team/MEMORY.md", line)
    assert not (tmp_path / "team" / "MEMORY.md").exists()


# Imports first (the venv may not be readable by nobody), then drop to nobody when root and try
# each write route on a memory dir this user cannot write to.
_READ_ONLY_WRITES = """
import json, os, sys
from memdir_nb.storage.daily_log import append_daily_log
from memdir_nb.storage.rebuild import rebuild_index
from memdir_nb.toolloop.memory_commands import MemoryDirBackend
from memdir_nb.toolloop.memory_text import MemoryCommandError
mem, uid = sys.argv[1], int(sys.argv[2])
if uid >= 0:
    os.setgid(uid)
    os.setuid(uid)
out = {}
for name, call in (
    ("rebuild", lambda: rebuild_index(mem)),
    ("daily log", lambda: append_daily_log(mem, "a note")),
    ("memory tool", lambda: MemoryDirBackend(mem).create("/memories/user_q.md", "q")),
):
    try:
        call()
        out[name] = "written"
    except (OSError, MemoryCommandError) as exc:
        out[name] = str(exc)
print(json.dumps(out))
"""


def test_a_memory_dir_this_user_cannot_write_is_named_with_the_fix() -> None:
    # attack round 11: every write step opens its lock file first, and a read-only dir ended
    # there in a bare "[Errno 13] Permission denied: '.memdir.lock'", naming neither the folder
    # nor what to do
    drop_to = 65534 if os.geteuid() == 0 else -1
    base = Path(tempfile.mkdtemp(prefix="memdir-readonly-", dir="/tmp"))
    try:
        mem = base / "memory"
        (mem / "logs").mkdir(parents=True)
        (mem / "user_a.md").write_text("---\nname: a\ndescription: a\ntype: user\n---\nb\n")
        for folder in (base, mem, mem / "logs"):
            folder.chmod(0o555)
        proc = subprocess.run(
            [sys.executable, "-c", _READ_ONLY_WRITES, str(mem), str(drop_to)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        result = json.loads(proc.stdout)
        listed = sorted(p.name for p in mem.rglob("*"))
    finally:
        for folder in (base, mem, mem / "logs"):
            folder.chmod(0o755)
        shutil.rmtree(base)
    for route, said in result.items():
        assert "cannot create the lock file" in said and "make the folder writable" in said, route
        assert "nothing was written" in said
    assert str(mem / "logs") in result["daily log"] and f"in {mem} " in result["rebuild"]
    assert listed == ["logs", "user_a.md"]


def _plant(path: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        with unix_socket_at(path):
            pass
    else:  # /dev/null's device numbers; making one needs root
        os.mknod(path, 0o644 | stat.S_IFCHR, os.makedev(1, 3))


@pytest.mark.parametrize("kind", ["folder", "socket"])
def test_a_lock_file_name_held_by_a_folder_or_socket_is_named_with_the_fix(
    tmp_path: Path, kind: str
) -> None:
    # attack round 14: every write step opens its lock first, and a folder or a socket there
    # ended in "Is a directory (.memdir.lock)" or "No such device or address", with no fix
    mem = tmp_path / "memory"
    (mem / "logs").mkdir(parents=True)
    for lock in (mem / ".memdir.lock", mem / "logs" / ".daily-log.lock"):
        if kind == "folder":
            lock.mkdir()
        else:
            _plant(lock, kind)
    words = "a folder" if kind == "folder" else "a socket"
    with pytest.raises(OSError, match=f"the lock file .memdir.lock in {mem} is {words}, not a"):
        MemoryStore(mem).save("A", "about a", "user", "b")
    with pytest.raises(OSError, match=f"the lock file .daily-log.lock in {mem}/logs is {words}"):
        kairos.append_daily_log(mem, "an entry", now_ms=1_780_000_000_000.0)
    for said in ("nothing was written", "move it aside (the lock file is recreated)"):
        with pytest.raises(OSError, match=re.escape(said)):
            MemoryStore(mem).save("A", "about a", "user", "b")
    assert sorted(p.name for p in mem.rglob("*")) == [".daily-log.lock", ".memdir.lock", "logs"]


@pytest.mark.parametrize("kind", ["fifo", "socket", "device"])
def test_a_write_never_replaces_a_fifo_socket_or_device_at_its_path(
    tmp_path: Path, kind: str
) -> None:
    # attack round 11: a write renamed its new file over whatever was at the name, so the
    # extraction Write (and any store step) silently removed a FIFO, socket or device node
    if kind == "device" and os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    target = tmp_path / "user_x.md"
    _plant(target, kind)
    before = os.lstat(target)
    outcome = ToolRunner(tmp_path).run(
        "Write", {"file_path": str(target), "content": "---\nname: x\n---\nbody\n"}
    )
    assert outcome.is_error and "not a regular file" in outcome.content
    assert "nothing was written over it" in outcome.content and "move it aside" in outcome.content
    after = os.lstat(target)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    with pytest.raises(ToolError, match="not a memory file, so it was not deleted"):  # not "does
        MemdirMemoryTool(tmp_path).call({"command": "delete", "path": "/memories/user_x.md"})
    assert os.lstat(target).st_ino == before.st_ino  # not exist", as the tool said before


@pytest.mark.parametrize("how", ["replaced", "in-place"])
def test_a_file_rewritten_after_the_secret_scan_is_never_moved_into_team(
    tree: tuple[Path, Path], how: str
) -> None:
    # promote scanned the file, then linked it into team/: a version Claude Code or an editor
    # saved in between (here with a credential in it) was published to the team unscanned
    mem, _ = tree
    (name,) = [p.name for p in mem.glob("feedback_*.md")]
    leaked = (mem / name).read_text() + f"deploy token: {github_token()}\n"

    def rewrite(point: str) -> None:
        if point == f"checked:{name}" and github_token() not in (mem / name).read_text():
            if how == "replaced":  # a new file renamed over it, as Claude Code writes
                (mem / "draft.tmp").write_text(leaked)
                os.replace(mem / "draft.tmp", mem / name)
            else:
                (mem / name).write_text(leaked)

    with pytest.raises(ChangedMeanwhileError, match=f"{name} was changed by another program"):
        MemoryStore(mem, crash_hook=rewrite).promote(name)
    assert not (mem / "team" / name).exists() and (mem / name).read_text() == leaked


def test_a_planted_journal_line_of_many_values_is_set_aside_unparsed(tmp_path: Path) -> None:
    # §43: a journal line of 16 MB of `{},{},...` (under the journal's byte cap) held 480 MB
    # while lint or a save parsed it; a record the store writes makes about 20 values
    line = '{"op": "write", "x": [' + ",".join(["{}"] * 400_000) + "]}\n"
    (tmp_path / ".memdir.journal").write_text(line)
    tracemalloc.start()
    try:
        MemoryStore(tmp_path).save("Tabs", "the user prefers tabs over spaces", "user", "b")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (tmp_path / "user_tabs.md").exists() and not (tmp_path / ".memdir.journal").exists()
    (aside,) = tmp_path.glob(".memdir.journal.corrupt-*")
    assert aside.read_text() == line  # kept whole, for a person to look at
    assert peak < 12 * len(line)  # the text and a few copies; no object per value


# --- a daily-log append while a store step rewrites that log (thirty-seventh session) --------
# The append takes the logs/ lock, a store step the store lock: a step that replaced today's
# log hard-linked it to a backup first, so an append in that instant was refused as "a hard
# link", and one after the rename went into the new file, which a rollback then replaced.


def append_in_a_thread(mem: Path, text: str) -> tuple[threading.Thread, list[BaseException]]:
    """Start one daily-log append in another thread; its error, if any, lands in the list."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            kairos.append_daily_log(mem, text, now_ms=NOW_MS)
        except BaseException as exc:  # handed to the test, which asserts on it
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(0.3)  # the append finishes now, or waits for the step's lock
    return thread, errors


def test_an_append_while_a_step_replaces_the_log_waits_and_is_kept(
    tree: tuple[Path, Path],
) -> None:
    mem, _ = tree
    log = kairos.append_daily_log(mem, "first note", now_ms=NOW_MS)
    rel = log.relative_to(mem).as_posix()
    started: list[tuple[threading.Thread, list[BaseException]]] = []

    def hook(point: str) -> None:
        if point == f"write:{rel}:backed-up" and not started:
            started.append(append_in_a_thread(mem, "second note"))

    with MemoryStore(mem, crash_hook=hook).transaction() as tx:
        old = tx.read_text(rel) or ""
        tx.write_edit(rel, old, old.replace("first note", "first note, edited"))
    thread, errors = started[0]
    thread.join(10)
    assert errors == []
    text = log.read_text(encoding="utf-8")
    assert "first note, edited" in text and "second note" in text


def test_an_append_during_a_step_that_rolls_back_is_not_lost(tree: tuple[Path, Path]) -> None:
    mem, _ = tree
    log = kairos.append_daily_log(mem, "first note", now_ms=NOW_MS)
    rel = log.relative_to(mem).as_posix()
    started: list[tuple[threading.Thread, list[BaseException]]] = []

    def hook(point: str) -> None:
        if point == f"write:{rel}:done" and not started:
            started.append(append_in_a_thread(mem, "second note"))

    with pytest.raises(RuntimeError), MemoryStore(mem, crash_hook=hook).transaction() as tx:
        tx.write(rel, log.read_text(encoding="utf-8") + "an edit\n")
        raise RuntimeError("a later part of the step failed")
    thread, errors = started[0]
    thread.join(10)
    assert errors == []
    text = log.read_text(encoding="utf-8")
    assert "an edit" not in text  # the step was rolled back
    assert "first note" in text and "second note" in text  # and the append is still there
