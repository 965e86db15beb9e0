"""autoDream: when to consolidate (three gates and a PID lock), and what to change (a plan).

The filesystem is the only clock. The lock file `<memory_dir>/.consolidate-lock` holds the
PID of the process consolidating, and its mtime is lastConsolidatedAt: taking the lock sets
it to now, and a failed or aborted dream rolls it back, so the time gate opens again.

Consolidation itself is a dry run first: `plan_consolidation` reads the directory and
returns a `ConsolidationPlan` (actions plus a unified diff); `apply_plan` changes only the
approved actions, moves every file it deletes or rewrites into `.trash/`, and `restore`
puts a dream's files back. `plan_consolidation_with_claude` makes the same kind of plan with
Claude: it runs the extractor's sandboxed tool loop, but its Write/Edit calls are captured
into the plan instead of reaching the disk.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import difflib
import hashlib
import json
import os
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filelock import FileLock

from memdir_nb.access import (
    ContainedReader,
    MissingFile,
    ReadRefused,
    read_contained,
    try_read_contained,
)
from memdir_nb.config import resolve_now_ms, system_clock_ms
from memdir_nb.constants import CONSOLIDATION_LOCK_NAME as LOCK_NAME
from memdir_nb.constants import (
    ENTRYPOINT_NAME,
    INDEX_READ_MAX_BYTES,
    LOCK_READ_MAX_BYTES,
    LOGS_DIRNAME,
    MAX_INDEX_LINE_CHARS,
    MEMORY_FILE_READ_MAX_BYTES,
    STORE_LOCK_NAME,  # noqa: F401  (re-exported: plans apply under it)
    TEAM_DIRNAME,
    TRASH_DIRNAME,
)
from memdir_nb.dates import convert_relative_dates, local_date

if TYPE_CHECKING:
    from memdir_nb.store import MemoryStore
    from memdir_nb.transaction import StoreTransaction

LOCK_GUARD_SUFFIX = ".guard"
HOLDER_STALE_MS = 60 * 60 * 1000  # a lock older than this is reclaimed whatever its PID
MIN_HOURS = 24  # time gate
MIN_SESSIONS = 5  # sessions gate
SESSION_SCAN_INTERVAL_MS = 10 * 60 * 1000  # sessions gate scan throttle


def _now_ms(now_ms: float | None) -> float:
    return resolve_now_ms(now_ms)


# --------------------------------------------------------------------------- lock


class LockFileCorruptError(ValueError):
    """The consolidation lock file holds something other than a PID; nothing was changed."""


def is_process_running(pid: int) -> bool:
    """True when `pid` names a live process (a zombie counts as dead)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, owned by someone else
    stat = Path(f"/proc/{pid}/stat")
    with contextlib.suppress(OSError):
        # state is the field after the parenthesised command name
        if stat.read_text().rsplit(")", 1)[1].split()[0] == "Z":
            return False
    return True


@dataclass(frozen=True)
class LockState:
    """What the lock file says right now."""

    exists: bool
    mtime_ms: float  # lastConsolidatedAt; 0.0 when the file is absent
    mtime_ns: int | None
    holder_pid: int | None  # None when absent or empty (released)


