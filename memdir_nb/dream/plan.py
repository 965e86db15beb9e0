"""The offline planner: near-duplicates, contradictions, relative dates and index repairs, as a dry run."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Any

from memdir_nb.clock import system_clock_ms
from memdir_nb.dream.actions import (
    ConsolidationPlan,
    IndexFit,
    IndexRemove,
    IndexUpsert,
    PlanAction,
    PlanError,
    PlanOp,
    ReplaceText,
    TrashFile,
    WriteFile,
    _sha,
    _split_front,
)
from memdir_nb.formats import index
from memdir_nb.formats.frontmatter import parse_frontmatter
from memdir_nb.spec.constants import (
    ENTRYPOINT_NAME,
    INDEX_READ_MAX_BYTES,
    MAX_INDEX_LINE_CHARS,
    MEMORY_FILE_READ_MAX_BYTES,
    TEAM_DIRNAME,
    TRASH_DIRNAME,
)
from memdir_nb.spec.dates import convert_relative_dates, local_date
from memdir_nb.spec.similarity import StemCache, UnionFind, candidate_pairs
from memdir_nb.storage.access import ContainedReader, MissingFile, ReadRefused, ReadResult
from memdir_nb.storage.containment import absolute_dir
from memdir_nb.storage.scan import list_memory_files

DUPLICATE_HEAD_THRESHOLD = 90.0  # rapidfuzz token_sort_ratio over name + description
DUPLICATE_BODY_THRESHOLD = 60.0  # and token_set_ratio over the bodies
CONTRADICTION_THRESHOLD = 75.0  # token_set_ratio of descriptions once negations are removed
_NEGATION = re.compile(
    r"\b(never|not|no longer|don't|do not|doesn't|does not|avoid|stop|without|no)\b", re.I
)
# The same words, matched in lower-cased ASCII text: on ASCII, case-insensitive matching is
# lower-casing, which keeps every offset, so the matches (and the text they leave) are the same.
_NEGATION_LOWER = re.compile(_NEGATION.pattern)


def _strip_negations(text: str) -> tuple[str, bool]:
    """text lower-cased with its negation words replaced by spaces; whether it held any."""
    if text.isascii():
        stripped, n = _NEGATION_LOWER.subn(" ", text.lower())
        return stripped, n > 0
    stripped, n = _NEGATION.subn(" ", text)
    return stripped.lower(), n > 0


def _has_negation(text: str) -> bool:
    """Whether text holds a negation word (the near-duplicate blocks' polarity)."""
    if text.isascii():
        return _NEGATION_LOWER.search(text.lower()) is not None
    return _NEGATION.search(text) is not None


def _ascii_tokens(text: str) -> set[str] | None:
    """The distinct whitespace-separated tokens of an ASCII text; None for other text."""
    return set(text.split()) if text.isascii() else None


def _token_set_text(text: str, tokens: set[str] | None) -> str:
    """A text with the same token set as text for rapidfuzz's token_set_ratio, shorter and sorted.

    token_set_ratio depends only on the set of whitespace-separated tokens of each side. On
    ASCII, rapidfuzz splits at exactly the characters str.split() splits at (tested), so the
    distinct tokens (_ascii_tokens) sorted and joined by single spaces score the same against
    anything, and the scorer's own split and sort have less to do. Other text is unchanged.
    """
    return text if tokens is None else " ".join(sorted(tokens))


def _token_sort_text(text: str) -> str | None:
    """text's tokens sorted and joined by spaces (ASCII only; else None).

    rapidfuzz's token_sort_ratio is fuzz.ratio of exactly this string for each side (tested
    on ASCII, where its split is str.split()), so heads sorted once per plan are scored with
    ratio.
    """
    return " ".join(sorted(text.split())) if text.isascii() else None


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

    @functools.cached_property
    def head_lower(self) -> str:
        """Name and description, lower-cased: what near-duplicate heads are compared on."""
        return f"{self.name} {self.description}".lower()

    @functools.cached_property
    def body_lower(self) -> str:
        """The body, lower-cased (computed once, however many candidate pairs it is in)."""
        return self.body.lower()


def _index_rel(scope: str) -> str:
    return f"{scope}/{ENTRYPOINT_NAME}" if scope else ENTRYPOINT_NAME


# Candidate pairs must share this fraction of the smaller text's word stems (see
# similarity.py); every candidate is then scored with the exact thresholds above.
DUPLICATE_MIN_SHARED = 0.7
CONTRADICTION_MIN_SHARED = 0.4


def _duplicate_groups(pool: list[_Mem], fuzz: Any, stems: StemCache) -> list[list[_Mem]]:
    """Groups of near-duplicate memories in one scope, ordered by their first member in pool."""

    blocks: dict[tuple[str, bool], list[int]] = {}
    for i, m in enumerate(pool):  # type and negation must agree: compare within blocks only
        blocks.setdefault((m.type, _has_negation(m.description)), []).append(i)
    uf = UnionFind(len(pool))
    for idx in blocks.values():
        keys = [stems.text(f"{pool[i].name} {pool[i].description}") for i in idx]
        pairs = [
            (idx[a], idx[b]) for a, b in candidate_pairs(keys, min_shared=DUPLICATE_MIN_SHARED)
        ]
        # The groups are the connected components, whatever order the pairs are joined in.
        for a, b in _near_duplicate_pairs(pool, pairs, fuzz):
            uf.union(a, b)
    return [[pool[i] for i in g] for g in uf.groups(range(len(pool)))]


def _near_duplicate_pairs(
    pool: list[_Mem], pairs: list[tuple[int, int]], fuzz: Any
) -> list[tuple[int, int]]:
    """The pairs whose heads reach DUPLICATE_HEAD_THRESHOLD (token_sort_ratio) and whose
    bodies reach DUPLICATE_BODY_THRESHOLD (token_set_ratio), in no particular order."""
    cutoff = DUPLICATE_HEAD_THRESHOLD
    sorted_heads = {i: _token_sort_text(pool[i].head_lower) for i in set(chain(*pairs))}

    def heads_alike(a: int, b: int) -> bool:
        sa, sb = sorted_heads[a], sorted_heads[b]
        if sa is not None and sb is not None:
            return fuzz.ratio(sa, sb, score_cutoff=cutoff) >= cutoff
        head_a, head_b = pool[a].head_lower, pool[b].head_lower
        return fuzz.token_sort_ratio(head_a, head_b, score_cutoff=cutoff) >= cutoff

    alike: list[tuple[int, int]] = []
    for a, bs in _partners(pairs).items():
        query = sorted_heads[a]
        batch = []  # pair by pair below _BATCH_MIN_PAIRS: a small dir does not import numpy
        if query is not None and len(pairs) >= _BATCH_MIN_PAIRS:
            batch = [b for b in bs if sorted_heads[b] is not None]
        in_batch = set(batch)
        alike += [(a, b) for b in bs if b not in in_batch and heads_alike(a, b)]
        if query is not None and batch:
            choices = [sorted_heads[b] for b in batch]
            scores = _scores(query, choices, fuzz.ratio, cutoff)
            alike += [(a, b) for b, score in zip(batch, scores, strict=True) if score >= cutoff]
    body_cutoff = DUPLICATE_BODY_THRESHOLD
    return [
        (a, b)
        for a, b in alike
        if fuzz.token_set_ratio(pool[a].body_lower, pool[b].body_lower, score_cutoff=body_cutoff)
        >= body_cutoff
    ]


def _partners(pairs: list[tuple[int, int]]) -> dict[int, list[int]]:
    """Each pair's first index with the second indexes it is paired with, in pair order."""
    partners: dict[int, list[int]] = {}
    for i, j in pairs:
        partners.setdefault(i, []).append(j)
    return partners


def _scores(query: str, choices: list[str | None], scorer: Any, cutoff: float) -> list[float]:
    """scorer(query, choice, score_cutoff=cutoff) for every choice, in one rapidfuzz call.

    The same scorer and cutoff: a score under the cutoff comes back as 0, so the float32
    result is at or above the cutoff exactly when the one-by-one score is (the cutoffs used
    here are exact in float32, and rounding to float32 keeps a score's side of them).
    """
    from rapidfuzz import process

    return process.cdist(  # type: ignore[no-any-return]
        [query], choices, scorer=scorer, score_cutoff=cutoff, workers=1
    )[0].tolist()


def _contradiction_pairs(
    mems: list[_Mem], merged: set[str], fuzz: Any, stems: StemCache
) -> list[tuple[_Mem, _Mem]]:
    """Pairs of same-type memories with opposite polarity and similar subject, in (i, j) order."""

    # One regex pass per text: the negations removed, and whether there were any.
    subs = [_strip_negations(f"{m.description} {m.body}") for m in mems]
    stripped = [t for t, _ in subs]
    by_type: dict[str, tuple[list[int], list[int]]] = {}
    for i, m in enumerate(mems):
        by_type.setdefault(m.type, ([], []))[subs[i][1]].append(i)
    blocks = [(plain, negs) for plain, negs in by_type.values() if plain and negs]
    # Each compared text is split once: its tokens give its stems and its scored form.
    tokens = {i: _ascii_tokens(stripped[i]) for block in blocks for i in chain(*block)}

    def keys(idx: list[int]) -> list[frozenset[str]]:
        return [
            stems.text(stripped[i]) if tokens[i] is None else stems.tokens(tokens[i]) for i in idx
        ]

    candidates: list[tuple[int, int]] = []
    for plain, negs in blocks:
        for a, b in candidate_pairs(keys(negs), keys(plain), min_shared=CONTRADICTION_MIN_SHARED):
            i, j = (negs[a], plain[b]) if negs[a] < plain[b] else (plain[b], negs[a])
            if not (mems[i].rel in merged and mems[j].rel in merged):
                candidates.append((i, j))
    scored = set(chain(*candidates))
    texts = [_token_set_text(t, tokens[i]) if i in scored else t for i, t in enumerate(stripped)]
    found = _similar_pairs(candidates, texts, fuzz)
    return [(mems[i], mems[j]) for i, j in sorted(found)]


# From this many candidate pairs on, each text is scored against all of its partners in one
# rapidfuzz call (its tokens prepared once); below it, pair by pair, without importing numpy.
_BATCH_MIN_PAIRS = 1_000


def _similar_pairs(
    pairs: list[tuple[int, int]], texts: list[str], fuzz: Any
) -> list[tuple[int, int]]:
    """The pairs (i, j) whose texts reach CONTRADICTION_THRESHOLD by token_set_ratio(i, j)."""
    cutoff = CONTRADICTION_THRESHOLD
    if len(pairs) < _BATCH_MIN_PAIRS:
        return [
            (i, j)
            for i, j in pairs
            if fuzz.token_set_ratio(texts[i], texts[j], score_cutoff=cutoff) >= cutoff
        ]
    found: list[tuple[int, int]] = []
    for i, js in _partners(pairs).items():
        scores = _scores(texts[i], [texts[j] for j in js], fuzz.token_set_ratio, cutoff)
        found += [(i, j) for j, score in zip(js, scores, strict=True) if score >= cutoff]
    return found


class _Snapshot:
    """What the planner read: each file's text and hash (None: absent), and files left out."""

    def __init__(self, root: Path, reader: ContainedReader) -> None:
        self.root = root
        self.reader = reader
        self.texts: dict[str, str | None] = {}
        self.hashes: dict[str, str | None] = {}
        self.notes: list[str] = []  # files left out because the reader refused or cut them

    def read(self, rel: str) -> ReadResult | None:
        """Read one file (bounded, contained) into the snapshot; None when it is left out."""
        cap = INDEX_READ_MAX_BYTES if rel.endswith(ENTRYPOINT_NAME) else MEMORY_FILE_READ_MAX_BYTES
        res = self.reader.try_read(rel, cap)
        if isinstance(res, ReadRefused) or res.truncated:
            # Planned as absent: an action touching it then finds it "created" and refuses.
            self.texts[rel], self.hashes[rel] = None, None
            if not isinstance(res, MissingFile) or res.detail != "does not exist":
                why = str(res) if isinstance(res, ReadRefused) else res.cut_note()
                self.notes.append(f"{why}; left out of consolidation")
            return None
        self.texts[rel], self.hashes[rel] = res.text, _sha(res.data)
        return res


def _read_memories(snap: _Snapshot) -> list[_Mem]:
    """Every memory file, newest first, read once each (the walk opens none of them)."""
    mems: list[_Mem] = []
    for listed in list_memory_files(snap.root).files:
        res = snap.read(listed.rel)
        if res is None:
            continue
        text = res.text
        fm, _ = parse_frontmatter(text)
        _, body = _split_front(text)
        scope = TEAM_DIRNAME if listed.scope == "team" else ""
        mems.append(
            _Mem(
                listed.rel,
                listed.rel[len(scope) + 1 :] if scope else listed.rel,
                scope,
                text,
                fm.name or Path(listed.rel).stem,
                fm.description or "",
                str(fm.type or fm.raw_type or ""),
                body,
                res.stat.st_mtime_ns / 1_000_000,
            )
        )
    # The fstat'ed mtime can be newer than the listed one if a file changed meanwhile.
    mems.sort(key=lambda m: (-m.mtime_ms, m.rel))
    return mems


def _merge_action(scope: str, group: list[_Mem], fuzz: Any) -> PlanAction:
    """Merge a group of near-duplicates into its newest member; the others go to the trash."""
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
    ops: list[PlanOp] = [WriteFile(keep.rel, front + new_body)]
    for d in dups:
        ops += [TrashFile(d.rel), IndexRemove(_index_rel(scope), d.scope_rel)]
    return PlanAction(
        f"merge:{keep.rel}",
        "merge_duplicates",
        f"merge {', '.join(d.rel for d in dups)} into {keep.rel} (near-duplicates; "
        f"{len(extra)} new line(s) carried over, merged files go to {TRASH_DIRNAME}/)",
        tuple([keep.rel] + [d.rel for d in dups] + [_index_rel(scope)]),
        tuple(ops),
    )


def _merge_actions(
    mems: list[_Mem], scopes: list[str], fuzz: Any, stems: StemCache
) -> tuple[list[PlanAction], set[str]]:
    """1. near-duplicates: same scope, type and polarity; the newest file absorbs the others."""
    actions: list[PlanAction] = []
    merged: set[str] = set()
    for scope in scopes:
        pool = [m for m in mems if m.scope == scope]
        for group in _duplicate_groups(pool, fuzz, stems):
            merged.update(m.rel for m in group)
            actions.append(_merge_action(scope, group, fuzz))
    return actions, merged


def _contradiction_actions(
    mems: list[_Mem], merged: set[str], fuzz: Any, stems: StemCache
) -> list[PlanAction]:
    """2. contradictions: similar subject, opposite polarity; flagged, never auto-resolved."""
    return [
        PlanAction(
            f"review:{a.rel}|{b.rel}",
            "flag_contradiction",
            f"{a.rel} and {b.rel} may contradict each other; review them and keep one",
            (a.rel, b.rel),
        )
        for a, b in _contradiction_pairs(mems, merged, fuzz, stems)
    ]


def _date_actions(mems: list[_Mem], merged: set[str]) -> list[PlanAction]:
    """3. relative dates, against each file's own mtime."""
    actions = []
    for m in mems:
        if m.rel in merged:
            continue
        body = m.body  # the text after its frontmatter block, as _split_front cuts it
        new_body, changes = convert_relative_dates(body, local_date(m.mtime_ms))
        if changes:
            actions.append(
                PlanAction(
                    f"dates:{m.rel}",
                    "absolute_dates",
                    f"{m.rel}: " + "; ".join(changes),
                    (m.rel,),
                    (ReplaceText(m.rel, body, new_body),),
                )
            )
    return actions


def _index_line_actions(
    irel: str, text: str, scope_dir: Path, in_scope: dict[str, _Mem]
) -> tuple[list[PlanAction], set[str]]:
    """4-5. one index's lines: dangling ones dropped, long ones shortened; and what it lists."""
    actions: list[PlanAction] = []
    indexed: set[str] = set()
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
                    (IndexRemove(irel, e.target),),
                )
            )
        elif len(e.raw) > MAX_INDEX_LINE_CHARS:
            line = index.format_index_entry(e.title, e.target, e.hook)
            actions.append(
                PlanAction(
                    f"shorten:{irel}:{e.target}",
                    "shorten_index_line",
                    f"{irel} line {e.line_no} is {len(e.raw)} characters; shorten its hook "
                    "(the detail belongs in the topic file)",
                    (irel,),
                    (IndexUpsert(irel, e.target, line),),
                )
            )
    return actions, indexed


