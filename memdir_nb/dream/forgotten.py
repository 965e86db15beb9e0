"""Restoring a memory `MemoryStore.forget` moved to `.trash/<stamp>-<name, '/' as '__'>`.

Forget keeps no manifest (storage.targets.free_trash_path names the copy, and the name is all
there is), so `dream.apply.restore` comes here for a memory name no batch holds more recently:
the newest forgotten copy is moved back through the store transaction (into team/, the secret
guard scans it) and its index line is put back: the line(s) its forget dropped, byte for byte,
from the file kept beside the copy (storage.index_writes), so a person's citation comes back
with it; for a copy with none (an older version's forget) the line save writes, from the
header's name and description. A line already there is kept either way. Copies forgotten by
every version so far have this layout, so the ones already on people's disks are found the
same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memdir_nb.dream.restore_error import RestoreError
from memdir_nb.formats.names import written_path_problem
from memdir_nb.spec.constants import TEAM_DIRNAME, TRASH_DIRNAME
from memdir_nb.spec.text import terminal_line
from memdir_nb.storage import fsutil
from memdir_nb.storage.agent_root_index import agent_index_paths
from memdir_nb.storage.index_writes import kept_lines
from memdir_nb.storage.memory_filenames import split_store_filename, store_filename
from memdir_nb.storage.name_twins import new_name_twin
from memdir_nb.storage.store_checks import MemoryValidationError
from memdir_nb.storage.targets import forgotten_copy_order, forgotten_stamp

if TYPE_CHECKING:
    from memdir_nb.storage.store import MemoryStore
    from memdir_nb.storage.transaction import StoreTransaction


@dataclass(frozen=True)
class ForgottenCopy:
    """The newest forgotten copy of a memory: where it is in .trash and where it goes back."""

    rel: str  # 'x.md' or 'team/x.md'
    trash_rel: str  # '.trash/<stamp>-<flat name>'
    seconds: float  # its stamp's moment, weighed against a batch holding the same name

    def refusal(self, why: str) -> RestoreError:
        return RestoreError(
            f"cannot restore {terminal_line(self.rel)}: {why}. Nothing was restored; rename or "
            f"forget that file first, or copy {terminal_line(self.trash_rel)} back by hand "
            "under another name."
        )


def newest_forgotten(root: Path, name: str) -> ForgottenCopy | None:
    """The newest copy of the memory name ('x.md', 'team/x.md') that forget left in .trash, or
    None (no such copy, a name that is no memory's, or a .trash that cannot be listed: the
    batch listing says why)."""
    try:
        scope, plain = split_store_filename(name)
    except MemoryValidationError:
        return None
    rel = store_filename(scope, plain)
    found = [
        (order, n)
        for n in forgotten_files(root)
        if (order := forgotten_copy_order(n, rel)) is not None
    ]
    if not found:
        return None
    (seconds, _number), trash_name = max(found)
    return ForgottenCopy(rel, f"{TRASH_DIRNAME}/{trash_name}", seconds)


def forgotten_files(root: Path) -> list[str]:
    """The names in .trash forget left (`<stamp>-<name, '/' as '__'>`), oldest first; none
    when .trash cannot be listed (the batch listing says why)."""
    try:
        names = fsutil.names_in_nofollow(root, [TRASH_DIRNAME])
    except (OSError, fsutil.SymlinkSwapError):
        return []
    found = [(seconds, n) for n in names if (seconds := forgotten_stamp(n)) is not None]
    return [n for _s, n in sorted(found) if fsutil.is_regular_file(root / TRASH_DIRNAME / n)]


def _memory_name(trash_name: str, listed: frozenset[str]) -> str | None:
    """The memory name ('x.md', 'team/x.md') a forgotten copy's name in .trash stands for, or
    None. `<stamp>-<flat>` or `<stamp>-<n>-<flat>`, flat being the name with '/' as '__'; a
    reading is kept only when forgotten_copy_order, which restore uses, finds that copy by it.
    `<stamp>-2-x.md` is the second x.md forgotten in that millisecond when `<stamp>-x.md` is
    listed too (free_trash_path numbers only a taken name), else a memory named 2-x.md."""
    if forgotten_stamp(trash_name) is None:
        return None
    stamp, rest = trash_name.split("-", 1)  # the stamp holds no '-'
    number, _sep, after = rest.partition("-")
    numbered = after if number.isdigit() and f"{stamp}-{after}" in listed else ""
    team = TEAM_DIRNAME + "__"
    for flat in (numbered, rest):
        readings = [f"{TEAM_DIRNAME}/{flat[len(team) :]}"] if flat.startswith(team) else []
        for rel in [*readings, flat]:
            try:
                split_store_filename(rel)
            except MemoryValidationError:
                continue
            if forgotten_copy_order(trash_name, rel) is not None:
                return rel
    return None


def forgotten_names(root: Path) -> list[str]:
    """The memory names ('x.md', 'team/x.md') forget left a copy of in .trash, each once,
    newest first: what `restore(dir, name)` takes to put the newest copy back."""
    files = forgotten_files(root)
    listed = frozenset(files)
    names = (_memory_name(n, listed) for n in reversed(files))
    return list(dict.fromkeys(n for n in names if n is not None))


def check_put_back(tx: StoreTransaction, root: Path, copy: ForgottenCopy) -> list[str]:
    """The files putting copy back writes, or RestoreError naming the fix; reads only (a
    preview runs it on a read-only view): the name gate, the path's containment, no file of
    that name made since, no twin of it in the other Unicode normal form."""
    problem = written_path_problem(copy.rel, agent_index_paths(root))
    if problem is not None:
        raise copy.refusal(problem)
    tx.resolve(copy.rel)  # PathTraversalError: a symlinked folder on the way
    if tx.exists(copy.rel):
        raise copy.refusal(f"a file {terminal_line(copy.rel)} was made after it was forgotten")
    twin = new_name_twin(root, copy.rel)
    if twin is not None:
        raise copy.refusal(twin)
    return [copy.rel]


def put_back(tx: StoreTransaction, store: MemoryStore, copy: ForgottenCopy) -> list[str]:
    """Move copy back and write its index line (the one its forget kept, else save's), in tx,
    after the same checks as the preview. A kept file that cannot be used is named in the
    store's warnings, and save's line written."""
    done = check_put_back(tx, store.memory_dir, copy)
    kept, problem = kept_lines(tx, copy.trash_rel, split_store_filename(copy.rel)[1])
    if problem is not None:
        store.warnings.append(f"{problem}; the index line was written from the memory's header")
    tx.move(copy.trash_rel, copy.rel)  # into team/, the secret guard scans it
    text = tx.read_bytes(copy.rel)
    store.index_put_back(tx, copy.rel, (text or b"").decode("utf-8", "replace"), kept)
    return done
