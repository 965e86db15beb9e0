"""What the view-models share: the demo check and an index's title; no clock or scope rule of their own."""

from __future__ import annotations

import ast
from pathlib import Path

import memdir_nb
from memdir_nb.ui.views import common as view

PACKAGE = Path(memdir_nb.__file__).parent


def test_is_demo_dir(demo_mem: Path, tmp_path: Path) -> None:
    assert view.is_demo_dir(demo_mem) and not view.is_demo_dir(tmp_path)


def test_index_title_names_each_scopes_index() -> None:
    assert view.index_title("private") == "MEMORY.md"
    assert view.index_title("team") == "team/MEMORY.md"


def test_views_and_widgets_keep_no_clock_or_scope_rule_of_their_own() -> None:
    """'now' is config.resolve_now_ms and a file's scope is types.scope_of_path, nowhere else."""
    found = []
    for folder in ("views", "widgets"):
        for path in sorted((PACKAGE / folder).glob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and ast.unparse(node.func) in (
                    "time.time",
                    "time.localtime",
                    "datetime.datetime.now",
                    "_dt.datetime.now",
                ):
                    found.append(f"{folder}/{path.name}:{node.lineno} {ast.unparse(node)}")
                if isinstance(node, ast.FunctionDef) and node.name in (
                    "scope_of",
                    "now_or_wall_clock",
                ):
                    found.append(f"{folder}/{path.name}:{node.lineno} def {node.name}")
    assert found == []
