"""The notebooks that take a whole home (09, 10, 11) run clean on homes shaped like published ones.

Each runs in a real kernel (nbclient) through benchmarks/sweep_homes.py, as the sweep over
real homes runs them: $HOME set to the shape's home, notebook 10 with PROJECT_DIR set to the
home folder, notebook 11 with CLAUDE_HOME set to the Claude home, notebook 09 on the home's
first project memory dir (it exports the whole home). What counts as broken is the sweep's
rule (sweep_notebooks' rule, plus showing the demo instead of the home given) and any change
to the home.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from sweep_homes import home_tree, sweep_notebooks
from sweep_notebooks import notebook_problems

from memdir_nb.home.path_rules import sanitize_path
from tests.support.fake_home import add_memory
from tests.support.home_shapes import (
    HomeShape,
    desktop_linux_backup,
    plugins_only_no_projects,
    proxy_env_with_key,
)
from tests.support.kernels import execute_notebook
from tests.support.notebook_run import clean_printed_text, run_notebook, users_memory_dir
from tests.support.session_homes import CLEAR_ONLY, CWD, LATE_MEMORY, build_picked_sessions_home

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


@pytest.mark.slow
@pytest.mark.parametrize(
    "build",
    [desktop_linux_backup, plugins_only_no_projects, proxy_env_with_key],
    ids=lambda b: b.__name__,
)
def test_home_notebooks_run_clean_on_published_home_shapes(
    build: Callable[[Path], HomeShape], tmp_path: Path
) -> None:
    shape = build(tmp_path / "shape")
    before = home_tree(shape.home)
    results = sweep_notebooks(shape.home, tmp_path / "cache", limit=600)
    assert [name for name, _, _ in results][-2:] == ["10_where_and_doctor", "11_session_replay"]
    assert [(name, problem) for name, problem, _ in results if problem] == []
    assert home_tree(shape.home) == before


@pytest.mark.slow
def test_the_replay_notebook_runs_clean_on_each_session_a_user_picks(tmp_path: Path) -> None:
    # a /clear-only session (no turn to show) and a session whose first turn had no memory yet
    home = build_picked_sessions_home(tmp_path / "homes")
    before = home_tree(home)
    results = sweep_notebooks(home, tmp_path / "cache", limit=600, every_session=True)
    picked = {name: problem for name, problem, _ in results if " " in name}
    assert sorted(picked) == sorted(
        f"11_session_replay {sanitize_path(CWD)}/{file}"
        for file in (
            f"{CLEAR_ONLY}.jsonl",
            f"{LATE_MEMORY}.jsonl",
            f"{LATE_MEMORY}/subagents/agent-b7c1e0.jsonl",
        )
    )
    assert [(name, problem) for name, problem, _ in results if problem] == []
    assert home_tree(home) == before


@pytest.mark.slow
def test_the_replay_notebook_replays_the_sessions_beside_the_memory_dir_memdir_nb_dir_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # keep35: notebook 11 replayed its bundled sample whatever MEMDIR_NB_DIR named, so
    # `MEMDIR_NB_DIR=~/.claude/projects/<key>/memory make lab` showed someone else's sessions
    home = build_picked_sessions_home(tmp_path / "homes")
    projects = home / ".claude" / "projects"
    shutil.copytree(
        NOTEBOOKS / "data" / "sample_claude_home" / "projects", projects, dirs_exist_ok=True
    )
    memory = projects / sanitize_path(CWD) / "memory"
    before = home_tree(home)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MEMDIR_NB_DIR", str(memory))
    nb = nbformat.read(NOTEBOOKS / "11_session_replay.ipynb", as_version=4)
    execute_notebook(
        nb, timeout=600, allow_errors=True, resources={"metadata": {"path": str(NOTEBOOKS)}}
    )

    assert notebook_problems(nb, "11_session_replay", memory) == []
    printed = "".join(out.get("text", "") for cell in nb.cells for out in cell.get("outputs", []))
    shown = "".join(
        str(out.get("data", {}).get("text/plain", ""))
        for cell in nb.cells
        for out in cell.get("outputs", [])
    )
    assert f"The sessions beside MEMDIR_NB_DIR, in {sanitize_path(CWD)}" in printed
    assert f"session {LATE_MEMORY} | cwd {CWD}" in printed  # the first with a prompt
    assert "5b0f3c2e" not in printed + shown  # the sample's session, in another project
    assert "-home-sam-src-shop" not in shown  # the sessions table lists this project's only
    assert home_tree(home) == before


@pytest.mark.parametrize(
    "fact",
    [
        "the subagent that turn 3",
        "`project_release_freeze.md` does not exist before turn 3",
        "compacted before turn 4",
        "pasted a",
        "turns 2 and 5",
        "the recap Sam saw",
    ],
)
def test_the_replay_notebook_says_which_of_its_prose_is_the_bundled_sample_s(fact: str) -> None:
    # fresh36: with MEMDIR_NB_DIR set, notebook 11 replays the user's own sessions, while its
    # prose still told of "turn 4 pasted a screenshot" and a file "written in turn 2" as if
    # they were the user's
    nb = json.loads((NOTEBOOKS / "11_session_replay.ipynb").read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    holding = [" ".join(c.split()) for c in cells if fact in " ".join(c.split())]
    assert holding, fact
    assert all("sample" in c for c in holding), fact


@pytest.mark.slow
def test_the_explore_notebook_names_an_agent_s_dir_by_its_agent_not_its_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # fresh36: a project's .claude/agent-memory/<agent> dir was labelled with the project's
    # name, so its memories were counted with the project's and the index table listed the
    # project twice
    w, mem = users_memory_dir(tmp_path, monkeypatch)
    add_memory(mem, "feedback_style.md")
    agent = w.project / ".claude" / "agent-memory" / "migrator"
    add_memory(agent, "project_backfill.md", type="project")
    (agent / "MEMORY.md").write_text("- [Backfill](project_backfill.md) — batches\n")
    nb = run_notebook(NOTEBOOKS / "09_explore_your_memory_dir.ipynb", tmp_path, timeout=300)
    texts = ["".join(o.get("text", "") for o in c.get("outputs", [])) for c in nb.cells]
    per_project = next(t for t in texts if "stale_share" in t).splitlines()
    pressure = next(t for t in texts if "pressure" in t and "line_use" in t).splitlines()
    name = w.project.name
    assert [line.split()[:2] for line in per_project[1:]] == [
        [name, "2"],
        ["migrator", "(agent:project)"],
    ]
    assert sum(line.split()[0] == name for line in pressure[1:]) == 1


@pytest.mark.slow
def test_the_explore_notebook_names_the_claude_home_it_exports_by_its_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # fresh37: it printed "exporting every memory dir of the Claude home .claude", the
    # folder's name, which every Claude home shares
    _, mem = users_memory_dir(tmp_path, monkeypatch)
    nb = run_notebook(NOTEBOOKS / "09_explore_your_memory_dir.ipynb", tmp_path, timeout=300)
    printed = clean_printed_text(nb)
    claude_home = mem.parent.parent.parent
    assert f"exporting every memory dir of the Claude home {claude_home}\n" in printed


@pytest.mark.slow
def test_the_replay_notebook_names_the_user_s_claude_home_by_its_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # fresh37: it printed "Claude home: .claude", the folder's name, which every home shares
    home = tmp_path / "home"
    projects = home / ".claude" / "projects"
    shutil.copytree(NOTEBOOKS / "data" / "sample_claude_home" / "projects", projects)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MEMDIR_NB_DIR", str(projects / "-home-sam-src-shop" / "memory"))
    nb = run_notebook(NOTEBOOKS / "11_session_replay.ipynb", tmp_path, timeout=300)
    assert f"Claude home: {home / '.claude'}\n" in clean_printed_text(nb)


@pytest.mark.slow
def test_the_replay_notebook_says_why_it_replays_the_sample_for_a_dir_outside_a_claude_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # fresh38: pointed at a memory dir outside any Claude home, it printed "Claude home: claude"
    # and replayed the sample's sessions, with no word about the dir it was given
    mem = tmp_path / "pottery memory"
    add_memory(mem, "feedback_kiln.md")
    monkeypatch.setenv("MEMDIR_NB_DIR", str(mem))
    home = tmp_path / "home"
    home.mkdir()  # a user's HOME exists; a missing one made IPython warn "not a writable location"
    monkeypatch.setenv("HOME", str(home))
    text = clean_printed_text(run_notebook(NOTEBOOKS / "11_session_replay.ipynb", NOTEBOOKS))
    assert (
        f"{mem} is not a project's memory dir in a Claude home (<home>/projects/<key>/memory), "
        "so no session transcripts are kept beside it: the bundled sample is replayed instead"
    ) in text
    assert "Claude home: claude\n" in text
