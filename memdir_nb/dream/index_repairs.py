"""The consolidation plan's index repairs (steps 4-7 of dream.plan): each scope's MEMORY.md
with its dangling lines re-pointed or dropped, its missing lines added, its long lines
shortened, then fitted to Claude Code's load caps."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from memdir_nb.dream.actions import (
    ConsolidationPlan,
    IndexAdd,
    IndexFit,
    IndexRemove,
    IndexUpsert,
    PlanAction,
    Relink,
)
from memdir_nb.dream.compare import _Mem
from memdir_nb.dream.index_adds import fit_shows_held_dropped, held_back
from memdir_nb.dream.kept import KeptCalls
from memdir_nb.formats import index
from memdir_nb.formats.index_batch import fit_index
from memdir_nb.formats.index_lines import (
    IndexEntry,
    retarget_entry_line,
    wiki_entry_memory,
)
from memdir_nb.formats.moved_files import MovedFiles
from memdir_nb.formats.wikilinks import LinkTargets
from memdir_nb.spec.constants import ENTRYPOINT_NAME, MAX_INDEX_LINE_CHARS
from memdir_nb.spec.taxonomy import MemoryType
from memdir_nb.spec.text import is_not_text
from memdir_nb.storage.agent_index_lines import carried_root_lines
from memdir_nb.storage.agent_root_index import agent_index_folders, agent_index_owners
from memdir_nb.storage.index_files import IndexTargets, nested_index_references

# An index line formatted once per content (dream.kept)
_KEPT_LINES = KeptCalls(index.format_index_entry)

# fit_index, or what answers as it does (dream.disk_kept.PlanCache.fitted: kept on disk)
Fit = Callable[[str, tuple[str, ...]], str]


def index_rel(scope: str) -> str:
    """The index of a scope ("" or team/), relative to the memory dir."""
    return f"{scope}/{ENTRYPOINT_NAME}" if scope else ENTRYPOINT_NAME


def _indexed_rel(
    targets: IndexTargets, target: str, in_scope: Mapping[str, _Mem]
) -> tuple[str, bool] | None:
    """(the scope-relative file an index target names, whether it exists), as lint resolves it
    (a target written from the repository root, `memory/x.md`, names x.md); None for a URL, an
    anchor, or a target leading out of the folder (lint's index-outside-link: not the plan's)."""
    if target in in_scope:
        return target, True  # the common case, with no stat
    found = targets.locate(target)
    if found is None or not found.inside:
        return None
    return os.path.relpath(found.path, targets.folder).replace(os.sep, "/"), found.is_file


def _dangling_action(irel: str, e: IndexEntry, moved: str | None) -> PlanAction:
    """A dangling line: pointed at the one file of its name in a sub-folder (kept as the
    person wrote it, only its target changed), or dropped when there is no such file."""
    line = retarget_entry_line(e.raw, moved) if moved is not None else None
    if moved is not None and line is not None:
        return PlanAction(
            f"repoint:{irel}:{e.target}",
            "repoint_index_line",
            f"{irel} line {e.line_no} points at {e.target}, which does not exist; a memory of "
            f"that name is at {moved}: point the line there (its title and hook stay)",
            (irel,),
            (IndexUpsert(irel, e.target, line),),
        )
    return PlanAction(
        f"unindex:{irel}:{e.target}",
        "drop_dangling_index_line",
        f"{irel} line {e.line_no} points at {e.target}, which does not exist",
        (irel,),
        (IndexRemove(irel, e.target, drop_emptied=True),),
    )


def _entries(
    text: str, targets: IndexTargets, in_scope: Mapping[str, _Mem]
) -> list[tuple[IndexEntry, tuple[str, bool] | None]]:
    """Each entry of an index with what it names (_indexed_rel; a `[[name]]` line by name:)."""
    entries = [(e, _indexed_rel(targets, e.target, in_scope)) for e in index.parse_index(text)]
    if any(e.wiki and f is not None and not f[1] for e, f in entries):
        names = LinkTargets((rel, "private", m.name) for rel, m in in_scope.items())
        entries = [(e, _by_name(e, f, names)) for e, f in entries]
    return entries


def _by_name(
    e: IndexEntry, found: tuple[str, bool] | None, names: LinkTargets
) -> tuple[str, bool] | None:
    """found, or for a `[[name]]` line with no file of that stem the memory its name finds
    (formats.index_lines.wiki_entry_memory, as lint and the rebuild read it)."""
    if found is None or found[1]:
        return found
    rel = wiki_entry_memory(e, names, "private")
    return (rel, True) if rel is not None else found


def _index_line_actions(
    irel: str, text: str, scope_dir: Path, memory_dir: Path, in_scope: dict[str, _Mem]
) -> tuple[list[PlanAction], dict[str, int]]:
    """4-5. one index's lines: dangling ones re-pointed or dropped, long ones shortened; and
    what it lists (each file's first line, scope-relative)."""
    actions: list[PlanAction] = []
    targets = IndexTargets(scope_dir, memory_dir=memory_dir)
    entries = _entries(text, targets, in_scope)
    indexed: dict[str, int] = {}
    for e, found in entries:
        if found is not None:
            indexed.setdefault(found[0], e.line_no)
    for no, target in index.index_mentions(text):  # named besides a line's entry: listed too
        named = _indexed_rel(targets, target, in_scope)
        if named is not None and named[1]:
            indexed.setdefault(named[0], no)
    moved_files = functools.cache(lambda: MovedFiles(in_scope))  # made at the first dangling line
    for e, found in entries:
        if found is None:
            continue
        rel, exists = found
        if rel not in in_scope and not exists:
            actions.extend(_dangling_actions(irel, e, indexed, moved_files))
        elif len(e.raw) > MAX_INDEX_LINE_CHARS and not e.cited:  # a citation stays (real44)
            actions.extend(_shorten_action(irel, e))
    return actions, indexed


def _dangling_actions(
    irel: str,
    e: IndexEntry,
    indexed: dict[str, int],
    moved_files: Callable[[], MovedFiles],
) -> list[PlanAction]:
    """A dangling line's action (_dangling_action), if any: none for prose or a block's
    heading (lint reports it), nor for a cited line with nowhere to follow its file (real44:
    never dropped). indexed gains the file a repointed line now lists; moved_files gives the
    index's one MovedFiles (made on its first call)."""
    if not e.repointable:
        return []
    moved = moved_files().find(e.target)
    if moved is not None and moved in indexed:
        moved = None  # another line already points there: this one goes
    if moved is None and not e.removable:
        return []
    if moved is not None:
        indexed[moved] = e.line_no
    return [_dangling_action(irel, e, moved)]


def _shorten_action(irel: str, e: IndexEntry) -> list[PlanAction]:
    """A long line written again with its hook cut to what its title leaves of the line's
    ~200 characters; none when that is no shorter (a title that fills the line: lint says so,
    and a plan proposing the same line again would never be done: real40)."""
    line = index.format_index_entry(e.title, e.target, e.hook, MAX_INDEX_LINE_CHARS)
    if len(line) >= len(e.raw):
        return []
    action = PlanAction(
        f"shorten:{irel}:{e.target}",
        "shorten_index_line",
        f"{irel} line {e.line_no} is {len(e.raw)} characters; shorten its hook "
        "(the detail belongs in the topic file)",
        (irel,),
        (IndexUpsert(irel, e.target, line),),
    )
    return [action]


# Which memories' pointers go first when their times tie (a git checkout gives every file one
# mtime, which a memory without `modified:` keeps): project and reference memories date,
# feedback and user memories are standing guidance, so theirs go last.
_KEPT_LONGER: dict[str, int] = {MemoryType.FEEDBACK.value: 1, MemoryType.USER.value: 1}


def _fit_order(in_scope: dict[str, _Mem], indexed: dict[str, int]) -> tuple[str, ...]:
    """The order fit_index drops pointers in: oldest memory first, by its memory time
    (_Mem.memory_ms: `modified:` when valid, else mtime, as the rest of the plan); on a tie,
    project and reference before feedback and user, then the lowest line of the index first
    (the lines Claude Code's 200-line cut would lose anyway; a line the plan appends is the
    lowest).
    in_scope: the index's files by their index-relative path."""
    appended = max(indexed.values(), default=0) + 1

    def key(item: tuple[str, _Mem]) -> tuple[float, int, int, str]:
        rel, m = item
        return (m.memory_ms, _KEPT_LONGER.get(m.type, 0), -indexed.get(rel, appended), m.rel)

    return tuple(rel for rel, _ in sorted(in_scope.items(), key=key))


def agent_index_rels(root: Path) -> tuple[str, ...]:
    """The agents' own indexes (memory-dir relative) of an agent memory root read as one memory
    dir (storage.agent_root_index): the plan reads them, and index_actions repairs them."""
    return tuple(f"{agent}/{ENTRYPOINT_NAME}" for agent in agent_index_folders(root))


def index_actions(
    root: Path,
    texts: dict[str, str | None],
    hashes: dict[str, str | None],
    scope: str,
    mems: list[_Mem],
    merged: set[str],
    actions: list[PlanAction],
    notes: list[str] | None = None,
    fit: Fit = fit_index,
) -> list[PlanAction]:
    """4-7. one scope's index: dangling lines, missing lines, long lines, then its caps; for
    the private scope of an agent memory root, each agent's own index after the root's.

    root: the memory dir; texts and hashes: what the plan read (dream.plan's snapshot);
    actions: the plan's actions so far, whose ops on this index come first; notes: the plan's
    notes, given one for the memories an index at its caps keeps no line for; fit: what fits
    an over-cap index (fit_index, or the plan's disk cache of it)."""
    scope_dir = root / scope if scope else root
    own = {m.scope_rel: m for m in mems if m.scope == scope}
    # a file an agent's own index is the home of (agent_index_owners) is repaired there
    agents = agent_index_owners(scope_dir, list(own))
    root_own = {rel: m for rel, m in own.items() if rel not in agents}
    notes = [] if notes is None else notes
    new = _one_index_actions(
        root, texts, hashes, index_rel(scope), scope_dir, root_own, merged, actions, notes, fit
    )
    for irel in agent_index_rels(root) if not scope else ():
        agent = irel.split("/", 1)[0]
        mine = {rel.split("/", 1)[1]: m for rel, m in own.items() if agents.get(rel) == agent}
        done = [*actions, *new]
        carried = _carried_lines(root, texts, irel, agent, own)
        new += _one_index_actions(
            root, texts, hashes, irel, root / agent, mine, merged, done, notes, fit, carried
        )
    return new


def _carried_lines(
    root: Path, texts: dict[str, str | None], irel: str, agent: str, own: Mapping[str, _Mem]
) -> dict[str, str]:
    """For an agent's index the plan creates (none is there yet): the root index's lines for
    the agent's files, re-pointed (storage.agent_root_index.carried_root_lines, the rule
    rebuild-index follows); {} for an index that exists."""
    if texts.get(irel) is not None or not texts.get(ENTRYPOINT_NAME):
        return {}
    targets = IndexTargets(root, memory_dir=root)

    def points_at(target: str) -> str | None:
        found = _indexed_rel(targets, target, own)
        return None if found is None else (found[0] if found[1] else "")

    return carried_root_lines(texts[ENTRYPOINT_NAME] or "", agent, points_at, list(own))


def _one_index_actions(
    root: Path,
    texts: dict[str, str | None],
    hashes: dict[str, str | None],
    irel: str,
    scope_dir: Path,
    own: dict[str, _Mem],
    merged: set[str],
    actions: list[PlanAction],
    notes: list[str],
    fit: Fit,
    carried: Mapping[str, str] | None = None,
) -> list[PlanAction]:
    """4-7. one index (irel, in scope_dir) over its files own (by index-relative path);
    carried: file -> the line a created index takes from the root's (_carried_lines)."""
    text = texts.get(irel) or ""
    # a file a sub-folder's own MEMORY.md lists (an agent's memory dir) is indexed there
    nested = nested_index_references(scope_dir, list(own))
    in_scope = {rel: m for rel, m in own.items() if rel not in nested}
    new, indexed = _index_line_actions(irel, text, scope_dir, root, in_scope)
    absorbed = merged - {a.files[0] for a in actions if a.kind == "merge_duplicates"}
    # no line for a binary file (spec.text.is_not_text: lint's not-text, the rebuild's rule)
    missing = [
        (rel, m)
        for rel, m in sorted(in_scope.items())
        if rel not in indexed and m.rel not in absorbed and not is_not_text(m.text)
    ]
    order: tuple[str, ...] | None = None
    held, place = frozenset[str](), 0
    if not carried and len(missing) + len(indexed) > index.MAX_ENTRYPOINT_LINES:
        order = _fit_order(in_scope, indexed)
        # the files whose line stays till the fit: not those a merge takes the line of
        listed = {rel for rel in indexed if rel in in_scope and in_scope[rel].rel not in absorbed}
        held, place = held_back(missing, listed, order)
    adds = {rel: _add_action(irel, rel, m, carried) for rel, m in missing if rel not in held}
    kept: set[str] | None = None
    if held:  # the fit over the other adds, when it shows the held ones go (dream.index_adds)
        assert order is not None  # held_back's
        fitted = _fitted_past_held(
            root, texts, hashes, irel, [*actions, *new], adds, (held, place, order, missing), fit
        )
        kept = (
            None if fitted is None else _rels(_listed(irel, fitted, scope_dir, root, in_scope), own)
        )
        if kept is not None and all(m.rel in kept for _, m in missing):
            kept = None  # the fit over every add is the plan's own action then
    if kept is None:
        adds = {rel: adds.get(rel) or _add_action(irel, rel, m, carried) for rel, m in missing}
        every = [*new, *adds.values()]
        fit_act, after = _fit_action(
            root, texts, hashes, irel, [*actions, *every], in_scope, indexed, order, fit=fit
        )
        if fit_act is None:
            return every
        # A line the fit drops again is no line to add (real39: a second dream proposed 65 lines
        # and kept 3): only the adds whose pointer the fitted index keeps are proposed, and the
        # fit is made again over them (the same lines stay: those left out were dropped first).
        fitted = _fitted(root, texts, hashes, irel, [*actions, *every], fit_act, after, fit)
        kept = _rels(_listed(irel, fitted, scope_dir, root, in_scope), own)
        if all(m.rel in kept for _, m in missing):  # the same actions: the same fit
            return [*every, fit_act]  # (no second simulation)
        (op,) = fit_act.ops
        assert isinstance(op, IndexFit)  # what _fit_action makes
        order = op.order  # the same files and lines listed: the same order, not sorted again
    # by place, not `a not in left`: that compared each add with each dropped one (940,000
    # dataclass __eq__ calls on the bench dir, about 180 ms of a first plan; plan39b)
    new += [
        adds.get(rel) or _add_action(irel, rel, m, carried) for rel, m in missing if m.rel in kept
    ]
    notes.append(_left_note(irel, sum(m.rel not in kept for _, m in missing)))
    again = _fit_action(
        root, texts, hashes, irel, [*actions, *new], in_scope, indexed, order, fit=fit
    )
    return [*new, again[0]] if again[0] is not None else new


def _left_note(irel: str, left: int) -> str:
    """The plan's note for the left memories the fit of index irel keeps no line for."""
    many = left > 1
    return (
        f"{left} {'memories' if many else 'memory'} without a line in {irel} "
        f"{'get' if many else 'gets'} none: the line would go again to keep it under the "
        f"{index.MAX_ENTRYPOINT_LINES}-line / {index.MAX_ENTRYPOINT_BYTES}-byte caps (the "
        "files stay, and recall still finds them); to list them, move the index's notes "
        "into memory files or shorten its hooks"
    )


def _add_action(irel: str, rel: str, m: _Mem, carried: Mapping[str, str] | None) -> PlanAction:
    """The line for file rel (index-relative), missing from index irel, added where a tool adds
    lines: the line carried from the root's index for it, else one formatted once per content."""
    hook = m.description or index.heading_hook(m.body) or index.NO_DESCRIPTION_HOOK
    line = (carried or {}).get(rel) or _KEPT_LINES.get(m.name, rel, hook)
    return PlanAction(
        f"index:{irel}:{rel}",
        "add_missing_index_line",
        f"{rel} has no line in {irel}; add one",
        (irel, m.rel),
        (IndexAdd(irel, rel, line),),  # where rebuild-index adds lines
    )


def _listed(
    irel: str, fitted: str, scope_dir: Path, root: Path, in_scope: dict[str, _Mem]
) -> dict[str, int]:
    """What the fitted index lists (_index_line_actions's second answer)."""
    return _index_line_actions(irel, fitted, scope_dir, root, in_scope)[1]


def _fitted_past_held(
    root: Path,
    texts: dict[str, str | None],
    hashes: dict[str, str | None],
    irel: str,
    actions: list[PlanAction],
    adds: Mapping[str, PlanAction],
    held: tuple[frozenset[str], int, tuple[str, ...], list[tuple[str, _Mem]]],
    fit: Fit,
) -> str | None:
    """The fitted text of index irel as actions and then every missing file's add leave it,
    found from the adds not held back (held: held_back's files and place, the fit's order and
    the missing files); None when their fit does not show it (dream.index_adds), or when a
    Relink changes the index after its adds."""
    files, place, order, missing = held
    touching = _touching(irel, actions)
    if any(isinstance(op, Relink) for a in touching for op in a.ops):
        return None
    text = texts.get(irel) or ""
    before = ConsolidationPlan(root, touching, texts, hashes, 0.0).result().get(irel, text)
    probe = ConsolidationPlan(root, [*touching, *adds.values()], texts, hashes, 0.0)
    fitted = fit(probe.result().get(irel, text) or "", order)
    added = [(rel, m) for rel, m in missing if rel not in files]
    return (
        fitted if fit_shows_held_dropped(before or "", fitted, files, added, order, place) else None
    )


def _fitted(
    root: Path,
    texts: dict[str, str | None],
    hashes: dict[str, str | None],
    irel: str,
    actions: list[PlanAction],
    fit_act: PlanAction,
    after: str,
    fit: Fit,
) -> str:
    """Index irel as actions and then fit_act leave it; after is what actions alone leave it.

    A simulation applies the ops in order and the relinks last: with no Relink on the index,
    that is the fit applied to after, without simulating every action again (about 25 ms of
    each plan of the bench dir; plan39b)."""
    touching = _touching(irel, actions)
    if any(isinstance(op, Relink) for a in touching for op in a.ops):
        probe = ConsolidationPlan(root, [*touching, fit_act], texts, hashes, 0.0)
        return probe.result().get(irel, texts.get(irel) or "") or ""
    (op,) = fit_act.ops
    assert isinstance(op, IndexFit)  # what _fit_action makes
    return fit(after, op.order)


def _rels(listed: Mapping[str, int], own: Mapping[str, _Mem]) -> set[str]:
    """The memory-dir relative paths (_Mem.rel) of the index-relative paths an index lists."""
    return {own[rel].rel for rel in listed if rel in own}


def _touching(irel: str, actions: list[PlanAction]) -> list[PlanAction]:
    """The actions with an op on index irel: only they change it."""
    # a loop, not any() over a generator per action: asked of ~1,500 actions five times in a
    # first plan of the bench dir (plan41)
    found: list[PlanAction] = []
    for a in actions:
        for op in a.ops:
            if op.rel == irel:
                found.append(a)
                break
    return found


def _fit_action(
    root: Path,
    texts: dict[str, str | None],
    hashes: dict[str, str | None],
    irel: str,
    actions: list[PlanAction],
    in_scope: dict[str, _Mem],
    indexed: dict[str, int],
    order: tuple[str, ...] | None = None,
    *,
    fit: Fit = fit_index,
) -> tuple[PlanAction | None, str]:
    """7. the fit_index_caps action for index irel as actions leave it (None when it is under
    both caps, or when a fit would change nothing), and the index's text as they leave it;
    order: _fit_order(in_scope, indexed) when the caller has it; fit: as _one_index_actions's (the
    plan's disk cache when it has one, so a new process does not fit an unchanged index)."""
    text = texts.get(irel) or ""
    probe = ConsolidationPlan(root, _touching(irel, actions), texts, hashes, 0.0)
    after = probe.result().get(irel, text) or ""
    n_lines = len(after.rstrip("\n").split("\n")) if after else 0
    n_bytes = index.cap_units(after)  # the unit Claude Code's byte cap counts
    if n_lines <= index.MAX_ENTRYPOINT_LINES and n_bytes <= index.MAX_ENTRYPOINT_BYTES:
        return None, after
    order = _fit_order(in_scope, indexed) if order is None else order
    if fit(after, order) == after:
        return None, after  # nothing a fit may change (no link to shorten or drop): no action
    action = PlanAction(
        f"fit:{irel}",
        "fit_index_caps",
        f"{irel} would be {n_lines} lines / {n_bytes} bytes, over the "
        f"{index.MAX_ENTRYPOINT_LINES}-line / {index.MAX_ENTRYPOINT_BYTES}-byte caps: "
        "collapse blank runs, shorten hooks, then drop pointers to the oldest "
        "memories (their files stay and recall still finds them); where times tie, "
        "project and reference pointers go before feedback and user ones, lowest "
        "first, and a section heading left empty goes too (the diff lists each line)",
        (irel,),
        (IndexFit(irel, order),),
    )
    return action, after
