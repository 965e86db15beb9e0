"""The offline planner: near-duplicates, contradictions, relative dates and index repairs, as a dry run."""

from __future__ import annotations

import datetime as _dt
import os
import re
from collections.abc import Callable, Mapping
from typing import Any

from memdir_nb.clock import system_clock_ms
from memdir_nb.dream.actions import (
    ConsolidationPlan,
    IndexRemove,
    PlanAction,
    PlanError,
    PlanOp,
    ReplaceText,
    TrashFile,
    WriteFile,
    _split_front,
    check_plan_dir,
)
from memdir_nb.dream.compare import (
    CONTRADICTION_MIN_SHARED,
    CONTRADICTION_THRESHOLD,
    DUPLICATE_BODY_THRESHOLD,
    DUPLICATE_HEAD_THRESHOLD,
    DUPLICATE_MIN_SHARED,
    _duplicate_groups,
    _Mem,
    contradiction_pairs_beside,
)
from memdir_nb.dream.disk_kept import KnownTypes, PlanCache, plan_cache
from memdir_nb.dream.index_repairs import agent_index_rels, index_actions, index_rel
from memdir_nb.dream.kept import KeptCalls, kept_modified_ms
from memdir_nb.dream.merge_links import MergeLinks
from memdir_nb.dream.negation import shared_stem_cache
from memdir_nb.dream.plan_snapshot import PlanSnapshot, read_memories
from memdir_nb.formats.index_batch import fit_index
from memdir_nb.home.paths import derived_output_problem
from memdir_nb.machine import numpy_loads_lightly
from memdir_nb.spec.collector import collector_paused
from memdir_nb.spec.constants import (
    DREAM_DATE_SLACK_DAYS,
    DREAM_MERGE_MAX_LINE_PAIRS,
    ENTRYPOINT_NAME,
    TEAM_DIRNAME,
    TRASH_DIRNAME,
)
from memdir_nb.spec.dates import convert_relative_dates, local_date, may_hold_relative_date
from memdir_nb.spec.taxonomy import MemoryType
from memdir_nb.spec.text import line_end_style
from memdir_nb.spec.word_stems import StemCache
from memdir_nb.storage.access import ContainedReader
from memdir_nb.storage.agent_root_index import agent_index_owners, agent_scopes
from memdir_nb.storage.containment import absolute_dir

__all__ = [
    "CONTRADICTION_MIN_SHARED",
    "CONTRADICTION_THRESHOLD",
    "DUPLICATE_BODY_THRESHOLD",
    "DUPLICATE_HEAD_THRESHOLD",
    "DUPLICATE_MIN_SHARED",
    "plan_consolidation",
]


# A body's dates made absolute, and whether it may hold a relative date, once per content
# (dream.kept): a repeat plan converts no body again.
_KEPT_DATES = KeptCalls(convert_relative_dates)
_KEPT_MAY_DATE = KeptCalls(may_hold_relative_date)  # before the header is parsed for its time


def _written_day(m: _Mem) -> _dt.date | None:
    """The day a memory's relative dates count from: the memory's time, its `modified:` when
    valid (it survives a clone, which gives every file the checkout's mtime), else its file's
    mtime; None when that mtime cannot be the day: the body names a day more than
    DREAM_DATE_SLACK_DAYS before it (real35: in cloned dirs, "fixed today" in memories of May
    to August became the day of the plan)."""
    day = local_date(m.memory_ms)  # the one memory time (_Mem.memory_ms)
    if kept_modified_ms(m.sha, m.text) is None:  # kept: no second parse
        named = [_iso_day(*found) for found in _ISO_DAY.findall(m.body)]
        latest = max((d for d in named if d is not None), default=None)
        if latest is not None and (day - latest).days > DREAM_DATE_SLACK_DAYS:
            return None
    return day


_ISO_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def _iso_day(year: str, month: str, day: str) -> _dt.date | None:
    try:
        return _dt.date(int(year), int(month), int(day))
    except ValueError:  # 2026-13-45 names no day
        return None


def _dated(body: str, m: _Mem) -> str:
    """body with its relative dates made absolute against m's day, or as written without one
    (kept per content and day, as the date step's: a repeat plan converts no merge's bodies)."""
    day = _written_day(m)
    return body if day is None else _KEPT_DATES.get(body, day)[0]


def _keep_first(group: list[_Mem]) -> list[_Mem]:
    """A near-duplicate group, the member that absorbs the others (the newest by its memory
    time, _Mem.memory_ms: in a cloned dir every file has the checkout's mtime) first."""
    return sorted(group, key=lambda m: (-m.memory_ms, m.rel))


