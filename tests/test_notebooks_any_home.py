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

from tests.support.home_shapes import (
    HomeShape,
    desktop_linux_backup,
    plugins_only_no_projects,
    proxy_env_with_key,
)

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
