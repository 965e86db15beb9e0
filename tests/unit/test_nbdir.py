"""memdir_nb.ui.nbdir: what notebooks say about the dir they opened."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.home.config import MemdirConfig
from memdir_nb.spec.constants import MAX_MEMORY_FILES
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.ui.demo import build_demo_memory_dir
from memdir_nb.ui.nbdir import (
    figure_image,
    open_notebook_dir,
    profile_dir,
    scan_count_line,
    text_bars,
    type_scope_table,
)
from tests.conftest import DeepFolders
from tests.support import NOW
from tests.support.ascii_locale import ASCII_LOCALE, skip_unless_python_starts


def test_private_only_dir_profile(real_dir: Callable[[str], Path]) -> None:
    p = profile_dir(real_dir("private-only"))
    assert (p.is_demo, p.private_files, p.team_files, p.has_team_dir) == (False, 2, 0, False)
    assert p.private_index and not p.team_index
    assert [ix.scope for ix in p.index_texts()] == ["private"]


def test_team_only_dir_has_no_private_index_text(real_dir: Callable[[str], Path]) -> None:
    p = profile_dir(real_dir("team-only"))
    texts = {ix.scope: ix.text for ix in p.index_texts()}
    assert texts["private"] is None and "Release freeze" in (texts["team"] or "")
    assert (p.private_files, p.team_files) == (0, 1)


def test_logs_and_repository_files_are_counted_apart(real_dir: Callable[[str], Path]) -> None:
    assert profile_dir(real_dir("logs")).log_files == 1
    exported = profile_dir(real_dir("exported"))
    assert exported.ignored == ("LICENSE-NOTES.md", "README.md")
    assert exported.private_files == 2


def test_a_project_root_points_at_its_claude_memory_folder(
    real_dir: Callable[[str], Path], tmp_path: Path
) -> None:
    memory = real_dir("project-local")
    project = memory.parent.parent
    p = profile_dir(project)
    assert p.total_files == 0
    assert any(str(memory) in hint for hint in p.hints)


def test_open_says_which_dir_and_demo_only_steps_say_why_they_skip(
    real_dir: Callable[[str], Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = real_dir("empty")
    config = MemdirConfig.for_tests(home=tmp_path / "home", cwd=tmp_path)
    p = open_notebook_dir(root, config=config)
    assert p.demo_only("the demo queries") is False
    p.nothing_to_show("the manifest", "the scan found no memory files")
    out = capsys.readouterr().out
    assert f"opened {root.resolve()}" in out
    assert "holds no memories yet" in out
    assert "Skipped on" in out and "Nothing to show for the manifest" in out


def test_the_opened_line_stays_one_line_when_the_dirs_path_holds_a_newline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # fresh29: "opened /x/a" then "FORGED ..." printed as a line of its own
    root = tmp_path / "a\nFORGED: 0 problems" / "memory"
    root.mkdir(parents=True)
    config = MemdirConfig.for_tests(home=tmp_path / "home", cwd=tmp_path)
    p = open_notebook_dir(root, config=config)
    p.nothing_to_show("the manifest", "the scan found no memory files")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"opened {tmp_path.resolve()}/a\\x0aFORGED: 0 problems/memory"
    assert not any(line.startswith("FORGED") for line in lines)
    assert any(line.startswith("Nothing to show for the manifest on ") for line in lines)


def test_demo_dir_is_named_as_the_demo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = MemdirConfig.for_tests(home=tmp_path / "home", cwd=tmp_path)
    p = open_notebook_dir(None, config=config)
    assert p.is_demo and p.demo_only("x") is True
    assert "opened the bundled demo dir" in capsys.readouterr().out


def test_figure_image_is_a_png() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.bar(["a"], [1])
    image: Any = figure_image(fig)  # an IPython Image (IPython ships no types)
    assert image.data[:8] == b"\x89PNG\r\n\x1a\n"


def _memory_files(folder: Path, count: int) -> None:
    """count small memory files with headers, plus an index naming none of them."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "MEMORY.md").write_text("# Notes\n", encoding="utf-8")
    for i in range(count):
        (folder / f"project_note_{i:03d}.md").write_text(
            f"---\nname: Note {i}\ndescription: release note number {i}\ntype: project\n---\n\nbody\n",
            encoding="utf-8",
        )


