"""lint/fix_commands: the commands lint's fixes name, with the memory dir as one shell word."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.lint import lint_memory_dir
from memdir_nb.lint.fix_commands import rebuild_command, relative_date_fix

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


def test_a_memory_linted_alone_names_no_dir() -> None:
    assert relative_date_fix(None).endswith("`memdir-nb dream DIR` proposes each one")
    assert rebuild_command(None) == "memdir-nb rebuild-index DIR"
    assert rebuild_command("/a b") == "memdir-nb rebuild-index '/a b'"
