"""What a project's CLAUDE.md says of a memory folder committed with it (doctor's note).

Claude Code loads CLAUDE.md (and `.claude/CLAUDE.md`, `CLAUDE.local.md`) at session start and
expands its `@path` imports there: an `@` at the start of a line or after a space, outside
code spans and fenced blocks, the path taken relative to the importing file, followed up to
five hops (an imported AGENTS.md may import further). Many repositories keep their memory in
`.claude/memory/` and import its index (`@.claude/memory/MEMORY.md`), so it is in context at
every session start, while its topic files are read only when Claude opens them; others only
name the folder and ask Claude to read it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from memdir_nb.spec.text import fence_change
from memdir_nb.storage.containment import real_path, real_path_or_none
from memdir_nb.storage.regular_file import read_regular_file

# How much of each instruction file is read, how deep imports are followed (as Claude Code
# follows them) and how many files are read at most.
CLAUDE_MD_PEEK_BYTES = 64 * 1024
MAX_IMPORT_HOPS = 5
MAX_INSTRUCTION_FILES = 32
# the imports of one file looked at (each resolved once): a crafted 64 KiB file of `@a @b …`
# made every doctor resolve 16,000 paths a file, 32 files deep (attack round 19)
MAX_IMPORTS_PER_FILE = 64
PROJECT_INSTRUCTION_FILES = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")

IMPORTS = "imports"  # an instruction file loaded at start imports the folder's MEMORY.md
NAMES = "names"  # one names the folder: Claude reads it when it follows the text

_IMPORT = re.compile(r"(?:^|(?<=\s))@([^\s`]+)")
_CODE_SPAN = re.compile(r"`+[^`]*`+")


def imported_paths(text: str) -> list[str]:
    """The `@path` imports of an instruction file's text, in order (not in code), each once
    and at most MAX_IMPORTS_PER_FILE of them; a path holding a NUL byte names no file."""
    found: dict[str, None] = {}
    fence = ""  # the run that opened the fenced block the line is in
    for line in text.splitlines():
        change = fence_change(line, fence)
        if change is not None:
            fence = change
            continue
        if not fence:
            for target in _IMPORT.findall(_CODE_SPAN.sub(" ", line)):
                if "\0" not in target:
                    found[target] = None
                if len(found) == MAX_IMPORTS_PER_FILE:
                    return list(found)
    return list(found)


def _needles(root: Path, folder: Path) -> tuple[str, ...]:
    """The texts that name folder in an instruction file of the project at root: its path
    from root (and its absolute path when it is outside root); none when it is root itself
    (the path would be ".", which any sentence holds)."""
    rel = os.path.relpath(folder, root)
    if rel == os.curdir:
        return ()
    outside = rel == os.pardir or rel.startswith(os.pardir + os.sep)
    both = (rel, os.path.abspath(folder)) if outside else (rel,)
    return tuple(n.replace(os.sep, "/") for n in both)


def claude_md_reference(root: Path, folder: Path, entrypoint: str) -> str:
    """IMPORTS, NAMES or "" for the memory `folder` (its index named `entrypoint`) of the
    project at `root`, from the instruction files loaded at session start and their imports.
    A memory folder that is the project root itself is never NAMES (see _needles)."""
    index = real_path(folder / entrypoint)
    needles = _needles(root, folder)
    queue = [(root / name, 0) for name in PROJECT_INSTRUCTION_FILES]
    seen: set[str] = set()
    named = False
    while queue and len(seen) < MAX_INSTRUCTION_FILES:
        path, hops = queue.pop(0)
        real = real_path_or_none(path)  # an @-import longer than any path names no file
        if real is None or real in seen:
            continue
        seen.add(real)
        try:
            text = read_regular_file(path, CLAUDE_MD_PEEK_BYTES).text
        except OSError:  # absent, not a regular file, unreadable: it says nothing
            continue
        named = named or any(n in text.replace("\\", "/") for n in needles)
        for target in imported_paths(text):
            if target.startswith("~"):
                continue  # the user's home: not the project's folder
            imported = path.parent / target
            if real_path_or_none(imported) == index:
                return IMPORTS
            if hops + 1 < MAX_IMPORT_HOPS:
                queue.append((imported, hops + 1))
    return NAMES if named else ""