def _index_actions(
    snap: _Snapshot, scope: str, mems: list[_Mem], merged: set[str], actions: list[PlanAction]
) -> list[PlanAction]:
    """4-7. one scope's index: dangling lines, missing lines, long lines, then its caps."""
    irel = _index_rel(scope)
    text = snap.texts.get(irel) or ""
    in_scope = {m.scope_rel: m for m in mems if m.scope == scope}
    scope_dir = snap.root / scope if scope else snap.root
    new, indexed = _index_line_actions(irel, text, scope_dir, in_scope)
    absorbed = merged - {a.files[0] for a in actions if a.kind == "merge_duplicates"}
    for rel, m in sorted(in_scope.items()):
        if rel not in indexed and m.rel not in absorbed:
            line = index.format_index_entry(m.name, rel, m.description or index.NO_DESCRIPTION_HOOK)
            new.append(
                PlanAction(
                    f"index:{irel}:{rel}",
                    "add_missing_index_line",
                    f"{rel} has no line in {irel}; add one",
                    (irel, m.rel),
                    (IndexUpsert(irel, rel, line),),
                )
            )
    # The index as the actions so far leave it: only actions with an op on it change it.
    touching = [a for a in (*actions, *new) if any(op.rel == irel for op in a.ops)]
    probe = ConsolidationPlan(snap.root, touching, snap.texts, snap.hashes, 0.0)
    after = probe.result().get(irel, text) or ""
    n_lines = len(after.rstrip("\n").split("\n")) if after else 0
    n_bytes = len(after.encode())
    if n_lines > index.MAX_ENTRYPOINT_LINES or n_bytes > index.MAX_ENTRYPOINT_BYTES:
        order = tuple(
            m.scope_rel for m in sorted(in_scope.values(), key=lambda m: (m.mtime_ms, m.rel))
        )
        new.append(
            PlanAction(
                f"fit:{irel}",
                "fit_index_caps",
                f"{irel} would be {n_lines} lines / {n_bytes} bytes, over the "
                f"{index.MAX_ENTRYPOINT_LINES}-line / {index.MAX_ENTRYPOINT_BYTES}-byte caps: "
                "collapse blank runs, shorten hooks, then drop pointers to the oldest "
                "memories (their files stay and recall still finds them)",
                (irel,),
                (IndexFit(irel, order),),
            )
        )
    return new


