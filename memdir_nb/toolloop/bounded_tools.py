"""Bounded Read, Grep and Bash for the extraction tool runner: no call can hang or grow memory.

Grep's pattern comes from the model, so it is compiled by RE2 (google-re2), a linear-time
engine with no backtracking: no pattern can freeze the process on any text. A pattern RE2
cannot take (backreferences, lookaround) or one over its size budget is an error result.

Read and Grep go through the contained reader (memdir_nb.storage.access): inside the memory dir a
file must stay inside it, anywhere a FIFO or device is refused without blocking, and each file
is read up to its cap. Bash runs a pipeline of argv lists joined by real pipes; its output is
read in bounded chunks and the whole process group is killed past the byte cap or the timeout.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import re2  # type: ignore[import-untyped]

from memdir_nb.formats.names import depth_problem
from memdir_nb.spec.constants import (
    TOOL_BASH_MAX_OUTPUT_BYTES,
    TOOL_GLOB_MAX_ENTRIES,
    TOOL_GREP_FILE_MAX_BYTES,
    TOOL_GREP_MAX_FILES,
    TOOL_GREP_MAX_OUTPUT_BYTES,
    TOOL_GREP_PATTERN_MAX_CHARS,
    TOOL_GREP_REGEX_MAX_MEM,
    TOOL_READ_MAX_BYTES,
)
from memdir_nb.spec.text import terminal_line, terminal_safe
from memdir_nb.storage.access import ContainedReader, ReadRefused, ReadResult
from memdir_nb.storage.containment import (
    PathTraversalError,
    check_path_length,
    is_real_path_within,
    real_path,
)
from memdir_nb.storage.programs import require_program

__all__ = [
    "PipelineResult",
    "ToolReader",
    "glob_files",
    "grep_files",
    "numbered_lines",
    "read_numbered",
    "run_pipeline",
]


class ToolReader:
    """Reads for the tools: contained in the memory dir for paths under it, bounded everywhere."""

    def __init__(self, memory_dir: str | os.PathLike[str]) -> None:
        self.memory = ContainedReader(memory_dir)
        self.anywhere = ContainedReader(os.sep)  # outside the memory dir: regular files, bounded

    def _under_memory(self, full: str) -> bool:
        for root in (self.memory.root, self.memory.real_root):
            if is_real_path_within(full, root, or_equal=True):
                return True
        return is_real_path_within(real_path(full), self.memory.real_root)

    def read(self, path: str | os.PathLike[str], cap: int) -> ReadResult:
        """At most cap bytes of path; raises ReadRefused (an OSError) with the reason."""
        full = os.path.abspath(os.fspath(path))
        try:  # no file has a longer path; resolving 300,000 folders took 25 s (attack38)
            check_path_length(full, "")
        except PathTraversalError as exc:
            raise ReadRefused("unreadable", full, str(exc), errno.ENAMETOOLONG) from None
        if self._under_memory(full):
            return self.memory.read(full, cap)
        return self.anywhere.read(full, cap)


def read_numbered(reader: ToolReader, path: str | os.PathLike[str], offset: int, limit: int) -> str:
    """Lines offset..offset+limit-1 of a file, numbered, from at most TOOL_READ_MAX_BYTES of it."""
    return numbered_lines(reader.read(path, TOOL_READ_MAX_BYTES), offset, limit)


def numbered_lines(res: ReadResult, offset: int, limit: int) -> str:
    """read_numbered's answer for a read already made (the caller keeps what it read)."""
    lines = res.text.split("\n")
    chosen = lines[offset - 1 : offset - 1 + limit]
    out = "\n".join(f"{offset + i:6d}\t{line}" for i, line in enumerate(chosen))
    if res.truncated:
        out += (
            f"\n[file is {res.total_size} bytes; only its first {res.bytes_read} bytes "
            f"({len(lines)} lines) can be read with this tool]"
        )
    return out


def _walk_files(base: str, limit: int) -> tuple[list[str], bool]:
    """Up to limit files under base (hidden folders and files skipped, no symlinked folder followed)."""
    found: list[str] = []
    for folder, dirs, files in os.walk(base, followlinks=False):
        rel = os.path.relpath(folder, base)
        level = 0 if rel == "." else rel.count(os.sep) + 1
        deep = depth_problem(level + 1) is not None
        dirs[:] = [] if deep else sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            if len(found) >= limit:
                return found, True
            found.append(os.path.join(folder, name))
    return found, False


class LineMatcher(Protocol):
    """What Grep needs of a compiled pattern: search one line (re.Pattern and RE2 both fit)."""

    def search(self, text: str) -> object | None:
        """A match object when the pattern occurs in text, else None."""
        ...


class GrepPatternError(ValueError):
    """A Grep pattern the linear-time engine refuses; the message says why and what to do."""


