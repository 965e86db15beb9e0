"""MemoryStore: saves, updates, forgets and moves memories, each as one store transaction.

Every change (a topic file plus the MEMORY.md line that points at it, or a move between the
private and team scopes with both indexes) is one `StoreTransaction` (memdir_nb.storage.transaction):
the store lock at `<memory_dir>/.memdir.lock`, every target checked again when it is written,
files replaced atomically through directory descriptors that never follow a symlink, the
secret guard on every write into team/, and a journal that rolls the step back if it fails or
the process is killed. `store.transaction()` hands the same door to other writers (dream,
index rebuilds, the extractor's tools).
"""

from __future__ import annotations

import builtins
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from memdir_nb.clock import resolve_now_ms
from memdir_nb.formats import frontmatter, index
from memdir_nb.formats.frontmatter_render import (
    render_memory_file,
    render_updated_memory_file,
)
from memdir_nb.security import log_lines, secret_scan
from memdir_nb.spec import constants
from memdir_nb.spec.constants import ENTRYPOINT_NAME
from memdir_nb.spec.taxonomy import (
    USER_NEVER_TEAM,
    MemoryType,
    require_memory_type,
    scope_violation,
)
from memdir_nb.storage import containment as team_paths
from memdir_nb.storage import scan
from memdir_nb.storage.access import ReadResult, try_read_contained
from memdir_nb.storage.draft import DraftVerdict, type_problem, validate_draft
from memdir_nb.storage.index_rebuild import (
    RebuildResult,
    rebuild_in_transaction,
    refuse_folder_of_memory_dirs,
)
from memdir_nb.storage.index_writes import (
    cited_line,
    keep_dropped_lines,
    put_index_line,
    put_kept_lines,
    remove_index_line,
)
from memdir_nb.storage.link_report import LinksLeft, LinkSnapshot
from memdir_nb.storage.memory_filenames import (
    free_memory_filename,
    holds_same_memory,
    split_store_filename,
    store_filename,
)
from memdir_nb.storage.name_twins import new_name_twin
from memdir_nb.storage.store_checks import (
    MemoryNotFoundError,
    MemoryValidationError,
    _require_body,
    _require_scope,
    _require_text,
    _require_type,
    check_plain_md_name,
    default_filename,
    raise_for_verdict,
)
from memdir_nb.storage.targets import free_trash_path
from memdir_nb.storage.transaction import (
    CrashHook,
    StoreTransaction,
    TransactionError,
    open_transaction,
)

if TYPE_CHECKING:
    from memdir_nb.clock import HasClock
    from memdir_nb.formats.manifest import MemoryHeader

log = logging.getLogger(__name__)
log.addFilter(log_lines.OneLineRecords())  # a warning is one line, whatever it names

LOCK_NAME = constants.STORE_LOCK_NAME
TRASH_DIRNAME = constants.TRASH_DIRNAME
TEAM_DIRNAME = constants.TEAM_DIRNAME
LOCK_TIMEOUT_S = constants.STORE_LOCK_TIMEOUT_S

# --- the store ----------------------------------------------------------------------------


