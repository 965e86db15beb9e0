"""What a plan is: typed file operations, actions made of them, and the plan that simulates and diffs them."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import assert_never

from memdir_nb.clock import system_clock_ms
from memdir_nb.formats.file_diff import unified_file_diff
from memdir_nb.formats.frontmatter_window import header_block_end
from memdir_nb.formats.index import upsert_index_entry, with_added_lines
from memdir_nb.formats.index_batch import IndexText, fit_index
from memdir_nb.formats.index_lines import norm_target, parse_index
from memdir_nb.formats.wikilinks import file_relinked, relinked
from memdir_nb.storage.agent_root_index import scopes_joined_problem
from memdir_nb.storage.listing import folder_of_memory_dirs


class PlanError(ValueError):
    """A plan cannot be applied as asked; nothing was changed."""


class PlanStaleError(PlanError):
    """Files the plan read changed after it was made."""


def check_plan_dir(root: Path) -> None:
    """PlanError unless root is one memory dir a plan can be made for.

    A folder of memory dirs (.claude/agent-memory/ holding each agent's dir) is refused as the
    rebuild refuses it: a plan there would merge one agent's memories into another's, remove
    index lines from a top-level MEMORY.md that does not exist (leaving the agent's own line
    dangling) and, applied, write that empty MEMORY.md, which never loads.
    """
    if not root.is_dir():
        raise PlanError(
            f"memory dir {str(root)!r} does not exist or is not a directory; pass the memory directory"
        )
    found = folder_of_memory_dirs(root)
    if found is not None:
        raise PlanError(f"cannot plan a consolidation: {found.problem}; {found.fix}")


@dataclass(frozen=True)
class WriteFile:
    """Replace the whole file `rel` with `text` (creating it when absent)."""

    rel: str
    text: str


@dataclass(frozen=True)
class TrashFile:
    """Move the file `rel` to the dream's trash batch."""

    rel: str


@dataclass(frozen=True)
class ReplaceText:
    """Replace the first `old` in file `rel` with `new` (skipped when `old` is no longer there)."""

    rel: str
    old: str
    new: str


@dataclass(frozen=True)
class IndexRemove:
    """Drop the line pointing at `target` from the index file `rel`; with drop_emptied, also a
    `##` heading that line was the last line under (never one that was empty before)."""

    rel: str
    target: str
    drop_emptied: bool = False


@dataclass(frozen=True)
class IndexUpsert:
    """Add or replace the line pointing at `target` in the index file `rel`."""

    rel: str
    target: str
    line: str


@dataclass(frozen=True)
class IndexAdd:
    """Add a line pointing at `target` to the index file `rel` where a tool adds lines
    (formats.index.with_added_lines: under REBUILD_HEADING, as rebuild-index does, never in a
    person's own section; index37), or replace the line already pointing at it (IndexUpsert)."""

    rel: str
    target: str
    line: str


@dataclass(frozen=True)
class IndexFit:
    """Bring the index file `rel` under its caps, dropping pointers oldest first (`order`)."""

    rel: str
    order: tuple[str, ...]


@dataclass(frozen=True)
class Relink:
    """Point the `[[name]]` links in file `rel` that name a merged-away memory at the memory
    that absorbed it (`renames`: (old name, new name) pairs; formats.wikilinks), and its
    Markdown links to the merged-away file at the absorbing one (`files`: (target as written,
    the absorbing file's path from rel) pairs; formats.wikilinks.file_relinked).

    Applied after every other op of the approved actions, to the file as they leave it, and
    skipped when it went to the trash: another merge that rewrites the file whole keeps its
    links pointed too, whatever the order of the two actions.
    """

    rel: str
    renames: tuple[tuple[str, str], ...]
    files: tuple[tuple[str, str], ...] = ()


PlanOp = (
    WriteFile | TrashFile | ReplaceText | IndexRemove | IndexUpsert | IndexAdd | IndexFit | Relink
)
_OP_TYPES = (
    WriteFile,
    TrashFile,
    ReplaceText,
    IndexRemove,
    IndexUpsert,
    IndexAdd,
    IndexFit,
    Relink,
)


@dataclass(frozen=True)
class PlanAction:
    """One proposed change. `ops` are applied in order when the action is approved."""

    id: str
    kind: str
    summary: str
    files: tuple[str, ...]
    ops: tuple[PlanOp, ...] = ()

    def __post_init__(self) -> None:
        # a loop, not a list comprehension (a frame of its own on CPython 3.11): a first plan
        # of the bench dir makes ~1,600 actions (plan41)
        for op in self.ops:
            if not isinstance(op, _OP_TYPES):
                raise PlanError(
                    f"action {self.id!r}: ops must be "
                    f"{', '.join(t.__name__ for t in _OP_TYPES)}; got {op!r}"
                )


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
        """A unified diff of every file the (approved) actions would change (formats.file_diff:
        lines split where the loader splits them; a file created or trashed is `/dev/null`)."""
        return "".join(
            unified_file_diff(self.snapshot.get(rel), after, rel)
            for rel, after in sorted(self.result(approve).items())
        )


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _split_front(text: str) -> tuple[str, str]:
    """(frontmatter block including fences, body); ('', text) when there is no frontmatter.
    The cut is the reader's (`header_block_end`), whatever the file's line ends."""
    cut = header_block_end(text)
    return text[:cut], text[cut:]


# relative dates: memdir_nb.spec.dates owns the rules; convert_relative_dates is re-exported here.

# simulation ------------------------------------------------------------------------------


def _approved(
    plan: ConsolidationPlan, approve: Collection[str | PlanAction] | None
) -> list[PlanAction]:
    if approve is None:
        approve = plan.actions
    elif isinstance(approve, (str, PlanAction)):
        approve = [approve]
    ids = {a.id if isinstance(a, PlanAction) else a for a in approve}
    unknown = ids - {a.id for a in plan.actions}
    if unknown:
        raise PlanError(
            f"approved action(s) {sorted(unknown)} are not in this plan; "
            f"choose from {[a.id for a in plan.actions]}"
        )
    return [a for a in plan.actions if a.id in ids]


def refuse_claude_plan_across_agents(plan: ConsolidationPlan, approved: list[PlanAction]) -> None:
    """The scope rule the offline planner's merges keep (storage.agent_root_index), held for
    the Claude planner's plan: its approved actions are one step, as nothing records which
    retired file's text a rewritten one took (PlanRecorder refuses such a Write as it is made;
    a plan built or edited by hand is checked here)."""
    if plan.source != "claude":
        return
    problem = scopes_joined_problem(plan.memory_dir, [f for a in approved for f in a.files])
    if problem is not None:
        raise PlanError(f"this Claude plan cannot be applied: {problem}; nothing was applied")


class _Simulation:
    """The files as a run of ops leaves them, starting from a plan's snapshot.

    Runs of index edits on one file are applied to a parsed copy (linear in the index size,
    not once per edit) and turned back into text before any other op reads it.
    """

    def __init__(self, snapshot: Mapping[str, str | None]) -> None:
        self.snapshot = snapshot
        self.state: dict[str, str | None] = {}
        self.parsed: dict[str, IndexText] = {}
        self.relinks: list[Relink] = []  # applied last (Relink)
        self.added: dict[str, list[IndexAdd]] = {}  # added together, when the text is next read

    def current(self, rel: str) -> str | None:
        """The file's text now (None: absent or trashed)."""
        if rel in self.parsed:
            self.state[rel] = self.parsed.pop(rel).text()
        if rel in self.added:
            self.state[rel] = self._with_added(rel)
        return self.state[rel] if rel in self.state else self.snapshot.get(rel)

    def _with_added(self, rel: str) -> str:
        """The index with its queued IndexAdd lines: one with a line already (another action
        gave it one) replaces it; the others go where a tool adds lines, all at once (a whole
        text rendered once, however many lines a plan adds)."""
        adds = self.added.pop(rel)
        text = self.current(rel) or ""
        listed = {e.target for e in parse_index(text)}
        had = [norm_target(a.target) in listed for a in adds]  # once an add (plan41)
        for a, there in zip(adds, had, strict=True):
            if there:
                text = upsert_index_entry(text, a.line, a.target)
        fresh = [a.line.strip("\n") for a, there in zip(adds, had, strict=True) if not there]
        return with_added_lines(text, "".join(f"{line}\n" for line in fresh)) if fresh else text

    def doc(self, rel: str) -> IndexText:
        """The index file, parsed for a run of edits."""
        if rel not in self.parsed:
            self.parsed[rel] = IndexText(self.current(rel) or "")
        return self.parsed[rel]

    def set(self, rel: str, text: str | None) -> None:
        """Replace the file's whole text (None: it goes to the trash)."""
        self.parsed.pop(rel, None)
        self.added.pop(rel, None)
        self.state[rel] = text

    def apply(self, op: PlanOp) -> None:
        """Apply one op."""
        if isinstance(op, IndexRemove):
            self.doc(op.rel).remove(op.target, drop_emptied=op.drop_emptied)
        elif isinstance(op, IndexUpsert):
            self.doc(op.rel).upsert(op.line, op.target)
        elif isinstance(op, IndexAdd):
            if op.rel in self.parsed:  # earlier edits first (an IndexText run becomes text)
                self.state[op.rel] = self.parsed.pop(op.rel).text()
            self.added.setdefault(op.rel, []).append(op)
        elif isinstance(op, WriteFile):
            self.set(op.rel, op.text)
        elif isinstance(op, TrashFile):
            self.set(op.rel, None)
        elif isinstance(op, ReplaceText):
            text = self.current(op.rel)
            if text is not None and op.old in text:
                self.state[op.rel] = text.replace(op.old, op.new, 1)
        elif isinstance(op, IndexFit):
            self.state[op.rel] = fit_index(self.current(op.rel) or "", op.order)
        elif isinstance(op, Relink):
            self.relinks.append(op)
        else:
            assert_never(op)

    def changed(self) -> dict[str, str | None]:
        """Every file whose text differs from the snapshot, with its new text."""
        for op in self.relinks:
            text = self.current(op.rel)
            if text is not None:
                text = relinked(text, dict(op.renames))[0]
                self.state[op.rel] = file_relinked(text, dict(op.files))[0]
        self.relinks = []
        for rel in [*self.parsed, *self.added]:
            self.current(rel)
        return {rel: t for rel, t in self.state.items() if t != self.snapshot.get(rel)}


def _simulate(plan: ConsolidationPlan, actions: Iterable[PlanAction]) -> dict[str, str | None]:
    sim = _Simulation(plan.snapshot)
    for action in actions:
        for op in action.ops:
            sim.apply(op)
    return sim.changed()