class ConsolidationLock:
    """The PID lock whose mtime is lastConsolidatedAt (`<memory_dir>/.consolidate-lock`)."""

    def __init__(self, memory_dir: str | os.PathLike[str], *, pid: int | None = None) -> None:
        self.memory_dir = Path(memory_dir)
        self.path = self.memory_dir / LOCK_NAME
        self.pid = os.getpid() if pid is None else int(pid)
        self._prior_mtime_ns: int | None = None  # mtime before we took it; None = file was absent
        self._held = False

    @property
    def held(self) -> bool:
        """True between a successful try_acquire and release/rollback."""
        return self._held

    def read_state(self) -> LockState:
        """Stat and read the lock file; raise LockFileCorruptError if its body is not a PID."""
        try:
            res = read_contained(self.memory_dir, self.path, LOCK_READ_MAX_BYTES)
        except MissingFile:
            return LockState(False, 0.0, None, None)
        except ReadRefused as exc:
            raise LockFileCorruptError(
                f"{exc}; remove it so the consolidation lock can be recreated"
            ) from exc
        st, raw = res.stat, res.data
        try:
            text = None if res.truncated else raw.decode("ascii").strip()
        except UnicodeDecodeError:
            text = None
        if (
            text is None
            or (text and not re.fullmatch(r"[0-9]{1,10}", text))
            or (text and int(text) <= 0)
        ):
            shown = raw[:40].decode("utf-8", "replace")
            raise LockFileCorruptError(
                f"{self.path} should hold a process id or be empty, but holds {shown!r}; "
                "if no dream is running, empty or delete the file (its mtime is the last "
                "consolidation time, so emptying it keeps that)"
            )
        return LockState(True, st.st_mtime_ns / 1e6, st.st_mtime_ns, int(text) if text else None)

    def last_consolidated_at(self) -> float:
        """lastConsolidatedAt in ms (the lock file's mtime), 0.0 if never consolidated."""
        try:
            return os.stat(self.path).st_mtime_ns / 1e6
        except FileNotFoundError:
            return 0.0

    def holder_status(self, *, now_ms: float | None = None) -> str:
        """'free', 'held' (live holder, fresh lock), 'stale' (older than an hour) or 'dead' (holder gone)."""
        state = self.read_state()
        if not state.exists or state.holder_pid is None:
            return "free"
        if _now_ms(now_ms) - state.mtime_ms >= HOLDER_STALE_MS:
            return "stale"
        return "held" if is_process_running(state.holder_pid) else "dead"

    def try_acquire(self, *, now_ms: float | None = None) -> bool:
        """Take the lock for this PID; False if a live process holds a fresh lock or we lost a race."""
        if self._held:
            raise RuntimeError(
                f"{self.path} is already held by this ConsolidationLock; release it first"
            )
        self.memory_dir.mkdir(parents=True, exist_ok=True)
        # The guard makes check-and-write atomic among memdir_nb processes; write-then-verify
        # below still catches another writer that does not use the guard.
        with FileLock(str(self.path) + LOCK_GUARD_SUFFIX, timeout=30):
            state = self.read_state()
            if state.exists and state.holder_pid is not None and state.holder_pid != self.pid:
                fresh = _now_ms(now_ms) - state.mtime_ms < HOLDER_STALE_MS
                if fresh and is_process_running(state.holder_pid):
                    return False
            self._write_body(str(self.pid))
            if self._read_pid() != self.pid:
                return False
        self._prior_mtime_ns = state.mtime_ns
        self._held = True
        return True

    def release(self) -> None:
        """Finish a successful dream: clear the PID and keep mtime = now as lastConsolidatedAt."""
        self._require_held("release")
        self._write_body("")
        self._held = False

    def rollback(self) -> None:
        """Undo an acquisition after a failure or abort: restore the previous mtime (or remove the file)."""
        self._require_held("rollback")
        if self._prior_mtime_ns is None:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
        else:
            self._write_body("")
            os.utime(self.path, ns=(self._prior_mtime_ns, self._prior_mtime_ns))
        self._held = False

    def _require_held(self, what: str) -> None:
        if not self._held:
            raise RuntimeError(
                f"cannot {what} {self.path}: this ConsolidationLock does not hold it"
            )
        pid = self._read_pid()
        if pid != self.pid:
            self._held = False
            raise RuntimeError(
                f"cannot {what} {self.path}: it now names PID {pid}, not ours ({self.pid}); "
                "another process reclaimed it, so it is left alone"
            )

    def _read_pid(self) -> int | None:
        try:
            raw = read_contained(self.memory_dir, self.path, LOCK_READ_MAX_BYTES).data
        except MissingFile:
            return None
        except ReadRefused as exc:
            raise LockFileCorruptError(
                f"{exc}; remove it so the consolidation lock can be recreated"
            ) from exc
        text = raw.decode("ascii", errors="replace").strip()
        return int(text) if text.isdigit() else None

    def _write_body(self, body: str) -> None:
        tmp = self.path.with_name(f"{LOCK_NAME}.{self.pid}.tmp")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()  # a leftover (or a planted symlink) goes; we never write through it
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(tmp, flags, 0o644)
        try:
            os.write(fd, body.encode("ascii"))
        finally:
            os.close(fd)
        os.replace(tmp, self.path)  # replaces a symlink at the lock's name, never its target

    @contextlib.contextmanager
    def hold(self, *, now_ms: float | None = None) -> Iterator[bool]:
        """Context manager: yields whether the lock was taken; releases on success, rolls back on error."""
        got = self.try_acquire(now_ms=now_ms)
        try:
            yield got
        except BaseException:
            if got and self._held:
                self.rollback()
            raise
        if got and self._held:
            self.release()


# --------------------------------------------------------------------------- gates


@dataclass(frozen=True)
class SessionScanThrottle:
    """Throttle state for the sessions gate; pass the one a GateResult returns into the next call."""

    last_scan_ms: float | None = None


@dataclass(frozen=True)
class GateResult:
    """Outcome of `dream_gates`: which gate closed (or 'open'), why, and the new throttle state."""

    open: bool
    gate: str  # "time" | "sessions" | "lock" | "open"
    reason: str
    last_consolidated_ms: float
    session_count: int | None
    throttle: SessionScanThrottle
    lock: ConsolidationLock | None = None  # held when open; release() or rollback() it


def count_sessions_since(
    project_dir: str | os.PathLike[str], since_ms: float, *, exclude_session: str | None = None
) -> int:
    """Count `*.jsonl` transcripts in `project_dir` modified after `since_ms`, minus the current one."""
    count = 0
    try:
        it = os.scandir(project_dir)
    except FileNotFoundError:
        return 0
    with it:
        for entry in it:
            if not entry.name.endswith(".jsonl") or not entry.is_file(follow_symlinks=False):
                continue
            if exclude_session is not None and entry.name[: -len(".jsonl")] == exclude_session:
                continue
            if entry.stat(follow_symlinks=False).st_mtime_ns / 1e6 > since_ms:
                count += 1
    return count


def dream_gates(
    memory_dir: str | os.PathLike[str],
    *,
    current_session: str | None = None,
    throttle: SessionScanThrottle | None = None,
    project_dir: str | os.PathLike[str] | None = None,
    now_ms: float | None = None,
    min_hours: float = MIN_HOURS,
    min_sessions: int = MIN_SESSIONS,
    scan_interval_ms: float = SESSION_SCAN_INTERVAL_MS,
    acquire: bool = True,
) -> GateResult:
    """Check time, sessions and lock gates, cheapest first; when all pass the lock is held."""
    now = _now_ms(now_ms)
    throttle = throttle or SessionScanThrottle()
    lock = ConsolidationLock(memory_dir)
    last = lock.last_consolidated_at()
    hours = (now - last) / 3_600_000
    if last and hours < min_hours:
        return GateResult(
            False,
            "time",
            f"last consolidation {hours:.1f} h ago, under {min_hours:g} h",
            last,
            None,
            throttle,
        )
    if throttle.last_scan_ms is not None and now - throttle.last_scan_ms < scan_interval_ms:
        mins = (now - throttle.last_scan_ms) / 60_000
        return GateResult(
            False,
            "sessions",
            f"sessions scanned {mins:.1f} min ago; scans are throttled to "
            f"one per {scan_interval_ms / 60_000:g} min",
            last,
            None,
            throttle,
        )
    throttle = SessionScanThrottle(last_scan_ms=now)
    pdir = Path(project_dir) if project_dir is not None else Path(memory_dir).parent
    sessions = count_sessions_since(pdir, last, exclude_session=current_session)
    if sessions < min_sessions:
        return GateResult(
            False,
            "sessions",
            f"{sessions} session(s) since the last consolidation, need {min_sessions}",
            last,
            sessions,
            throttle,
        )
    if not acquire:
        return GateResult(
            True, "open", "time and sessions gates open (lock not taken)", last, sessions, throttle
        )
    try:
        got = lock.try_acquire(now_ms=now)
    except LockFileCorruptError as exc:
        return GateResult(False, "lock", str(exc), last, sessions, throttle)
    if not got:
        return GateResult(
            False, "lock", f"another process holds {lock.path}", last, sessions, throttle
        )
    return GateResult(
        True,
        "open",
        f"{sessions} sessions since the last consolidation; lock taken",
        last,
        sessions,
        throttle,
        lock,
    )


