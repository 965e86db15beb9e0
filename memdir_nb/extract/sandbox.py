"""The extractor's sandbox: which tool calls may run (read-only Bash, Write/Edit only in the memory dir)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memdir_nb.formats.names import tilde_refusal, written_path_problem
from memdir_nb.formats.shell_lexer import shell_words
from memdir_nb.security import secret_scan
from memdir_nb.spec.constants import (
    TEAM_DIRNAME,
    TOOL_BASH_MAX_COMMAND_CHARS,
    TOOL_BASH_MAX_COMMANDS,
)
from memdir_nb.spec.quoted import shown_input, shown_problem
from memdir_nb.spec.text import terminal_safe
from memdir_nb.storage import containment as team_paths
from memdir_nb.storage.name_twins import new_name_twin

READ_ONLY_COMMANDS = frozenset({"ls", "find", "grep", "cat", "stat", "wc", "head", "tail"})
READ_TOOLS = frozenset({"Read", "Grep", "Glob"})
WRITE_TOOLS = frozenset({"Write", "Edit"})
# find's actions that write files or run other programs
FIND_WRITING_FLAGS = frozenset(
    {"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}
)
# tail's options: those that take a value (joined, -n5, or the next word) and the two that
# follow a file, after which tail never ends (each such call waited out the Bash limit, 30 s)
_TAIL_VALUE_LETTERS = frozenset("cns")
_TAIL_FOLLOW_LETTERS = frozenset("fF")
_TAIL_LONG_WITH_VALUE = ("bytes", "lines", "max-unchanged-stats", "pid", "sleep-interval")
_TAIL_LONG_PLAIN = ("follow", "quiet", "retry", "silent", "verbose", "zero-terminated")
_TAIL_OBSOLETE_FOLLOW = re.compile(r"[-+][0-9]*[bcl]?f")  # tail -5f, tail +5f
# chain operators allowed between two read-only commands; anything else is refused
CHAIN_OPERATORS = frozenset({"|", "&&", "||"})


@dataclass(frozen=True)
class ToolVerdict:
    """Whether the sandbox lets a tool call run, and why (or why not)."""

    allowed: bool
    reason: str

    def __bool__(self) -> bool:
        return self.allowed


def _deny(reason: str) -> ToolVerdict:
    return ToolVerdict(False, shown_problem(reason))  # it may quote the model's path (attack38)


class BashRefused(ValueError):
    """A Bash command the sandbox will not run; the message says why."""


@dataclass(frozen=True)
class ParsedCommand:
    """A Bash command split into argv segments joined by operators ('|', '&&', '||')."""

    segments: tuple[tuple[str, ...], ...]
    operators: tuple[str, ...]


_OPERATOR_PUNCTUATION = ";&|<>()"
_OPERATOR_CHARS = set(_OPERATOR_PUNCTUATION)


def parse_bash_command(command: object) -> ParsedCommand:
    """Split into segments and operators as shlex splits it (formats.shell_lexer, in linear
    time); raise BashRefused on anything unsafe or unparsable."""
    if not isinstance(command, str) or not command.strip():
        raise BashRefused("Bash needs a non-empty 'command' string")
    if len(command) > TOOL_BASH_MAX_COMMAND_CHARS:
        raise BashRefused(
            f"the command is {len(command):,} characters, over the "
            f"{TOOL_BASH_MAX_COMMAND_CHARS:,}-character limit; run a shorter one"
        )
    if "\n" in command or "\r" in command:
        raise BashRefused("multi-line commands are not allowed; run one command at a time")
    if "`" in command or "$(" in command:
        raise BashRefused("command substitution ($(...) or backticks) is not allowed")
    try:
        tokens = list(shell_words(command, _OPERATOR_PUNCTUATION))
    except ValueError as exc:
        raise BashRefused(f"cannot parse the command ({exc}); refusing it") from None
    parsed = _split_on_operators(tokens)
    if len(parsed.segments) > TOOL_BASH_MAX_COMMANDS:
        raise BashRefused(
            f"the command joins {len(parsed.segments):,} commands, over the limit of "
            f"{TOOL_BASH_MAX_COMMANDS}; run fewer at a time"
        )
    for argv in parsed.segments:
        _check_read_only_segment(list(argv))
    return parsed


def _split_on_operators(tokens: list[str]) -> ParsedCommand:
    """Tokens cut into commands at the chain operators; any other shell operator is refused."""
    segments: list[list[str]] = [[]]
    operators: list[str] = []
    for tok in tokens:
        if not (tok and set(tok) <= _OPERATOR_CHARS):
            segments[-1].append(tok)
            continue
        _check_operator(tok)
        if not segments[-1]:
            raise BashRefused(f"operator {tok!r} has no command before it")
        operators.append(tok)
        segments.append([])
    if not segments[-1]:
        raise BashRefused("the command ends with an operator and no command after it")
    return ParsedCommand(tuple(tuple(a) for a in segments), tuple(operators))


def _check_operator(tok: str) -> None:
    """Only the chain operators ('|', '&&', '||') may join commands: no lists, no redirection."""
    if tok == ";":
        raise BashRefused("';' command lists are not allowed; run one read-only command")
    if tok not in CHAIN_OPERATORS:
        if set(tok) & set("<>"):
            raise BashRefused(f"redirection {tok!r} is not allowed (it can write files)")
        raise BashRefused(f"shell operator {tok!r} is not allowed")


def _tail_follow_word(args: list[str]) -> str | None:
    """The word that tells tail to follow a file (GNU's forms: -f, -F, -qf, -5f, +5f, --follow,
    an abbreviation such as --fol), else None; words after `--` and option values are files."""
    value_next = False
    for arg in args:
        if value_next:
            value_next = False
        elif arg == "--":
            return None
        elif arg.startswith("--"):
            name = arg[2:].split("=", 1)[0]
            if name and "follow".startswith(name):
                return arg
            value_next = (
                "=" not in arg
                and any(n.startswith(name) for n in _TAIL_LONG_WITH_VALUE)
                and not any(n.startswith(name) for n in _TAIL_LONG_PLAIN)
            )
        elif _TAIL_OBSOLETE_FOLLOW.fullmatch(arg):
            return arg
        elif arg.startswith("-") and len(arg) > 1:
            for i, letter in enumerate(arg[1:], start=1):
                if letter in _TAIL_FOLLOW_LETTERS:
                    return arg
                if letter in _TAIL_VALUE_LETTERS:
                    value_next = i == len(arg) - 1
                    break
    return None


def _check_read_only_segment(argv: list[str]) -> None:
    name = argv[0]
    if name not in READ_ONLY_COMMANDS:
        raise BashRefused(
            f"{name!r} is not a read-only command; Bash here allows only "
            f"{', '.join(sorted(READ_ONLY_COMMANDS))}"
        )
    follow = _tail_follow_word(argv[1:]) if name == "tail" else None
    if follow is not None:
        raise BashRefused(
            f"tail {shown_input(follow)} follows the file and never ends; read its end once "
            "(tail -n 20 FILE)"
        )
    for arg in argv[1:]:
        if name == "find" and (arg in FIND_WRITING_FLAGS or arg.startswith("-fprint")):
            raise BashRefused(f"find {arg} can change files or run programs; it is not allowed")
        if re.search(r"\$[A-Za-z_{]", arg):
            raise BashRefused("variable expansion is not allowed; write the value out")


def check_bash_command(command: object) -> ToolVerdict:
    """Allow only read-only commands, optionally piped/chained into other read-only commands."""
    try:
        parse_bash_command(command)
    except BashRefused as exc:
        return _deny(str(exc))
    return ToolVerdict(True, "read-only command")


def write_name_problem(rel: str) -> str | None:
    """Why a memory-dir relative path may not be written by the extractor (the name gate), else None.

    The two indexes (MEMORY.md and team/MEMORY.md) are allowed: the extractor keeps them.
    """
    problem = written_path_problem(rel)
    return terminal_safe(problem, keep_newlines=False) if problem else None


def new_file_refusal(shown: str, rel: str, memory_dir: str | os.PathLike[str]) -> str | None:
    """Why the extractor may not create a file at rel (a part starts with '~', or the name is
    another Unicode normal form of one there), else None.

    The memory tool's refusals in its words (the name gate's tilde_refusal, storage.name_twins):
    a Write that makes `~/x.md` made a folder a shell reads as a home, and one that makes
    `café` decomposed beside `café` composed made a second file macOS takes for the first. A
    file already there is still written.
    """
    refusal = tilde_refusal(rel, "the memory extractor", os.fspath(memory_dir).rstrip(os.sep))
    if refusal is None:
        refusal = new_name_twin(memory_dir, rel)
    return None if refusal is None else f"{shown} is refused: {refusal}."


def _in_team_dir(resolved: str, memory_dir: str) -> bool:
    """Team-ness on the resolved path: an alias folder that links to team/ is team too."""
    real = team_paths.realpath_deepest_existing(resolved)
    team = team_paths.realpath_deepest_existing(
        os.path.join(os.path.abspath(memory_dir), TEAM_DIRNAME)
    )
    return real == team or team_paths.is_real_path_within(real, team)


def check_memory_write(
    tool_name: str, tool_input: Mapping[str, Any], memory_dir: str | os.PathLike[str]
) -> ToolVerdict:
    """Allow a Write/Edit only when its file_path passes the store's memory-dir validation."""
    raw = tool_input.get("file_path")
    if not isinstance(raw, str) or not raw:
        return _deny(f"{tool_name} needs a 'file_path' string")
    if not os.path.isabs(raw):
        return _deny(
            f"{tool_name} file_path '{shown_input(raw)}' must be absolute (inside "
            f"{os.fspath(memory_dir)})"
        )
    mem = os.fspath(memory_dir)
    try:
        resolved = team_paths.validate_memory_write_path(raw, mem)
    except ValueError as exc:  # PathTraversalError is a ValueError
        return _deny(f"{tool_name} outside the memory dir is not allowed: {exc}")
    rel_parts = Path(os.path.relpath(resolved, os.path.abspath(mem))).parts
    if any(part.startswith(".") for part in rel_parts):
        return _deny(
            f"{tool_name} into dot-files or dot-folders of the memory dir (locks, trash) is not allowed"
        )
    name_refusal = write_name_problem("/".join(rel_parts))
    if name_refusal is not None:
        return _deny(
            f"{tool_name} refused: {name_refusal}; write a memory file named like "
            "feedback_testing.md"
        )
    if tool_name == "Write" and not os.path.lexists(resolved):
        tilde = new_file_refusal(raw, "/".join(rel_parts), mem)
        if tilde is not None:
            return _deny(f"{tool_name} refused: {tilde}")
    if _in_team_dir(resolved, mem):
        try:  # the team rules on the resolved path (an alias folder linking to team/ is team)
            team_paths.validate_team_mem_write_path(
                team_paths.realpath_deepest_existing(resolved),
                team_paths.realpath_deepest_existing(os.path.join(mem, TEAM_DIRNAME)),
            )
        except ValueError as exc:
            return _deny(f"{tool_name} into team memory refused: {exc}")
        text = tool_input.get("content") if tool_name == "Write" else tool_input.get("new_string")
        if isinstance(text, str) and text:
            findings = secret_scan.scan_for_secrets({"body": text})
            if findings:
                return _deny(
                    f"{tool_name} into team memory refused: it looks like it holds a secret "
                    f"({secret_scan.format_findings(findings)}); never share credentials"
                )
    return ToolVerdict(True, f"{tool_name} inside the memory dir")


def can_use_tool(
    tool_name: str, tool_input: object, memory_dir: str | os.PathLike[str]
) -> ToolVerdict:
    """The extraction sandbox: which tool calls may run, with the reason."""
    if not isinstance(tool_input, Mapping):
        return _deny(f"{shown_input(tool_name)} input must be an object")
    if tool_name in READ_TOOLS:
        return ToolVerdict(True, f"{tool_name} is read-only")
    if tool_name == "Bash":
        return check_bash_command(tool_input.get("command"))
    if tool_name in WRITE_TOOLS:
        return check_memory_write(tool_name, tool_input, memory_dir)
    return _deny(
        f"tool '{shown_input(tool_name)}' is not available to the memory extractor "
        "(only Read, Grep, Glob, read-only Bash, and Write/Edit inside the memory dir)"
    )
