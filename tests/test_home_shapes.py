"""The home routes over whole `~/.claude` homes shaped like published ones.

Each shape in tests/support/home_shapes.py rebuilds a home people commit to dotfiles
repositories (sessions, plugins, dangling links, settings quirks). Every route a user runs on
a whole home runs over each: `where`, `doctor`, `list` (text and --json), `sessions` and the
Parquet export, through the CLI's own entry point (in this process, with $HOME pointing at
the shape) and through the API behind it. The answers are checked, not only the exit codes:
the memory dir resolved, auto memory on or off, the doctor findings each quirk must raise,
the counts.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from memdir_nb.cli.main import main
from memdir_nb.home.config import MemdirConfig
from memdir_nb.reports.doctor import diagnose
from memdir_nb.reports.where import list_memory_dirs, where
from tests.support.home_shapes import SHAPES, HomeShape

NOT_A_POLICY = "/nonexistent/managed-settings.json"


def _run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    shape: HomeShape,
    *argv: str,
) -> tuple[int, str, str]:
    """One CLI command as a user in this home would run it: $HOME set, the project as cwd."""
    for name in list(os.environ):
        if name.startswith(("CLAUDE", "ANTHROPIC", "MEMDIR_NB")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(shape.home))
    monkeypatch.chdir(shape.cwd)
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _config(shape: HomeShape) -> MemdirConfig:
    return MemdirConfig.from_environment(
        {}, home=shape.home, cwd=shape.cwd, policy_settings_path=NOT_A_POLICY
    )


@pytest.fixture(params=SHAPES, ids=[s.__name__ for s in SHAPES])
def shape(request: pytest.FixtureRequest, tmp_path: Path) -> HomeShape:
    build: Callable[[Path], HomeShape] = request.param
    return build(tmp_path)


def test_where_resolves_the_memory_dir_the_shape_uses(
    shape: HomeShape, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    report = where(_config(shape))
    assert shape.memory_dir is not None
    assert os.path.realpath(report.memory_dir) == os.path.realpath(shape.memory_dir)
    assert report.auto_memory.enabled is shape.enabled
    code, out, err = _run(capsys, monkeypatch, shape, "where", "--json")
    assert code == 0 and "Traceback" not in err
    data = json.loads(out)
    assert os.path.realpath(data["memory_dir"]) == os.path.realpath(shape.memory_dir)
    secret = shape.extra.get("secret")
    assert not secret or secret not in out + err
    # --home takes the home folder or its .claude folder, as it does for list and sessions
    for home in (shape.home, shape.claude_home):
        code, out, err = _run(capsys, monkeypatch, shape, "where", "--json", "--home", str(home))
        assert code == 0 and "Traceback" not in err
        assert os.path.realpath(json.loads(out)["memory_dir"]) == os.path.realpath(shape.memory_dir)


def test_doctor_names_each_quirk_and_its_fix(
    shape: HomeShape, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    report = diagnose(_config(shape))
    codes = {f.code for f in report.findings}
    assert set(shape.findings) <= codes, codes
    assert not set(shape.not_findings) & codes, codes
    code, out, err = _run(capsys, monkeypatch, shape, "doctor")
    assert "Traceback" not in err
    assert code == report.exit_code
    for text in shape.mentions:
        assert text in out, out
    secret = shape.extra.get("secret")
    assert not secret or secret not in out + err


def test_list_counts_every_memory_dir_and_memory(
    shape: HomeShape, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    infos = list_memory_dirs(shape.claude_home)
    assert len(infos) == shape.memory_dirs, [i.path for i in infos]
    assert sum(i.memories for i in infos) == shape.memories
    code, out, err = _run(capsys, monkeypatch, shape, "list", "--json", "--home", str(shape.home))
    assert code == 0 and "Traceback" not in err
    assert [d["path"] for d in json.loads(out)] == [i.path for i in infos]
    code, out, err = _run(capsys, monkeypatch, shape, "list", "--home", str(shape.home))
    assert code == 0 and "Traceback" not in err
    noun = "memory dir" if shape.memory_dirs == 1 else "memory dirs"
    if shape.memory_dirs:
        assert f"{shape.memory_dirs} {noun} found." in out
    else:  # an empty result names the home it looked in and where to look next (fresh37)
        assert f"0 memory dirs found under {shape.claude_home};" in out


def test_sessions_lists_every_transcript(
    shape: HomeShape, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = _run(
        capsys, monkeypatch, shape, "sessions", "--json", "--home", str(shape.home)
    )
    assert code == 0 and "Traceback" not in err, err
    assert len(json.loads(out)) == shape.sessions


def test_export_writes_every_memory_of_the_home(
    shape: HomeShape,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out_dir = tmp_path / "parquet-out"
    code, _, err = _run(
        capsys, monkeypatch, shape, "export", "--parquet", str(out_dir), "--home", str(shape.home)
    )
    assert code == 0 and "Traceback" not in err
    assert pq.read_table(out_dir / "memories.parquet").num_rows == shape.memories
    assert pq.read_table(out_dir / "dirs.parquet").num_rows == shape.memory_dirs