# --------------------------------------------------------------------------- consolidation plan

DUPLICATE_HEAD_THRESHOLD = 90.0  # rapidfuzz token_sort_ratio over name + description
DUPLICATE_BODY_THRESHOLD = 60.0  # and token_set_ratio over the bodies
CONTRADICTION_THRESHOLD = 75.0  # token_set_ratio of descriptions once negations are removed
_NEGATION = re.compile(
    r"\b(never|not|no longer|don't|do not|doesn't|does not|avoid|stop|without|no)\b", re.I
)


class PlanError(ValueError):
    """A plan cannot be applied as asked; nothing was changed."""


class PlanStaleError(PlanError):
    """Files the plan read changed after it was made."""


class RestoreError(ValueError):
    """A dream cannot be restored as asked; nothing was changed."""


@dataclass(frozen=True)
class PlanAction:
    """One proposed change. `ops` are applied in order when the action is approved."""

    id: str
    kind: str
    summary: str
    files: tuple[str, ...]
    ops: tuple[tuple, ...] = ()


@dataclass
class ConsolidationPlan:
    """A dry-run consolidation: actions, the file contents and hashes it read, and its diff."""

    memory_dir: Path
    actions: list[PlanAction]
    snapshot: dict[str, str | None]  # rel path -> text read (None: absent)
    hashes: dict[str, str | None]  # rel path -> sha256 of the bytes read (None: absent)
    created_ms: float
    applied: bool = False
    # the plan's clock: apply_plan stamps its batch with it (a fixed clock in tests, the wall clock otherwise)
    clock: Callable[[], float] = field(default=system_clock_ms, repr=False, compare=False)
    source: str = (
        "offline"  # "offline" (plan_consolidation) or "claude" (plan_consolidation_with_claude)
    )
    notes: list[str] = field(
        default_factory=list
    )  # e.g. refused tool calls, Claude's closing remarks

    def action(self, action_id: str) -> PlanAction:
        """The action with this id."""
        for a in self.actions:
            if a.id == action_id:
                return a
        raise PlanError(
            f"no action {action_id!r} in this plan; choose from {[a.id for a in self.actions]}"
        )

    def result(self, approve: Collection[str | PlanAction] | None = None) -> dict[str, str | None]:
        """The new content (None: moved to trash) of every file the approved actions change."""
        return _simulate(self, _approved(self, approve))

    def diff(self, approve: Collection[str | PlanAction] | None = None) -> str:
        """A unified diff of every file the (approved) actions would change."""
        out: list[str] = []
        for rel, after in sorted(self.result(approve).items()):
            before = self.snapshot.get(rel)
            a = (before or "").splitlines(keepends=True)
            b = (after or "").splitlines(keepends=True)
            out.extend(
                difflib.unified_diff(
                    a,
                    b,
                    f"a/{rel}" if before is not None else "/dev/null",
                    f"b/{rel}" if after is not None else "/dev/null",
                )
            )
        return "".join(line if line.endswith("\n") else line + "\n" for line in out)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _split_front(text: str) -> tuple[str, str]:
    """(frontmatter block including fences, body); ('', text) when there is no frontmatter."""
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end != -1:
            nl = text.find("\n", end + 4)
            cut = len(text) if nl == -1 else nl + 1
            return text[:cut], text[cut:]
    return "", text


# relative dates: memdir_nb.dates owns the rules; convert_relative_dates is re-exported here.

# simulation ------------------------------------------------------------------------------


def _approved(
    plan: ConsolidationPlan, approve: Collection[str | PlanAction] | None
) -> list[PlanAction]:
    if approve is None:
        return list(plan.actions)
    if isinstance(approve, (str, PlanAction)):
        approve = [approve]
    ids = {a.id if isinstance(a, PlanAction) else a for a in approve}
    unknown = ids - {a.id for a in plan.actions}
    if unknown:
        raise PlanError(
            f"approved action(s) {sorted(unknown)} are not in this plan; "
            f"choose from {[a.id for a in plan.actions]}"
        )
    return [a for a in plan.actions if a.id in ids]


