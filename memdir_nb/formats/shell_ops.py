"""Which memory files a Bash tool call reads or writes, read from its script: `rm`, `mv`,
`cat`-like reads, output redirections, `tee`, `sed -i`, `perl -i`, `cp`, `install`, `touch`
and `dd`, with each command's relative paths starting where the `cd`s of its own shell left
it (formats/shell_script reads the script; the memory timeline asks this module for a call's
operations)."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from memdir_nb.formats.session_model import ToolCall
from memdir_nb.formats.shell_script import (
    COPY_SHORT_VALUES,
    EXPANDED,
    ShellCommand,
    copy_targets,
    dd_files,
    perl_in_place_files,
    sed_in_place_files,
    shell_commands,
    split_redirections,
    touch_files,
)
from memdir_nb.formats.transcript_paths import MemoryPaths

_READ_COMMANDS = {"cat", "head", "tail", "less", "more", "bat"}


class _ShellDirs:
    """Where each command of one script starts: a `cd` moves its own shell and the subshells
    opened after it, never the shell around its subshell, and a `cd` in a pipeline moves
    nothing (each part of a pipeline runs in a subshell of its own)."""

    def __init__(self, paths: MemoryPaths):
        self._stack: list[tuple[tuple[int, ...], MemoryPaths]] = [((), paths)]

    def at(self, command: ShellCommand) -> MemoryPaths:
        """The paths as seen where command runs, after leaving the subshells it is not in."""
        while command.scope[: len(self._stack[-1][0])] != self._stack[-1][0]:
            self._stack.pop()
        return self._stack[-1][1]

    def cd(self, command: ShellCommand, args: Sequence[str]) -> None:
        if command.piped:
            return
        moved = self.at(command).after_cd(args)
        if self._stack[-1][0] == command.scope:
            self._stack[-1] = (command.scope, moved)
        else:
            self._stack.append((command.scope, moved))


def bash_ops(call: ToolCall, paths: MemoryPaths) -> list[tuple[str, str, dict[str, object]]]:
    """rm and mv of memory files, cat/head/tail reads, and writes by an output redirection
    (`>`, `>>`), `tee`, `sed -i`, `perl -i`, `cp`, `install`, `touch` or `dd of=`, where the
    command can be parsed; a shell write's text is not known. Relative paths start from the
    call's own cwd (the record's), and a `cd` moves where the later relative paths of its own
    shell start.
    An argument holding a glob (`*.md`) names no one file, so it is passed over."""
    command = call.input.get("command")
    commands = shell_commands(command) if isinstance(command, str) else None
    ops: list[tuple[str, str, dict[str, object]]] = []
    if call.cwd:  # a `cd` in an earlier call moved the shell; the record says where it was
        paths = paths.after_cd([call.cwd])
    dirs = _ShellDirs(paths)
    for shell_command in commands or []:
        # `> file` alone has no words: it truncates
        words, written, read = split_redirections(shell_command.words)
        name = posixpath.basename(words[0]) if words else ""
        if name == "cd":  # later commands of this shell name paths from there
            dirs.cd(shell_command, words[1:])
            continue
        ops.extend(_command_ops(name, words, written, read, dirs.at(shell_command)))
    return ops


def _command_ops(
    name: str, words: list[str], written: list[str], read: list[str], paths: MemoryPaths
) -> list[tuple[str, str, dict[str, object]]]:
    """The memory operations of one simple command (its redirections split off)."""
    ops: list[tuple[str, str, dict[str, object]]] = []
    args = [w for w in words[1:] if not w.startswith("-") and not EXPANDED.search(w)]
    rels = [paths.relative(a) for a in args]
    more_written, more_read = _files_of(name, words, args)
    written, read = written + more_written, read + more_read
    inputs = (paths.relative(w) for w in read if not EXPANDED.search(w))
    ops.extend(("read", rel, {}) for rel in inputs if rel)
    if name == "rm":
        ops.extend(("delete", r, {}) for r in rels if r)
    elif name in _READ_COMMANDS:
        ops.extend(("read", r, {}) for r in rels if r)
    elif name == "mv" and len(args) >= 2:
        target = rels[-1]
        for source, rel in zip(args[:-1], rels[:-1], strict=True):
            if rel is None:
                continue
            if target is None:
                ops.append(("delete", rel, {}))
            else:
                dest = (
                    target if target.endswith(".md") else f"{target}/{posixpath.basename(source)}"
                )
                ops.append(("rename", rel, {"new_rel": dest}))
    # the command reads its input before its output lands
    outputs = (paths.relative(w) for w in written if not EXPANDED.search(w))
    ops.extend(("write", rel, {"content": None}) for rel in outputs if rel)
    return ops


def _files_of(name: str, words: list[str], args: list[str]) -> tuple[list[str], list[str]]:
    """(written, read): the files a command names as its output and input, beyond its
    redirections, for the commands that write files by their words."""
    if name == "tee":
        return args, []
    if name == "sed":
        return sed_in_place_files(words[1:]), []
    if name == "perl":
        return perl_in_place_files(words[1:]), []
    if name in COPY_SHORT_VALUES:  # cp, install: each source read, its copy written
        pairs = copy_targets(words[1:], COPY_SHORT_VALUES[name])
        return [dest for _, dest in pairs], [source for source, _ in pairs]
    if name == "touch":
        return touch_files(words[1:]), []
    if name == "dd":
        return dd_files(words[1:])
    return [], []
