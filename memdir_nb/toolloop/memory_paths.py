"""Where a memory-tool path lands in a memory dir, and which paths the tool refuses.

The model names files as `/memories/...`; `/memories` is the memory dir and `/memories/team/`
its team folder. A path is refused (with the reference backend's own text where it has one)
when it is not under `/memories/` (a lookalike such as `/memoriesX` included), has a `..`
step, fails the store's path-key rules, names a hidden file (the store's lock, journal, trash
and temporary files), or resolves through a symlink to a place outside the dir. The memory
files themselves are gated by the one name gate, memdir_nb.formats.names.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
from dataclasses import dataclass

from memdir_nb.formats.names import (
    component_problem,
    depth_problem,
    folder_problem,
    folders_problem,
    is_index_name,
    relative_path_problem,
    tilde_refusal,
    visible_name_problem,
)
from memdir_nb.spec.constants import ENTRYPOINT_NAME, TEAM_DIRNAME
from memdir_nb.storage.containment import (
    PathTraversalError,
    check_path_length,
    is_real_path_within,
    real_path,
    realpath_deepest_existing,
    sanitize_path_key,
)
from memdir_nb.storage.fsutil import OWNER_FOLDER_MODE
from memdir_nb.storage.name_twins import new_name_twin, twin_spelling
from memdir_nb.toolloop.memory_text import (
    ROOT,
    MemoryCommandError,
    must_start_with_root,
    would_escape,
)

INDEX_PATHS = (ENTRYPOINT_NAME, f"{TEAM_DIRNAME}/{ENTRYPOINT_NAME}")

MEMORY_FILE_FORMAT = (
    "The memory tool keeps Markdown memory files only: /memories/<topic>.md (private) or "
    "/memories/team/<topic>.md (shared with the team), named like feedback_testing.md, each "
    "starting with frontmatter between two '---' lines (name: <title>, description: <one "
    "line>, type: user, feedback, project or reference), then the memory; /memories/MEMORY.md "
    "and /memories/team/MEMORY.md are the indexes, one '- [Title](file.md) — hook' line per "
    "memory."
)


@dataclass(frozen=True)
class ToolPath:
    """A model path after the checks: what the model wrote, and where it really is."""

    shown: str  # the model's string, echoed verbatim in answers (as the reference does)
    key: str  # the path as written, relative to /memories ('' for the root)
    rel: str  # the real target relative to the real memory dir ('' for the root)
    real: str  # the real absolute path

    @property
    def is_root(self) -> bool:
        return self.rel == ""

    @property
    def team(self) -> bool:
        return self.rel == TEAM_DIRNAME or self.rel.startswith(TEAM_DIRNAME + "/")


def _hidden(parts: list[str]) -> str | None:
    return next((p for p in parts if p.startswith(".")), None)


def _hidden_error(path: str, name: str) -> MemoryCommandError:
    return MemoryCommandError(
        f"Path {path} names a hidden item ({name!r}): hidden files and folders hold the memory "
        "dir's own lock, journal, trash and temporary files, so the memory tool neither shows "
        "nor touches them. Use a name that does not start with a dot."
    )


def split_key(path: object) -> tuple[str, str]:
    """(shown, key) for a model path: the text checks, before anything on disk is looked at."""
    if not isinstance(path, str) or not path.startswith(ROOT):
        raise must_start_with_root(path)
    rest = path[len(ROOT) :]
    if rest and not rest.startswith("/"):
        raise MemoryCommandError(
            f"Path must start with {ROOT}/, got: {path} ({ROOT + rest.split('/')[0]} is another "
            f"folder, not {ROOT}; memory paths look like {ROOT}/notes.md)"
        )
    parts = [p for p in rest.split("/") if p not in ("", ".")]
    if ".." in parts:
        if not posixpath.normpath(path).startswith(ROOT + "/") and posixpath.normpath(path) != ROOT:
            raise would_escape(path)
        raise MemoryCommandError(
            f"Path {path} has a '..' step; the memory tool refuses those. Name the file "
            f"directly, e.g. {ROOT}/notes.md."
        )
    key = "/".join(parts)
    if key:
        try:
            sanitize_path_key(key)
        except PathTraversalError as exc:
            raise MemoryCommandError(f"Path {path} is refused: {exc}") from exc
        for part in parts:
            problem = component_problem(part)
            if problem:
                raise MemoryCommandError(f"Path {path} is refused: {part!r} {problem}.")
    hidden = _hidden(parts)
    if hidden is not None:
        raise _hidden_error(path, hidden)
    return path, key


def in_model_words(message: str, memory_dir: str, real_root: str) -> str:
    """message with the memory dir's place on disk said as /memories: a refusal naming a
    dangling link or a loop quoted its whole path (`at '/home/u/.claude/.../x.md'`), telling
    the model where the user's files live (api39 attack pass)."""
    for root in sorted({memory_dir, real_root}, key=len, reverse=True):
        message = message.replace(root + os.sep, ROOT + "/").replace(repr(root), repr(ROOT))
    return message