def _simulate(plan: ConsolidationPlan, actions: Iterable[PlanAction]) -> dict[str, str | None]:
    from memdir_nb.index_batch import IndexText, fit_index

    state: dict[str, str | None] = {}
    # Runs of index edits on one file are applied to a parsed copy (linear in the index
    # size, not once per edit) and turned back into text before any other op reads it.
    parsed: dict[str, IndexText] = {}

    def current(rel: str) -> str | None:
        if rel in parsed:
            state[rel] = parsed.pop(rel).text()
        return state[rel] if rel in state else plan.snapshot.get(rel)

    def doc(rel: str) -> IndexText:
        if rel not in parsed:
            parsed[rel] = IndexText(current(rel) or "")
        return parsed[rel]

    for action in actions:
        for op in action.ops:
            kind, rel = op[0], op[1]
            if kind == "index_remove":
                doc(rel).remove(op[2])
            elif kind == "index_upsert":
                doc(rel).upsert(op[3], op[2])
            elif kind == "write":
                parsed.pop(rel, None)
                state[rel] = op[2]
            elif kind == "trash":
                parsed.pop(rel, None)
                state[rel] = None
            elif kind == "replace":
                text = current(rel)
                if text is not None and op[2] in text:
                    state[rel] = text.replace(op[2], op[3], 1)
            elif kind == "index_fit":
                state[rel] = fit_index(current(rel) or "", op[2])
    for rel in list(parsed):
        current(rel)
    return {rel: text for rel, text in state.items() if text != plan.snapshot.get(rel)}


def _fit_index(text: str, order: tuple[str, ...]) -> str:
    """Bring an index under both caps: collapse blank runs, shorten hooks, then drop the oldest entries."""
    from memdir_nb.index_batch import fit_index

    return fit_index(text, order)


# planning --------------------------------------------------------------------------------


@dataclass
class _Mem:
    rel: str  # relative to memory_dir
    scope_rel: str  # relative to its scope dir (the index link target)
    scope: str  # "" (private) or "team"
    text: str
    name: str
    description: str
    type: str
    body: str
    mtime_ms: float


def _index_rel(scope: str) -> str:
    return f"{scope}/{ENTRYPOINT_NAME}" if scope else ENTRYPOINT_NAME


# Candidate pairs must share this fraction of the smaller text's word stems (see
# similarity.py); every candidate is then scored with the exact thresholds above.
DUPLICATE_MIN_SHARED = 0.7
CONTRADICTION_MIN_SHARED = 0.4


def _duplicate_groups(pool: list[_Mem], near_duplicates: Any) -> list[list[_Mem]]:
    """Groups of near-duplicate memories in one scope, ordered by their first member in pool."""
    from memdir_nb.similarity import UnionFind, candidate_pairs, stem_sets

    blocks: dict[tuple[str, bool], list[int]] = {}
    for i, m in enumerate(pool):  # type and negation must agree: compare within blocks only
        blocks.setdefault((m.type, bool(_NEGATION.search(m.description))), []).append(i)
    uf = UnionFind(len(pool))
    for idx in blocks.values():
        keys = stem_sets(f"{pool[i].name} {pool[i].description}" for i in idx)
        for a, b in sorted(candidate_pairs(keys, min_shared=DUPLICATE_MIN_SHARED)):
            if near_duplicates(pool[idx[a]], pool[idx[b]]):
                uf.union(idx[a], idx[b])
    return [[pool[i] for i in g] for g in uf.groups(range(len(pool)))]


def _contradiction_pairs(mems: list[_Mem], merged: set[str], fuzz: Any) -> list[tuple[_Mem, _Mem]]:
    """Pairs of same-type memories with opposite polarity and similar subject, in (i, j) order."""
    from memdir_nb.similarity import candidate_pairs, stem_sets

    texts = [f"{m.description} {m.body}" for m in mems]
    negated = [bool(_NEGATION.search(t)) for t in texts]
    stripped = [_NEGATION.sub(" ", t).lower() for t in texts]
    by_type: dict[str, tuple[list[int], list[int]]] = {}
    for i, m in enumerate(mems):
        by_type.setdefault(m.type, ([], []))[negated[i]].append(i)
    found: list[tuple[int, int]] = []
    for plain, negs in by_type.values():
        if not plain or not negs:
            continue
        keys_neg = stem_sets(stripped[i] for i in negs)
        keys_plain = stem_sets(stripped[i] for i in plain)
        for a, b in candidate_pairs(keys_neg, keys_plain, min_shared=CONTRADICTION_MIN_SHARED):
            i, j = sorted((negs[a], plain[b]))
            if mems[i].rel in merged and mems[j].rel in merged:
                continue
            score = fuzz.token_set_ratio(
                stripped[i], stripped[j], score_cutoff=CONTRADICTION_THRESHOLD
            )
            if score >= CONTRADICTION_THRESHOLD:
                found.append((i, j))
    return [(mems[i], mems[j]) for i, j in sorted(found)]


