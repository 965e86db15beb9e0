"""Small pieces: no module over 500 lines, no function over 80, read from the source.

A module past the limit holds more than one concept, and a function past it more than one
step; split them by what they are about, not by size. A function is counted from its `def`
line to its last line (decorators aside), nested functions inside it included.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "memdir_nb"

MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _relative(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def _line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _function_lengths(path: Path) -> list[tuple[str, int, int]]:
    """(qualified name, first line, length) of every function and method in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                end = child.end_lineno or child.lineno
                found.append((name, child.lineno, end - child.lineno + 1))
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def test_no_module_is_over_500_lines() -> None:
    too_long = [
        f"{_relative(p)}: {n} lines" for p in _modules() if (n := _line_count(p)) > MAX_MODULE_LINES
    ]
    assert too_long == [], f"split these by concept (limit {MAX_MODULE_LINES} lines)"


def test_no_function_is_over_80_lines() -> None:
    too_long = [
        f"{_relative(p)}:{line} {name}: {n} lines"
        for p in _modules()
        for name, line, n in _function_lengths(p)
        if n > MAX_FUNCTION_LINES
    ]
    assert too_long == [], f"split these into named steps (limit {MAX_FUNCTION_LINES} lines)"


def test_the_function_count_reaches_methods_and_nested_functions(tmp_path: Path) -> None:
    def body(indent: str) -> str:
        return "".join(f"{indent}x{i} = {i}\n" for i in range(90))

    source = (
        "class A:\n"
        "    @staticmethod\n"
        "    def long() -> None:\n" + body(" " * 8) + "def outer() -> None:\n"
        "    def inner() -> None:\n" + body(" " * 8)
    )
    module = tmp_path / "m.py"
    module.write_text(source, encoding="utf-8")
    lengths = {name: n for name, _, n in _function_lengths(module)}
    assert lengths == {"A.long": 91, "outer": 92, "outer.inner": 91}
