"""An index written at an agent memory root, which no session loads, and the memories it strands.

Claude Code keeps an agent's memory in .claude/agent-memory/<agent>/ (agent-memory-local/ and
~/.claude/agent-memory/ likewise) and loads <agent>/MEMORY.md into that agent's prompt. Agents
and sessions still write an index one level too high, at the root itself, beside memory files
of their own or a sub-folder of them without an index (published dirs hold both shapes: an
`orchestrator/` of twelve memories listed only from the root's MEMORY.md; a root index listing
three memories the root holds beside seven agent folders with indexes of their own). The root
is then read as one memory dir (storage.listing.folder_of_memory_dirs leaves it so, to keep
that index), and every route said the index "fits both caps: loaded whole" while no agent ever
sees those memories. This module is where that is decided and said, for lint, `index`, `scan`
and the notebooks.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable

from memdir_nb.spec.constants import ENTRYPOINT_NAME, LOGS_DIRNAME, TEAM_DIRNAME
from memdir_nb.spec.records import Record
from memdir_nb.spec.text import first_few, plural, terminal_line
from memdir_nb.storage.listing import (
    folder_of_memory_dirs,
    is_agent_memory_root,
    list_memory_files,
)

MAX_NAMED_FILES = 4  # stranded files named in the message; the rest are counted


class UnloadedAgentIndex(Record, frozen=True):
    """An agent memory root read as one memory dir because of its own MEMORY.md.

    stranded: the memory files (root relative, '/'-separated) that reach no agent, those at the
    root and in sub-folders without a MEMORY.md of their own; empty when not counted.
    """

    folder: str  # absolute
    stranded: tuple[str, ...] = ()

    @property
    def problem(self) -> str:
        """Why the index is never loaded and what that leaves unseen: one line."""
        base = terminal_line(os.path.basename(self.folder))
        what = "the memories it lists reach no agent"
        if self.stranded:
            n = len(self.stranded)
            shown = terminal_line(first_few(list(self.stranded), MAX_NAMED_FILES))
            what = f"so {plural(n, 'memory file')} ({shown}) {'reaches' if n == 1 else 'reach'} no agent"
        return (
            f"{ENTRYPOINT_NAME} here is never loaded: Claude Code loads "
            f"{base}/<agent>/{ENTRYPOINT_NAME} for each agent, never the index of the agent "
            f"memory root above them, {what}"
        )

    @property
    def fix(self) -> str:
        """How to make the memories reach their agent: one line, naming the sub-folders that
        only lack an index, and saying where memory files at the root itself go."""
        base = terminal_line(os.path.basename(self.folder))
        folders = sorted({rel.split("/", 1)[0] for rel in self.stranded if "/" in rel})
        loose = not self.stranded or any("/" not in rel for rel in self.stranded)
        steps = [give_index_step(self.folder, name) for name in folders[:MAX_NAMED_FILES]]
        if len(folders) > MAX_NAMED_FILES:
            steps.append(f"the same for {len(folders) - MAX_NAMED_FILES:,} more sub-folders")
        if loose:
            steps.append(
                f"move each memory file here into the folder of the agent it belongs to, "
                f"{base}/<agent>/ (the agent's name in .claude/agents/), and rebuild that "
                "folder's index; one every session should see belongs in the project's memory "
                "dir (`memdir-nb where` names it)"
            )
        return terminal_line("; ".join(steps))


def give_index_step(folder: str | os.PathLike[str], agent: str) -> str:
    """The one wording of the step that gives an agent's folder (below the agent memory root
    folder) an index of its own: index-never-loaded's fix and not-in-index's for its files."""
    base = terminal_line(os.path.basename(os.path.abspath(os.fspath(folder))))
    name = terminal_line(agent)
    return f"give {name}/ an index of its own: `memdir-nb rebuild-index {base}/{name}`"


def _a_regular_file(path: str) -> bool:
    """Whether path is a regular file itself (a symlink or a FIFO is not)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def _a_regular_file_or_none(path: str) -> bool:
    """Whether path is a regular file itself or nothing at all (the index a rebuild creates)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return True
    except (OSError, ValueError):
        return False


def _index_rule(root: str) -> Callable[[str], bool]:
    """Which agents' folders hold the index a file belongs in: those whose MEMORY.md is a
    regular file; at a root holding an index of its own (one written one level too high,
    unloaded_agent_index), also those with none yet, as that index is the one the agent
    loads and the root's is loaded by none (real38: a line at the root, re-pointed there by
    the rebuild, reached no agent)."""
    if os.path.lexists(os.path.join(root, ENTRYPOINT_NAME)):
        return _a_regular_file_or_none
    return _a_regular_file


def _agent_folders(
    root: str,
    files: Iterable[str],
    skip: tuple[str, ...] = (TEAM_DIRNAME, LOGS_DIRNAME),
    has_index: Callable[[str], bool] = _a_regular_file,
) -> dict[str, str]:
    """file -> its first sub-folder, for the files (root relative) under a sub-folder holding a
    MEMORY.md of its own (has_index: a regular file, not a link a write would refuse to follow);
    skip: sub-folders that are no agent's (team/ and logs/, a memory dir's own parts, with
    their own scope)."""
    indexed: dict[str, bool] = {}
    out: dict[str, str] = {}
    for rel in files:
        head, sep, _ = rel.partition("/")
        if not sep or head in skip:
            continue
        if head not in indexed:
            indexed[head] = has_index(os.path.join(root, head, ENTRYPOINT_NAME))
        if indexed[head]:
            out[rel] = head
    return out


def agent_index_owners(folder: str | os.PathLike[str], files: Iterable[str]) -> dict[str, str]:
    """Which index a memory file belongs in, where that is not the folder's own MEMORY.md:
    file -> the agent's folder (both folder relative) whose MEMORY.md Claude Code loads for the
    agent, for each file under an agent's folder holding one, when folder is an agent memory
    root read as one memory dir (unloaded_agent_index). Every other file, and every file of
    any other folder, belongs in the folder's own index (empty answer); so does a file of an
    agent whose MEMORY.md is no regular file (a link, a FIFO: no route writes through it).
    At a root with an index of its own, an agent's folder with no MEMORY.md yet owns its files
    too (_index_rule): its index is created there, never the root's line pointed at them.

    The one answer for lint's not-in-index, rebuild-index and the dream's missing index lines:
    a line for such a file in the root's MEMORY.md, which no agent loads, reaches no agent.
    """
    root = os.path.abspath(os.fspath(folder))
    if not is_agent_memory_root(root):
        return {}
    return _agent_folders(root, files, has_index=_index_rule(root))


def agents_without_index(folder: str | os.PathLike[str], agents: Iterable[str]) -> frozenset[str]:
    """The agents' folders (names, of agent_index_owners' answer) that hold no MEMORY.md yet."""
    root = os.path.abspath(os.fspath(folder))
    return frozenset(
        a for a in agents if not os.path.lexists(os.path.join(root, a, ENTRYPOINT_NAME))
    )


def agent_scopes(folder: str | os.PathLike[str], files: Iterable[str]) -> dict[str, str]:
    """Whose memory each file is, at an agent memory root read as one memory dir: file -> the
    agent's folder it is in (both folder relative), for every file under an agent's folder,
    with an index of its own or not (team/ and logs/ are the dir's own parts, no agent's);
    empty for any other folder, and files at the root itself are the root's own (no entry).

    The one rule of an agent's scope: a step that joins two memories (the dream's merges,
    dream.plan) joins only two of one agent's folder, or two of the root's own, as a file moved
    into another agent's folder leaves the prompt of the agent that wrote it and reaches one that
    did not (agent_index_owners is the narrower question of which index lists a file)."""
    root = os.path.abspath(os.fspath(folder))
    if not is_agent_memory_root(root):
        return {}
    return _agent_folders(root, files, has_index=_any_folder)


def scopes_joined_problem(folder: str | os.PathLike[str], files: Iterable[str]) -> str | None:
    """Why one step that writes or retires these files (folder relative) would join two
    agents' memories at an agent memory root (agent_scopes' rule), or None when they lie in one
    scope: one agent's folder, or the root's own files (team/ and logs/ with them). The root's
    MEMORY.md counts for none: no agent loads it (unloaded_agent_index).

    For a step whose parts carry no record of where their text came from: the Claude
    planner's plan, whose approved Writes are one step (a file retired in one folder and
    rewritten in another is a merge across them, lefts37)."""
    written = [f for f in dict.fromkeys(files) if f != ENTRYPOINT_NAME]
    owners = agent_scopes(folder, written)
    scopes: dict[str, list[str]] = {}
    for rel in written:
        scopes.setdefault(owners.get(rel, ""), []).append(rel)
    if len(scopes) < 2:
        return None
    parts = []
    for agent, rels in sorted(scopes.items()):
        where = f"{terminal_line(agent)}/" if agent else "the root's own files"
        parts.append(f"{where}: {first_few([terminal_line(f) for f in rels], MAX_NAMED_FILES)}")
    shown = "; ".join(parts)
    return (
        f"it writes into {plural(len(scopes), 'scope')} of an agent memory root ({shown}); a "
        "consolidation joins only one agent's memories, as text moved into another agent's "
        "folder leaves the prompt of the agent that wrote it and reaches one that did not. "
        "Make a plan for each agent's folder (it is a memory dir of its own), or approve only "
        "the actions of one folder"
    )


def _any_folder(_index: str) -> bool:
    """Every sub-folder counts, whatever its index is (agent_scopes)."""
    return True


def agent_index_folders(folder: str | os.PathLike[str]) -> tuple[str, ...]:
    """The agents' folders (names, sorted) of an agent memory root read as one memory dir that
    hold a MEMORY.md of their own, or at a root with an index of its own hold memory files and
    no MEMORY.md yet: the indexes agent_index_owners sends files to; () for any
    other folder, and for a folder of memory dirs (each agent's dir is then its own)."""
    root = os.path.abspath(os.fspath(folder))
    if not is_agent_memory_root(root) or folder_of_memory_dirs(root) is not None:
        return ()
    try:
        names = sorted(e.name for e in os.scandir(root) if not e.name.startswith("."))
    except OSError:
        return ()
    probes = [f"{name}/{ENTRYPOINT_NAME}" for name in names]
    found = set(_agent_folders(root, probes).values())
    if _index_rule(root) is _a_regular_file_or_none:  # and the folders whose index is to come
        files = [f.rel for f in list_memory_files(root).files]
        found |= set(_agent_folders(root, files, has_index=_a_regular_file_or_none).values())
    return tuple(sorted(found))


def agent_index_paths(folder: str | os.PathLike[str]) -> frozenset[str]:
    """The agents' own indexes (folder relative, `<agent>/MEMORY.md`) of agent_index_folders:
    the index files besides the folder's own that a dream and its restore may write there."""
    return frozenset(f"{agent}/{ENTRYPOINT_NAME}" for agent in agent_index_folders(folder))


def stranded_files(folder: str | os.PathLike[str], files: Iterable[str]) -> tuple[str, ...]:
    """The memory files (folder relative) no agent's index can list: at the folder itself, or
    in a sub-folder without a MEMORY.md of its own; sorted."""
    listed = list(files)
    owned = _agent_folders(os.fspath(folder), listed, skip=(), has_index=os.path.isfile)
    return tuple(sorted(rel for rel in listed if rel not in owned))


def unloaded_agent_index(
    folder: str | os.PathLike[str], files: Iterable[str] | None = None
) -> UnloadedAgentIndex | None:
    """The note for an agent memory root that holds a MEMORY.md and is read as one memory dir
    (its own memory files, or a sub-folder of them without an index); None for any other folder.

    files: the memory files a listing of the folder found (root relative), to name the ones
    that reach no agent; None lists the folder for them (its names only, no file is read).
    """
    root = os.path.abspath(os.fspath(folder))
    if not is_agent_memory_root(root) or not os.path.lexists(os.path.join(root, ENTRYPOINT_NAME)):
        return None
    if folder_of_memory_dirs(root) is not None:  # its own note says the index is never loaded
        return None
    if files is None:
        files = [f.rel for f in list_memory_files(root).files]
    return UnloadedAgentIndex(root, stranded_files(root, files))