def plan_consolidation(
    memory_dir: str | os.PathLike[str],
    *,
    now_ms: float | None = None,
    clock: Callable[[], float] | None = None,
) -> ConsolidationPlan:
    """Read the memory dir and propose consolidation actions (nothing is written)."""
    from rapidfuzz import fuzz

    from memdir_nb import index
    from memdir_nb.frontmatter import parse_frontmatter
    from memdir_nb.scan import scan_memory_dir

    root = Path(memory_dir)
    if not root.is_dir():
        raise PlanError(
            f"memory dir {str(root)!r} does not exist or is not a directory; pass the memory directory"
        )
    snapshot: dict[str, str | None] = {}
    hashes: dict[str, str | None] = {}
    read_notes: list[str] = []  # files left out because the contained reader refused or cut them
    reader = ContainedReader(root)

    def read(rel: str) -> str | None:
        cap = INDEX_READ_MAX_BYTES if rel.endswith(ENTRYPOINT_NAME) else MEMORY_FILE_READ_MAX_BYTES
        res = reader.try_read(rel, cap)
        if isinstance(res, ReadRefused) or res.truncated:
            # Planned as absent: an action touching it then finds it "created" and refuses.
            snapshot[rel], hashes[rel] = None, None
            if not isinstance(res, MissingFile) or res.detail != "does not exist":
                why = str(res) if isinstance(res, ReadRefused) else res.cut_note()
                read_notes.append(f"{why}; left out of consolidation")
            return None
        snapshot[rel], hashes[rel] = res.text, _sha(res.data)
        return snapshot[rel]

    mems: list[_Mem] = []
    for h in scan_memory_dir(root, limit=None).headers:
        text = read(h.filename)
        if text is None:
            continue
        fm, _ = parse_frontmatter(text)
        _, body = _split_front(text)
        scope = TEAM_DIRNAME if h.scope == "team" else ""
        mems.append(
            _Mem(
                h.filename,
                h.filename[len(scope) + 1 :] if scope else h.filename,
                scope,
                text,
                fm.name or Path(h.filename).stem,
                fm.description or "",
                str(fm.type or fm.raw_type or ""),
                body,
                h.mtime_ms,
            )
        )
    scopes = [""] + ([TEAM_DIRNAME] if (root / TEAM_DIRNAME).is_dir() else [])
    for scope in scopes:
        read(_index_rel(scope))

    actions: list[PlanAction] = []
    merged: set[str] = set()

    # 1. near-duplicates: same scope and type; the newest file absorbs the others
    # Same type and same polarity are required too; _duplicate_groups only compares
    # memories that agree on both.
    def near_duplicates(a: _Mem, b: _Mem) -> bool:
        head = fuzz.token_sort_ratio(
            f"{a.name} {a.description}".lower(),
            f"{b.name} {b.description}".lower(),
            score_cutoff=DUPLICATE_HEAD_THRESHOLD,
        )
        return bool(head) and (
            fuzz.token_set_ratio(
                a.body.lower(), b.body.lower(), score_cutoff=DUPLICATE_BODY_THRESHOLD
            )
            >= DUPLICATE_BODY_THRESHOLD
        )

    for scope in scopes:
        pool = [m for m in mems if m.scope == scope]
        for group in _duplicate_groups(pool, near_duplicates):
            g = {m.rel for m in group}
            members = sorted(group, key=lambda m: (-m.mtime_ms, m.rel))
            keep, dups = members[0], members[1:]
            front, body = _split_front(keep.text)
            keep_lines = [ln.strip() for ln in body.split("\n") if ln.strip()]
            extra: list[str] = []
            for d in dups:
                d_body, _ = convert_relative_dates(d.body, local_date(d.mtime_ms))
                for ln in d_body.split("\n"):
                    s = ln.strip()
                    if s and all(fuzz.ratio(s, k) < 90 for k in keep_lines + extra):
                        extra.append(s)
            new_body, _ = convert_relative_dates(body, local_date(keep.mtime_ms))
            if extra:
                new_body = new_body.rstrip("\n") + "\n\n" + "\n".join(extra) + "\n"
            ops: list[tuple] = [("write", keep.rel, front + new_body)]
            for d in dups:
                ops += [("trash", d.rel), ("index_remove", _index_rel(scope), d.scope_rel)]
            merged.update(g)
            actions.append(
                PlanAction(
                    f"merge:{keep.rel}",
                    "merge_duplicates",
                    f"merge {', '.join(d.rel for d in dups)} into {keep.rel} (near-duplicates; "
                    f"{len(extra)} new line(s) carried over, merged files go to {TRASH_DIRNAME}/)",
                    tuple([keep.rel] + [d.rel for d in dups] + [_index_rel(scope)]),
                    tuple(ops),
                )
            )

    # 2. contradictions: similar subject, opposite polarity; flagged, never auto-resolved
    for a, b in _contradiction_pairs(mems, merged, fuzz):
        actions.append(
            PlanAction(
                f"review:{a.rel}|{b.rel}",
                "flag_contradiction",
                f"{a.rel} and {b.rel} may contradict each other; review them and keep one",
                (a.rel, b.rel),
            )
        )

    # 3. relative dates, against each file's own mtime
    for m in mems:
        if m.rel in merged:
            continue
        front, body = _split_front(m.text)
        new_body, changes = convert_relative_dates(body, local_date(m.mtime_ms))
        if changes:
            actions.append(
                PlanAction(
                    f"dates:{m.rel}",
                    "absolute_dates",
                    f"{m.rel}: " + "; ".join(changes),
                    (m.rel,),
                    (("replace", m.rel, body, new_body),),
                )
            )

    # 4-7. each scope's index: dangling lines, missing lines, long lines, caps
    for scope in scopes:
        irel = _index_rel(scope)
        text = snapshot.get(irel) or ""
        scope_dir = root / scope if scope else root
        in_scope = {m.scope_rel: m for m in mems if m.scope == scope}
        indexed = set()
        for e in index.parse_index(text):
            indexed.add(e.target)
            if re.match(r"^[a-z]+://", e.target):
                continue
            if e.target not in in_scope and not (scope_dir / e.target).is_file():
                actions.append(
                    PlanAction(
                        f"unindex:{irel}:{e.target}",
                        "drop_dangling_index_line",
                        f"{irel} line {e.line_no} points at {e.target}, which does not exist",
                        (irel,),
                        (("index_remove", irel, e.target),),
                    )
                )
            elif len(e.raw) > MAX_INDEX_LINE_CHARS:
                actions.append(
                    PlanAction(
                        f"shorten:{irel}:{e.target}",
                        "shorten_index_line",
                        f"{irel} line {e.line_no} is {len(e.raw)} characters; shorten its hook "
                        "(the detail belongs in the topic file)",
                        (irel,),
                        (
                            (
                                "index_upsert",
                                irel,
                                e.target,
                                index.format_index_entry(e.title, e.target, e.hook),
                            ),
                        ),
                    )
                )
        absorbed = merged - {a.files[0] for a in actions if a.kind == "merge_duplicates"}
        for rel, m in sorted(in_scope.items()):
            if rel not in indexed and m.rel not in absorbed:
                line = index.format_index_entry(
                    m.name, rel, m.description or index.NO_DESCRIPTION_HOOK
                )
                actions.append(
                    PlanAction(
                        f"index:{irel}:{rel}",
                        "add_missing_index_line",
                        f"{rel} has no line in {irel}; add one",
                        (irel, m.rel),
                        (("index_upsert", irel, rel, line),),
                    )
                )
        order = tuple(
            m.scope_rel for m in sorted(in_scope.values(), key=lambda m: (m.mtime_ms, m.rel))
        )
        probe = ConsolidationPlan(root, actions, snapshot, hashes, 0.0)
        after = probe.result().get(irel, text) or ""
        n_lines = len(after.rstrip("\n").split("\n")) if after else 0
        n_bytes = len(after.encode())
        if n_lines > index.MAX_ENTRYPOINT_LINES or n_bytes > index.MAX_ENTRYPOINT_BYTES:
            actions.append(
                PlanAction(
                    f"fit:{irel}",
                    "fit_index_caps",
                    f"{irel} would be {n_lines} lines / {n_bytes} bytes, over the "
                    f"{index.MAX_ENTRYPOINT_LINES}-line / {index.MAX_ENTRYPOINT_BYTES}-byte caps: "
                    "collapse blank runs, shorten hooks, then drop pointers to the oldest "
                    "memories (their files stay and recall still finds them)",
                    (irel,),
                    (("index_fit", irel, order),),
                )
            )
    clock = clock or system_clock_ms
    created = float(now_ms) if now_ms is not None else clock()
    return ConsolidationPlan(
        root, actions, snapshot, hashes, created, notes=read_notes, clock=clock
    )


