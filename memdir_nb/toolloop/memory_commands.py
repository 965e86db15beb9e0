"""The memory tool's commands, executed on a memory dir with the store's rules.

`MemoryDirBackend` runs the six commands the model sends (view, create, str_replace, insert,
delete, rename) plus the host's clear_all, and answers with the reference backend's texts
(memory_text.py). The difference is underneath: every read goes through the contained reader,
every write through one store transaction (the lock, the journal, atomic renames, the secret
guard for team/, 0600 files and 0700 folders), deletes move files to a restorable trash batch,
and the answer to a write carries short notes on frontmatter problems and the index caps.
The SDK classes in memory_tool.py wrap it; nothing here imports anthropic.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from memdir_nb.clock import resolve_now_ms
from memdir_nb.formats.frontmatter import parse_frontmatter
from memdir_nb.formats.index import index_cap_verdict
from memdir_nb.formats.names import depth_problem
from memdir_nb.security.secret_scan import SecretInTeamMemoryError
from memdir_nb.spec.constants import (
    LOGS_DIRNAME,
    MEMORY_TOOL_BATCH_PREFIX,
    STORE_READ_MAX_BYTES,
    TRASH_DIRNAME,
)
from memdir_nb.spec.taxonomy import scope_of_path
from memdir_nb.spec.timestamps import trash_stamp
from memdir_nb.storage.access import file_kind
from memdir_nb.storage.containment import PathTraversalError, real_path
from memdir_nb.storage.draft import validate_draft
from memdir_nb.storage.folder_blocker import make_memory_dir
from memdir_nb.storage.headers import header_of_text
from memdir_nb.storage.link_report import LinkSnapshot, links_left_by_edit
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.transaction import NotUTF8Error, StoreTransaction
from memdir_nb.toolloop import memory_text as text
from memdir_nb.toolloop.memory_paths import (
    INDEX_PATHS,
    ToolPath,
    in_model_words,
    links_before_targets,
    remove_empty_folders,
    require_folder_path,
    require_memory_file,
    require_other_file,
    resolve,
    secure_makedirs,
)
from memdir_nb.toolloop.memory_text import MemoryCommandError
from memdir_nb.toolloop.memory_view import view_file, view_folder

if TYPE_CHECKING:
    from memdir_nb.clock import HasClock

T = TypeVar("T")


class MemoryDirBackend:
    """The memory tool's commands on one memory dir (private + team/)."""

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        config: HasClock | None = None,
        now_ms: float | None = None,
    ) -> None:
        self.memory_dir = os.path.abspath(os.fspath(memory_dir))
        make_memory_dir(self.memory_dir, secure_makedirs)
        self.store = MemoryStore(self.memory_dir, config=config, now_ms=now_ms)
        self._config = config
        self._now_ms = now_ms

    # -- plumbing

    @property
    def real_root(self) -> str:
        return real_path(self.memory_dir)

    def _resolve(self, path: object) -> ToolPath:
        return resolve(self.memory_dir, self.real_root, path)

    def _lstat(self, tp: ToolPath) -> os.stat_result | None:
        try:
            return os.lstat(tp.real)
        except (FileNotFoundError, NotADirectoryError):
            return None

    def _write_step(self, shown: str, step: Callable[[StoreTransaction], T]) -> T:
        """Run step in one owner-only store transaction; store refusals become tool errors."""
        store = MemoryStore(  # one store per step, so concurrent (async) commands never share one
            self.memory_dir,
            config=self._config,
            now_ms=self._now_ms,
            crash_hook=self.store.crash_hook,
        )
        try:
            with store.transaction(owner_only=True) as tx:
                return step(tx)
        except MemoryCommandError:
            raise
        except SecretInTeamMemoryError as exc:
            raise MemoryCommandError(str(exc)) from exc
        except PathTraversalError as exc:
            said = in_model_words(str(exc), self.memory_dir, self.real_root).rstrip(".")
            raise MemoryCommandError(
                f"Path {shown} is refused: {said}. Nothing was written."
            ) from exc
        except (OSError, ValueError) as exc:
            said = str(exc).rstrip(".")  # the size cap's text already says nothing was written
            tail = "" if "nothing was written" in said else " Nothing was changed."
            raise MemoryCommandError(f"{shown} could not be written: {said}.{tail}") from exc

    def _read_text(self, tx: StoreTransaction, tp: ToolPath) -> str:
        try:
            content = tx.read_text(tp.rel, max_bytes=STORE_READ_MAX_BYTES)
        except NotUTF8Error as exc:
            raise MemoryCommandError(text.not_utf8(tp.shown, exc.offset)) from exc
        except OSError as exc:
            if exc.errno == errno.EFBIG:
                raise MemoryCommandError(
                    f"{tp.shown} is too large to edit: the memory tool edits files of at most "
                    f"{STORE_READ_MAX_BYTES:,} bytes. Memory files should be short: view it, "
                    "then split it into topic files and delete it."
                ) from exc
            raise MemoryCommandError(f"{tp.shown} cannot be read: {exc.strerror or exc}") from exc
        if content is None:
            raise text.does_not_exist_valid(tp.shown)
        return content

    def _require_file(self, tp: ToolPath) -> None:
        st = self._lstat(tp)
        if st is None:
            raise text.does_not_exist_valid(tp.shown)
        if not stat.S_ISREG(st.st_mode):
            raise text.not_a_file(tp.shown)
        require_memory_file(tp, existing=True)

    def _notes(self, rel: str, content: str, done: str = "saved") -> str:
        """After a write: an index's cap verdict, else the frontmatter problems (done: "moved" for a rename)."""
        if rel in INDEX_PATHS:
            cap = index_cap_verdict(content)
            return f"\n\n{cap.message}" if cap.message else ""
        if rel.split("/", 1)[0] == LOGS_DIRNAME:
            return ""  # a daily log (logs/YYYY/MM/...), not a topic file: no frontmatter expected
        fm, body = parse_frontmatter(content)
        verdict = validate_draft(
            fm.name or "",
            fm.description or "",
            fm.raw_type if fm.type is None else fm.type,
            body,
            scope=scope_of_path(rel),
            now_ms=resolve_now_ms(self._now_ms, self._config),
        )
        # A team secret never gets here (the guard refused it); a typeless shape asks no type;
        # a file with no header is told so once, not its name, description and type again
        skip = {"secret-in-team"} | ({"type"} if fm.typeless_by_design else set())
        if not fm.has_frontmatter:
            skip |= {"name", "description", "type"}
        problems = [p.message for p in (*verdict.errors, *verdict.warnings) if p.code not in skip]
        return text.format_note(problems, done, has_frontmatter=fm.has_frontmatter)

    # -- view (memory_view.py)

    def view(self, path: object = None, view_range: object = None) -> str:
        """A folder's listing or a file's numbered lines. No path (None, or "" as a loop that
        fills every field sends it) is /memories: a model told to view its memory directory
        first sends `view` with nothing else, which was a refusal (api39, docs/memory_tool.md)."""
        tp = self._resolve(text.ROOT if path is None or path == "" else path)
        st = self._lstat(tp)
        if st is None:
            raise text.does_not_exist_valid(tp.shown)
        if stat.S_ISDIR(st.st_mode):
            require_folder_path(tp)
            return view_folder(self.real_root, tp, st)
        if not stat.S_ISREG(st.st_mode):
            raise text.unsupported_type(tp.shown)
        require_other_file(tp)  # a notes.txt another backend left can be read, not written
        return view_file(self.memory_dir, self.real_root, tp, view_range)

    # -- writes

    def create(self, path: object, file_text: object) -> str:
        tp = self._resolve(path)
        if self._lstat(tp) is not None:
            raise text.already_exists(tp.shown)
        require_memory_file(tp)
        if not isinstance(file_text, str):
            raise MemoryCommandError(
                f"create needs file_text (the whole file, as text) for {tp.shown}"
            )

        def step(tx: StoreTransaction) -> None:
            try:  # never over a file another program (Claude Code, an editor) just made
                tx.write(tp.rel, file_text, create_only=True)
            except FileExistsError:
                raise text.already_exists(tp.shown) from None

        self._write_step(tp.shown, step)
        return text.created(tp.shown) + self._notes(tp.rel, file_text)

    def str_replace(self, path: object, old_str: object, new_str: object) -> str:
        tp = self._resolve(path)
        self._require_file(tp)
        if not isinstance(old_str, str) or not isinstance(new_str, str):
            raise MemoryCommandError(f"str_replace needs old_str and new_str (text) for {tp.shown}")

        def step(tx: StoreTransaction) -> tuple[str, str, str]:
            read = self._read_text(tx, tp)
            updated, answer = text.replace_once(tp.shown, read, old_str, new_str)
            tx.write_edit(tp.rel, read, updated)
            return read, updated, answer

        read, updated, answer = self._write_step(tp.shown, step)
        return answer + self._notes(tp.rel, updated) + self._renamed_links(tp, read, updated)

    def insert(self, path: object, insert_line: object, insert_text: object) -> str:
        tp = self._resolve(path)
        self._require_file(tp)
        if not isinstance(insert_text, str):
            raise MemoryCommandError(f"insert needs insert_text (text) for {tp.shown}")

        def step(tx: StoreTransaction) -> tuple[str, str]:
            read = self._read_text(tx, tp)
            updated = text.insert_at(read, insert_line, insert_text)
            tx.write_edit(tp.rel, read, updated)
            return read, updated

        read, updated = self._write_step(tp.shown, step)
        return (
            text.inserted(tp.shown)
            + self._notes(tp.rel, updated)
            + self._renamed_links(tp, read, updated)
        )

    def _renamed_links(self, tp: ToolPath, before: str, after: str) -> str:
        """The note when an edit changed the memory's `name:` and links that found it by the
        old name now find nothing, as a rename's (update(name=...) warns the same)."""
        if tp.rel in INDEX_PATHS or tp.rel.split("/", 1)[0] == LOGS_DIRNAME:
            return ""
        left = links_left_by_edit(self.memory_dir, tp.rel, before, after)
        if not left:
            return ""
        return text.links_left(left, text.name_changed(tp.shown, header_of_text(after).name))

    # -- delete, rename, clear: files move, never vanish

    def _files_under(self, tp: ToolPath) -> list[str]:
        """Every visible regular file or symlink below a folder, relative to the memory dir."""
        found: list[str] = []

        def unlistable(exc: OSError) -> None:  # a folder past the path limit, unreadable...
            where = os.path.relpath(exc.filename or tp.real, self.real_root).replace(os.sep, "/")
            raise OSError(
                exc.errno,
                f"{where[:200]} inside {tp.shown} cannot be listed ({exc.strerror}), so the "
                "folder was left as it is; the user can move it out of the memory dir by hand",
            )

        for folder, dirs, files in os.walk(tp.real, onerror=unlistable):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            base = os.path.relpath(folder, self.real_root).replace(os.sep, "/")
            level = 0 if base == "." else base.count("/") + 1
            too_deep = depth_problem(level + 1) if dirs else None
            if too_deep is not None:  # refused whole: a part-moved tree is worse than none
                raise OSError(
                    errno.ENAMETOOLONG,
                    f"a folder inside {tp.shown} {too_deep}, so the folder was left as it is",
                )
            found += [f"{base}/{n}".removeprefix("./") for n in sorted(files) if n[0] != "."]
        return links_before_targets(self.real_root, found)

    def _batch_name(self, tx: StoreTransaction, files: list[str]) -> str:
        now = resolve_now_ms(self._now_ms, self._config)
        stamp = trash_stamp(now)
        digest = hashlib.sha1(repr(files).encode()).hexdigest()[:6]
        base = f"{MEMORY_TOOL_BATCH_PREFIX}{stamp}-{os.getpid()}-{digest}"
        name, n = base, 2
        while tx.exists(f"{TRASH_DIRNAME}/{name}/manifest.json"):
            name, n = f"{base}-{n}", n + 1
        return name

    def _trash(self, tx: StoreTransaction, files: list[str], command: str) -> str:
        """Move files into one new trash batch with a manifest that dream's restore() reads."""
        batch = self._batch_name(tx, files)
        manifest = {
            "created_ms": resolve_now_ms(self._now_ms, self._config),
            "actions": [command],
            "files": {rel: {"before": True, "after_sha": None} for rel in files},
        }
        for rel in files:
            tx.move(rel, f"{TRASH_DIRNAME}/{batch}/{rel}")
        tx.write(f"{TRASH_DIRNAME}/{batch}/manifest.json", json.dumps(manifest, indent=2))
        return batch

    def delete(self, path: object) -> str:
        tp = self._resolve(path)
        if tp.is_root:
            raise MemoryCommandError(text.CANNOT_DELETE_ROOT)
        st = self._lstat(tp)
        if st is None:
            raise text.does_not_exist(tp.shown)
        if not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)):  # it is there: say what
            raise MemoryCommandError(
                f"{tp.shown} is {file_kind(st.st_mode)}, not a memory file, so it was not "
                "deleted; the user can move it out of the memory dir"
            )
        folder = stat.S_ISDIR(st.st_mode)
        if not folder:
            require_other_file(tp)  # as a folder delete moves every file it holds

        links = LinkSnapshot.read(self.memory_dir)  # links to it are named, never rewritten

        def step(tx: StoreTransaction) -> list[str]:  # the files are listed under the lock
            if not folder and not tx.exists(tp.rel):
                raise text.does_not_exist(tp.shown)
            files = self._files_under(tp) if folder else [tp.rel]
            if files:
                self._trash(tx, files, f"memory-tool delete {tp.key}")
            if folder:
                remove_empty_folders(self.real_root, tp)
            return files

        gone = links.left_dangling(dict.fromkeys(self._write_step(tp.shown, step)))
        return (
            text.deleted(tp.shown)
            + text.folder_left(tp.shown, folder and os.path.lexists(tp.real))
            + text.links_left(gone, f"{tp.shown}, which was deleted,")
        )

    def rename(self, old_path: object, new_path: object) -> str:
        old, new = self._resolve(old_path), self._resolve(new_path)
        if old.is_root:
            raise MemoryCommandError(text.CANNOT_RENAME_ROOT)
        if self._lstat(new) is not None:
            raise text.destination_exists(new.shown)
        st = self._lstat(old)
        if st is None:
            raise text.does_not_exist(old.shown)
        links = LinkSnapshot.read(self.memory_dir)  # links to it are named, never rewritten
        if stat.S_ISDIR(st.st_mode):
            return self._rename_folder(old, new, links)
        require_other_file(old)  # a notes.txt may become notes.md, never another .txt
        require_memory_file(new)

        def step(tx: StoreTransaction) -> str:
            text = self._read_text(tx, old)  # a file that is not text (an image) stays put
            tx.move(old.rel, new.rel)  # into team/: the secret guard scans the file first
            return text

        moved = self._write_step(new.shown, step)
        left = links.left_dangling({old.rel: new.rel})
        return (
            text.renamed(old.shown, new.shown)
            + self._notes(new.rel, moved, "moved")
            + text.links_left(left, f"{old.shown}, now {new.shown},")
        )

    def _rename_folder(self, old: ToolPath, new: ToolPath, links: LinkSnapshot) -> str:
        require_folder_path(new, new=True)
        if new.rel.startswith(old.rel + "/"):
            raise MemoryCommandError(
                f"Cannot move {old.shown} into itself ({new.shown}); pick a destination outside it."
            )

        def step(tx: StoreTransaction) -> list[tuple[str, str]]:  # listed under the lock
            moves = [(src, new.rel + src[len(old.rel) :]) for src in self._files_under(old)]
            for src, dst in moves:  # no file may land where no route sees it again
                too_deep = depth_problem(dst.count("/"))
                if too_deep:
                    raise MemoryCommandError(
                        f"Cannot move {old.shown} to {new.shown}: {src[len(old.rel) + 1 :]!r} "
                        f"would land in a folder that {too_deep}; nothing was moved"
                    )
            tx.look_ahead(src for src, _ in moves)  # into team/ each is scanned settled
            for src, dst in moves:
                tx.move(src, dst)
            remove_empty_folders(self.real_root, old)
            return moves

        left = links.left_dangling(dict(self._write_step(new.shown, step)))
        if not os.path.lexists(new.real):
            secure_makedirs(new.real)  # an empty folder moves as an empty folder
        return (
            text.renamed(old.shown, new.shown)
            + text.folder_left(old.shown, os.path.lexists(old.real))
            + text.links_left(left, f"{old.shown}, now {new.shown},")
        )

    def clear_all(self) -> str:
        """Move every visible file to one trash batch (restorable); the dir itself stays."""
        root = self._resolve(text.ROOT)

        def step(tx: StoreTransaction) -> None:  # the files are listed under the lock
            files = self._files_under(root)
            if files:
                self._trash(tx, files, "memory-tool clear_all_memory")
            remove_empty_folders(self.real_root, root)

        self._write_step(text.ROOT, step)
        return text.ALL_CLEARED
