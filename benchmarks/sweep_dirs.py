"""Run every read-only command over memory dirs that someone else wrote, and report what broke.

"Test against what you did not write": point this at copies of real memory dirs (for example
unpacked from public repositories with `git archive`; never commit them) or at a folder that
holds many. Each dir is copied into a temporary folder first (symlinks and named pipes kept
as they are), so nothing here can change the dir it was given; a dir that cannot be copied
(an unreadable file, a socket) is reported as not swept. For each copy it runs, as a user would:

* the CLI, one process per command, with a time limit: scan, lint, index --show,
  rebuild-index --dry-run (with and without --drop-dangling) and recall --explain with the
  offline lexical selector;
* the API in this process: lint_memory_dir, plan_consolidation and, with --semantic,
  find_relevant_memories with the default offline selector.

A row is a failure when a command exits above 2 (1 and 2 are the CLI's "findings" and "bad
input" answers), prints a Python traceback, runs out of time, or when an API call raises.
It prints one line per failure and a summary, and exits 1 if there was any failure.

  python benchmarks/sweep_dirs.py /tmp/realdirs            # every dir holding a MEMORY.md
  python benchmarks/sweep_dirs.py /tmp/x/memories           # one dir, with or without an index
  python benchmarks/sweep_dirs.py DIR1 DIR2 --semantic     # also the semantic selector
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.spec.constants import ENTRYPOINT_NAME, TEAM_DIRNAME
from memdir_nb.storage.scratch_copy import copy_memory_dir

QUERY = "what did we decide about the deploy"
CLI_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("scan", "{dir}"),
    ("lint", "{dir}"),
    ("index", "{dir}", "--show"),
    ("rebuild-index", "{dir}", "--dry-run"),
    ("rebuild-index", "{dir}", "--dry-run", "--drop-dangling"),
    ("recall", "--dir", "{dir}", "--selector", "lexical", "--explain", QUERY),
)


@dataclass(frozen=True)
class Outcome:
    """One command over one dir: what ran, how long it took, and what went wrong (or "")."""

    dir: str
    command: str
    seconds: float
    problem: str


def _memory_dir_of(index: Path) -> Path:
    """The memory dir an index belongs to: a team/MEMORY.md is its parent dir's team scope."""
    folder = index.parent
    return folder.parent if folder.name == TEAM_DIRNAME else folder


def memory_dirs(paths: list[Path]) -> Iterator[Path]:
    """Each path that is a memory dir (it holds MEMORY.md or team/MEMORY.md), else every memory
    dir under it: each folder holding a MEMORY.md, a team/ folder's counted as its parent's.
    A path given with no index under it but Markdown files of its own is a memory dir with no
    index (a memory-tool `/memories` tree, a dir whose MEMORY.md was never committed): it is
    swept, not passed over in silence."""
    for path in paths:
        if any((path / sub / ENTRYPOINT_NAME).is_file() for sub in ("", TEAM_DIRNAME)):
            yield path
            continue
        found = {_memory_dir_of(p) for p in path.rglob(ENTRYPOINT_NAME) if p.is_file()}
        if not found and path.is_dir() and any(p.is_file() for p in path.glob("*.md")):
            found = {path}
        yield from sorted(found)


def run_cli(cli: list[str], args: tuple[str, ...], memory_dir: Path, timeout: float) -> str:
    """Run one CLI command on memory_dir; "" when it answered as designed, else the problem."""
    argv = [*cli, *(a.replace("{dir}", str(memory_dir)) for a in args)]
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, errors="replace", timeout=timeout, env=env
        )
    except subprocess.TimeoutExpired:
        return f"no answer within {timeout:g} s"
    if "Traceback (most recent call last)" in done.stdout + done.stderr:
        return "printed a traceback: " + done.stderr.strip().splitlines()[-1][:200]
    if done.returncode not in (0, 1, 2):
        return f"exit code {done.returncode}"
    return ""


