"""Attack round 10: routes raced by a second, real process (files vanishing, growing, swapped).

A churning child process removes, recreates, grows and swaps files in a memory dir while the
route under test runs again and again in this process; each route must finish every time with
its ordinary result (what vanished is left out, with the reason where the route lists skips).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError

from memdir_nb import MemdirMemoryTool
from memdir_nb.dream.plan import plan_consolidation
from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.recall.find import drop_surfaced
from memdir_nb.recall.passages import read_body
from memdir_nb.security.secret_scan import SecretInTeamMemoryError
from memdir_nb.storage import fsutil
from memdir_nb.storage.archive import export_archive
from memdir_nb.storage.containment import real_path
from memdir_nb.storage.index_files import IndexTargets
from memdir_nb.storage.index_rebuild import check_scope_folder
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.write_errors import ChangedMeanwhileError

_CHURN = textwrap.dedent(
    """
    import os, sys, time
    root, seconds = sys.argv[1], float(sys.argv[2])
    body = "---\\nname: n\\ndescription: d\\ntype: reference\\n---\\n" + "word " * 40 + "\\n"
    print("ready", flush=True)
    end = time.time() + seconds
    i = 0
    while time.time() < end:
        path = os.path.join(root, f"churn_{i % 200}.md")
        try:
            if os.path.lexists(path):
                os.unlink(path)
            else:
                with open(path, "w") as fh:
                    fh.write(body)
        except OSError:
            pass
        i += 1
    """
)


_FLIP = textwrap.dedent(
    """
    import os, sys, time
    folder, outside, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    print("ready", flush=True)
    end = time.time() + seconds
    while time.time() < end:
        os.rename(folder, folder + ".real")
        os.symlink(outside, folder)
        os.unlink(folder)
        os.rename(folder + ".real", folder)
    """
)


def _spawn(script: str, *args: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", script, *args], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    return proc


@pytest.fixture
def flipped_dir(tmp_path: Path) -> Iterator[Path]:
    """A memory dir whose notes/ folder a second process flips to a symlink leading out and back."""
    memory_dir = tmp_path / "memory"
    outside = tmp_path / "outside"
    (memory_dir / "notes").mkdir(parents=True)
    outside.mkdir()
    for i in range(5):
        (memory_dir / "notes" / f"n_{i}.md").write_text(
            f"---\nname: n{i}\ndescription: inside {i}\ntype: reference\n---\nInside.\n"
        )
        (outside / f"n_{i}.md").write_text("---\nname: out\n---\nOUTSIDE\n")
    index = "".join(f"- [n{i}](notes/n_{i}.md) — inside {i}\n" for i in range(5))
    (memory_dir / "MEMORY.md").write_text(index)
    proc = _spawn(_FLIP, str(memory_dir / "notes"), str(outside), "20")
    try:
        yield memory_dir
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture
def churned_dir(tmp_path: Path) -> Iterator[Path]:
    """A memory dir whose files a second process removes and recreates for a few seconds."""
    memory_dir = tmp_path / "memory"
    memory_dir.mkdir()
    (memory_dir / "kept.md").write_text("---\nname: kept\n---\nKept.\n", encoding="utf-8")
    proc = _spawn(_CHURN, str(memory_dir), "20")
    try:
        yield memory_dir
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.timeout(60)
def test_export_of_a_dir_whose_files_vanish_while_it_is_listed_leaves_them_out(
    churned_dir: Path, tmp_path: Path
) -> None:
    deadline = time.monotonic() + 6
    runs = 0
    while time.monotonic() < deadline and runs < 150:
        report = export_archive(churned_dir, tmp_path / "out.zip")
        assert "kept.md" in report.files
        runs += 1
    # an export now waits up to settled_read.WAIT_BUDGET_S (0.5 s) for files that keep
    # changing (attack38b), so fewer runs fit in the 6 s than the 10 asked before
    assert runs >= 5


@pytest.mark.timeout(60)
def test_index_targets_behind_a_folder_flipped_to_a_symlink_resolve_without_raising(
    flipped_dir: Path,
) -> None:
    # os.path.realpath lstat's a link, then reads it: removed in between, it raised ENOENT
    deadline = time.monotonic() + 5
    looked = 0
    while time.monotonic() < deadline:
        targets = IndexTargets(flipped_dir)
        for i in range(5):
            found = targets.locate(f"notes/n_{i}.md")
            assert found is not None
            looked += 1
        real_path(flipped_dir / "notes" / "n_0.md")
    assert looked > 1000


@pytest.mark.timeout(60)
def test_a_dream_plan_over_a_folder_flipped_to_a_symlink_is_made_every_time(
    flipped_dir: Path,
) -> None:
    deadline = time.monotonic() + 4
    while time.monotonic() < deadline:
        plan = plan_consolidation(flipped_dir)
        assert "OUTSIDE" not in repr(plan)


@pytest.mark.timeout(60)
def test_a_body_read_for_recall_behind_a_flipped_folder_is_never_read_from_outside(
    flipped_dir: Path,
) -> None:
    # attack round 14: the semantic channel's body reader checked the real path, then opened
    # it by path: a folder swapped for a link in between led the read out (about 1 read in
    # 25 returned the outside file's text). It now reads through the contained reader.
    header = MemoryHeader(
        "notes/n_0.md", str(flipped_dir / "notes" / "n_0.md"), 0.0, "n", "d", None
    )
    # at least 1.5 s of racing and 21 reads; a loaded machine (the flipping child holding the
    # CPU) gets more time rather than a failure, up to 20 s
    start = time.monotonic()
    read = 0
    while time.monotonic() - start < (1.5 if read > 20 else 20.0):
        try:
            _, body = read_body(header)
        except OSError:
            continue  # refused while the folder is a link: the ordinary answer
        assert "OUTSIDE" not in body
        read += 1
    assert read > 20


@pytest.mark.timeout(60)
def test_the_memory_tool_views_a_flipped_folder_without_raising_or_listing_outside(
    flipped_dir: Path,
) -> None:
    # attack round 14: the folder listing checked each entry's real path, then listed and
    # stat'ed by path: a folder swapped for a link in between listed the outside folder's
    # names, and a link removed while realpath read it raised FileNotFoundError from the tool
    (flipped_dir.parent / "outside" / "user_only_outside.md").write_text("x")
    for i in range(40):  # each entry's real path is a window for the flip to fall in
        while True:  # notes/ is briefly missing in each flip
            with contextlib.suppress(FileNotFoundError):
                (flipped_dir / "notes" / f"m_{i}.md").write_text("x")
                break
    tool = MemdirMemoryTool(flipped_dir, now_ms=1_780_000_000_000.0)
    deadline = time.monotonic() + 2.5
    views = 0
    while time.monotonic() < deadline:
        try:
            said = str(tool.call({"command": "view", "path": "/memories/notes"}))
        except ToolError as refused:
            said = str(refused)
        assert "only_outside" not in said
        views += 1
    assert views > 50


@pytest.mark.timeout(60)
def test_index_targets_of_a_team_folder_flipped_to_a_symlink_are_made_without_raising(
    tmp_path: Path,
) -> None:
    # attack round 14: IndexTargets resolved its own folder with os.path.realpath, which
    # raises ENOENT or EINVAL when the link it read is removed in between: a team/ flipped
    # to a link and back stopped lint and the dream plan for the whole dir
    memory_dir = tmp_path / "memory"
    (memory_dir / "team").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    proc = _spawn(_FLIP, str(memory_dir / "team"), str(tmp_path / "outside"), "20")
    try:
        deadline = time.monotonic() + 1.5
        made = 0
        while time.monotonic() < deadline:
            IndexTargets(memory_dir / "team", memory_dir=memory_dir)
            made += 1
    finally:
        proc.kill()
        proc.wait()
    assert made > 100


def test_rebuild_index_checks_a_flipped_team_folder_without_an_os_error(tmp_path: Path) -> None:
    # attack round 14's open item: check_scope_folder resolved team/ with os.path.realpath and
    # compared by hand; a team/ flipped to a link and back raised ENOENT or EINVAL
    memory_dir = tmp_path / "memory"
    (memory_dir / "team").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    proc = _spawn(_FLIP, str(memory_dir / "team"), str(tmp_path / "outside"), "20")
    answers: set[str] = set()
    try:
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            try:
                answers.add(check_scope_folder(memory_dir / "team", "team"))
            except ValueError as exc:  # outside, not a folder, or kept changing: all named
                answers.add(str(exc).split(":", 1)[0])
    finally:
        proc.kill()
        proc.wait()
    assert answers <= {"team", "cannot rebuild the index"} and answers


@pytest.mark.timeout(60)
def test_recall_drops_surfaced_memories_behind_a_flipped_folder_without_raising(
    flipped_dir: Path,
) -> None:
    # attack round 14: from a session's second turn (absolute surfaced paths) each candidate
    # was resolved with os.path.realpath, which raised ENOENT or EINVAL out of recall when a
    # folder flipped to a link and back (112 of 1,676 calls); now the shared real_path
    headers = [
        MemoryHeader(
            f"notes/n_{i}.md", str(flipped_dir / "notes" / f"n_{i}.md"), 0.0, "n", "d", None
        )
        for i in range(5)
    ]
    surfaced = [str(flipped_dir / "notes" / "n_0.md")]
    deadline = time.monotonic() + 1
    calls = 0
    while time.monotonic() < deadline:
        kept = drop_surfaced(headers, surfaced)
        assert [h.filename for h in kept][:1] == ["notes/n_1.md"]
        calls += 1
    assert calls > 100


# A second process saves a memory the way Claude Code does (a new file renamed over it), again
# and again, switching between a clean version and one holding a credential (attack round 28),
# with a pause of argv[3] seconds after each save.
_RESAVE = textwrap.dedent(
    """
    import os, sys, time
    path, seconds, pause = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    clean = open(path, "rb").read()
    leaked = clean + b"deploy token: ghp_" + b"Ab1" * 12 + b"\\n"
    print("ready", flush=True)
    end = time.time() + seconds
    i = 0
    while time.time() < end:
        tmp = f"{path}.{i % 2}.tmp"
        with open(tmp, "wb") as fh:
            fh.write(leaked if i % 2 else clean)
        os.replace(tmp, path)
        time.sleep(pause)
        i += 1
    """
)


def test_a_save_raced_against_a_move_into_team_never_reaches_team_unscanned(
    tmp_path: Path,
) -> None:
    """The move scans the file, checks it still holds what was scanned, then links it into
    team/: a save landing between that check and the link published the credential's version
    unscanned. Every move that succeeds must have put the scanned (clean) version in team/.
    The scan is a settled read (§68): a file saved over every few microseconds never stands
    still and every move is refused, so the saves pause 0.4 s (past SETTLE_S): each version is
    moved or refused once it stood still, with the next save landing in or after the move."""
    memory_dir = tmp_path / "memory"
    (memory_dir / "team").mkdir(parents=True)
    source = memory_dir / "feedback_deploy.md"
    source.write_bytes(
        b"---\nname: d\ndescription: deploys\ntype: feedback\n---\nDeploy on Fridays.\n"
    )
    store = MemoryStore(memory_dir)
    proc = _spawn(_RESAVE, str(source), "6", "0.4")
    moved = 0
    try:
        while proc.poll() is None:
            # refused (the secret was scanned), or the file was changed or gone meanwhile
            with contextlib.suppress(
                SecretInTeamMemoryError, ChangedMeanwhileError, FileNotFoundError
            ):
                with store.transaction() as tx:
                    tx.move("feedback_deploy.md", "team/feedback_deploy.md")
                moved += 1
                published = (memory_dir / "team" / "feedback_deploy.md").read_bytes()
                assert b"ghp_" not in published, "an unscanned version reached team/"
                (memory_dir / "team" / "feedback_deploy.md").unlink()
    finally:
        proc.kill()
        proc.wait()
    assert moved > 0  # the race was run: some moves got through the scan


def test_a_save_landing_just_before_the_link_into_team_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The raced test above, at its exact point: the save is renamed over the source after
    the move's last check and before its link (the race hit it in 3 of 9 runs on main)."""
    memory_dir = tmp_path / "memory"
    (memory_dir / "team").mkdir(parents=True)
    source = memory_dir / "feedback_deploy.md"
    clean = b"---\nname: d\ndescription: deploys\ntype: feedback\n---\nDeploy on Fridays.\n"
    source.write_bytes(clean)
    real_move_new_at = fsutil.move_new_at

    def save_then_move(*args: Any, **kwargs: Any) -> bool:
        if args[1] != "feedback_deploy.md":  # another file this step publishes
            return real_move_new_at(*args, **kwargs)
        draft = memory_dir / "draft.tmp"
        draft.write_bytes(clean + b"deploy token: ghp_" + b"Ab1" * 12 + b"\n")
        os.replace(draft, source)  # as Claude Code saves: a new file renamed over the old
        return real_move_new_at(*args, **kwargs)

    monkeypatch.setattr(fsutil, "move_new_at", save_then_move)
    with pytest.raises(ChangedMeanwhileError, match="feedback_deploy.md was changed"):
        MemoryStore(memory_dir).promote("feedback_deploy.md")
    assert not (memory_dir / "team" / "feedback_deploy.md").exists()
    assert b"ghp_" in source.read_bytes()  # the save is kept where it was made
