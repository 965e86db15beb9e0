"""The package's public names: every one resolves, a type checker sees each, and importing stays light."""

from __future__ import annotations

import ast
import importlib
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import memdir_nb

DESIGN_NAMES = [
    "ENTRYPOINT_NAME",
    "MAX_ENTRYPOINT_LINES",
    "MAX_ENTRYPOINT_BYTES",
    "MAX_MEMORY_FILES",
    "FRONTMATTER_MAX_LINES",
    "MemoryType",
    "MemoryHeader",
    "RelevantMemory",
    "EntrypointTruncation",
    "PathTraversalError",
    "MemdirConfig",
    "MemoryStore",
    "truncate_entrypoint_content",
    "scan_memory_files",
    "format_memory_manifest",
    "memory_age_days",
    "memory_age",
    "memory_freshness_text",
    "memory_freshness_note",
    "find_relevant_memories",
    "LexicalSelector",
    "AnthropicSelector",
    "validate_memory_path",
    "sanitize_path_key",
    "validate_team_mem_key",
    "get_auto_mem_path",
    "build_memory_prompt",
    "build_combined_memory_prompt",
    "load_memory_prompt",
]


def test_every_exported_name_resolves() -> None:
    missing = [name for name in memdir_nb.__all__ if not hasattr(memdir_nb, name)]
    assert missing == []


def test_design_names_are_all_exported() -> None:
    assert set(DESIGN_NAMES) <= set(memdir_nb.__all__)


def test_constants_have_the_spec_values() -> None:
    assert memdir_nb.ENTRYPOINT_NAME == "MEMORY.md"
    assert memdir_nb.MAX_ENTRYPOINT_LINES == 200
    assert memdir_nb.MAX_ENTRYPOINT_BYTES == 25_000
    assert memdir_nb.MAX_MEMORY_FILES == 200
    assert memdir_nb.FRONTMATTER_MAX_LINES == 30


def test_unknown_name_is_an_attribute_error() -> None:
    try:
        memdir_nb.no_such_thing  # noqa: B018
    except AttributeError as exc:
        assert "no_such_thing" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("expected AttributeError")


def test_import_does_not_load_heavy_dependencies() -> None:
    code = (
        "import sys, memdir_nb, memdir_nb.cli.main, memdir_nb.storage.store, memdir_nb.storage.scan, memdir_nb.prompts.build;"
        "heavy = {'anthropic', 'pandas', 'ipywidgets', 'numpy', 'bm25s', 'detect_secrets',"
        " 'rapidfuzz', 'httpx'};"
        "print(sorted(heavy & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


PACKAGE = Path(memdir_nb.__file__).parent
ROOT = PACKAGE.parent


def _type_checking_imports() -> dict[str, str]:
    """name -> module for the imports inside `if TYPE_CHECKING:` in memdir_nb/__init__.py."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom) and imp.module
                for alias in imp.names:
                    found[alias.name] = imp.module.removeprefix("memdir_nb.")
    return found


def test_all_lists_every_lazy_export_and_nothing_else() -> None:
    assert len(memdir_nb.__all__) == len(set(memdir_nb.__all__))
    assert set(memdir_nb.__all__) == {*memdir_nb._EXPORTS, "__version__"}


def test_type_checker_sees_each_export_from_the_module_that_serves_it() -> None:
    assert _type_checking_imports() == memdir_nb._EXPORTS


@pytest.mark.parametrize("name", sorted(memdir_nb._EXPORTS))
def test_each_export_is_the_object_its_module_defines(name: str) -> None:
    module = importlib.import_module(f"memdir_nb.{memdir_nb._EXPORTS[name]}")
    assert getattr(memdir_nb, name) is getattr(module, name)


def test_package_ships_py_typed_in_the_wheel() -> None:
    assert (PACKAGE / "py.typed").is_file()
    wheel = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]
    assert "memdir_nb/py.typed" in wheel["targets"]["wheel"]["artifacts"]


@pytest.mark.slow
def test_no_public_name_is_any_to_mypy(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    probe = tmp_path / "probe.py"
    names = sorted(memdir_nb._EXPORTS)
    probe.write_text(
        "import memdir_nb\n" + "".join(f"reveal_type(memdir_nb.{n})\n" for n in names),
        encoding="utf-8",
    )
    cache = tmp_path / "cache"
    # `make test` type-checks the package (lint) before the tests run: a copy of that run's
    # cache, made with the same pyproject options, spares re-checking the package from cold
    # (about 25 s of CPU); without one mypy checks it all, with the same result.
    if (ROOT / ".mypy_cache").is_dir():
        shutil.copytree(ROOT / ".mypy_cache", cache)
    out, _err, _code = api.run([str(probe), "--cache-dir", str(cache)])
    revealed = [line for line in out.splitlines() if "Revealed type" in line]
    assert len(revealed) == len(names), out
    as_any = [n for n, line in zip(names, revealed, strict=True) if line.endswith('"Any"')]
    assert as_any == []