def compile_model_regex(pattern: str, *, ignore_case: bool = False) -> LineMatcher:
    """Compile a model-supplied regex with RE2 (linear time in the text, never backtracking).

    Raises GrepPatternError for a pattern that is too long, uses what RE2 does not support
    (backreferences, lookahead/lookbehind) or needs more than its memory budget.
    """
    if len(pattern) > TOOL_GREP_PATTERN_MAX_CHARS:
        raise GrepPatternError(
            f"the pattern is {len(pattern):,} characters, over the "
            f"{TOOL_GREP_PATTERN_MAX_CHARS:,}-character limit; search for a shorter pattern"
        )
    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = not ignore_case
    options.max_mem = TOOL_GREP_REGEX_MAX_MEM
    try:
        compiled: LineMatcher = re2.compile(pattern, options=options)
    except re2.error as exc:
        detail = exc.args[0] if exc.args else exc
        if isinstance(detail, bytes):
            detail = detail.decode("utf-8", "replace")
        raise GrepPatternError(
            f"the pattern cannot run on the linear-time regex engine ({detail}); "
            "backreferences and lookaround are not supported, rewrite it without them"
        ) from None
    return compiled


def grep_files(
    reader: ToolReader,
    regex: LineMatcher,
    base: str,
    *,
    name_glob: str | None = None,
    max_matches: int,
) -> str:
    """path:line:text for each matching line; each file read up to its cap, the output capped too."""
    if os.path.isdir(base):
        files, too_many = _walk_files(base, TOOL_GREP_MAX_FILES)
    else:
        files, too_many = [base], False
    out: list[str] = []
    notes: list[str] = []
    size = 0
    for path in files:
        if name_glob is not None and not fnmatch.fnmatch(os.path.basename(path), name_glob):
            continue
        try:
            res = reader.read(path, TOOL_GREP_FILE_MAX_BYTES)
        except ReadRefused as exc:
            if not os.path.isdir(base) or exc.kind not in ("missing", "not-regular"):
                notes.append(f"[not searched: {exc}]")
            continue
        if res.truncated:
            notes.append(f"[only the first {res.bytes_read} bytes of {path} were searched]")
        for no, line in enumerate(res.text.split("\n"), start=1):
            if regex.search(line):
                hit = f"{terminal_safe(path, keep_newlines=False)}:{no}:{line}"
                size += len(hit.encode("utf-8", "replace")) + 1
                if size > TOOL_GREP_MAX_OUTPUT_BYTES:
                    notes.append(f"[stopped: results reached {TOOL_GREP_MAX_OUTPUT_BYTES} bytes]")
                    return _join(out, notes)
                out.append(hit)
                if len(out) >= max_matches:
                    notes.append(f"[stopped at {max_matches} matches]")
                    return _join(out, notes)
    if too_many:
        notes.append(f"[only the first {TOOL_GREP_MAX_FILES} files under {base} were searched]")
    return _join(out, notes) if out or notes else "No matches found"


def _join(out: list[str], notes: list[str]) -> str:
    """The hits, then at most 20 notes, each one line: a note quotes a file's path (or a
    refusal that names it), and a name holding a newline forged a hit line the model reads
    (attack round 24), as the hits' paths could not since attack round 8."""
    return "\n".join([*out, *map(terminal_line, notes[:20])]) or "No matches found"


def _glob_part(part: str) -> str:
    """One path component of a glob pattern as a regex: `*`, `?` and `[...]` stay in it. A `[`
    with no `]` after it is a plain `[`: the last `]` is looked up once, since searching the rest
    of the pattern again at every `[` was quadratic (a model's pattern of 1 Mi `[`: 8 s before
    its length was refused; redos44)."""
    out: list[str] = []
    i = 0
    last_close = part.rfind("]")
    while i < len(part):
        ch = part[i]
        close = part.find("]", i + 2) if ch == "[" and last_close >= i + 2 else -1
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif close > 0 and "/" not in part[i:close]:
            body = part[i + 1 : close]
            body = "^" + body[1:] if body.startswith("!") else body
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = close
        else:
            out.append(re2.escape(ch))
        i += 1
    return "".join(out)


def glob_matcher(pattern: str) -> tuple[LineMatcher, int | None]:
    """A model's glob pattern as a linear-time matcher of paths relative to the base (`**` is any
    number of folders), and how many components deep a match can lie (None: any depth)."""
    if pattern.startswith("/") or os.path.isabs(pattern):
        raise ValueError("'pattern' must be relative to 'path' (e.g. '**/*.md')")
    parts = [p for p in pattern.split("/") if p not in ("", ".")]
    if sum(map(len, parts)) > TOOL_GREP_PATTERN_MAX_CHARS:  # its regex is at least as long
        raise GrepPatternError(
            f"the glob pattern is {len(pattern):,} characters, over the "
            f"{TOOL_GREP_PATTERN_MAX_CHARS:,}-character limit; match with a shorter pattern"
        )
    regex = ""
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part == "**":
            regex += ".*" if last else "(?:[^/]*/)*"
        else:
            regex += _glob_part(part) + ("" if last else "/")
    depth = None if "**" in parts else len(parts)
    return compile_model_regex(f"^(?:{regex})$"), depth


