"""The package's walls, read from the source: layers import only the layers before them.

Every import counts, at the top of a module, inside a function or under TYPE_CHECKING.
"""

from __future__ import annotations

import ast
import tokenize
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "memdir_nb"

# In the order data flows. A module may import its own layer and the layers before it.
LAYERS: tuple[str, ...] = (
    "clock",
    "machine",
    "spec",
    "formats",
    "security",
    "storage",
    "home",
    "prompts",
    "recall",
    "toolloop",
    "extract",
    "dream",
    "lint",
    "reports",
    "ui",
    "cli",
)
RANK = {name: i for i, name in enumerate(LAYERS)}
TOP_LEVEL_MODULES = {"__init__.py", "clock.py", "machine.py"}
MAX_LOCAL_OWN_IMPORTS = 10


@dataclass(frozen=True)
class Edge:
    """One import of a package module by another."""

    source: str
    target: str
    line: int
    local: bool  # inside a function (not module level)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _targets(node: ast.AST, package: str) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (a.name for a in node.names if a.name.startswith("memdir_nb"))
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            module = ".".join([*base, *([node.module] if node.module else [])])
        else:
            module = node.module or ""
        if module == "memdir_nb":
            yield from (f"memdir_nb.{a.name}" for a in node.names)
        elif module.startswith("memdir_nb."):
            yield module


def _local_imports(tree: ast.Module) -> set[int]:
    """Line numbers of imports that sit inside a function body."""
    lines: set[int] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(fn):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    lines.add(node.lineno)
    return lines


def import_edges() -> list[Edge]:
    edges: list[Edge] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        local = _local_imports(tree)
        for node in ast.walk(tree):
            for target in _targets(node, package):
                line = getattr(node, "lineno", 0)
                edges.append(Edge(name, target, line, line in local))
    return edges


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def test_the_package_top_holds_only_packages_and_a_handful_of_modules() -> None:
    modules = {p.name for p in PACKAGE.glob("*.py")}
    assert modules == TOP_LEVEL_MODULES
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert packages == set(LAYERS) - {"clock", "machine"}


def test_each_layer_imports_only_itself_and_the_layers_before_it() -> None:
    wrong = []
    for edge in import_edges():
        src, dst = layer_of(edge.source), layer_of(edge.target)
        if src is None or dst is None:  # the package top re-exports everything
            continue
        if RANK[dst] > RANK[src]:
            wrong.append(f"{edge.source}:{edge.line} imports {edge.target} ({src} < {dst})")
    assert wrong == []


def test_no_import_cycle_between_modules() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    known = {module_name(p) for p in PACKAGE.rglob("*.py")}
    for edge in import_edges():
        if edge.source == "memdir_nb":
            continue
        target = edge.target
        while (
            target not in known and "." in target
        ):  # "from pkg import name" names a module or a value
            target = target.rsplit(".", 1)[0]
        if target != edge.source and target != "memdir_nb":
            graph[edge.source].add(target)
    # A package's __init__ re-exports its modules; importing the package from one of its own
    # modules would be the cycle, and that edge is in the graph like any other.
    cycle = _find_cycle(graph)
    assert cycle is None, " -> ".join(cycle or [])


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_function_local_imports_of_the_package_are_few_and_each_says_why() -> None:
    local = [e for e in import_edges() if e.local]
    assert len(local) <= MAX_LOCAL_OWN_IMPORTS, [f"{e.source}:{e.line}" for e in local]
    for edge in local:
        path = PACKAGE.parent / (edge.source.replace(".", "/") + ".py")
        if not path.exists():
            path = PACKAGE.parent / edge.source.replace(".", "/") / "__init__.py"
        lines = path.read_text(encoding="utf-8").splitlines()
        near = " ".join(lines[max(0, edge.line - 3) : edge.line + 1])
        assert "#" in near, f"{edge.source}:{edge.line}: say in a comment why this import is local"


@pytest.mark.parametrize("call", ["open"])
def test_only_the_storage_layer_calls_os_open(call: str) -> None:
    callers = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == call
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "os"
                and layer_of(name) != "storage"
            ):
                callers.append(f"{name}:{node.lineno}")
    assert callers == []


def test_only_containment_resolves_symlinks() -> None:
    """os.path.realpath and Path.resolve() follow any number of links (Python 3.11 recursed
    once a link: RecursionError at about 1,000); storage.containment.real_path follows at most
    as many as the kernel does, and is the one resolver (attack round 20)."""
    callers = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        if name == "memdir_nb.storage.containment":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            realpath = node.func.attr == "realpath"
            resolve = node.func.attr == "resolve" and not node.args  # Path.resolve(), not tx's
            if realpath or resolve:
                callers.append(f"{name}:{node.lineno}")
    assert callers == []


def test_file_and_folder_modes_are_spelled_only_in_fsutil() -> None:
    """The store's modes (FOLDER_MODE, FILE_MODE, and the owner-only pair) have one home,
    storage.fsutil; a module that spells 0o644 itself drifts from it (the lock file did)."""
    spelled = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if module_name(path) == "memdir_nb.storage.fsutil":
            continue
        with tokenize.open(path) as f:
            for tok in tokenize.generate_tokens(f.readline):
                if tok.type == tokenize.NUMBER and tok.string.lower().startswith("0o"):
                    spelled.append(f"{module_name(path)}:{tok.start[0]} {tok.string}")
    assert spelled == []
