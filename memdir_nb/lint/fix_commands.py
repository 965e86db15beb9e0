"""The commands lint's fixes name (rebuild-index, dream, the store's recover), with the dir named.

A fix names the dir it was found in (`spec.shell_words.shell_word`: a space or a `$` in it stays
one word), or DIR when lint was not told it (`lint_memory` on one memory, `lint_index` on one
index). A memory's findings are made from its text alone, where the dir is unknown, so the lint
of a dir puts the dir in as it gathers them (`named_dir`; lefts37: a relative-date fix said
`memdir-nb dream DIR` literally). The store-journal findings' fix is a Python call, so its dir
is a Python string literal (`recover_call`; lefts37b: it said `MemoryStore(DIR).recover()`
whatever dir was linted); doctor's fix for the same journal says the same call.
"""

from __future__ import annotations

import os

from memdir_nb.lint.findings import Finding
from memdir_nb.spec.records import replace
from memdir_nb.spec.shell_words import shell_word

DirArg = str | os.PathLike[str] | None


def _shown(memory_dir: DirArg) -> str:
    return "DIR" if memory_dir is None else shell_word(os.fspath(memory_dir))


def rebuild_command(memory_dir: DirArg) -> str:
    """`memdir-nb rebuild-index DIR`: the one spelling of the command the index rules' fixes give."""
    return f"memdir-nb rebuild-index {_shown(memory_dir)}"


def relative_date_fix(memory_dir: DirArg) -> str:
    """The relative-date finding's fix: where the date it meant comes from, and the command
    that works each one out. Not one fixed example ("e.g. 'Thursday' -> '2026-03-05'" whatever
    was found: fresh34, fresh36)."""
    return (
        "replace it with the absolute date it meant, counted from the day the memory was "
        f"written; `memdir-nb dream {_shown(memory_dir)}` proposes each one"
    )


def recover_call(memory_dir: DirArg) -> str:
    """`MemoryStore('<dir>').recover()`: the call that rolls a killed store step back or on.

    The dir is Python's literal for it (`repr`: a quote, a backslash, a control or a byte that is
    not UTF-8 is escaped, so the call pastes into Python as it is and names that dir).
    """
    shown = "DIR" if memory_dir is None else repr(os.fspath(memory_dir))
    return f"MemoryStore({shown}).recover()"


def named_dir(finding: Finding, memory_dir: str | os.PathLike[str]) -> Finding:
    """The finding with its fix naming the memory dir it was found in."""
    if finding.rule != "relative-date":
        return finding
    return replace(finding, hint=relative_date_fix(memory_dir))
