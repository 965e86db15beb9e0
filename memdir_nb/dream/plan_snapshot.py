"""What a dream plan read: each memory file's text and hash, once, and the files left out.

The planner reads the dir once, through the contained reader (bounded, no link followed), into
a PlanSnapshot; the actions it plans are checked against those texts and hashes when they are
applied. A later plan in this process reads again only the files whose stat identity moved
(dream.kept.KeptReads), and parses again only the headers whose bytes changed (_HEADS).
"""

from __future__ import annotations

from pathlib import Path

from memdir_nb.clock import system_clock_ms
from memdir_nb.dream.actions import _sha, _split_front
from memdir_nb.dream.compare import _Mem
from memdir_nb.dream.disk_kept import Head, PlanCache
from memdir_nb.dream.kept import KeptReads
from memdir_nb.formats.frontmatter_fields import core_header
from memdir_nb.spec.constants import (
    ENTRYPOINT_NAME,
    INDEX_READ_MAX_BYTES,
    MEMORY_FILE_READ_MAX_BYTES,
    TEAM_DIRNAME,
)
from memdir_nb.storage.access import ContainedReader, MissingFile, ReadRefused, ReadResult
from memdir_nb.storage.listing import ListedFile, list_memory_files, one_name_per_file


class PlanSnapshot:
    """What the planner read: each file's text and hash (None: absent), and files left out."""

    def __init__(
        self, root: Path, reader: ContainedReader, listed_reader: ContainedReader | None = None
    ) -> None:
        self.root = root
        self.reader = reader
        # For the files the walk has just lstat'ed: no lstat of its own before each open (the
        # no-follow open and the fstat after it still refuse anything swapped in since).
        self.listed_reader = listed_reader or reader
        self.texts: dict[str, str | None] = {}
        self.hashes: dict[str, str | None] = {}
        self.notes: list[str] = []  # files left out because the reader refused or cut them
        self.started_ms = system_clock_ms()  # the wall clock, whatever the plan's clock says

    def read(self, rel: str, listed: ListedFile | None = None) -> ReadResult | None:
        """Read one file (bounded, contained) into the snapshot; None when it is left out.

        listed: the walk's entry for rel, whose verified open_path is read by listed_reader.
        """
        cap = INDEX_READ_MAX_BYTES if rel.endswith(ENTRYPOINT_NAME) else MEMORY_FILE_READ_MAX_BYTES
        if listed is None:
            res = self.reader.try_read(rel, cap)
        else:
            res = self.listed_reader.try_read(listed.open_path, cap)
        if isinstance(res, ReadRefused) or res.truncated:
            # Planned as absent: an action touching it then finds it "created" and refuses.
            self.texts[rel], self.hashes[rel] = None, None
            if not isinstance(res, MissingFile) or res.detail != "does not exist":
                why = str(res) if isinstance(res, ReadRefused) else res.cut_note()
                self.notes.append(f"{why}; left out of consolidation")
            return None
        self.texts[rel], self.hashes[rel] = res.text, _sha(res.data)
        return res

    def read_listed(self, listed: ListedFile) -> tuple[str, int] | None:
        """A listed memory file's (text, mtime_ns), as read() reads it; or as an earlier plan
        in this process read it, while its stat identity is the walk's (dream.kept.KeptReads).
        None when it is left out."""
        rel = listed.rel
        hit = _READS.get(listed.open_path, listed.st)
        if hit is not None:
            self.texts[rel], self.hashes[rel] = hit
            return hit[0], listed.st.st_mtime_ns
        res = self.read(rel, listed)
        if res is None:
            return None
        text, sha = res.text, self.hashes[rel]
        _READS.put(listed.open_path, res.stat, text, sha or "", self.started_ms)
        return text, res.stat.st_mtime_ns


# The memory files' texts a plan read, reused by a later plan in this process for the files
# whose stat identity has not moved since (no open, read or hash; dream.kept).
_READS = KeptReads()


# What a memory file's header gives the plan (name, description, type), by the SHA-256 of the
# file's bytes (the snapshot's hash): a later plan in this process parses only the files that
# changed since. The bytes decide the text and the text the header, so the fields are the same
# as a new parse gives. Emptied when it reaches _HEADS_MAX files (about 350 bytes each: 7 MB)
# or _HEADS_MAX_CHARS characters of fields (a description may fill the 8 KiB header: 20,000
# such files held 160 MB).
_HEADS: dict[str, tuple[str | None, str, str]] = {}
_HEADS_MAX = 20_000
_HEADS_MAX_CHARS = 8_000_000
_heads_chars = [0]  # the characters of the fields _HEADS holds


def _head(
    sha: str | None, text: str, disk: PlanCache | None, parsed: list[tuple[str, Head]] | None
) -> tuple[str | None, str, str]:
    """(name, description, type) of a memory file's header, parsed once per content (each
    time when its hash is unknown: no key that two contents could share); disk: as an
    earlier process parsed it. parsed (for a disk that can find none): each (hash, header)
    parsed here is added to it, for the caller to put in the disk in one call."""
    head = _HEADS.get(sha) if sha else None
    if head is None:
        head = disk.head(sha) if disk and sha else None
        if head is None:
            name, description, kind, raw_type = core_header(text)  # parse_frontmatter's fields
            head = (name, description or "", str(kind or raw_type or ""))
            if disk and sha:
                disk.put_head(sha, head)
            elif parsed is not None and sha:
                parsed.append((sha, head))
        if sha:
            if len(_HEADS) >= _HEADS_MAX or _heads_chars[0] >= _HEADS_MAX_CHARS:
                _HEADS.clear()
                _heads_chars[0] = 0
            _HEADS[sha] = head
            _heads_chars[0] += len(head[0] or "") + len(head[1]) + len(head[2])
    return head


def read_memories(snap: PlanSnapshot, disk: PlanCache | None = None) -> list[_Mem]:
    """Every memory file, newest first, read once each (the walk opens none of them)."""
    mems: list[_Mem] = []
    # Every file is read before any is parsed: the reads' system calls one after another, then
    # the parsing, cost less than the two taking turns (docs/performance.md, eighteenth
    # session). Only the text is kept (the snapshot keeps it anyway), not the bytes read.
    read: list[tuple[ListedFile, str, int]] = []
    files, aliases = one_name_per_file(list_memory_files(snap.root).files)
    snap.notes += [f"{a} is another name of {k}; left out of consolidation" for a, k in aliases]
    for listed in files:
        got = snap.read_listed(listed)
        if got is not None:
            read.append((listed, *got))
    hashes = snap.hashes
    # A cold cache file (nothing read from it is left unused) finds no header: it is not asked
    # 2,000 times, and the headers parsed are put in one call, in the order puts make.
    asked = disk if disk is not None and disk.may_hold_heads() else None
    parsed: list[tuple[str, Head]] | None = [] if disk is not None and asked is None else None
    for listed, text, mtime_ns in read:
        sha = hashes.get(listed.rel)
        name, description, kind = _head(sha, text, asked, parsed)
        _, body = _split_front(text)
        scope = TEAM_DIRNAME if listed.scope == "team" else ""
        mems.append(
            _Mem(
                listed.rel,
                listed.rel[len(scope) + 1 :] if scope else listed.rel,
                scope,
                text,
                name or Path(listed.rel).stem,
                description,
                kind,
                body,
                mtime_ns / 1_000_000,
                sha or "",
            )
        )
    if disk is not None and parsed:
        disk.put_heads(parsed)
    # The fstat'ed mtime can be newer than the listed one if a file changed meanwhile.
    mems.sort(key=lambda m: (-m.mtime_ms, m.rel))
    return mems
