"""The rows of a session replay (reports.replay), its summary, and its plain-text turn table.

A replay is kept whole (replay_session: `SessionReplay.turns`, what notebooks and the widget
read) or streamed (iter_replay: each TurnReplay handed out as it is made and let go, what the
CLI prints), so the summary adds its counts up turn by turn (`ReplayTotals`) and the table is
made one turn at a time (`turn_lines`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from memdir_nb.extract.scheduler import SchedulerDecision
from memdir_nb.formats.session_model import Session
from memdir_nb.recall.explain_selection import MemoryExplanation
from memdir_nb.security.secret_scan import redact_secrets
from memdir_nb.spec.text import first_few, plural, terminal_line


@dataclass(frozen=True)
class SurfacedMemory:
    """One memory recall put into the turn, with its cut and the selector's explanation."""

    rel: str
    injected_bytes: int
    file_bytes: int
    truncated: bool  # cut by the per-memory caps (200 lines / 4 KB)
    age: str  # as of the turn
    explanation: MemoryExplanation | None = None


@dataclass
class TurnReplay:
    """One turn of the replay."""

    index: int
    prompt: str
    kind: str
    timestamp: str | None
    flags: list[str]
    recent_tools: list[str]
    existing: list[str]
    uncertain: list[str]  # existing files whose as-of text could not be rebuilt exactly
    already_surfaced: list[str]  # surfaced (or read by the agent) before this turn
    selected: list[str]  # what the selector picked
    surfaced: list[SurfacedMemory]
    capped: list[str]  # surfaced but cut by the per-memory caps
    budget_cut: list[str]  # picked but dropped: the session budget was spent
    budget_used: int  # bytes of the session budget used after this turn
    explanation: list[MemoryExplanation]
    agent_read: list[str]
    agent_wrote: list[str]
    likely_misses: list[str]
    extraction: SchedulerDecision | None = None
    compacted_before: bool = False  # the context was compacted just before this turn
    # what Claude Code's own recall surfaced in this turn, as its `relevant_memories` record
    # names it (memory-relative); these count as surfaced from the next turn on
    cli_surfaced: list[str] = field(default_factory=list)
    # prompts the user typed while this turn ran, taken into it (formats.session_queue)
    queued_prompts: list[str] = field(default_factory=list)

    @property
    def surfaced_names(self) -> list[str]:
        """The rel paths recall surfaced in this turn."""
        return [s.rel for s in self.surfaced]

    def row(self) -> dict[str, Any]:
        """The turn as one table row (what `memdir-nb replay` and the widget show)."""
        return {
            "turn": self.index + 1,
            "prompt": self.prompt,
            "flags": ", ".join(self.flags),
            "existing": len(self.existing),
            "surfaced": ", ".join(self.surfaced_names),
            "capped": ", ".join(self.capped),
            "budget_cut": ", ".join(self.budget_cut),
            "agent_read": ", ".join(self.agent_read),
            "agent_wrote": ", ".join(self.agent_wrote),
            "likely_miss": ", ".join(self.likely_misses),
            "extraction": self.extraction.action if self.extraction else "",
            "cli_surfaced": ", ".join(self.cli_surfaced),
            "queued_prompts": self.queued_prompts,
        }


@dataclass
class ReplayTotals:
    """What the summary counts, added up turn by turn: a replay that does not keep its turns
    (iter_replay, the CLI) summarises them all the same."""

    turns: int = 0
    recall_turns: int = 0  # with a prompt recall could run on
    likely_miss_turns: int = 0
    surfaced: int = 0
    capped: int = 0
    budget_cut: int = 0
    agent_reads: int = 0
    truncated: bool = False  # a surfaced memory was cut by the per-memory caps
    compacted: list[int] = field(default_factory=list)  # 1-based turns after a compaction

    def add(self, t: TurnReplay) -> None:
        """Count one turn."""
        self.turns += 1
        self.recall_turns += bool(t.prompt.strip())
        self.likely_miss_turns += bool(t.likely_misses)
        self.surfaced += len(t.surfaced)
        self.capped += len(t.capped)
        self.budget_cut += len(t.budget_cut)
        self.agent_reads += len(t.agent_read)
        self.truncated = self.truncated or any(s.truncated for s in t.surfaced)
        if t.compacted_before:
            self.compacted.append(t.index + 1)


