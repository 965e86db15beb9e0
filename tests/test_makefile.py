"""The README's front door: what `make lab` would run, checked with `make -n` (nothing executes)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def dry_run(*args: str, env_dir: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "MEMDIR_NB_DIR"}
    if env_dir is not None:
        env["MEMDIR_NB_DIR"] = env_dir
    out = subprocess.run(
        ["make", "-n", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_make_lab_opens_the_demo_dir_by_default() -> None:
    out = dry_run("lab")
    assert "memdir-nb demo" in out
    assert f'MEMDIR_NB_DIR="{REPO}/demo_memory"' in out


def test_make_lab_opens_the_dir_named_by_memdir_nb_dir(tmp_path: Path) -> None:
    out = dry_run("lab", env_dir=str(tmp_path))
    assert f'MEMDIR_NB_DIR="{tmp_path}"' in out
    assert f'MEMDIR_NB_DIR="{REPO}/demo_memory"' not in out