class MemoryStore:
    """Saves, updates, forgets and moves memories in one memory dir (private + team/)."""

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        config: HasClock | None = None,
        now_ms: float | None = None,
        crash_hook: CrashHook | None = None,
    ) -> None:
        self.memory_dir = Path(os.path.abspath(os.fspath(memory_dir)))
        # Tests pass a callable that is told each named point inside a step (and may kill the process there).
        self.crash_hook = crash_hook
        self._in_transaction = False
        self.team_dir = self.memory_dir / TEAM_DIRNAME
        self.trash_dir = self.memory_dir / TRASH_DIRNAME
        self.lock_path = self.memory_dir / LOCK_NAME
        self.config = config
        self._fixed_now_ms = now_ms
        self.warnings: list[str] = []
        # The cap verdict of the MEMORY.md the last save/update/forget wrote (None: none yet):
        # over its cap, the write stands but the index should be rewritten to about 70%. And
        # the [[name]] links the last update, forget or demote left naming nothing (link_report).
        self.last_index_verdict: index.IndexCapVerdict | None = None
        self.last_links_left = LinksLeft()

    # -- helpers

    def _now_ms(self) -> float:
        return resolve_now_ms(self._fixed_now_ms, self.config)

    def _scope_dir(self, scope: str) -> Path:
        return self.team_dir if scope == "team" else self.memory_dir

    def _validate_target(self, path: Path, scope: str) -> Path:
        """Both containment passes (string, then realpath) for the scope; raises PathTraversalError."""
        if scope == "team":
            team_paths.validate_team_mem_write_path(str(path), str(self.team_dir) + os.sep)
        # Team writes are checked against the memory dir as well: the team check takes the
        # team dir's own realpath as its base, so a planted `team -> /elsewhere` link would
        # otherwise pass.
        checked = team_paths.validate_memory_write_path(str(path), str(self.memory_dir) + os.sep)
        return Path(checked)

    def _split(self, filename: object) -> tuple[str, str]:
        return split_store_filename(filename)

    def _rel(self, scope: str, plain: str) -> str:
        return store_filename(scope, plain)

    def _not_found(self, rel: str) -> MemoryNotFoundError:
        return MemoryNotFoundError(
            f"no memory file {rel!r} in {self.memory_dir}; call store.list() (or run "
            f"`memdir-nb scan {self.memory_dir}`) to see the memories that exist"
        )

    @contextmanager
    def transaction(self, *, owner_only: bool = False) -> Iterator[StoreTransaction]:
        """The one door for writes: the store lock, write-time checks, the secret guard, rollback.

        `with store.transaction() as tx: tx.write("team/x.md", text)`; a step that raises (or a
        process killed inside it) is rolled back, by the journal if need be. owner_only=True
        writes files 0600 and creates folders 0700 whatever the umask (the memory tool's modes).
        """
        if self._in_transaction:
            raise TransactionError(
                "this store is already inside a transaction; do the work with the open `tx` "
                "instead of calling store methods inside it (a second lock would wait forever)"
            )
        self._in_transaction = True
        try:
            with open_transaction(
                self.memory_dir, crash_hook=self.crash_hook, owner_only=owner_only
            ) as tx:
                for note in tx.recovered:
                    self.warnings.append(note)
                    log.warning(note)
                yield tx
        finally:
            self._in_transaction = False

    def recover(self) -> builtins.list[str]:
        """Repair what a killed step left (roll it back, or finish it); returns what was done."""
        with open_transaction(self.memory_dir, crash_hook=self.crash_hook) as tx:
            return builtins.list(tx.recovered)

    def _scan_fields(
        self, name: str, description: str, body: str
    ) -> list[secret_scan.SecretFinding]:
        return secret_scan.scan_for_secrets(
            {"name": name, "description": description, "body": body}
        )

    def _keep_warnings(self, rel: str, verdict: DraftVerdict) -> None:
        """Record the verdict's warnings for a write that went ahead (store.warnings, the log)."""
        for problem in verdict.warnings:
            msg = f"{rel}: {problem.message}"
            self.warnings.append(msg)
            log.warning(msg)

    def _write_index_line(
        self,
        tx: StoreTransaction,
        scope: str,
        plain: str,
        title: str,
        hook: str,
        *,
        keep_existing: bool = False,
        line: str | None = None,
    ) -> None:
        """Point the scope's index at plain (storage.index_writes): with the line save writes,
        or `line` as given (a cited line a move carries). A line there that cites a source is
        left as written, with a warning: rewriting it would drop the person's citation."""
        entry_path = self._scope_dir(scope) / ENTRYPOINT_NAME
        wanted = line if line is not None else index.format_index_entry(title, plain, hook)
        done = put_index_line(tx, entry_path, plain, wanted, keep_existing=keep_existing)
        if done.verdict is not None:
            self.last_index_verdict = done.verdict
        if done.outcome == "kept-cited":
            msg = (
                f"{self._rel(scope, plain)}: its line in {ENTRYPOINT_NAME} cites a source, so "
                f"it was kept as written rather than rewritten to [{title}] — {hook}; edit that "
                "line by hand to match, keeping the citation"
            )
            self.warnings.append(msg)
            log.warning(msg)

    def _remove_index_line(self, tx: StoreTransaction, scope: str, plain: str) -> list[str]:
        verdict, dropped = remove_index_line(tx, self._scope_dir(scope) / ENTRYPOINT_NAME, plain)
        if verdict is not None:
            self.last_index_verdict = verdict
        return dropped

    def _read(self, tx: StoreTransaction, path: Path) -> tuple[frontmatter.Frontmatter, str, str]:
        text = tx.read_text(path)
        if text is None:
            raise FileNotFoundError(path)
        return (*frontmatter.parse_frontmatter(text), text)

    # -- public API

    def save(
        self,
        name: str,
        description: str,
        type: MemoryType | str,
        body: str,
        *,
        scope: str = "private",
        filename: str | None = None,
    ) -> Path:
        """Write a topic file and its MEMORY.md line in one locked step; returns the file's path."""
        verdict = validate_draft(name, description, type, body, scope=scope, now_ms=self._now_ms())
        raise_for_verdict(verdict)
        name, description = name.strip(), description.strip()
        mtype = require_memory_type(type)
        scope_dir = self._scope_dir(scope)
        if filename is not None:  # a name made new: neither '~' nor another form of one there
            check_plain_md_name(filename, new=True, folder=scope_dir)
        base = filename or default_filename(name, mtype)
        # checked before taking the lock too, so a refused path leaves no trace (not even the lock file)
        self._validate_target(scope_dir / base, scope)
        self._validate_target(scope_dir / ENTRYPOINT_NAME, scope)
        # The file carries its own time (`modified:`, as Claude Code 2.1.214+ writes it); a save
        # of the very same memory again is recognised whatever time the first one recorded.
        text = render_memory_file(name, description, mtype, body, modified_ms=self._now_ms())
        with self.transaction() as tx:
            explicit = filename is not None
            plain = free_memory_filename(self.memory_dir, scope, scope_dir, base, text, explicit)
            target = self._validate_target(scope_dir / plain, scope)
            if not holds_same_memory(self.memory_dir, target, text):  # never written over
                tx.write(target, text, create_only=not os.path.lexists(target))
            self._write_index_line(tx, scope, plain, name, description)
        self._keep_warnings(self._rel(scope, plain), verdict)
        log.debug("saved %s", self._rel(scope, plain))
        return scope_dir / plain

    def update(
        self,
        filename: str,
        *,
        name: str | None = None,
        description: str | None = None,
        type: MemoryType | str | None = None,
        body: str | None = None,
    ) -> Path:
        """Re-render an existing memory (fields left as None keep their value) and its index line."""
        scope, plain = self._split(filename)
        rel = self._rel(scope, plain)
        new_name = None if name is None else _require_text(name, "name", one_line=True)
        new_desc = (
            None
            if description is None
            else _require_text(description, "description", one_line=True)
        )
        new_type = None if type is None else _require_type(type)
        new_body = None if body is None else _require_body(body)
        scope_dir = self._scope_dir(scope)
        self._validate_target(scope_dir / plain, scope)
        if not os.path.lexists(scope_dir / plain):
            raise self._not_found(rel)
        links = LinkSnapshot.read(self.memory_dir) if new_name else LinkSnapshot([])
        with self.transaction() as tx:
            target = self._validate_target(scope_dir / plain, scope)
            if not target.is_file():
                raise self._not_found(rel)
            fm, old_body, read = self._read(tx, target)
            final_name = new_name or (fm.name or "").strip()
            final_desc = new_desc or (fm.description or "").strip()
            if not final_name or not final_desc:
                missing = "name" if not final_name else "description"
                raise MemoryValidationError(
                    f"{rel} has no {missing} in its frontmatter; pass {missing}=... to update()"
                )
            if new_type is None and fm.type is None:
                raise MemoryValidationError(
                    f"{rel}: {type_problem(fm.raw_type)}; pass type=... to update()"
                )
            final_type = new_type or fm.type
            assert final_type is not None
            final_body = old_body if new_body is None else new_body
            if scope_violation(final_type, scope):
                raise MemoryValidationError(
                    f"{rel} is in team memory, and {USER_NEVER_TEAM}; "
                    "demote it first or keep its type"
                )
            verdict = validate_draft(
                final_name, final_desc, final_type, final_body, scope=scope, now_ms=self._now_ms()
            )
            raise_for_verdict(verdict)
            fields = (final_name, final_desc, final_type, final_body)  # BOM, CRLF, body kept:
            text = render_updated_memory_file(fm, *fields, modified_ms=self._now_ms(), like=read)
            tx.write_edit(target, read, text)
            # A body-only update leaves the index line as a person may have written it.
            same_header = (
                final_name == (fm.name or "").strip()
                and final_desc == (fm.description or "").strip()
            )
            self._write_index_line(
                tx, scope, plain, final_name, final_desc, keep_existing=same_header
            )
        self._keep_warnings(rel, verdict)
        self._links_left(links.left_dangling({}, {rel: final_name}), f"{rel}, now {final_name},")
        return scope_dir / plain

    def forget(self, filename: str) -> Path:
        """Drop the index line (kept beside the copy as written, for a restore: index_writes) and
        move the file into .trash/ (never unlinked); returns the trash path. Links other
        memories keep to it are reported, not rewritten (last_links_left)."""
        scope, plain = self._split(filename)
        rel = self._rel(scope, plain)
        source = self._scope_dir(scope) / plain
        if not os.path.lexists(source):
            raise self._not_found(rel)
        self._validate_target(source, scope)
        self._validate_target(self.trash_dir / "x", "private")
        links = LinkSnapshot.read(self.memory_dir)
        with self.transaction() as tx:
            if not os.path.lexists(source):
                raise self._not_found(rel)
            self._validate_target(source, scope)
            trash_path = free_trash_path(self.trash_dir, rel, self._now_ms())
            trash_path = self._validate_target(trash_path, "private")
            # the index first: a MEMORY.md that cannot be rewritten stops the step before any move
            dropped = self._remove_index_line(tx, scope, plain)
            tx.move(source, trash_path)
            keep_dropped_lines(tx, trash_path, dropped)
        self._links_left(links.left_dangling({rel: None}), f"{rel}, which was forgotten,")
        return trash_path

    def index_put_back(
        self, tx: StoreTransaction, filename: str, text: str, kept: list[str] | None = None
    ) -> None:
        """Point filename's index at it again, inside tx (a forgotten memory restored): the
        lines its forget kept, as written, else the line save writes, from the header's name
        and description; a line there is kept either way."""
        scope, plain = self._split(filename)
        if kept:
            done = put_kept_lines(tx, self._scope_dir(scope) / ENTRYPOINT_NAME, plain, kept)
            self.last_index_verdict = done.verdict or self.last_index_verdict
            return
        fm, _body = frontmatter.parse_frontmatter(text)
        title, hook = (fm.name or "").strip(), (fm.description or "").strip()
        self._write_index_line(tx, scope, plain, title, hook, keep_existing=True)

    def _links_left(self, left: LinksLeft, what: str) -> None:
        """Keep (last_links_left) and warn of the links a step left naming nothing."""
        self.last_links_left = left
        if left:
            self.warnings.append(msg := left.message(what))
            log.warning(msg)

    def list(self, scope: str | None = None) -> builtins.list[MemoryHeader]:
        """Memories newest first (all of them, not capped at 200), optionally one scope only."""
        if scope is not None:
            _require_scope(scope)
        headers = scan.scan_memory_dir(self.memory_dir, limit=None).headers
        if scope is None:
            return headers
        return [h for h in headers if h.scope == scope]

    def promote(self, filename: str) -> Path:
        """Move a private memory into team/, updating both indexes in one locked step."""
        return self._move_scope(filename, "private", "team")

    def demote(self, filename: str) -> Path:
        """Move a team memory back to private, updating both indexes in one locked step."""
        return self._move_scope(filename, "team", "private")

    def _move_scope(self, filename: str, src_scope: str, dst_scope: str) -> Path:
        scope, plain = self._split(filename)
        rel = self._rel(scope, plain)
        verb = "promote" if dst_scope == "team" else "demote"
        if scope != src_scope:
            raise MemoryValidationError(
                f"{rel} is already in {scope} memory; {verb}() takes a {src_scope} memory "
                f"({'name.md' if src_scope == 'private' else 'team/name.md'})"
            )
        source = self._scope_dir(src_scope) / plain
        if not os.path.lexists(source):
            raise self._not_found(rel)
        self._validate_target(source, src_scope)
        self._validate_target(self._scope_dir(dst_scope) / plain, dst_scope)
        # team memories' links see team/ only: a demote can leave some naming nothing
        links = LinkSnapshot.read(self.memory_dir) if verb == "demote" else LinkSnapshot([])
        with self.transaction() as tx:
            source = self._validate_target(source, src_scope)
            if not source.is_file():
                raise self._not_found(rel)
            fm, body, _ = self._read(tx, source)
            if dst_scope == "team":
                if scope_violation(fm.type, dst_scope):
                    raise MemoryValidationError(
                        f"{rel}: {USER_NEVER_TEAM}; it cannot be promoted to team"
                    )
                if fm.type is None:
                    raise MemoryValidationError(
                        f"{rel}: {type_problem(fm.raw_type)}; set one with "
                        "store.update(..., type=...) before promoting it"
                    )
                findings = self._scan_fields(fm.name or "", fm.description or "", body)
                if findings:
                    raise secret_scan.SecretInTeamMemoryError(findings)
            if not fm.name or not fm.description:
                raise MemoryValidationError(
                    f"{rel} lacks a name or description in its frontmatter; fix it with "
                    f"store.update({rel!r}, name=..., description=...) first"
                )
            dst_dir = self._scope_dir(dst_scope)
            target = self._validate_target(dst_dir / plain, dst_scope)
            there = "already exists" if os.path.lexists(target) else None
            if there is None and (twin := new_name_twin(dst_dir, plain)) is not None:
                there = f"is refused: {twin}"  # the same file on macOS (attack40)
            if there is not None:
                raise MemoryValidationError(
                    f"{self._rel(dst_scope, plain)} {there}; rename or forget one of the "
                    f"two before you {verb} {rel}"
                )
            # the indexes first: one that cannot be rewritten stops the step before the move
            carried = cited_line(tx, self._scope_dir(src_scope) / ENTRYPOINT_NAME, plain)
            self._remove_index_line(tx, src_scope, plain)
            title, hook = fm.name.strip(), fm.description.strip()
            self._write_index_line(tx, dst_scope, plain, title, hook, line=carried)
            tx.move(source, target)  # into team: the raw file is scanned for secrets
        self._links_left(links.left_dangling({rel: plain}), f"{rel}, now private as {plain},")
        return dst_dir / plain

    def index_verdict(self, scope: str = "private") -> index.IndexCapVerdict:
        """The cap verdict (over / near the read limit) of one scope's MEMORY.md as it is now."""
        _require_scope(scope)
        path = self._scope_dir(scope) / ENTRYPOINT_NAME
        res = try_read_contained(self.memory_dir, path, constants.INDEX_READ_MAX_BYTES)
        text = res.data.decode("utf-8", "replace") if isinstance(res, ReadResult) else ""
        return index.index_cap_verdict(text)

    def rebuild_indexes(self, *, drop_dangling: bool = False) -> dict[str, Path]:
        """Both MEMORY.md files rebuilt (see `rebuild_index_files`); returns those written."""
        return self.rebuild_index_files(drop_dangling=drop_dangling).written

    def rebuild_index_files(
        self, *, drop_dangling: bool = False, keep_within_caps: bool = False
    ) -> RebuildResult:
        """Rebuild both MEMORY.md files in one transaction, as storage.index_rebuild describes.

        Every line people wrote is kept; memories no line points at are added under their own
        heading; dangling lines go only with drop_dangling; each index rewritten is first kept
        in `.trash/rebuild-index-<stamp>/` (restorable with memdir_nb.dream.restore). With
        keep_within_caps, IndexOverCapsError instead of an index loading less than today.
        """
        refuse_folder_of_memory_dirs(self.memory_dir)  # before the lock: nothing is written
        scope_dirs: dict[Literal["private", "team"], Path] = {}
        for scope in ("private", "team"):
            scope_dir = self._scope_dir(scope)
            if scope_dir.is_dir():
                self._validate_target(scope_dir / ENTRYPOINT_NAME, scope)
                scope_dirs[scope] = scope_dir
        with self.transaction() as tx:
            return rebuild_in_transaction(
                tx,
                scope_dirs,
                now_ms=self._now_ms(),
                drop_dangling=drop_dangling,
                keep_within_caps=keep_within_caps,
            )
