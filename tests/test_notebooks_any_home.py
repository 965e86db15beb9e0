"""The notebooks that take a whole home (09, 10, 11) run clean on homes shaped like published ones.

Each runs in a real kernel (nbclient) through benchmarks/sweep_homes.py, as the sweep over
real homes runs them: $HOME set to the shape's home, notebook 10 with PROJECT_DIR set to the
home folder, notebook 11 with CLAUDE_HOME set to the Claude home, notebook 09 on the home's
first project memory dir (it exports the whole home). What counts as broken is the sweep's
rule (sweep_notebooks' rule, plus showing the demo instead of the home given) and any change
to the home.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from sweep_homes import home_tree, sweep_notebooks

from memdir_nb.home.path_rules import sanitize_path
from tests.support.home_shapes import (
    HomeShape,
    desktop_linux_backup,
    plugins_only_no_projects,
    proxy_env_with_key,
)
from tests.support.session_homes import CLEAR_ONLY, CWD, LATE_MEMORY, build_picked_sessions_home

pytest.importorskip("nbclient")
pytest.importorskip("nbformat")


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
