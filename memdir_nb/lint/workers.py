"""Reading and linting every memory of a dir, on a second core where that pays.

Each memory file is read once and its per-memory rules (content.lint_memory) read that memory
and nothing else, so a dir's files can be read and linted in two halves at once. On a dir of
2,000 files this per-file work is nearly all of a lint; a forked worker that takes every second
file cuts the wall time by about a third on two free cores (docs/performance.md, "Lint, summary
and plan on two cores" and "A forked worker without a process pool").

The second core is used only where machine.fork_pays says it is safe and pays, from
PARALLEL_MIN_FILES files on: below that, forking the worker and sending its results back
(about 3 ms here, plus about 30 µs a file) costs more than it saves. The result is the same either way: each file
is read and linted by the same function, the halves are put back in the listing's order, and
machine.in_two_processes does a failed worker's half here. A file whose findings lint.kept
holds from an earlier pass in this process is read but its rules are not run again (its
stale-project finding is: it depends on the time).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.formats.wikilinks import link_uses
from memdir_nb.lint.content import content_findings, stale_findings
from memdir_nb.lint.findings import Finding, MemoryText
from memdir_nb.lint.kept import Kept, keep, keeps, kept_findings, lint_key
from memdir_nb.lint.reading import read_listed
from memdir_nb.machine import fork_pays, in_two_processes
from memdir_nb.security.secret_detect import load_detectors
from memdir_nb.storage.access import ContainedReader
from memdir_nb.storage.listing import ListedFile, SkippedFile

PARALLEL_MIN_FILES = 100  # measured break-even: about 30 files (docs/performance.md)

# A file's text, header, findings and `[[name]]` links (formats.wikilinks.link_uses, for
# lint.links, which needs every file's names); the text is None where the caller asked for
# findings only (keep_texts=False), so a forked worker does not pickle every text back
# (docs/performance.md).
Links = tuple[tuple[int, str], ...]
Linted = tuple[MemoryText | None, MemoryHeader, list[Finding], Links]
# The same, and the file's key and findings to keep when they were worked out (lint.kept): a
# forked worker's are sent back with its results and kept in this process.
Done = tuple[MemoryText | None, MemoryHeader, list[Finding], Links, Kept | None]
Step = Callable[[int], object]  # told how many files were just done (a progress bar's update)


def second_core_pays(n_files: int) -> bool:
    """Whether reading and linting n_files in two processes is both safe and faster here."""
    return fork_pays(n_files, PARALLEL_MIN_FILES)


def read_and_lint_files(
    root: str,
    real_root: str,
    files: Sequence[ListedFile],
    now_ms: float | None,
    step: Step | None = None,
    weight: int = 1,
    keep_texts: bool = True,
    kept: bool = False,
) -> list[Done | SkippedFile]:
    """Each listed file read once and linted, in order; step(weight) after each one.

    keep_texts=False gives None in place of each MemoryText (the findings and header only).
    kept: take a file's findings from lint.kept when its key is there; the findings worked out
    instead come back with their key, to be kept by the caller.
    """
    out: list[Done | SkippedFile] = []
    with ContainedReader(root, real_root=real_root, check_before_open=False) as reader:
        # The walk has just lstat'ed every file, so the reader skips its own pre-open lstat;
        # the no-follow open and the fstat after it still refuse anything swapped in since.
        for listed in files:
            got = read_listed(reader, listed)
            if isinstance(got, SkippedFile):
                out.append(got)
            else:
                mem = got[0]
                new: Kept | None = None
                key = lint_key(mem) if kept else None
                found = None if key is None else kept_findings(key)
                if found is None:
                    found = tuple(content_findings(mem))
                    new = None if key is None else (key, found)
                # lint_memory's findings, in its order
                findings = [*stale_findings(mem, now_ms), *found]
                links = tuple(link_uses(mem.text)) if "[[" in mem.text else ()
                out.append((mem if keep_texts else None, got[1], findings, links, new))
            if step is not None:
                step(weight)
    return out


def read_and_lint(
    root: str,
    real_root: str,
    files: Sequence[ListedFile],
    now_ms: float | None,
    *,
    workers: int | None = None,
    step: Step | None = None,
    keep_texts: bool = True,
    meanwhile: Callable[[], object] | None = None,
) -> list[Linted | SkippedFile]:
    """Every listed file read and linted, in the order of files.

    workers: 2 uses a second core, 1 only this one, None the second core when
    second_core_pays(len(files)). keep_texts=False: the caller wants findings and headers
    only, so no text comes back (None in its place), and a worker's half is sent back small.
    meanwhile: other work of the caller's, called once in this process after its own share of
    the files: on two cores that is while the worker still reads its half (docs/performance.md,
    "Seventeenth session").
    """
    if workers is not None and workers not in (1, 2):
        raise ValueError(f"workers must be 1, 2 or None (automatic), not {workers!r}")
    two = second_core_pays(len(files)) if workers is None else workers == 2
    kept = keeps(len(files))
    if not two or len(files) < 2:
        done = read_and_lint_files(
            root, real_root, files, now_ms, step, keep_texts=keep_texts, kept=kept
        )
        if meanwhile is not None:
            meanwhile()
    else:
        done = _in_two(root, real_root, list(files), now_ms, step, keep_texts, kept, meanwhile)
    keep([d[4] for d in done if not isinstance(d, SkippedFile) and d[4] is not None])
    return [d if isinstance(d, SkippedFile) else d[:4] for d in done]


def _capped(step: Step | None, total: int) -> Step | None:
    """step, told at most total files in all."""
    if step is None:
        return None
    left = total

    def told(n: int) -> None:
        nonlocal left
        n = min(n, left)
        left -= n
        step(n)

    return told


def _in_two(
    root: str,
    real_root: str,
    files: list[ListedFile],
    now_ms: float | None,
    step: Step | None,
    keep_texts: bool,
    kept: bool,
    meanwhile: Callable[[], object] | None,
) -> list[Done | SkippedFile]:
    """A forked worker does every second file while this process does the others, then
    meanwhile() (the worker's half costs it more: the fork's page copies, the pickling)."""
    # Pickling a text and its parsed header back costs the worker and this process about
    # 30 µs a file; a caller that wants findings only is spared it.
    work = partial(
        read_and_lint_files, root, real_root, now_ms=now_ms, keep_texts=keep_texts, kept=kept
    )
    # Each of our files stands for about two, as the worker does one meanwhile; the count
    # stops at the number of files (ours are one more when that number is odd).
    here = partial(
        read_and_lint_files,
        root,
        real_root,
        now_ms=now_ms,
        step=_capped(step, len(files)),
        weight=2,
        keep_texts=keep_texts,
        kept=kept,
    )
    # The worker inherits at the fork what this process has imported. Every file's secret rule
    # needs detect-secrets (with requests, 70-90 ms of CPU to import): loaded here first, it is
    # imported once, not by both processes after the fork (docs/performance.md, speed29).
    load_detectors()
    if meanwhile is None:
        return in_two_processes(work, files, here=here)
    then = meanwhile

    def here_then(ours: list[ListedFile]) -> list[Done | SkippedFile]:
        out = here(ours)
        then()
        return out

    return in_two_processes(work, files, here=here_then)