def test_a_dir_past_the_scan_cap_is_not_described_as_holding_only_the_cap(
    tmp_path: Path,
) -> None:
    big, small = tmp_path / "big", tmp_path / "small"
    _memory_files(big, MAX_MEMORY_FILES + 37)
    _memory_files(small, 3)

    line = scan_count_line(scan_memory_dir(big))

    assert line == (
        f"{MAX_MEMORY_FILES} memories listed: the newest {MAX_MEMORY_FILES} of "
        f"{MAX_MEMORY_FILES + 37} found (the scan keeps at most {MAX_MEMORY_FILES})"
    )
    assert scan_count_line(scan_memory_dir(small)) == "3 memories in all"


def test_a_file_skipped_at_its_read_is_not_counted_as_past_the_cap(tmp_path: Path) -> None:
    # fresh32: "1 memories listed: the newest 1 of 2 found (the scan keeps at most 200)" on a
    # dir of two files, one of them a link to a file the reader refuses (past the depth cap)
    memory = tmp_path / "memory"
    _memory_files(memory, 1)
    deep = memory.joinpath(*["d"] * 65)
    _memory_files(deep, 1)
    (memory / "user_link.md").symlink_to(Path(*["d"] * 65) / "project_note_000.md")

    line = scan_count_line(scan_memory_dir(memory))

    assert line == "1 memory listed; 1 file could not be read"


def test_text_bars_stay_one_hash_per_item_until_the_width_then_scale_down() -> None:
    small = text_bars({"0-1 days": 3, "over a year": 0})
    big = text_bars({"0-1 days": 2, "91-365 days": 330, "over a year": 0}, width=40)

    assert small == ["   0-1 days    3  ###", "over a year    0  "]
    assert [len(line) - len(line.rstrip("#")) for line in big] == [1, 40, 0]
    assert max(len(line) for line in big) <= len("91-365 days  330  ") + 40


def test_the_type_and_scope_table_counts_memories_without_a_type(tmp_path: Path) -> None:
    pytest.importorskip("pandas")
    from memdir_nb.reports.analysis import to_dataframe

    memory = tmp_path / "memory"
    _memory_files(memory, 2)
    (memory / "session_notes.md").write_text("# Notes from a session\n\nno header\n", "utf-8")
    (memory / "loose.md").write_text("---\nname: Loose\ndescription: a note\n---\n\nx\n", "utf-8")

    table = type_scope_table(to_dataframe(memory))

    assert table.loc["(no type)", "private"] == 2
    assert table.loc["project", "private"] == 2
    assert table.loc["All", "All"] == 4


def test_one_memory_is_named_in_the_singular(tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    _memory_files(memory, 1)
    (memory / "team").mkdir()

    assert scan_count_line(scan_memory_dir(memory)) == "1 memory in all"
    assert profile_dir(memory).summary().startswith("1 private memory, 0 team memories,")


def test_a_deep_logs_tree_leaves_the_profile_standing(
    tmp_path: Path, deep_folders: DeepFolders
) -> None:
    # attack round 13: the profile counted logs with pathlib's rglob: RecursionError
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "2026-11-29.md").write_text("- noted\n")
    deep_folders(tmp_path / "logs", 1_000, name="a", file="deep.md")
    assert profile_dir(tmp_path).log_files == 1


def test_a_team_folder_linking_out_of_the_dir_is_neither_counted_nor_read(tmp_path: Path) -> None:
    # attack round 13: the profile counted team/ with a scan of its own rooted at team/, which
    # followed a symlinked team/ and read the headers of the files an outside folder held
    outside = tmp_path / "outside"
    outside.mkdir()
    for i in range(3):
        (outside / f"user_o{i}.md").write_text(
            f"---\nname: o{i}\ndescription: d\ntype: user\n---\n"
        )
    (outside / "MEMORY.md").write_text("- [o0](user_o0.md) - elsewhere\n")
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "team").symlink_to(outside)
    profile = profile_dir(memory)
    assert (profile.team_files, profile.has_team_dir, profile.team_index) == (0, False, False)


_OPEN_AND_COUNT = (
    "import sys; from memdir_nb.ui.nbdir import open_notebook_dir; "
    "p = open_notebook_dir(sys.argv[1]); print('private', p.private_files)"
)


