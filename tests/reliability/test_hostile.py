"""Hostile files in a memory dir: scan, lint and analysis never crash, stay bounded, say what they skipped."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.lint import MAX_READ_BYTES, lint_dir, lint_memory_dir
from memdir_nb.reports.analysis import summarize, to_dataframe
from memdir_nb.storage.scan import scan_memory_dir
from tests.support.nobody import as_nobody

BIG = 10 * 1024 * 1024
YAML_BOMB = (
    "---\nname: bomb\n"
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "description: *f\n"
    "type: *f\n---\nBody\n"
)


def build_hostile(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    ok = render_memory_file(
        "Fine", "A perfectly ordinary reference memory", "reference", "Grafana board."
    )
    (root / "reference_ok.md").write_text(ok)
    with open(root / "huge_one_line.md", "wb") as fh:
        fh.write(b"---\nname: huge\ndescription: " + b"x" * BIG + b"\n")
    (root / "binary.md").write_bytes(bytes(range(256)) * 64)
    (root / "latin1.md").write_bytes(
        "---\nname: caf\xe9\ndescription: r\xe9sum\xe9 of the board\ntype: reference\n---\n".encode(
            "latin-1"
        )
    )
    (root / "bom.md").write_bytes(b"\xef\xbb\xbf" + ok.encode())
    (root / "crlf.md").write_bytes(ok.replace("\n", "\r\n").encode())
    (root / "unclosed.md").write_text(
        "---\nname: Unclosed\ndescription: header never closes\ntype: reference\nbody forever\n"
        * 50
    )
    (root / "yaml_bomb.md").write_text(YAML_BOMB)
    (root / "loop.md").symlink_to("loop.md")
    (root / "sub").mkdir()
    (root / "sub" / "back").symlink_to("..")  # a folder loop
    (root / "MEMORY.md").write_text("- [Fine](reference_ok.md) — ordinary\n" + "y" * 300_000 + "\n")


def bytes_read() -> int:
    with open("/proc/self/io") as fh:
        return int(next(line for line in fh if line.startswith("rchar")).split()[1])


@pytest.mark.timeout(120)
def test_scan_lint_and_analysis_survive_hostile_files_and_stay_bounded(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_hostile(root)
    scan_memory_dir(root)  # warm imports so the byte count below is the work itself
    to_dataframe(tmp_path)  # an empty dir: loads pandas and the secret detectors

    before = bytes_read()
    report = scan_memory_dir(root, limit=None)
    result = lint_dir(root)
    df = to_dataframe(root)
    summary = summarize(root)
    read = bytes_read() - before
    # Three passes over ~10.3 MB of files: each file read at most MAX_READ_BYTES (+ header reads).
    assert read < 3 * (12 * MAX_READ_BYTES + 2 * 8192 * 12) + 2_000_000, read

    skipped = {s.path: s.reason for s in report.skipped}
    assert skipped["loop.md"] == "symlink loop"
    assert "sub/back" in skipped
    assert {h.filename for h in report.headers} >= {
        "reference_ok.md",
        "bom.md",
        "crlf.md",
        "huge_one_line.md",
    }
    assert all(len(m.text) <= MAX_READ_BYTES for m in result.memories)
    by = {(f.path, f.rule) for f in result.findings}
    assert ("binary.md", "not-text") in by
    assert ("latin1.md", "invalid-utf8") in by
    assert ("huge_one_line.md", "memory-too-long") in by
    assert ("unclosed.md", "malformed-frontmatter") in by
    assert ("loop.md", "skipped-by-scan") in by
    assert ("MEMORY.md", "index-over-cap") in by
    assert not {r for p, r in by if p in ("bom.md", "crlf.md")} - {"not-in-index"}
    assert all(len(f.message) < 2_000 for f in result.findings)
    assert len(df) == len(report.headers) and df["description"].fillna("").str.len().max() < 10_000
    assert ("loop.md", "symlink loop") in summary.skipped


def test_yaml_bomb_is_read_as_a_small_malformed_or_typeless_header(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    (root / "yaml_bomb.md").write_text(YAML_BOMB)
    found = {f.rule for f in lint_memory_dir(root)}
    assert found & {"missing-type", "unknown-type", "malformed-frontmatter"}
    h = scan_memory_dir(root).headers[0]
    assert h.type is None and len(str(h.description or "")) < 10_000


def run_as_nobody(memory_dir: Path) -> dict[str, Any]:
    """Lint and analyse as uid 65534 in a forked child (imports done first: the venv is root's)."""
    import pandas  # noqa: F401

    from memdir_nb.security.secret_scan import scan_for_secrets

    scan_for_secrets({"body": "load the detectors while still root"})

    def lint_and_analyse() -> bytes:
        result = lint_dir(memory_dir)
        df = to_dataframe(memory_dir)
        payload = {
            "findings": [[f.path, f.rule, f.severity] for f in result.findings],
            "skipped": [[s.path, s.reason] for s in result.skipped],
            "rows": list(df["path"]),
        }
        return json.dumps(payload).encode()

    parsed: dict[str, Any] = json.loads(as_nobody(lint_and_analyse))
    return parsed


def test_unreadable_files_are_reported_not_raised(shared_dir: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip(
            "needs root to drop to uid 65534; chmod 000 does not stop the file's owner reliably"
        )
    root = shared_dir / "memory"
    root.mkdir()
    root.chmod(0o755)
    ok = render_memory_file("Fine", "A perfectly ordinary reference memory", "reference", "Board.")
    for name in ("reference_ok.md", "locked.md"):
        (root / name).write_text(ok)
        (root / name).chmod(0o644)
    (root / "locked.md").chmod(0o000)
    (root / "MEMORY.md").write_text("- [Fine](reference_ok.md) — ordinary\n")
    (root / "MEMORY.md").chmod(0o644)
    out = run_as_nobody(root)
    assert ["locked.md", "unreadable: PermissionError"] in out["skipped"]
    assert ["locked.md", "skipped-by-scan", "warning"] in out["findings"]
    assert out["rows"] == ["reference_ok.md"]
