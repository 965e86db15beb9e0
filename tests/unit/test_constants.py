"""One home per name: no module but constants.py spells a memory dir's file or folder names."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import memdir_nb
from memdir_nb.spec import constants

PACKAGE = Path(memdir_nb.__file__).parent
# Pending the split of explain.py into views/ (issue 11, item 4): they still spell "team" and
# "MEMORY.md" themselves. Remove each entry as its module is switched to constants.
NOT_YET_SWITCHED: set[str] = set()

NAMES = {
    constants.ENTRYPOINT_NAME,
    constants.TRASH_DIRNAME,
    constants.LOGS_DIRNAME,
    constants.STORE_LOCK_NAME,
    constants.DAILY_LOG_LOCK_NAME,
    constants.CONSOLIDATION_LOCK_NAME,
}


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.name != "constants.py")


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (prose may name the files)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            found.add(id(first.value))
    return found


def _spelled_names(path: Path) -> list[str]:
    """Each literal in a module that is one of the dir's names, or a 'team' folder path part."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and id(node) not in docs and node.value in NAMES:
            hits.append(f"{node.lineno}: {node.value!r}")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            right = node.right
            if isinstance(right, ast.Constant) and right.value == constants.TEAM_DIRNAME:
                hits.append(f"{node.lineno}: / {right.value!r}")
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "os.path.join":
            for arg in node.args:
                if isinstance(arg, ast.Constant) and arg.value == constants.TEAM_DIRNAME:
                    hits.append(f"{node.lineno}: os.path.join(..., {arg.value!r})")
    return hits


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_module_imports_the_dir_names_instead_of_spelling_them(path: Path) -> None:
    rel = path.relative_to(PACKAGE).as_posix()
    hits = _spelled_names(path)
    if rel in NOT_YET_SWITCHED:
        pytest.xfail(f"{rel} still spells names itself: {hits}")
    assert hits == [], f"{rel} spells names that constants.py defines: {hits}"


def test_the_allowlist_only_names_modules_that_still_need_it() -> None:
    stale = [rel for rel in NOT_YET_SWITCHED if not _spelled_names(PACKAGE / rel)]
    assert stale == [], f"remove {stale} from NOT_YET_SWITCHED: they import constants now"