def plan_consolidation(
    memory_dir: str | os.PathLike[str],
    *,
    now_ms: float | None = None,
    clock: Callable[[], float] | None = None,
) -> ConsolidationPlan:
    """Read the memory dir and propose consolidation actions (nothing is written).

    Each memory file is read once; comparisons between files are blocked (see
    memdir_nb.spec.similarity), never all pairs. The steps: near-duplicates merged,
    contradictions flagged, relative dates made absolute, then each index repaired.
    """
    from rapidfuzz import fuzz

    root = absolute_dir(memory_dir)
    if not root.is_dir():
        raise PlanError(
            f"memory dir {str(root)!r} does not exist or is not a directory; pass the memory directory"
        )
    with ContainedReader(root) as reader:
        snap = _Snapshot(root, reader)
        mems = _read_memories(snap)
        scopes = [""] + ([TEAM_DIRNAME] if (root / TEAM_DIRNAME).is_dir() else [])
        for scope in scopes:
            snap.read(_index_rel(scope))
    stems = StemCache()  # each word stemmed once, for both comparing steps
    actions, merged = _merge_actions(mems, scopes, fuzz, stems)
    actions += _contradiction_actions(mems, merged, fuzz, stems)
    actions += _date_actions(mems, merged)
    for scope in scopes:
        actions += _index_actions(snap, scope, mems, merged, actions)
    clock = clock or system_clock_ms
    created = float(now_ms) if now_ms is not None else clock()
    return ConsolidationPlan(
        root, actions, snap.texts, snap.hashes, created, notes=snap.notes, clock=clock
    )
