"""Checks of the Binder configuration in binder/, without Docker.

repo2docker reads binder/ instead of the repository root when that folder exists, runs
`pip install -r binder/requirements.txt` from the repository root, picks the Python
version from runtime.txt and runs postBuild (if any) after installing. The fast tests check
those files against pyproject.toml and the README badges' targets; the slow test mirrors the
install in a fresh virtualenv and executes the tour notebook in it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbformat.sign import NotebookNotary

from tests.support.kernels import ipc_kernel_flags

REPO = Path(__file__).resolve().parent.parent
BINDER = REPO / "binder"
BADGE_TARGETS = ("notebooks/00_tour.ipynb", "notebooks/dashboard.ipynb")


def _requirement_lines() -> list[str]:
    text = (BINDER / "requirements.txt").read_text(encoding="utf-8")
    return [
        ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")
    ]


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def test_requirements_install_the_repo_itself_with_the_notebook_extra() -> None:
    lines = _requirement_lines()
    editable = [ln for ln in lines if re.fullmatch(r"-e\s+\.\[([a-z0-9_,-]+)\]", ln)]
    assert editable, (
        f"binder/requirements.txt must install the repo itself ('-e .[notebook]'), got {lines}"
    )
    match = re.fullmatch(r"-e\s+\.\[([a-z0-9_,-]+)\]", editable[0])
    assert match is not None, editable[0]
    extras = match.group(1).split(",")
    assert "notebook" in extras


def test_requirements_extras_exist_in_pyproject() -> None:
    declared = set(_pyproject()["project"]["optional-dependencies"])
    for line in _requirement_lines():
        m = re.fullmatch(r"-e\s+\.\[([a-z0-9_,-]+)\]", line)
        if m:
            missing = set(m.group(1).split(",")) - declared
            assert not missing, f"extras {missing} are not declared in pyproject.toml"


def test_notebook_extra_brings_lab_widgets_and_voila() -> None:
    extra = " ".join(_pyproject()["project"]["optional-dependencies"]["notebook"]).lower()
    for needed in ("jupyterlab", "ipywidgets", "voila"):
        assert needed in extra, f"the notebook extra must include {needed} for the Binder badges"


def test_runtime_is_python_311_and_allowed_by_pyproject() -> None:
    runtime = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip()
    assert runtime == "python-3.11"
    spec = _pyproject()["project"]["requires-python"]
    m = re.fullmatch(r">=\s*3\.(\d+)", spec)
    assert m and int(m.group(1)) <= 11, f"requires-python {spec!r} must allow 3.11"


def test_post_build_if_present_is_executable_and_stops_on_error() -> None:
    post = BINDER / "postBuild"
    if not post.exists():
        return
    lines = post.read_text(encoding="utf-8").splitlines()
    body = [ln for ln in lines if ln.strip() and not ln.startswith("#!")]
    assert body and body[0].strip() == "set -e", "postBuild must start with 'set -e'"
    assert os.access(post, os.X_OK), "postBuild must be executable (chmod +x binder/postBuild)"


def test_post_build_trusts_the_dashboard_the_badge_opens_so_voila_logs_no_warning(
    tmp_path: Path,
) -> None:
    # lefts40: Voila logged "Notebook dashboard.ipynb is not trusted" at every start on Binder
    post = (BINDER / "postBuild").read_text(encoding="utf-8").splitlines()
    trusts = [ln.split() for ln in post if ln.startswith("jupyter trust ")]
    assert trusts == [["jupyter", "trust", "notebooks/dashboard.ipynb"]]
    jupyter = Path(sys.executable).parent / "jupyter"
    env = {**os.environ, "HOME": str(tmp_path), "JUPYTER_DATA_DIR": str(tmp_path / "data")}
    _run([str(jupyter), *trusts[0][1:]], cwd=REPO, env=env)
    nb = nbformat.read(REPO / "notebooks" / "dashboard.ipynb", as_version=4)
    assert NotebookNotary(data_dir=str(tmp_path / "data")).check_signature(nb)


def test_badge_targets_exist_and_are_notebooks() -> None:
    for rel in BADGE_TARGETS:
        path = REPO / rel
        assert path.is_file(), f"the Binder badge opens {rel}, which does not exist"
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert nb["nbformat"] == 4 and nb["cells"]


def test_no_other_binder_config_shadows_requirements() -> None:
    # repo2docker picks one environment file; environment.yml would silently win over requirements.txt.
    assert not (BINDER / "environment.yml").exists()
    assert not (BINDER / "Pipfile").exists()


def _run(
    cmd: list[str], *, cwd: Path, env: dict[str, str] | None = None, timeout: int = 600
) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, (
        f"{' '.join(cmd)} failed with exit code {proc.returncode}\n"
        f"stdout:\n{proc.stdout[-4000:]}\nstderr:\n{proc.stderr[-4000:]}"
    )
    return proc.stdout


@pytest.mark.slow
@pytest.mark.binder
@pytest.mark.timeout(900)
def test_fresh_venv_from_binder_requirements_runs_the_tour(tmp_path: Path) -> None:
    """Mirror repo2docker: fresh venv, pip install -r binder/requirements.txt from the repo root."""
    if sys.version_info[:2] != (3, 11):
        pytest.skip("binder/runtime.txt asks for Python 3.11; run this check under 3.11")
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path)
    py = venv / "bin" / "python"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("VIRTUAL_ENV", "PYTHONPATH", "MEMDIR_NB_DIR")
    }
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    _run(
        [str(py), "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt"],
        cwd=REPO,
        env=env,
    )
    post_build = BINDER / "postBuild"
    if (
        post_build.exists()
    ):  # repo2docker runs it from the repo root with the env's python first on PATH
        post_env = {**env, "PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"}
        post_env["HOME"] = str(tmp_path / "home")  # its `jupyter trust` writes under ~
        _run([str(post_build)], cwd=REPO, env=post_env)

    # The editable install must resolve to this checkout, as "-e ." from the repo root does.
    where = _run(
        [str(py), "-c", "import memdir_nb, os; print(os.path.dirname(memdir_nb.__file__))"],
        cwd=tmp_path,
        env=env,
    ).strip()
    assert Path(where).resolve() == (REPO / "memdir_nb").resolve()
    for module in ("ipywidgets", "voila", "jupyterlab", "pandas", "matplotlib"):
        _run([str(py), "-c", f"import {module}"], cwd=tmp_path, env=env)

    out = tmp_path / "tour_executed.ipynb"
    env["HOME"] = str(tmp_path / "home")  # keep the run's Jupyter config and runtime files out of ~
    with ipc_kernel_flags() as kernel_flags:
        _run(
            [
                str(venv / "bin" / "jupyter"),
                "nbconvert",
                "--to",
                "notebook",
                "--execute",
                "--ExecutePreprocessor.timeout=300",
                "--ExecutePreprocessor.kernel_name=python3",
                *kernel_flags,
                "--output",
                str(out),
                str(REPO / "notebooks" / "00_tour.ipynb"),
            ],
            cwd=REPO,
            env=env,
        )
    executed = json.loads(out.read_text(encoding="utf-8"))
    errors = [
        o
        for c in executed["cells"]
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert not errors, (
        f"the tour raised in the Binder environment: {errors[0].get('ename')}: {errors[0].get('evalue')}"
    )
    code_cells = [c for c in executed["cells"] if c["cell_type"] == "code"]
    assert code_cells and all(c.get("execution_count") for c in code_cells)


@pytest.mark.binder
@pytest.mark.timeout(300)
def test_repo2docker_would_install_the_repo_after_copying_it() -> None:
    """Generate (not build) the Dockerfile Binder would use; no Docker daemon is needed."""
    repo2docker = Path(sys.executable).parent / "repo2docker"
    if not repo2docker.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("repo2docker is missing in CI; install the [dev] extra")
        pytest.skip("repo2docker not installed (pip install jupyter-repo2docker)")
    out = subprocess.run(
        [str(repo2docker), "--no-build", "--no-run", "--debug", str(REPO)],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    text = out.stdout + out.stderr
    assert "python=3.11" in text
    copy_all = text.index("COPY --chown=0:0 src/ ${REPO_DIR}/")
    install = text.index('pip install --no-cache-dir -r "binder/requirements.txt"')
    # `-e .` needs the whole checkout, so the install must come after the full copy.
    assert copy_all < install
    assert "environment.yml" not in text