# applying and restoring ------------------------------------------------------------------


@dataclass(frozen=True)
class ApplyResult:
    """What apply_plan changed and where the previous versions went."""

    batch: str  # the trash batch name, for restore()
    changed: tuple[str, ...]
    trashed: tuple[str, ...]


def _current_hash(tx: StoreTransaction, rel: str) -> str | None:
    data = tx.read_bytes(rel)
    return None if data is None else _sha(data)


def _store_for(root: Path, store: MemoryStore | None) -> MemoryStore:
    from memdir_nb.store import MemoryStore

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
    root = plan.memory_dir
    with _store_for(root, store).transaction() as tx:
        touched = sorted({rel for a in actions for rel in a.files} | set(_simulate(plan, actions)))
        changed_underneath = []
        for rel in touched:
            now_hash = _current_hash(tx, rel)
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
        for rel in result:  # every target checked before the first change, and again when written
            tx.resolve(rel)
        applied_ms = plan.clock()
        stamp = _dt.datetime.fromtimestamp(applied_ms / 1000).strftime("%Y%m%dT%H%M%S")
        batch = f"dream-{stamp}-{os.getpid()}-{hashlib.sha1(repr(sorted(result)).encode()).hexdigest()[:6]}"
        if (root / TRASH_DIRNAME / batch).exists():  # a fixed clock can repeat a stamp
            batch += f"-{sum(1 for _ in (root / TRASH_DIRNAME).glob(batch + '*')) + 1}"
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
                tx.write(rel, after)  # re-validated here; into team/ the secret guard scans it
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
    )


def list_dreams(memory_dir: str | os.PathLike[str]) -> list[str]:
    """Batch names of applied dreams in .trash/, oldest first."""
    tdir = Path(memory_dir) / TRASH_DIRNAME
    if not tdir.is_dir():
        return []
    return sorted(
        p.name
        for p in tdir.iterdir()
        if p.name.startswith("dream-") and (p / "manifest.json").is_file()
    )


def _manifest(tx: StoreTransaction, batch: str) -> dict[str, Any]:
    raw = tx.read_text(f"{TRASH_DIRNAME}/{batch}/manifest.json")
    try:
        data = json.loads(raw or "")
        files = data["files"]
        if not isinstance(files, dict):
            raise TypeError("files is not an object")
    except (ValueError, KeyError, TypeError) as exc:
        raise RestoreError(
            f"{TRASH_DIRNAME}/{batch}/manifest.json is unreadable ({exc}); that dream cannot be "
            "restored automatically: copy its files back by hand"
        ) from exc
    return data


def restore(
    memory_dir: str | os.PathLike[str],
    name: str,
    *,
    now_ms: float | None = None,
    store: MemoryStore | None = None,
) -> list[str]:
    """Undo a dream batch (name 'dream-...') or restore one file (its relative name) from the newest batch holding it."""
    root = Path(memory_dir)
    batches = list_dreams(root)
    with _store_for(root, store).transaction() as tx:
        if name in batches:
            batch, only = name, None
        else:
            holding = [b for b in batches if name in _manifest(tx, b)["files"]]
            if not holding:
                raise RestoreError(
                    f"nothing named {name!r} in {root / TRASH_DIRNAME}; dreams there: {batches or 'none'}"
                )
            batch, only = holding[-1], name
        bdir = f"{TRASH_DIRNAME}/{batch}"
        manifest = _manifest(tx, batch)
        files = {r: v for r, v in manifest["files"].items() if only is None or r == only}
        if manifest.get("restored", {}) and all(r in manifest["restored"] for r in files):
            raise RestoreError(f"{name!r} was already restored from {batch}")
        for rel in files:  # a hostile manifest naming '../x' or a swapped folder is refused here
            tx.resolve(rel)
        conflicts = [r for r, v in files.items() if _current_hash(tx, r) != v["after_sha"]]
        if conflicts:
            raise RestoreError(
                f"cannot restore {batch}: {', '.join(conflicts)} changed after the dream; "
                "move those edits aside first. Nothing was restored."
            )
        done = []
        for rel, info in files.items():
            if info["before"]:
                old = tx.read_bytes(f"{bdir}/{rel}")
                if old is None:
                    raise RestoreError(
                        f"{bdir}/{rel} is missing, so {rel} cannot be restored; nothing was restored"
                    )
                tx.write(rel, old)  # re-validated when written; into team/ the guard scans it
            elif tx.exists(rel):
                tx.move(rel, f"{bdir}/created-by-dream/{rel}")
            done.append(rel)
        manifest.setdefault("restored", {}).update({r: _now_ms(now_ms) for r in done})
        tx.write(f"{bdir}/manifest.json", json.dumps(manifest, indent=2))
    return done


