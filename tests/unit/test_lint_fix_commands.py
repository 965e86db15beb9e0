"""lint/fix_commands: the commands lint's fixes name, with the memory dir as one shell word."""

from __future__ import annotations

import ast
import re
import shlex
from pathlib import Path

from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.lint import lint_memory_dir
from memdir_nb.lint.fix_commands import rebuild_command, recover_call, relative_date_fix
from memdir_nb.spec.constants import STORE_JOURNAL_NAME
from memdir_nb.storage.store import MemoryStore

BODY = "Demo is on Thursday.\n\n**Why:** the client asked.\n\n**How to apply:** prep the deck.\n"


def _project_memory(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "project_demo.md"
    path.write_text(
        render_memory_file("Client demo", "When the client demo is", "project", BODY),
        encoding="utf-8",
    )
    (folder / "MEMORY.md").write_text("- [Client demo](project_demo.md) — when\n")
    return path


def test_a_relative_date_fix_names_the_linted_dir_as_one_shell_word(tmp_path: Path) -> None:
    # lefts37: the fix said `memdir-nb dream DIR` literally, whichever dir was linted
    for name in ("plain", "my $HOME notes"):  # the same text, two dirs: each names its own
        mem = tmp_path / name
        _project_memory(mem)
        (hint,) = [f.hint for f in lint_memory_dir(mem) if f.rule == "relative-date"]
        (command,) = re.findall(r"`(memdir-nb dream [^`]*)`", hint)
        assert shlex.split(command) == ["memdir-nb", "dream", str(mem)]


def test_a_store_journal_fix_names_the_linted_dir_as_a_python_literal(tmp_path: Path) -> None:
    # lefts37b: the fix said `MemoryStore(DIR).recover()` with the placeholder, whatever dir
    for name in ("plain", 'it\'s "my" notes\\x'):  # quotes and a backslash: one literal each
        mem = tmp_path / name
        _project_memory(mem)
        (mem / STORE_JOURNAL_NAME).write_text("not a journal\n")
        (hint,) = [f.hint for f in lint_memory_dir(mem) if f.rule.startswith("store-journal")]
        (literal,) = re.findall(r"MemoryStore\((.*?)\)\.recover\(\) from Python", hint)
        assert ast.literal_eval(literal) == str(mem)
        MemoryStore(ast.literal_eval(literal)).recover()  # the call as pasted: sets it aside
        assert not [f for f in lint_memory_dir(mem) if f.rule.startswith("store-journal")]


def test_a_memory_linted_alone_names_no_dir() -> None:
    assert relative_date_fix(None).endswith("`memdir-nb dream DIR` proposes each one")
    assert rebuild_command(None) == "memdir-nb rebuild-index DIR"
    assert rebuild_command("/a b") == "memdir-nb rebuild-index '/a b'"
    assert recover_call(None) == "MemoryStore(DIR).recover()"