SHOWN_PROBLEMS = 5  # a transcript's bad lines named one by one; the rest are counted


@dataclass
class SessionReplay:
    """A replayed session: its turns, the end-of-session flush and a summary.

    `turns` holds every turn of replay_session; a streamed replay (iter_replay) leaves it
    empty and only `totals` counts them."""

    session: Session
    memory_dir: str
    selector_name: str
    turns: list[TurnReplay]
    flush: SchedulerDecision | None = None
    notes: list[str] = field(default_factory=list)
    budget_spent_at: int | None = None  # index of the turn where the budget ran out
    totals: ReplayTotals = field(default_factory=ReplayTotals)
    # False (the default): what the replay shows of the transcript's own text (prompts, recaps,
    # notices) has every credential the secret guard knows redacted (`shown`); the file is
    # never changed. True: shown as typed, for the person who asks for it by name (attack40b).
    show_secrets: bool = False

    def shown(self, text: str) -> str:
        """text as the replay shows it: its credentials redacted unless show_secrets."""
        return text if self.show_secrets else redact_secrets(text)

    def __post_init__(self) -> None:
        for t in self.turns:
            self.totals.add(t)

    def add(self, t: TurnReplay, *, keep: bool = True) -> TurnReplay:
        """Count one more turn, and keep it in `turns` unless keep is False. Returns the turn as
        the replay shows it: a copy whose prompt is `shown` (recall has run on it as typed), so
        the row the caller built is left as it was."""
        row = replace(
            t, prompt=self.shown(t.prompt), queued_prompts=[self.shown(p) for p in t.queued_prompts]
        )
        self.totals.add(row)
        if keep:
            self.turns.append(row)
        return row

    @property
    def recall_turns(self) -> int:
        """Turns with a prompt recall could run on (continuations and image-only prompts excluded)."""
        return self.totals.recall_turns

    @property
    def likely_miss_turns(self) -> int:
        """Turns with at least one likely recall miss."""
        return self.totals.likely_miss_turns

    @property
    def likely_miss_rate(self) -> float:
        """Likely-miss turns over turns recall ran on (0.0 for a session without any)."""
        return self.likely_miss_turns / self.recall_turns if self.recall_turns else 0.0

    def problem_lines(self) -> list[str]:
        """The transcript's lines the replay could not use, each saying what became of it (the
        first SHOWN_PROBLEMS, then how many more): one list for every route that shows a replay
        (the CLI's text and `--json`, the replay widget, notebook 11), so none replays a
        damaged transcript as if it were whole (attack39)."""
        session = self.session
        shown = [terminal_line(str(p)) for p in session.problems[:SHOWN_PROBLEMS]]
        more = len(session.problems) - len(shown) + session.more_problems
        if more:
            shown.append(f"and {plural(more, 'more line')} skipped")
        return shown

    def note_lines(self) -> list[str]:
        """The replay's notes (whose session, forks, refusals, recaps and notices, what could
        not be rebuilt), each on one line: the summary's last lines, and the replay widget's
        notes list."""
        return [terminal_line(self.shown(n)) for n in self.notes]  # a path: one line

    def summary(self, *, notes: bool = True) -> str:
        """One paragraph: turns, surfaced, cut, misses; then the notes (note_lines) unless
        notes is False (the replay widget lists them apart)."""
        totals = self.totals
        misses = (
            f"likely recall misses in {self.likely_miss_turns} of "
            f"{plural(self.recall_turns, 'turn')} ({self.likely_miss_rate:.0%})."
            if self.recall_turns
            else "no turn has a prompt, so there are no likely recall misses to count."
        )
        lines = [
            f"{plural(totals.turns, 'turn')} ({self.recall_turns} with a prompt), "
            f"selector {self.selector_name}: "
            f"{plural(totals.surfaced, 'memory', 'memories')} surfaced, "
            f"{totals.capped} cut by the per-memory caps, {totals.budget_cut} dropped by the "
            "session budget.",
            f"The agent read {plural(totals.agent_reads, 'memory file')} itself; {misses}",
        ]
        if self.budget_spent_at is not None:
            lines.append(f"The 60 KB recall budget ran out at turn {self.budget_spent_at + 1}.")
        if totals.compacted:
            lines.append(
                f"The context was compacted before turn {', '.join(map(str, totals.compacted))}: "
                "recall's surfaced set and its 60 KB budget start over there, as Claude Code's "
                "do (the earlier attachments are gone)."
            )
        if self.flush is not None:
            lines.append(f"End-of-session flush: {self.flush.action} ({self.flush.detail}).")
        return "\n".join(lines + (self.note_lines() if notes else []))

    def rows(self) -> list[dict[str, Any]]:
        """The turn table as dicts (pandas.DataFrame(replay.rows()) for a frame)."""
        return [t.row() for t in self.turns]