def _open_in_a_python(mem: Path, **env: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", _OPEN_AND_COUNT, str(mem)],
        env={**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", **env},
        capture_output=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.decode("utf-8", "replace")


def test_a_kernel_that_reads_names_as_ascii_says_so_and_how_to_fix_it(tmp_path: Path) -> None:
    # A kernel started under LC_ALL=C (UTF-8 coercion off) read "café.md" as "not valid
    # UTF-8": the notebook said "1 private memory" for two, and lint called its index line
    # dangling, with no word of why. Claude Code writes names in UTF-8.
    mem = tmp_path / "memory"
    mem.mkdir()
    for name in ("plain.md", "café.md"):
        (mem / name).write_text("---\nname: n\ndescription: d\ntype: user\n---\nx\n", "utf-8")
    skip_unless_python_starts({**os.environ, **ASCII_LOCALE})
    ascii_kernel = _open_in_a_python(mem, PYTHONUTF8="0")
    assert "note: this Python reads file names as ascii, not UTF-8" in ascii_kernel
    assert "PYTHONUTF8=1" in ascii_kernel
    utf8_kernel = _open_in_a_python(mem, PYTHONUTF8="1")
    assert "private 2" in utf8_kernel and "not UTF-8" not in utf8_kernel


def test_opening_an_agent_memory_root_read_as_one_dir_says_its_index_is_never_loaded(
    real_dir: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    parent = real_dir("agent-root-files")
    profile = open_notebook_dir(parent)
    assert any("MEMORY.md here is never loaded" in h for h in profile.hints)
    assert "note: MEMORY.md here is never loaded" in capsys.readouterr().out
    assert not profile_dir(parent / "tester").hints


def test_the_markdown_file_count_is_memories_indexes_and_logs_never_the_trash(
    tmp_path: Path,
) -> None:
    d = tmp_path / "memory"
    (d / "team").mkdir(parents=True)
    (d / ".trash" / "b").mkdir(parents=True)
    (d / "logs" / "2026" / "05").mkdir(parents=True)
    header = "---\nname: x\ndescription: a note\ntype: user\n---\nbody\n"
    for rel in ("user_x.md", "team/project_y.md", ".trash/b/user_z.md"):
        (d / rel).write_text(header, encoding="utf-8")
    for rel in ("MEMORY.md", "team/MEMORY.md", ".trash/b/MEMORY.md"):
        (d / rel).write_text("- [x](user_x.md) — a note\n", encoding="utf-8")
    (d / "logs" / "2026" / "05" / "2026-05-31.md").write_text("- a line\n", encoding="utf-8")

    profile = profile_dir(d)

    assert profile.markdown_files == 5  # two memories, two indexes, one daily log


_ZONES = """
import os, time
from memdir_nb.storage.daily_log import local_date
from memdir_nb.ui.demo import DEMO_NOW_MS, daily_log_date
from memdir_nb.ui.nbdir import open_notebook_dir
open_notebook_dir()
print('DEMO', os.environ.get('TZ'), local_date(DEMO_NOW_MS), daily_log_date(DEMO_NOW_MS))
open_notebook_dir({mine!r})
print('MINE', os.environ.get('TZ'), local_date(DEMO_NOW_MS))
"""


def test_the_demo_is_read_in_utc_and_a_real_dir_after_it_in_the_kernel_s_own_zone(
    tmp_path: Path,
) -> None:
    # fresh38: east of UTC+12 the demo's noon-UTC moment is the next local day, so notebook 07
    # named the demo's logs a day later and turned "next Thursday" into a date a week later.
    # lefts39: the demo's days are counted in UTC by the day-zone setting; the process's TZ
    # (which other libraries and child processes read) is left as the user set it
    mine = tmp_path / "mine"
    mine.mkdir()
    env = {**os.environ, "TZ": "Pacific/Kiritimati", "MEMDIR_NB_CACHE_DIR": str(tmp_path / "c")}
    env.pop("MEMDIR_NB_DIR", None)
    out = subprocess.run(
        [sys.executable, "-c", _ZONES.format(mine=str(mine))],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "DEMO Pacific/Kiritimati 2026-06-01 2026-05-31\n" in out.stdout
    assert "MINE Pacific/Kiritimati 2026-06-02\n" in out.stdout


def test_a_copy_of_the_demo_someone_names_is_named_by_its_path_and_still_runs_the_demo_steps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # lefts40: "opened the bundled demo dir" on a copy at a path the user chose hid which dir
    # it was, and the sweep over dirs reported "the dir opened is not named"
    copy = build_demo_memory_dir(tmp_path / "my copy", now_ms=NOW)
    config = MemdirConfig.for_tests(home=tmp_path / "home", cwd=tmp_path)
    p = open_notebook_dir(copy, config=config)
    assert p.is_demo and p.demo_only("x") is True
    assert f"opened {copy} (the bundled demo)\n" in capsys.readouterr().out
    monkeypatch.setenv("MEMDIR_NB_DIR", str(copy))
    assert open_notebook_dir(None).label == f"{copy} (the bundled demo)"