def resolve(memory_dir: str, real_root: str, path: object) -> ToolPath:
    """Check a model path and find its real target (symlinks inside the dir followed)."""
    shown, key = split_key(path)
    full = os.path.join(memory_dir, *key.split("/")) if key else memory_dir
    if key and not os.path.lexists(full) and not key.isascii():
        spelled = twin_spelling(memory_dir, key)  # `café` sent composed for one macOS wrote
        if spelled is not None:
            key, full = spelled, os.path.join(memory_dir, *spelled.split("/"))
    try:
        check_path_length(full, memory_dir)  # before any look at the disk (ENAMETOOLONG)
        real = realpath_deepest_existing(full)
    except PathTraversalError as exc:
        said = in_model_words(str(exc), memory_dir, real_root)
        raise MemoryCommandError(f"Path {shown} is refused: {said}") from exc
    if real != real_root and not is_real_path_within(real, real_root):
        raise would_escape(shown)
    rel = "" if real == real_root else os.path.relpath(real, real_root).replace(os.sep, "/")
    hidden = _hidden(rel.split("/")) if rel else None
    if hidden is not None:  # a symlink into .trash/ or at the journal
        raise _hidden_error(shown, hidden)
    return ToolPath(shown, key, rel, real)


def file_problem(rel: str) -> str | None:
    """Why a path relative to the memory dir is not a file the tool may hold, else None."""
    if rel in INDEX_PATHS:
        return None
    if is_index_name(rel.rsplit("/", 1)[-1]):
        return (
            f"{rel!r} is an index name, and the only indexes are {ENTRYPOINT_NAME} and "
            f"{TEAM_DIRNAME}/{ENTRYPOINT_NAME}"
        )
    return relative_path_problem(rel)


def other_file_problem(rel: str) -> str | None:
    """Why a path relative to the memory dir may not even be viewed, renamed or deleted, else None.

    A `/memories` tree another backend kept (the SDK's reference writes any name) holds files
    such as `notes.txt` or `user_preferences.xml`, the names the Messages API's own memory-tool
    examples use. The model may view such a file, rename it to a `.md` name or delete it (into
    the trash), as it can already move or delete the folder holding it; it may not write it.
    """
    if rel in INDEX_PATHS:
        return None
    parts = rel.split("/")
    problem = folders_problem(parts[:-1])
    if problem:
        return problem
    if is_index_name(parts[-1]):
        return file_problem(rel)
    problem = visible_name_problem(parts[-1])
    return f"{parts[-1]!r} {problem}" if problem else None


def _markdown_name(shown: str) -> str:
    """The path a file of another format could be renamed to: its suffix replaced by .md."""
    folder, _, name = shown.rpartition("/")
    stem = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name
    return f"{folder}/{stem}.md"


def require_no_tilde(tp: ToolPath) -> None:
    """Refuse a new name (a file created, a rename's destination) with a part starting '~'.

    `/memories/~/x.md` made a folder named `~` in the memory dir (security.md §39): the rule and
    its words are the name gate's `tilde_refusal`, which the extractor's Write, import and
    MemoryStore.save use too. A model that wrote `~` most likely meant a home it cannot reach.
    A name already there is still viewed, edited, moved and deleted.
    """
    refusal = tilde_refusal(tp.key, "the memory tool", ROOT)
    if refusal is not None:
        raise MemoryCommandError(f"{tp.shown} is refused: {refusal}.")


def require_no_twin(tp: ToolPath) -> None:
    """Refuse a new name that another Unicode normal form of it already holds (`café` decomposed
    beside `café` composed: storage.name_twins); on macOS the two are one file."""
    root = tp.real[: len(tp.real) - len(tp.rel)].rstrip(os.sep) or os.sep
    problem = new_name_twin(root, tp.rel) if tp.rel else None
    if problem is not None:
        raise MemoryCommandError(f"{tp.shown} is refused: {problem}. Nothing was written.")