def api_calls(semantic: bool, cache_dir: Path) -> list[tuple[str, Callable[[Path], object]]]:
    """The API calls to make on each copy, as (name, call)."""
    from memdir_nb import (
        SemanticSelector,
        find_relevant_memories,
        lint_memory_dir,
        plan_consolidation,
    )

    calls: list[tuple[str, Callable[[Path], object]]] = [
        ("lint_memory_dir", lambda d: lint_memory_dir(d, progress=False)),
        ("plan_consolidation", plan_consolidation),
    ]
    if semantic:
        selector = SemanticSelector(progress=False, cache_dir=cache_dir)
        calls.append(
            (
                "find_relevant_memories",
                lambda d: find_relevant_memories(QUERY, d, selector=selector),
            )
        )
    return calls


def copy_dir(source: Path, copy: Path) -> str:
    """Copy source to copy, symlinks and named pipes kept as they are; "" or why it failed."""
    try:  # symlinks and named pipes are inputs worth trying, so they are not followed
        copy_memory_dir(source, copy, strict=True)
    except (OSError, shutil.Error) as exc:
        if isinstance(exc, shutil.Error):  # copytree lists (source, copy, why) per file
            src, _, why = exc.args[0][0]
            first = f"{src}: {why}"
        else:
            first = str(exc)
        return f"not swept: the copy failed ({first})"
    return ""


def sweep_one(
    source: Path,
    cli: list[str],
    calls: list[tuple[str, Callable[[Path], object]]],
    timeout: float,
) -> list[Outcome]:
    """Every command and call over a fresh copy of source (the original is never touched)."""
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="sweep-") as tmp:
        copy = Path(tmp) / "memory"
        problem = copy_dir(source, copy)
        if problem:
            return [Outcome(str(source), "copy", 0.0, problem)]
        for args in CLI_COMMANDS:
            t0 = time.perf_counter()
            problem = run_cli(cli, args, copy, timeout)
            outcomes.append(Outcome(str(source), args[0], time.perf_counter() - t0, problem))
        for name, call in calls:
            t0 = time.perf_counter()
            try:
                call(copy)
                problem = ""
            except Exception as exc:  # a sweep reports every failure and goes on
                problem = "".join(traceback.format_exception_only(exc)).strip()[:300]
            outcomes.append(Outcome(str(source), name, time.perf_counter() - t0, problem))
    return outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path, help="memory dirs, or folders holding them")
    parser.add_argument("--semantic", action="store_true", help="also recall with the encoder")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per CLI command")
    parser.add_argument(
        "--cli",
        default=f"{shlex.quote(sys.executable)} -m memdir_nb.cli",
        help="the command that runs memdir-nb (default: this Python's module)",
    )
    args = parser.parse_args(argv)
    dirs = list(memory_dirs(args.paths))
    if not dirs:
        print(
            "no memory dir (a folder holding MEMORY.md, or Markdown files) at the paths given",
            file=sys.stderr,
        )
        return 2
    with tempfile.TemporaryDirectory(prefix="sweep-cache-") as cache:
        calls = api_calls(args.semantic, Path(cache))
        outcomes = [
            o for d in dirs for o in sweep_one(d, shlex.split(args.cli), calls, args.timeout)
        ]
    return report(dirs, outcomes, "runs")


def report(dirs: list[Path], outcomes: list[Outcome], unit: str) -> int:
    """Print one line per failure and a summary; the exit code (1 when anything failed)."""
    failures = [o for o in outcomes if o.problem]
    for o in failures:
        print(f"FAIL {o.dir} :: {o.command}: {o.problem}")
    slowest = max(outcomes, key=lambda o: o.seconds)
    print(
        f"{len(dirs)} dirs, {len(outcomes)} {unit}, {len(failures)} failed; "
        f"slowest {slowest.command} on {slowest.dir}: {slowest.seconds:.1f} s"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