def glob_files(base: str, pattern: str, *, max_results: int) -> str:
    """Files under base whose path relative to it matches pattern, newest first.

    A model's pattern can ask for a walk of the whole disk (`**` from `/`) or, with repeated
    `**` or a symlink back up, for work that grows with a power of the tree: the walk never
    follows a symlinked folder, skips hidden names (as Grep does), goes no deeper than the
    pattern can match, and looks at most at TOOL_GLOB_MAX_ENTRIES names; each path is matched
    once, in linear time (RE2).
    """
    matcher, depth = glob_matcher(pattern)
    hits: list[tuple[float, str]] = []
    seen = 0
    cut = False
    for folder, dirs, files in os.walk(base, followlinks=False):
        rel = os.path.relpath(folder, base)
        level = 0 if rel == "." else rel.count(os.sep) + 1
        keep_going = (depth is None or level + 1 < depth) and depth_problem(level + 1) is None
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")) if keep_going else []
        seen += len(dirs) + len(files)
        if seen > TOOL_GLOB_MAX_ENTRIES:
            cut = True
            break
        for name in files:
            path = name if rel == "." else f"{rel}/{name}".replace(os.sep, "/")
            path = path.encode("utf-8", "replace").decode("utf-8")  # a name not UTF-8: '?'
            full = os.path.join(folder, name)
            if not name.startswith(".") and matcher.search(path) and os.path.isfile(full):
                try:
                    hits.append((os.stat(full).st_mtime, full))
                except OSError:
                    continue
    hits.sort(key=lambda h: h[0], reverse=True)
    shown = [terminal_safe(full, keep_newlines=False) for _, full in hits[:max_results]]
    if cut:
        shown.append(
            terminal_line(
                f"[only the first {TOOL_GLOB_MAX_ENTRIES:,} names under {base} were looked at]"
            )
        )
    return "\n".join(shown) or "No files found"


@dataclass(frozen=True)
class PipelineResult:
    """What a bounded pipeline printed (stdout of the last stage, then every stderr) and why it ended."""

    code: int
    output: str
    cut: bool  # the byte cap was reached and the pipeline stopped
    timed_out: bool


def _kill_group(procs: Sequence[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()


def run_pipeline(
    argvs: Sequence[Sequence[str]],
    *,
    cwd: str | os.PathLike[str],
    timeout_s: float,
    max_bytes: int = TOOL_BASH_MAX_OUTPUT_BYTES,
) -> PipelineResult:
    """Run argv lists joined by pipes (no shell); keep at most max_bytes of output, stop at timeout_s.

    Each program is found before any stage starts, in PATH's absolute folders only
    (`storage.programs`): a relative entry would be searched from `cwd`, the memory dir.
    """
    programs = [require_program(argv[0]) for argv in argvs]
    procs: list[subprocess.Popen[bytes]] = []
    try:
        stdin: int | object = subprocess.DEVNULL
        for i, argv in enumerate(argvs):
            last = i == len(argvs) - 1
            proc = subprocess.Popen(
                list(argv),
                executable=programs[i],  # argv[0] stays the name the command was given
                stdin=stdin,  # type: ignore[arg-type]
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                start_new_session=True,  # its own process group, so a kill reaches its children
            )
            if procs and procs[-1].stdout is not None:
                procs[-1].stdout.close()  # the next stage owns the read end now
            procs.append(proc)
            stdin = proc.stdout if not last else subprocess.DEVNULL
        return _collect(procs, timeout_s, max_bytes)
    finally:
        _kill_group(procs)
        for proc in procs:
            for stream in (proc.stdout, proc.stderr):
                if stream is not None and not stream.closed:
                    stream.close()
            proc.wait()


def _collect(
    procs: list[subprocess.Popen[bytes]], timeout_s: float, max_bytes: int
) -> PipelineResult:
    """Read the last stdout and every stderr in chunks until EOF, the cap, or the deadline."""
    deadline = time.monotonic() + timeout_s
    sel = selectors.DefaultSelector()
    last = procs[-1]
    bufs: dict[int, bytearray] = {}
    for proc in procs:
        streams = [proc.stderr] + ([proc.stdout] if proc is last else [])
        for stream in streams:
            if stream is not None:
                sel.register(stream, selectors.EVENT_READ)
                bufs[stream.fileno()] = bytearray()
    total = 0
    cut = timed_out = False
    with sel:
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            for key, _ in sel.select(min(left, 0.5)):
                chunk = os.read(key.fd, min(65536, max_bytes - total + 1))
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                keep = chunk[: max_bytes - total]
                bufs[key.fd] += keep
                total += len(keep)
                if len(chunk) > len(keep):
                    cut = True
                    break
            if cut:
                break
    if cut or timed_out:
        _kill_group(procs)
    end = max(0.0, deadline - time.monotonic())
    try:
        code = last.wait(timeout=end if not (cut or timed_out) else 5)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(procs)
        code = last.wait()
    out_fd = last.stdout.fileno() if last.stdout is not None else -1
    data = bytes(bufs.pop(out_fd, b"")) + b"".join(bytes(b) for b in bufs.values())
    return PipelineResult(code, data.decode("utf-8", "replace"), cut, timed_out)
