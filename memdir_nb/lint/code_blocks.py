"""Fenced blocks in a memory body: which lines are inside one, and which block holds code.

The derivable-code-block rule (memdir_nb.lint.content) reports the first fenced block that
holds program code; shell recipes, console output, plain-text tables and diagrams are not
code kept out of the repository, so they pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memdir_nb.spec.text import fence_change


def content_lines(body: str) -> Iterable[tuple[int, str, bool]]:
    """(line index, line, inside a fenced block) for each body line."""
    if "```" not in body and "~~~" not in body:  # no fence: skip the per-line fence check
        return ((i, line, False) for i, line in enumerate(body.split("\n")))
    return _fenced_lines(body)


def _fenced_lines(body: str) -> Iterable[tuple[int, str, bool]]:
    fence = ""  # the run that opened the fenced block the line is in
    for i, line in enumerate(body.split("\n")):
        change = fence_change(line, fence)
        if change is not None:
            fence = change
            yield i, line, True
            continue
        yield i, line, bool(fence)


# Fenced blocks that are not code kept out of the repository: shell recipes (how to run,
# deploy, flash), console output, plain-text tables and diagrams.
_RECIPE_INFO = frozenset(
    [
        "sh",
        "bash",
        "shell",
        "console",
        "zsh",
        "fish",
        "powershell",
        "ps1",
        "pwsh",
        "cmd",
        "bat",
        "terminal",
        "text",
        "txt",
        "plain",
        "plaintext",
        "mermaid",
        "ascii",
        "diagram",
        "tree",
        "log",
        "output",
        # hand-run queries (a data fix, a lookup) are recipes too, not the repository's code
        "sql",
        "psql",
    ]
)
# Lines that show program code in an unlabelled block (an error message or log has none).
_CODE_HINT = re.compile(
    r"[;{}]\s*$|^\s*(?:def|class|function|fn|func|import|from|const|let|var|public|private|"
    r"return|if|for|while)\b|=>|\)\s*\{"
)
_SHELL_LINE = re.compile(
    r"^\s*(?:\$\s|#\s|>\s|(?:sudo|cd|ls|git|make|npm|npx|pnpm|yarn|pip|uv|python3?|docker|"
    r"kubectl|helm|gh|curl|wget|ssh|scp|rsync|cargo|go|bd|bun|deno|node|psql|mysql|redis-cli|"
    r"systemctl|journalctl|usbip|lsusb|export|source|cat|grep|rg|find|echo|chmod|mkdir|rm|cp|mv|"
    r"tar|unzip|brew|apt(?:-get)?|terraform|aws|gcloud|az|flutter|dotnet|mvn|gradle|adb|"
    r"openocd|esptool(?:\.py)?|idf\.py|pio|west)\b)"
)
_DIAGRAM_LINE = re.compile(r"^\s*(?:[|+\-=<>^v*.:/\\\u2500-\u257f\u2190-\u21ff]|$)")


def first_code_block(body_lines: list[tuple[int, str, bool]], body_line: int) -> int | None:
    """The line of the first fenced block holding code (not a shell recipe, output or diagram)."""
    start: int | None = None
    fence = info = ""  # the run that opened the block the line is in, and its info string
    inside: list[str] = []
    for i, line, _fenced in body_lines:
        change = fence_change(line, fence)
        if change is None:
            if start is not None:
                inside.append(line)
            continue
        fence = change
        if start is None:
            start, info, inside = body_line + i, line.strip()[len(fence) :].strip().lower(), []
            continue
        if not _is_recipe(info, inside):
            return start
        start = None
    if start is not None and not _is_recipe(info, inside):
        return start
    return None


def _is_recipe(info: str, lines: list[str]) -> bool:
    """Whether a fenced block is a command recipe, console output or a text diagram/table."""
    lang = info.split()[0].strip("{}.") if info else ""
    if lang in _RECIPE_INFO:
        return True
    if lang:
        return False
    body = [ln for ln in lines if ln.strip()]
    if not body:
        return True
    if all(_SHELL_LINE.match(ln) or _DIAGRAM_LINE.match(ln) for ln in body):
        return True
    return not any(_CODE_HINT.search(ln) for ln in body)  # output, an error text, a list