# --------------------------------------------------------------------------- Claude-driven plan

CLAUDE_MAX_TURNS = 10
RETIRE_HINT = "an empty Write retires the file"


def build_consolidation_prompt(
    memory_dir: str | os.PathLike[str],
    *,
    now_ms: float | None = None,
    transcripts_dir: str | os.PathLike[str] | None = None,
) -> str:
    """The consolidation agent's system prompt (the four dream phases, in this project's words)."""
    from memdir_nb.scan import format_memory_manifest, scan_memory_files

    root = Path(memory_dir)
    logs = (
        sorted(p.relative_to(root).as_posix() for p in (root / LOGS_DIRNAME).rglob("*.md"))
        if (root / LOGS_DIRNAME).is_dir()
        else []
    )
    transcripts = Path(transcripts_dir) if transcripts_dir is not None else root.parent
    today = local_date(_now_ms(now_ms)).isoformat()
    return "\n".join(
        [
            "You are consolidating a memory directory: a reflective pass over what has been saved, so",
            f"that future sessions find it accurate, short and easy to scan. The directory is `{root}`;",
            f"today is {today}.",
            "",
            "Your Write and Edit calls are proposals. They are recorded, shown to the user as a diff,",
            "and applied only if the user approves them; nothing you write reaches the disk during this",
            "pass. To retire a file (merged into another, or simply wrong), Write it with empty",
            "content: on approval it is moved to the trash, where it can still be restored.",
            "Read, Grep and Glob work anywhere; Bash allows only read-only commands (ls, find, grep,",
            "cat, stat, wc, head, tail). Write and Edit work only inside the memory directory.",
            "",
            "Work in four phases:",
            "",
            "1. Orient. List the directory, read MEMORY.md, and skim the topic files you may touch.",
            "   Know what is there before you change anything; prefer improving an existing file to",
            "   adding a new one.",
            "2. Gather recent signal. In this order: the daily logs below (notes not yet folded into",
            "   memories); memories that disagree with each other or look out of date; and, only for a",
            f"   specific question you already have, a narrow grep of the session transcripts in `{transcripts}`",
            "   (*.jsonl). Never read transcripts end to end.",
            "3. Consolidate. Fold new facts into the right topic files; merge near-duplicates into one",
            "   file and retire the rest; when two memories contradict each other, keep the one the",
            "   evidence supports and fix or retire the other; write every relative date ('yesterday',",
            "   'next Thursday') as an absolute date. Keep each file's frontmatter (name, description,",
            "   type: user, feedback, project or reference).",
            "4. Prune and index. MEMORY.md is an index, not a container: one line per file,",
            "   `- [Title](file.md) — hook`, about 150 characters at most; a longer line means the",
            "   detail belongs in the topic file. Keep it under 200 lines and 25,000 bytes. Remove",
            "   pointers to files that do not exist or that you retired; add pointers for files that",
            "   have none. Team memory (team/) has its own MEMORY.md, and never holds secrets.",
            "",
            "When you are done, reply with a short summary of what you proposed and why.",
            "",
            "Daily logs waiting to be folded in:",
            *([f"- {p}" for p in logs] or ["(none)"]),
            "",
            "Existing memories (type, filename, last change, description):",
            format_memory_manifest(scan_memory_files(root)) or "(none yet)",
        ]
    )