def _merge_action(
    scope: str, group: list[_Mem], fuzz: Any, links: MergeLinks, owners: Mapping[str, str]
) -> PlanAction:
    """Merge a group of near-duplicates into its newest member; the others go to the trash,
    their lines leave the scope's index and, for a file of an agent's folder at an agent memory
    root (owners: storage.agent_root_index.agent_index_owners), the agent's own index, and the
    `[[name]]` links naming them name the newest member instead."""
    keep, *dups = _keep_first(group)
    front, body = _split_front(keep.text)
    keep_lines = [ln.strip() for ln in body.split("\n") if ln.strip()]
    extra: list[str] = []
    for d in dups:
        d_body = _dated(d.body, d)
        extra += _new_lines(d_body, keep_lines + extra, fuzz)
    new_body = _dated(body, keep)
    if extra:  # in the line ends the absorbing file has (CRLF when kept on Windows)
        end = line_end_style(keep.text)
        new_body = new_body.rstrip("\r\n") + end * 2 + end.join(extra) + end
    ops: list[PlanOp] = [WriteFile(keep.rel, front + new_body)]
    indexes = [index_rel(scope)]
    for d in dups:
        ops += [TrashFile(d.rel), IndexRemove(index_rel(scope), d.scope_rel, drop_emptied=True)]
        agent = owners.get(d.scope_rel) if not scope else None
        if agent is not None:
            indexes.append(f"{agent}/{ENTRYPOINT_NAME}")
            target = d.scope_rel.split("/", 1)[1]
            ops.append(IndexRemove(indexes[-1], target, drop_emptied=True))
    relinks, counts = links.relinks(keep, dups)
    ops += relinks
    pointed = ""
    if relinks:
        where = ", ".join(r.rel for r in relinks[:3]) + (
            f" and {len(relinks) - 3} more" if len(relinks) > 3 else ""
        )
        kinds = [
            f"{n} {kind} link(s)"
            for n, kind in zip(counts, ("[[name]]", "Markdown"), strict=True)
            if n
        ]
        pointed = f"; {' and '.join(kinds)} to them in {where} now point at {keep.rel}"
    return PlanAction(
        f"merge:{keep.rel}",
        "merge_duplicates",
        f"merge {', '.join(d.rel for d in dups)} into {keep.rel} (near-duplicates; "
        f"{len(extra)} new line(s) carried over, merged files go to {TRASH_DIRNAME}/){pointed}",
        tuple(
            [keep.rel]
            + [d.rel for d in dups]
            + list(dict.fromkeys(indexes))
            + [r.rel for r in relinks]
        ),
        tuple(ops),
    )


def _new_lines(body: str, kept: list[str], fuzz: Any) -> list[str]:
    """The lines of body to carry over into a merge: those not in kept word for word, nor (while
    the lines, multiplied, stay within DREAM_MERGE_MAX_LINE_PAIRS) 90% alike to a kept line."""
    lines = [s for s in (ln.strip() for ln in body.split("\n")) if s]
    fuzzy = len(lines) * (len(kept) + len(lines)) <= DREAM_MERGE_MAX_LINE_PAIRS
    seen, new = set(kept), list[str]()
    for s in lines:
        if s in seen or (fuzzy and any(fuzz.ratio(s, k) >= 90 for k in [*kept, *new])):
            continue
        seen.add(s)
        new.append(s)
    return new


def _merge_actions(
    mems: list[_Mem],
    scopes: list[str],
    fuzz: Any,
    stems: StemCache,
    disk: PlanCache | None,
    owners: Mapping[str, str],
    agents: Mapping[str, str],
) -> tuple[list[PlanAction], set[str]]:
    """1. near-duplicates: same scope, type and polarity; the newest file absorbs the others
    (owners: the agents' own indexes their lines are in, _merge_action). At an agent memory
    root, one agent's folder (agents: storage.agent_root_index.agent_scopes) or the root's own
    files are one scope: a merge never moves a memory into another agent's folder."""
    groups: list[tuple[str, list[_Mem]]] = []
    for scope in scopes:
        pools: dict[str, list[_Mem]] = {}
        for m in mems:
            if m.scope == scope:
                pools.setdefault(agents.get(m.rel, "") if not scope else "", []).append(m)
        for pool in pools.values():
            groups += [(scope, group) for group in _duplicate_groups(pool, fuzz, stems, disk)]
    merged = {m.rel for _, group in groups for m in group}
    if not groups:
        return [], merged
    links = MergeLinks(mems, {m.rel for _, group in groups for m in _keep_first(group)[1:]})
    return [_merge_action(scope, g, fuzz, links, owners) for scope, g in groups], merged


def _contradiction_actions(
    mems: list[_Mem], merged: set[str], pairs: list[tuple[int, int]]
) -> list[PlanAction]:
    """2. contradictions: similar subject, opposite polarity; flagged, never auto-resolved.

    pairs: what compare.contradiction_pairs_beside gives. A pair of two merged files is left out.
    """
    return [
        PlanAction(
            f"review:{a.rel}|{b.rel}",
            "flag_contradiction",
            f"{a.rel} and {b.rel} may contradict each other; review them and keep one",
            (a.rel, b.rel),
        )
        for a, b in ((mems[i], mems[j]) for i, j in pairs)
        if not (a.rel in merged and b.rel in merged)
    ]