EXTRACTION_LABELS = {
    "skipped_main_agent_wrote": "agent wrote",
    "skipped_subagent": "subagent",
    "nothing_new": "nothing new",
    "skipped_no_model_reply": "API error",
}


# The CLI's own recall picks a turn's line names (it picks five a turn; a hostile transcript
# named 4,096 on one turn and printed one line of 44 KB, attack round 25); the rest are counted.
CLI_SURFACED_SHOWN = 10
QUEUED_SHOWN = 3  # prompts typed while a turn ran that its table line names, then a count


TABLE_HEADER = (
    f"{'turn':>4}  {'surfaced':<34} {'agent read':<34} {'miss':<4} {'extractor':<11} prompt"
)
CAPS_FOOTNOTE = "(* cut by the per-memory caps: 200 lines / 4 KB)"


def iter_turn_lines(replay: SessionReplay) -> Iterator[str]:
    """The plain-text turn table, one line per turn (the CLI sanitises it before printing).

    A surfaced memory cut by the per-memory caps ends in '*' (a footnote says so when one does);
    budget-cut ones are not shown here (the JSON rows and the widget list them).
    """
    yield TABLE_HEADER
    for t in replay.turns:
        yield from turn_lines(t)
    if replay.totals.truncated:
        yield CAPS_FOOTNOTE


def turn_lines(t: TurnReplay) -> Iterator[str]:
    """One turn's lines of the table (iter_turn_lines): a streamed replay prints them as each
    turn is made."""
    if t.compacted_before:
        yield f"{'':>4}  -- context compacted: recall's surfaced set and budget start over --"
    prompt = " ".join(t.prompt.split())[:60] or f"({t.kind})"
    surfaced = ", ".join(s.rel + ("*" if s.truncated else "") for s in t.surfaced) or "-"
    read = ", ".join(t.agent_read) or "-"
    miss = "MISS" if t.likely_misses else ""
    action = t.extraction.action if t.extraction else "-"
    action = EXTRACTION_LABELS.get(action, action)
    yield (
        f"{t.index + 1:>4}  {_fit(surfaced, 34):<34} {_fit(read, 34):<34} {miss:<4}"
        f" {action[:11]:<11} {prompt}"
    )
    if t.cli_surfaced:
        shown = first_few(t.cli_surfaced, CLI_SURFACED_SHOWN)
        yield f"{'':>4}  Claude Code's own recall surfaced: {shown}"
    if t.queued_prompts:
        cut = [_fit(" ".join(p.split()), 60) for p in t.queued_prompts[:QUEUED_SHOWN]]
        typed = first_few(cut, QUEUED_SHOWN, count=len(t.queued_prompts))
        yield f"{'':>4}  typed while the agent worked: {typed}"


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "\u2026"