class PlanRecorder:
    """A tool runner for consolidation: reads run (sandboxed), Write/Edit are captured, never applied."""

    def __init__(
        self, memory_dir: str | os.PathLike[str], *, cwd: str | os.PathLike[str] | None = None
    ) -> None:
        from memdir_nb.extract import ToolRunner

        self.memory_dir = Path(os.path.abspath(os.fspath(memory_dir)))
        self._reader = ToolRunner(self.memory_dir, cwd=cwd)
        self.pending: dict[str, str] = {}  # rel path -> proposed content ("" = retire)
        self.edits: dict[str, int] = {}  # rel path -> number of captured Write/Edit calls
        self.snapshot: dict[str, str | None] = {}  # rel path -> text when first touched
        self.hashes: dict[str, str | None] = {}
        self.written: list[str] = []  # always empty: nothing is written
        self.unreadable: dict[str, str] = {}  # rel path -> why the contained reader refused it
        self.refused = self._reader.refused

    def _rel(self, raw: str) -> str | None:
        """The path relative to the memory dir ('/'-separated), or None when it lies outside."""
        full = os.path.abspath(raw if os.path.isabs(raw) else os.path.join(self._reader.cwd, raw))
        rel = os.path.relpath(full, self.memory_dir)
        return None if rel == "." or rel.startswith("..") else Path(rel).as_posix()

    def _touch(self, rel: str) -> str | None:
        if rel not in self.snapshot:
            res = try_read_contained(self.memory_dir, rel, MEMORY_FILE_READ_MAX_BYTES)
            if isinstance(res, ReadRefused) or res.truncated:  # absent, a FIFO, a link out, too big
                self.snapshot[rel], self.hashes[rel] = None, None
                if not isinstance(res, MissingFile):
                    self.unreadable[rel] = (
                        str(res) if isinstance(res, ReadRefused) else res.cut_note()
                    )
            else:
                self.snapshot[rel], self.hashes[rel] = res.text, _sha(res.data)
        return self.pending.get(rel, self.snapshot[rel])

    def run(self, name: str, tool_input: Any) -> Any:
        """Check the call with the extraction sandbox; capture writes, run everything else."""
        from memdir_nb.extract import ToolOutcome, can_use_tool

        verdict = can_use_tool(name, tool_input, self.memory_dir)
        if not verdict.allowed or name not in ("Write", "Edit", "Read"):
            return self._reader.run(name, tool_input)  # records refusals, runs read-only tools
        rel = self._rel(str(tool_input.get("file_path", "")))
        if name == "Read":
            if rel is not None and rel in self.pending:  # show the model its own proposal
                lines = self.pending[rel].split("\n")
                return ToolOutcome(
                    "\n".join(f"{i + 1:6d}\t{ln}" for i, ln in enumerate(lines)), False, verdict
                )
            if rel is not None:
                self._touch(rel)
            return self._reader.run(name, tool_input)
        if rel is None:  # the sandbox allowed it, so this cannot happen; fail closed anyway
            return ToolOutcome(
                f"{name} refused: {tool_input.get('file_path')!r} is not inside the memory dir",
                True,
                verdict,
            )
        current = self._touch(rel)
        if name == "Write":
            content = tool_input.get("content")
            if not isinstance(content, str):
                return ToolOutcome("Write failed: 'content' must be a string", True, verdict)
            self.pending[rel] = content
        else:
            old, new = tool_input.get("old_string"), tool_input.get("new_string")
            if not isinstance(old, str) or not isinstance(new, str):
                return ToolOutcome(
                    "Edit failed: 'old_string' and 'new_string' must be strings", True, verdict
                )
            if current is None:
                return ToolOutcome(
                    f"Edit failed: {rel} does not exist; use Write to create it", True, verdict
                )
            count = current.count(old) if old else 0
            if count == 0:
                return ToolOutcome(
                    f"Edit failed: old_string not found in {rel}; Read it and copy the text exactly",
                    True,
                    verdict,
                )
            if count > 1 and not tool_input.get("replace_all"):
                return ToolOutcome(
                    f"Edit failed: old_string occurs {count} times in {rel}; give more context "
                    "or set replace_all",
                    True,
                    verdict,
                )
            self.pending[rel] = (
                current.replace(old, new)
                if tool_input.get("replace_all")
                else current.replace(old, new, 1)
            )
        self.edits[rel] = self.edits.get(rel, 0) + 1
        return ToolOutcome(
            f"Recorded the proposed {name} of {rel}; it is applied only if the user approves it "
            f"({RETIRE_HINT}).",
            False,
            verdict,
        )

    def actions(self) -> list[PlanAction]:
        """One action per file the model proposed to change (unchanged proposals are dropped)."""
        out = []
        for rel in sorted(self.pending):
            after, before = self.pending[rel], self.snapshot.get(rel)
            n = self.edits[rel]
            if not after.strip():
                if before is None:
                    continue
                out.append(
                    PlanAction(
                        f"claude:{rel}",
                        "claude_retire",
                        f"retire {rel} (moved to {TRASH_DIRNAME}/ on approval)",
                        (rel,),
                        (("trash", rel),),
                    )
                )
            elif after != before:
                verb = "create" if before is None else "rewrite"
                out.append(
                    PlanAction(
                        f"claude:{rel}",
                        f"claude_{verb}",
                        f"{verb} {rel} ({n} proposed Write/Edit call(s))",
                        (rel,),
                        (("write", rel, after),),
                    )
                )
        return out


def plan_consolidation_with_claude(
    memory_dir: str | os.PathLike[str],
    *,
    client: Any = None,
    config: Any = None,
    client_options: dict[str, Any] | None = None,
    model: str | None = None,
    max_turns: int = CLAUDE_MAX_TURNS,
    max_tokens: int | None = None,
    transcripts_dir: str | os.PathLike[str] | None = None,
    now_ms: float | None = None,
) -> ConsolidationPlan:
    """Let Claude propose a consolidation through the extraction sandbox; nothing is written until apply_plan."""
    from memdir_nb import extract

    root = Path(memory_dir)
    if not root.is_dir():
        raise PlanError(
            f"memory dir {str(root)!r} does not exist or is not a directory; pass the memory directory"
        )
    if not isinstance(max_turns, int) or max_turns < 1:
        raise PlanError(f"max_turns must be a whole number >= 1, got {max_turns!r}")
    request = {
        "model": model or extract.DEFAULT_MODEL,
        "max_tokens": max_tokens or extract.DEFAULT_MAX_TOKENS,
        "system": build_consolidation_prompt(root, now_ms=now_ms, transcripts_dir=transcripts_dir),
        "messages": [
            {"role": "user", "content": "Consolidate the memory directory now, phase by phase."}
        ],
        "tools": extract.TOOL_SCHEMAS,
    }
    if client is None:
        client = extract.client_from_config(config, **dict(client_options or {}))
    recorder = PlanRecorder(root, cwd=root)
    loop = extract.run_tool_loop(request, recorder, client=client, max_turns=max_turns)
    notes = [f"refused {name}: {reason}" for name, _inp, reason in recorder.refused]
    if loop.hit_turn_cap:
        notes.append(
            f"stopped at the {max_turns}-turn cap; the plan holds what was proposed so far"
        )
    if loop.final_text:
        notes.append(f"Claude: {loop.final_text}")
    return ConsolidationPlan(
        root,
        recorder.actions(),
        dict(recorder.snapshot),
        dict(recorder.hashes),
        _now_ms(now_ms),
        source="claude",
        notes=notes,
    )