def _date_actions(mems: list[_Mem], merged: set[str], notes: list[str]) -> list[PlanAction]:
    """3. relative dates of project memories, against each memory's own time (_written_day).

    The project type is the one whose guidance says to write dates absolute, and the one lint
    checks; in a feedback or user memory "today" is most often the present ("if I wrote this
    from scratch today"), so rewriting it would change what the person wrote.
    """
    actions, undated = [], list[str]()
    for m in mems:
        if m.rel in merged or m.type != MemoryType.PROJECT:
            continue
        body = m.body  # the text after its frontmatter block, as _split_front cuts it
        if not _KEPT_MAY_DATE.get(body):
            continue
        day = _written_day(m)
        if day is None:
            if _KEPT_DATES.get(body, local_date(m.mtime_ms))[1]:
                undated.append(m.rel)
            continue
        new_body, changes = _KEPT_DATES.get(body, day)
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
    if undated:
        shown = ", ".join(undated[:3]) + (
            f" and {len(undated) - 3} more" if len(undated) > 3 else ""
        )
        notes.append(
            f"relative dates left as written in {shown}: each names a day over "
            f"{DREAM_DATE_SLACK_DAYS} days before its file's time and has no `modified:`, so the "
            "day it was written is not known (a clone or a copy gives its files the day they "
            "were made); date them by hand (lint's relative-date lists them)"
        )
    return actions


def plan_consolidation(
    memory_dir: str | os.PathLike[str],
    *,
    now_ms: float | None = None,
    clock: Callable[[], float] | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> ConsolidationPlan:
    """Read the memory dir and propose consolidation actions (nothing is written).

    Each memory file is read once; comparisons between files are blocked (see
    memdir_nb.spec.similarity), never all pairs. The steps: near-duplicates merged,
    contradictions flagged, relative dates made absolute, then each index repaired.

    cache_dir: a folder (MemdirConfig.cache_root(), never inside a memory dir) where what the
    plan derived from file contents is kept for a plan in a later process (dream.disk_kept);
    the plan is the same with it or without it. None: nothing is kept beyond this process.
    A cache_dir in a memory dir (this one, any under the Claude home, a folder holding
    MEMORY.md or Markdown) is refused with PlanError before anything is read or written.
    """
    if cache_dir is not None:
        why = derived_output_problem(cache_dir, memory_dirs=(os.fspath(memory_dir),))
        if why:
            raise PlanError(
                f"cache_dir {os.fspath(cache_dir)!r} {why}; nothing was written. The plan's "
                "cache keeps the text of memories: pass a folder outside every memory dir, "
                "such as MemdirConfig.from_environment().cache_root()"
            )
    # The pass holds every file's text and makes no cycles; numpy, when this plan loads it,
    # loads without OpenBLAS's idle thread spinning beside the plan's scores (machine).
    with collector_paused(), numpy_loads_lightly():
        return _plan(memory_dir, now_ms, clock, cache_dir)


def _plan(
    memory_dir: str | os.PathLike[str],
    now_ms: float | None,
    clock: Callable[[], float] | None,
    cache_dir: str | os.PathLike[str] | None,
) -> ConsolidationPlan:
    from rapidfuzz import __version__ as rapidfuzz_version
    from rapidfuzz import fuzz

    scorer = f"rapidfuzz {rapidfuzz_version}"
    disk = plan_cache(cache_dir, scorer) if cache_dir is not None else None

    root = absolute_dir(memory_dir)
    check_plan_dir(root)
    with (
        ContainedReader(root) as reader,
        ContainedReader(root, real_root=reader.real_root, check_before_open=False) as listed_reader,
    ):
        snap = PlanSnapshot(root, reader, listed_reader)
        mems = read_memories(snap, disk)
        scopes = [""] + ([TEAM_DIRNAME] if (root / TEAM_DIRNAME).is_dir() else [])
        for rel in [*map(index_rel, scopes), *agent_index_rels(root)]:
            snap.read(rel)
    # Each word stemmed once, for both comparing steps (and once per process: the cache is kept
    # between plans). The contradiction step reads nothing the other steps write, and none of
    # them reads what it finds (its actions have no ops), so its work runs beside theirs where
    # that pays.
    with (
        shared_stem_cache() as stems,
        contradiction_pairs_beside(
            mems, fuzz, stems, KnownTypes(disk, mems) if disk else None
        ) as contradictions,
    ):
        private = [m.rel for m in mems if not m.scope]
        owners, agents = agent_index_owners(root, private), agent_scopes(root, private)
        merges, merged = _merge_actions(mems, scopes, fuzz, stems, disk, owners, agents)
        dates = _date_actions(mems, merged, snap.notes)
        repairs: list[PlanAction] = []
        fit = disk.fitted if disk else fit_index  # an over-cap index's fit, kept on disk
        for scope in scopes:
            done = [*merges, *dates, *repairs]
            repairs += index_actions(
                snap.root, snap.texts, snap.hashes, scope, mems, merged, done, snap.notes, fit
            )
        flags = _contradiction_actions(mems, merged, contradictions())
    actions = [*merges, *flags, *dates, *repairs]
    clock = clock or system_clock_ms
    created = float(now_ms) if now_ms is not None else clock()
    if disk is not None:
        disk.save()
    return ConsolidationPlan(
        root, actions, snap.texts, snap.hashes, created, notes=snap.notes, clock=clock
    )
