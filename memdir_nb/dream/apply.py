"""Applying an approved plan in one store transaction, and restoring a dream's files from the trash."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memdir_nb.clock import resolve_now_ms
from memdir_nb.dream.actions import (
    ConsolidationPlan,
    PlanAction,
    PlanError,
    PlanStaleError,
    _approved,
    _sha,
    _simulate,
    refuse_claude_plan_across_agents,
)
from memdir_nb.dream.forgotten import (
    ForgottenCopy,
    check_put_back,
    forgotten_names,
    newest_forgotten,
    put_back,
)
from memdir_nb.dream.link_notes import rewrite_link_notes
from memdir_nb.dream.restore_error import RestoreError as RestoreError  # re-exported
from memdir_nb.dream.trash_batches import batch_seconds
from memdir_nb.dream.trash_batches import list_dreams as list_dreams  # re-exported
from memdir_nb.dream.trash_batches import list_trash_batches as list_trash_batches  # re-exported
from memdir_nb.formats.index import IndexCapVerdict, index_cap_verdict
from memdir_nb.formats.jsonio import loads_bounded
from memdir_nb.formats.names import tilde_free, tilde_problem, written_path_problem
from memdir_nb.spec.constants import (
    DREAM_BATCH_PREFIX,
    ENTRYPOINT_NAME,
    MEMORY_TOOL_BATCH_PREFIX,
    TRASH_DIRNAME,
    TRASH_MANIFEST_MAX_BYTES,
)
from memdir_nb.spec.text import first_few, terminal_line
from memdir_nb.spec.timestamps import trash_stamp
from memdir_nb.storage.agent_root_index import agent_index_paths
from memdir_nb.storage.containment import PathTraversalError, absolute_dir
from memdir_nb.storage.name_twins import new_name_twin
from memdir_nb.storage.read_view import open_read_only
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.write_errors import require_utf8
from memdir_nb.toolloop.memory_paths import other_file_problem

if TYPE_CHECKING:
    from memdir_nb.storage.store import MemoryStore
    from memdir_nb.storage.transaction import StoreTransaction


@dataclass(frozen=True)
class ApplyResult:
    """What apply_plan changed and where the previous versions went."""

    batch: str  # the trash batch name, for restore()
    changed: tuple[str, ...]
    trashed: tuple[str, ...]
    # Each MEMORY.md the dream wrote -> its cap verdict (over: rewrite to ~70%; near: reminder),
    # as Claude Code 2.1.210+ tells an agent whose write leaves the index over its cap.
    index_verdicts: dict[str, IndexCapVerdict] = field(default_factory=dict)
    # one line for each file the applied actions renamed or retired while other memories still
    # link it by a name no memory answers to (dream.link_notes; nothing was rewritten for them)
    link_notes: tuple[str, ...] = ()

    @property
    def index_messages(self) -> list[str]:
        """'<path>: <message>' for each written index over or near its cap."""
        return [f"{rel}: {v.message}" for rel, v in self.index_verdicts.items() if v.message]


def _current_hash(tx: StoreTransaction, rel: str) -> str | None:
    data = tx.read_bytes(rel)
    return None if data is None else _sha(data)


def _writable_name_problem(
    rel: str, after: str | None, what: str, indexes: frozenset[str]
) -> str | None:
    """Why a file to be written (after not None) may not be, in words naming the fix, else None
    (indexes: the agents' own indexes an agent memory root keeps, written as its index is)."""
    problem = None if after is None else written_path_problem(rel, indexes)
    return None if problem is None else f"{what}: {problem}; nothing was written"


def _put_back_problem(batch: str, rel: str, before: bool, indexes: frozenset[str]) -> str | None:
    """Why restore may not put rel back from batch, in words naming the fix, else None.

    A memory-tool batch may hold any file the memory tool itself moves: a `notes.txt` another
    backend left, deleted with the folder around it (toolloop.memory_paths.other_file_problem,
    the tool's own rule), so it may put those names back. Every other batch puts back memory
    names and the two indexes only (formats.names.written_path_problem).
    """
    what = "a file cannot be put back"
    if before and batch.startswith(MEMORY_TOOL_BATCH_PREFIX):
        problem = other_file_problem(rel)
        return None if problem is None else f"{what}: {problem}; nothing was written"
    return _writable_name_problem(rel, "" if before else None, what, indexes)


def _store_for(root: Path, store: MemoryStore | None) -> MemoryStore:
    if store is None:
        return MemoryStore(root)
    if Path(os.path.abspath(store.memory_dir)) != Path(os.path.abspath(root)):
        raise PlanError(
            f"the store given is for {store.memory_dir}, but the plan is for {root}; "
            "pass MemoryStore(plan.memory_dir)"
        )
    return store


def apply_plan(
    plan: ConsolidationPlan,
    approve: Collection[str | PlanAction] | None = None,
    *,
    store: MemoryStore | None = None,
) -> ApplyResult:
    """Apply the approved actions (None: all) in one store transaction; old versions go to .trash/<batch>/."""
    if plan.applied:
        raise PlanError("this plan was already applied; make a new plan with plan_consolidation()")
    actions = _approved(plan, approve)
    refuse_claude_plan_across_agents(plan, actions)  # PlanError before the lock: nothing written
    root = plan.memory_dir
    with _store_for(root, store).transaction() as tx:
        touched = sorted({rel for a in actions for rel in a.files} | set(_simulate(plan, actions)))
        changed_underneath = []
        read: dict[str, bytes | None] = {}  # what each file holds as checked: the writes' base
        tx.look_ahead(touched)  # one pause for all empty files, not one each (§68)
        for rel in touched:
            data = read[rel] = tx.read_bytes(rel)
            now_hash = None if data is None else _sha(data)
            if now_hash != plan.hashes.get(rel, now_hash):
                what = (
                    "deleted"
                    if now_hash is None
                    else ("created" if plan.hashes.get(rel) is None else "modified")
                )
                changed_underneath.append(f"{rel} ({what})")
        if changed_underneath:
            raise PlanStaleError(
                "files changed since the plan was made: "
                + ", ".join(changed_underneath)
                + "; nothing was applied. Make a new plan with plan_consolidation()."
            )
        result = _simulate(plan, actions)
        _check_targets(tx, result, read)
        notes = rewrite_link_notes(root, plan.snapshot, result)  # before anything is written
        applied_ms = plan.clock()
        stamp = trash_stamp(applied_ms)
        batch = f"{DREAM_BATCH_PREFIX}{stamp}-{os.getpid()}-{hashlib.sha1(repr(sorted(result)).encode()).hexdigest()[:6]}"
        batch = _free_batch_name(tx, batch)
        bdir = f"{TRASH_DIRNAME}/{batch}"
        manifest: dict[str, Any] = {
            "created_ms": applied_ms,
            "actions": [a.id for a in actions],
            "files": {},
        }
        for rel, after in result.items():
            before_exists = plan.snapshot.get(rel) is not None
            if before_exists:
                if after is None:
                    tx.move(rel, f"{bdir}/{rel}")  # moved, never unlinked
                else:
                    tx.keep_copy(rel, f"{bdir}/{rel}")
            if after is not None:
                # re-validated here; into team/ the secret guard scans it. A person's save
                # since the check above is kept (ChangedMeanwhileError), never written over.
                _write_over(tx, rel, after, read.get(rel))
            manifest["files"][rel] = {
                "before": before_exists,
                "after_sha": None if after is None else _sha(after.encode("utf-8")),
            }
        tx.write(f"{bdir}/manifest.json", json.dumps(manifest, indent=2))
        plan.applied = True
    return ApplyResult(
        batch,
        tuple(r for r, t in result.items() if t is not None),
        tuple(r for r, t in result.items() if t is None),
        {
            rel: index_cap_verdict(text)
            for rel, text in sorted(result.items())
            if text is not None and Path(rel).name == ENTRYPOINT_NAME
        },
        tuple(notes),
    )


def _free_batch_name(tx: StoreTransaction, batch: str) -> str:
    """batch, or batch-2, -3, ... when a fixed clock repeats a stamp. Asked of the store, which
    refuses a .trash that is a link before anything is listed (a glob followed it: attack
    round 30)."""
    name, n = batch, 1
    while tx.exists(f"{TRASH_DIRNAME}/{name}"):
        n += 1
        name = f"{batch}-{n}"
    return name


def _check_targets(
    tx: StoreTransaction, result: dict[str, str | None], read: dict[str, bytes | None]
) -> None:
    """Every target checked before the first change: a name the plan may write, and a file it
    rewrites holding UTF-8 (the plan read it with bad bytes replaced: writing that back would
    lose them, so NotUTF8Error, as the store's other edits)."""
    indexes = agent_index_paths(tx.memory_dir)
    for rel, after in result.items():
        tx.resolve(rel)
        base = read.get(rel)
        if after is not None and base is not None:
            require_utf8(rel, base)
        refused = _writable_name_problem(rel, after, "the plan cannot write a file", indexes)
        if refused is not None:
            raise PlanError(f"{refused}. Give that file another name in the plan.")
        tilde = tilde_problem(rel) if after is not None and base is None else None
        if tilde is not None:  # a new name only: a `~` file already there is still rewritten
            raise PlanError(
                f"the plan cannot write a file: {tilde}, so a dream makes no such name; nothing "
                f"was written. Give that file another name in the plan (e.g. {tilde_free(rel)})."
            )
        twin = new_name_twin(tx.memory_dir, rel) if after is not None and base is None else None
        if twin is not None:  # `café` decomposed beside `café` composed: one file on macOS
            raise PlanError(
                f"the plan cannot write {terminal_line(rel)}: {twin}; nothing was written. "
                "Give that file another name in the plan."
            )


def _write_over(tx: StoreTransaction, rel: str, data: str | bytes, base: bytes | None) -> None:
    """Write rel only over what it held when checked (`base`; None: nothing, so the file must
    still be absent): a save another program made since is kept and the step is refused
    (ChangedMeanwhileError, or FileExistsError for a file made meanwhile), never overwritten."""
    if base is None:
        tx.write(rel, data, create_only=True)
    else:
        tx.write(rel, data, based_on=base)


def _as_left(tx: StoreTransaction, rel: str, batch: str, info: dict[str, Any]) -> bytes | None:
    """What rel holds now, which must be what the batch left there (its after_sha)."""
    now = tx.read_bytes(rel)
    if (None if now is None else _sha(now)) != info["after_sha"]:
        raise RestoreError(
            f"cannot restore {batch}: {rel} changed after {batch} was made; move those edits "
            "aside first. Nothing was restored."
        )
    return now


def preview_trash(memory_dir: str | os.PathLike[str]) -> list[tuple[str, list[str] | RestoreError]]:
    """Each batch in .trash/, oldest first, with the files restoring it would put back, or the
    RestoreError saying why it cannot be: what `restore(dir, batch, dry_run=True)` answers for
    each, with .trash listed once and one read-only view for all (a preview per batch listed
    .trash again for each: 1,000 batches cost 2 million stats and 46 s, attack round 22)."""
    root = absolute_dir(memory_dir)
    batches = list_trash_batches(root)
    previews: list[tuple[str, list[str] | RestoreError]] = []
    if not batches:
        return previews
    with open_read_only(root) as view:
        for batch in batches:
            try:
                previews.append((batch, list(_restorable(view, root, batch, batches)[2])))
            except RestoreError as why:
                previews.append((batch, why))
            except PathTraversalError as why:  # one batch's refusal, not the listing's end
                previews.append((batch, RestoreError(f"cannot restore {batch}: {why}")))
    return previews


# The batches an error names, newest first; the rest are counted (a dir's .trash can hold
# thousands, and naming them all made one line of 41 KB for 1,000: attack round 22).
_BATCHES_NAMED = 10


def _newest_named(batches: list[str]) -> str:
    """'none', or the newest few batch names, newest first, and how many older ones there are."""
    return first_few(batches[::-1], _BATCHES_NAMED, "older") if batches else "none"


def none_selected(memory_dir: str | os.PathLike[str]) -> str:
    """What to say when a restore names no batch (an empty name, a preview without one): the
    batches there and the memories forget left there, newest first, and how to name one; or
    that there is nothing to restore."""
    root = absolute_dir(memory_dir)
    try:
        batches = list_trash_batches(root)
    except RestoreError as exc:
        return str(exc)
    forgotten = forgotten_names(root)
    copies = (
        f"a memory forgotten there by its name (newest first: "
        f"{first_few(forgotten, _BATCHES_NAMED, 'older')})"
    )
    if not batches:
        if forgotten:
            return f"nothing is selected, and {root / TRASH_DIRNAME} holds no batch; name {copies}"
        return f"no batch is selected, and {root / TRASH_DIRNAME} holds none to restore"
    return (
        f"no batch is selected; name one of the batches in {root / TRASH_DIRNAME} (newest first: "
        f"{_newest_named(batches)}), or a file one of them holds"
        + (f", or {copies}" if forgotten else "")
    )


def _files_or_none(tx: StoreTransaction, batch: str) -> dict[str, Any]:
    """A batch's files, or none when its manifest cannot be read (looking for one file's batch
    passes over a broken batch; restoring that batch by name says why)."""
    try:
        files: dict[str, Any] = _manifest(tx, batch)["files"]
    except RestoreError:
        return {}
    return files


def _manifest(tx: StoreTransaction, batch: str) -> dict[str, Any]:
    try:  # one batch the contained reader refuses (a symlink out, a FIFO) is that batch's refusal
        raw = tx.read_text(
            f"{TRASH_DIRNAME}/{batch}/manifest.json", max_bytes=TRASH_MANIFEST_MAX_BYTES
        )
    except (OSError, ValueError) as exc:
        raise RestoreError(
            f"{TRASH_DIRNAME}/{batch}/manifest.json cannot be read ({exc}); that batch cannot be "
            "restored automatically: check what it is, or copy its files back by hand"
        ) from exc
    try:
        data = loads_bounded(raw or "", max_bytes=TRASH_MANIFEST_MAX_BYTES, what="the manifest")
        files = data["files"]
        if not isinstance(files, dict):
            raise TypeError("files is not an object")
        for rel, info in files.items():
            if not (
                isinstance(info, dict)
                and isinstance(info.get("before"), bool)
                and "after_sha" in info  # read by every restore: a KeyError when left out
                and (info["after_sha"] is None or isinstance(info["after_sha"], str))
            ):
                raise TypeError(
                    f"the entry for {rel!r} is not {{'before': true|false, 'after_sha': text|null}}"
                )
        if not isinstance(data.get("restored", {}), dict):  # attack round 14: a traceback
            raise TypeError("restored is not an object of file names and times")
    except (ValueError, KeyError, TypeError) as exc:
        raise RestoreError(
            f"{TRASH_DIRNAME}/{batch}/manifest.json is unreadable ({exc}); that dream cannot be "
            "restored automatically: copy its files back by hand"
        ) from exc
    manifest: dict[str, Any] = data
    return manifest


def restore(
    memory_dir: str | os.PathLike[str],
    name: str,
    *,
    now_ms: float | None = None,
    store: MemoryStore | None = None,
    dry_run: bool = False,
) -> list[str]:
    """Undo a batch (a dream's 'dream-...', the memory tool's 'memory-tool-...', a replaced
    index's 'rebuild-index-...'), or restore one file (its relative name) from the newest batch
    holding it, or a memory forget moved to .trash (dream.forgotten) when its copy there is
    newer than any such batch; returns the files put back. dry_run: the same checks and refusals, and the files
    that would be put back, with nothing written and no lock taken (a dir this user cannot write
    to can still be previewed)."""
    root = absolute_dir(memory_dir)
    if not name.strip():
        raise RestoreError(none_selected(root))
    batches = list_trash_batches(root)
    copy = None if name in batches else newest_forgotten(root, name)  # forget's, no manifest
    # Nothing to open: the dir or its .trash is missing. Refused before the store's lock is
    # taken, as a preview is: a restore from a dir with no batch left .memdir.lock behind in it
    # while saying nothing was restored (fresh38).
    if not batches and copy is None:
        raise RestoreError(
            f"nothing named {name!r} in {root / TRASH_DIRNAME}, which holds no batch and no "
            "forgotten memory of that name; nothing was restored"
        )
    if dry_run:
        with open_read_only(root) as view:
            if copy is not None and _forgotten_wins(view, copy, name, batches):
                return check_put_back(view, root, copy)
            return list(_restorable(view, root, name)[2])
    with (the_store := _store_for(root, store)).transaction() as tx:
        if copy is not None and _forgotten_wins(tx, copy, name, batches):
            return put_back(tx, the_store, copy)
        batch, manifest, files = _restorable(tx, root, name)
        bdir = f"{TRASH_DIRNAME}/{batch}"
        done = []
        tx.look_ahead(f"{bdir}/{rel}" for rel, info in files.items() if info["before"])
        for rel, info in files.items():
            if info["before"]:
                old = tx.read_bytes(f"{bdir}/{rel}")
                if old is None:
                    raise RestoreError(
                        f"{bdir}/{rel} is missing, so {rel} cannot be restored; nothing was restored"
                    )
                # re-validated when written; into team/ the guard scans it. What the batch
                # left there is all it replaces: an edit since _restorable's check is kept.
                _write_over(tx, rel, old, _as_left(tx, rel, batch, info))
            elif tx.exists(rel):
                tx.move(rel, f"{bdir}/created-by-dream/{rel}")
            done.append(rel)
        manifest.setdefault("restored", {}).update({r: resolve_now_ms(now_ms) for r in done})
        tx.write(f"{bdir}/manifest.json", json.dumps(manifest, indent=2))
    return done


def _newest_holding(tx: StoreTransaction, name: str, batches: list[str]) -> str | None:
    """The newest batch whose manifest holds the file name, else None."""
    return next((b for b in reversed(batches) if name in _files_or_none(tx, b)), None)


def _forgotten_wins(
    tx: StoreTransaction, copy: ForgottenCopy, name: str, batches: list[str]
) -> bool:
    """Whether copy, forgotten no earlier than the newest batch holding name, is what a restore
    of name puts back (the newest copy in .trash wins)."""
    batch = _newest_holding(tx, name, batches)
    return batch is None or copy.seconds >= batch_seconds(batch)


def _restorable(
    tx: StoreTransaction, root: Path, name: str, batches: list[str] | None = None
) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """(batch, its manifest, the files to put back) for restore(name); RestoreError says why not.

    Reads only, so a preview runs it on a read-only view and a restore under the store lock.
    batches: the listing of .trash when the caller has just made it (preview_trash).
    """
    if batches is None:
        batches = list_trash_batches(root)
    if name in batches:
        batch, only = name, None
    else:
        holding = _newest_holding(tx, name, batches)
        if holding is None:
            raise RestoreError(
                f"nothing named {name!r} in {root / TRASH_DIRNAME}; batches there: "
                + _newest_named(batches)
            )
        batch, only = holding, name
    manifest = _manifest(tx, batch)
    files = {r: v for r, v in manifest["files"].items() if only is None or r == only}
    if manifest.get("restored", {}) and all(r in manifest["restored"] for r in files):
        what = f"{batch} was" if only is None else f"{name!r} was"
        raise RestoreError(f"{what} already restored" + ("" if only is None else f" from {batch}"))
    indexes = agent_index_paths(root)
    for rel, info in files.items():  # a hostile manifest ('../x', a swapped folder, con.md)
        refused = _put_back_problem(batch, rel, bool(info["before"]), indexes)  # before resolving
        if refused is None:
            tx.resolve(rel)  # PathTraversalError: a symlinked folder on the way
        if refused is not None:
            raise RestoreError(
                f"cannot restore {batch}: {refused}. Copy {TRASH_DIRNAME}/{batch}/{rel} "
                "back by hand under another name."
            )
    conflicts = [r for r, v in files.items() if _current_hash(tx, r) != v["after_sha"]]
    if conflicts:
        raise RestoreError(
            f"cannot restore {batch}: {', '.join(conflicts)} changed after {batch} was made; "
            "move those edits aside first. Nothing was restored."
        )
    for rel, info in files.items():  # put back beside its twin made since: one file on macOS
        if info["before"] and info["after_sha"] is None and (t := new_name_twin(root, rel)):
            raise RestoreError(
                f"cannot restore {batch}: {terminal_line(rel)}: {t}. Nothing was restored; "
                f"rename or forget that file first, or copy {TRASH_DIRNAME}/{batch}/{rel} back "
                "by hand under another name."
            )
    return batch, manifest, files
