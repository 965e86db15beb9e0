"""The system-prompt section for the Claude API's memory tool served from a memory dir.

The model reaches the memory through the `memory` tool's commands on `/memories/...` paths
instead of files on its own disk, so this prompt speaks of those paths and commands. The rules
themselves (the four types, what not to save, the frontmatter, the MEMORY.md index, when to
read memory) are the same sections build_memory_prompt is built from (prompts/sections.py).
"""

from __future__ import annotations

import os

from memdir_nb.formats import index
from memdir_nb.prompts.build import _index_block
from memdir_nb.prompts.sections import (
    FRONTMATTER_TEMPLATE,
    before_recommending_lines,
    explicit_request_lines,
    persistence_lines,
    secrets_lines,
    types_lines,
    what_not_to_save_lines,
    when_to_access_lines,
)
from memdir_nb.spec.constants import MEMORY_TOOL_ROOT, TEAM_DIRNAME, TRASH_DIRNAME

ROOT = MEMORY_TOOL_ROOT
TEAM = f"{ROOT}/{TEAM_DIRNAME}"


def _intro_lines(team: bool) -> list[str]:
    lines = [
        "# Memory",
        "",
        f"You have a persistent memory that you reach through the `memory` tool, under `{ROOT}`. "
        "What you write there survives this conversation, so use it to carry forward what you "
        "learn about the user, how they like to work, and the state of the project.",
        "",
        f"At the start of a task, `view` `{ROOT}/MEMORY.md` (the index) before anything else, "
        "unless its contents are already shown below.",
        "",
    ]
    if team:
        lines += [
            "## Memory scope",
            "",
            f"- private: `{ROOT}/`, only for you and this user;",
            f"- team: `{TEAM}/`, shared with everyone who works on this project (their sessions "
            "read it too).",
            "Each type's <scope> tag below says which one it belongs in.",
            "",
        ]
    return lines


def _commands_lines() -> list[str]:
    return [
        "## The memory tool's commands",
        "",
        "- `view` a folder to list it (two levels deep), or a file to read it with line "
        "numbers (`view_range` [first, last] reads part of it);",
        "- `create` writes a new file (it never overwrites: edit an existing file instead);",
        "- `str_replace` changes one passage that occurs exactly once; `insert` adds lines "
        "after a line number (0 = at the top);",
        "- `rename` moves or renames a file; `delete` removes a file or folder.",
        f"Only Markdown memory files (`.md`) and the `MEMORY.md` indexes can be written. Deleted "
        f"files go to a trash the user can restore from, so delete what is wrong without worry. "
        f"Hidden names (starting with a dot, such as `{TRASH_DIRNAME}`) are not yours to touch. "
        "An answer may end with a note on a file's frontmatter or the size of MEMORY.md: act on "
        "it in your next command.",
        "",
    ]


def _how_to_save_lines(team: bool) -> list[str]:
    where = f"`{ROOT}/` or `{TEAM}/`" if team else f"`{ROOT}/`"
    index_where = (
        f"`{ROOT}/MEMORY.md` (private) or `{TEAM}/MEMORY.md` (team), the one in the same folder"
        if team
        else f"`{ROOT}/MEMORY.md`"
    )
    return [
        "## How to save a memory",
        "",
        "Saving takes two commands.",
        "",
        f"Step 1: `create` the memory as its own file in {where} (one topic per file, named "
        f"like `{ROOT}/feedback_testing.md`), starting with this frontmatter:",
        "",
        *FRONTMATTER_TEMPLATE,
        "",
        f"Step 2: add one pointer line for that file to {index_where}, in the form "
        "`- [Title](file.md) — hook` (the link relative to that folder), kept under about "
        "150 characters: `create` the index if it does not exist yet, else `insert` the line "
        "or `str_replace` the old one.",
        "",
        "MEMORY.md is an index, not a container: pointer lines only, no frontmatter and no "
        f"memory text. Only its first {index.MAX_ENTRYPOINT_LINES} lines (at most "
        f"{index.MAX_ENTRYPOINT_BYTES:,} bytes) are loaded into a conversation; when a command "
        "reports it is over that limit, rewrite it shorter straight away.",
        "- Organise by topic, not by date. Edit an existing memory (`str_replace`) instead of "
        "adding a near copy, and `delete` memories that turn out to be wrong, together with "
        "their index line.",
        "",
    ]


def build_memory_tool_lines(*, team: bool = True) -> list[str]:
    """The memory tool's instructions as lines (team=False: one private folder, no team rules)."""
    lines = [
        *_intro_lines(team),
        *_commands_lines(),
        *explicit_request_lines(False),
        *types_lines(with_scope=team),
        *what_not_to_save_lines(),
        *_how_to_save_lines(team),
    ]
    if team:
        lines += secrets_lines()
    lines += [
        *when_to_access_lines("personal or team" if team else "your"),
        *before_recommending_lines(),
        *persistence_lines(),
    ]
    return lines


def build_memory_tool_prompt(
    memory_dir: str | os.PathLike[str] | None = None, *, team: bool = True
) -> str:
    """The system-prompt section for MemdirMemoryTool; with memory_dir, its indexes follow.

    Each MEMORY.md is shown truncated to its caps, as build_memory_prompt shows it, under the
    `/memories` path the model uses.
    """
    lines = build_memory_tool_lines(team=team)
    if memory_dir is not None:
        mem = os.path.abspath(os.fspath(memory_dir))
        lines += _tool_index_block(mem, ROOT, mem, "private memory")
        if team:
            lines.append("")
            lines += _tool_index_block(
                os.path.join(mem, TEAM_DIRNAME), TEAM, mem, "team memory, shared"
            )
    return "\n".join(lines).rstrip("\n") + "\n"


def _tool_index_block(scope_dir: str, shown: str, memory_dir: str, label: str) -> list[str]:
    """_index_block with the real folder replaced by the path the model uses."""
    block = _index_block(scope_dir + os.sep, label, memory_dir)
    real = os.path.join(scope_dir, index.ENTRYPOINT_NAME)
    return [line.replace(real, f"{shown}/{index.ENTRYPOINT_NAME}") for line in block]