def require_memory_file(tp: ToolPath, *, existing: bool = False) -> None:
    """Refuse a path (as written, and as resolved) that is not a memory file or an index.

    `existing`: the path names a file that is there, which the model can still view, rename
    to a `.md` name or delete when only its name is not a memory file's; the refusal says so.
    Otherwise the path is a name about to be made, and require_no_tilde and require_no_twin
    apply too.
    """
    if not existing:
        require_no_tilde(tp)
    for rel in dict.fromkeys((tp.key, tp.rel)):
        problem = file_problem(rel)
        if problem:
            way_out = ""
            if (
                existing
                and other_file_problem(tp.key) is None
                and other_file_problem(tp.rel) is None
            ):
                way_out = (
                    ", so the memory tool does not edit it. View it, then rename it to a "
                    f"Markdown name (e.g. {_markdown_name(tp.shown)}) to keep it as a memory, "
                    "or delete it"
                )
            raise MemoryCommandError(
                f"{tp.shown} is not a memory file: {problem}{way_out}. {MEMORY_FILE_FORMAT}"
            )
    if not existing:
        require_no_twin(tp)


def require_other_file(tp: ToolPath) -> None:
    """Refuse a file path (as written, and as resolved) that may not be viewed, moved or deleted."""
    for rel in dict.fromkeys((tp.key, tp.rel)):
        problem = other_file_problem(rel)
        if problem:
            raise MemoryCommandError(
                f"{tp.shown} is not a memory file: {problem}. {MEMORY_FILE_FORMAT}"
            )


def require_folder_path(tp: ToolPath, *, new: bool = False) -> None:
    """Refuse a folder path whose parts the name gate refuses (a folder named like a file is fine).

    `new`: the folder is about to be made (a rename's destination), so require_no_tilde applies.
    """
    if new:
        require_no_tilde(tp)
        require_no_twin(tp)
    parts = tp.key.split("/") if tp.key else []
    too_deep = depth_problem(len(parts))
    if too_deep:
        raise MemoryCommandError(f"{tp.shown} is not a usable folder: it {too_deep}.")
    for depth, part in enumerate(parts):
        problem = folder_problem(part, top=depth == 0)
        if problem:
            raise MemoryCommandError(f"{tp.shown} is not a usable folder: {part!r} {problem}.")


def _links_to_a_file(path: str) -> int:
    """How many symlinks lead from path to what is not one (0 for a file; 40 looked at, at most)."""
    hops = 0
    try:
        while hops < 40 and os.path.islink(path):
            path = os.path.join(os.path.dirname(path), os.readlink(path))
            hops += 1
    except OSError:  # removed meanwhile: the move says so
        pass
    return hops


def links_before_targets(real_root: str, rels: list[str]) -> list[str]:
    """The files a folder step moves, each link before what it leads to (else in rels' order).

    Moved after its target, a link to a file beside it ('in.md' -> 'a.md') was dangling, the
    store refused it, and the whole step was rolled back: such a folder could never be
    deleted, renamed or cleared (attack round 18). In the trash the order holds too, so a
    restore puts the link back while its target is still beside it.
    """
    return sorted(rels, key=lambda rel: -_links_to_a_file(os.path.join(real_root, rel)))


def secure_makedirs(path: str) -> None:
    """Create path and its missing parents as OWNER_FOLDER_MODE (0700), whatever the umask."""
    missing: list[str] = []
    current = os.path.abspath(path)
    while not os.path.lexists(current):
        missing.append(current)
        current = os.path.dirname(current)
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder, OWNER_FOLDER_MODE)
            os.chmod(folder, OWNER_FOLDER_MODE)


def remove_empty_folders(real_root: str, tp: ToolPath) -> None:
    """rmdir the folders a memory-tool folder step emptied under tp (never the root, never
    hidden ones): those the step's listing walks. Walking all, a hidden `.cache/a/a/…` 1,000 deep
    raised RecursionError (3.11's os.walk recurses) and the step was rolled back for good
    (attack round 20)."""
    folders = []
    for folder, dirs, _files in os.walk(tp.real):
        rel = os.path.relpath(folder, real_root)
        level = 0 if rel == os.curdir else rel.count(os.sep) + 1
        deep = depth_problem(level + 1) is not None
        dirs[:] = [] if deep else [d for d in dirs if not d.startswith(".")]
        folders.append(folder)
    for folder in sorted(folders, key=len, reverse=True):
        with contextlib.suppress(OSError):  # a folder that keeps changing is left as it is
            if real_path(folder) != real_root:
                os.rmdir(folder)
