"""The session replay view's model: the turn table, a turn's detail, the replay's notes (and
the ledger's, reports.replay_ledger: `memdir-nb replay` prints the same lines), and which
sessions to offer.

The widget (ui/widgets/replay.py) only shows what these functions return. Everything shown
comes from a transcript (anyone's typing), so the HTML helpers escape every value (html_safe,
the one HTML escaper).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from memdir_nb.home.sessions import SessionFile, described, sessions_using
from memdir_nb.home.subagent_meta import subagent_meta
from memdir_nb.reports.replay import CLI_SURFACED_SHOWN, SessionReplay, TurnReplay
from memdir_nb.reports.replay_ledger import ledger_notes, ledger_totals
from memdir_nb.reports.replay_notices import turn_notice_notes
from memdir_nb.spec.text import clip, first_few, html_safe, plural, terminal_line

__all__ = [
    "MISS_STYLE",
    "TurnRow",
    "ledger_notes",
    "ledger_totals",
    "notes_html",
    "session_label",
    "sessions_beside",
    "turn_detail_html",
    "turn_rows",
    "turn_table_html",
]

MISS_STYLE = "background:#fde0c5"  # likely-miss rows (also marked in text, never colour alone)
PROMPT_CHARS = 70


@dataclass(frozen=True)
class TurnRow:
    """One line of the turn table."""

    index: int
    label: str  # for the turn picker
    prompt: str
    flags: str
    surfaced: str
    capped: str
    budget_cut: str
    agent_read: str
    agent_wrote: str
    misses: str
    extraction: str

    @property
    def is_miss(self) -> bool:
        """The agent read a memory recall had not surfaced."""
        return bool(self.misses)


def _short(text: str, limit: int = PROMPT_CHARS) -> str:
    flat = terminal_line(" ".join(text.split()))  # an option label: text, shown as the CLI shows it
    return clip(flat, limit)


def turn_rows(replay: SessionReplay) -> list[TurnRow]:
    """The turn table's rows, in order."""
    rows = []
    for t in replay.turns:
        prompt = _short(t.prompt) or f"({t.kind})"
        mark = "MISS " if t.likely_misses else ""
        rows.append(
            TurnRow(
                index=t.index,
                label=f"{t.index + 1:>3}  {mark}{prompt}",
                prompt=prompt,
                flags=", ".join(t.flags),
                surfaced=", ".join(t.surfaced_names),
                capped=", ".join(t.capped),
                budget_cut=", ".join(t.budget_cut),
                agent_read=", ".join(t.agent_read),
                agent_wrote=", ".join(t.agent_wrote),
                misses=", ".join(t.likely_misses),
                extraction=t.extraction.action if t.extraction else "",
            )
        )
    return rows


def turn_table_html(rows: Sequence[TurnRow], selected: int = -1) -> str:
    """The turn table as HTML: likely misses shaded and marked, the selected turn in bold.

    No rows, no table: a header over nothing only crowds the summary that says why.
    """
    if not rows:
        return ""
    head = "".join(
        f"<th>{h}</th>"
        for h in ("turn", "prompt", "flags", "surfaced", "cut", "agent read", "miss", "extractor")
    )
    body = []
    for r in rows:
        style = MISS_STYLE if r.is_miss else ""
        if r.index == selected:
            style += ";font-weight:bold"
        cut = ", ".join(x for x in (r.capped, r.budget_cut) if x)
        cells = (
            r.index + 1,
            r.prompt,
            r.flags,
            r.surfaced,
            cut,
            r.agent_read,
            r.misses,
            r.extraction,
        )
        tds = "".join(f"<td>{html_safe(c)}</td>" for c in cells)
        cls = "memdir-replay-miss" if r.is_miss else "memdir-replay-turn"
        body.append(f'<tr class="{cls}" style="{style}">{tds}</tr>')
    return (
        '<table class="memdir-replay-table" style="border-collapse:collapse;font-size:90%">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def notes_html(notes: Sequence[str]) -> str:
    """The replay's notes (SessionReplay.note_lines: whose session, a fork, refusals, the recaps
    and notices the CLI showed the user, what could not be rebuilt) as a list under the
    summary, as `memdir-nb replay` prints them under its counts; none, nothing."""
    if not notes:
        return ""
    items = "".join(f"<li>{html_safe(n)}</li>" for n in notes)
    return f"<p>Notes:</p><ul class='memdir-replay-notes-list'>{items}</ul>"


def _notices_html(replay: SessionReplay, turn: TurnReplay) -> str:
    """What the CLI told the user beside the conversation in this turn (recaps, notices:
    reports.replay_notices), or nothing; the first turn also lists those that came before its
    prompt."""
    notes = turn_notice_notes(replay.session, turn.index + 1)
    if turn.index == 0:
        notes = turn_notice_notes(replay.session, 0) + notes
    if not notes:
        return ""
    items = "".join(f"<li>{html_safe(replay.shown(n))}</li>" for n in notes)
    return (
        "<p>Beside the conversation, the CLI told the user:</p>"
        f"<ul class='memdir-replay-turn-notices'>{items}</ul>"
    )


def _list(items: Sequence[str], limit: int | None = None) -> str:
    """Each name as code, comma-joined; past `limit`, the first ones and how many more (the
    one "first few" text, spec.text.first_few, as the terminal line words it)."""
    coded = [f"<code>{html_safe(i)}</code>" for i in items]
    return first_few(coded, len(coded) if limit is None else limit) or "none"


def _explanation_html(turn: TurnReplay) -> str:
    if not turn.explanation:
        return "<p>The selector recorded no per-memory scores for this turn.</p>"
    rows = []
    for e in turn.explanation:
        prob = "-" if e.probability is None else f"{e.probability:.2f}"
        sem = "-" if e.semantic is None else f"{e.semantic:.2f}"
        mark = "picked" if e.selected else ""
        rows.append(
            f"<tr><td><code>{html_safe(e.filename)}</code></td><td>{mark}</td><td>{e.lexical:.2f}</td>"
            f"<td>{sem}</td><td>{prob}</td><td>{html_safe(e.reason)}</td></tr>"
        )
    return (
        '<table class="memdir-replay-explanation"><thead><tr><th>memory</th><th></th>'
        "<th>lexical</th><th>semantic</th><th>p</th><th>reason</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def turn_detail_html(replay: SessionReplay, index: int) -> str:
    """One turn in full: prompt, flags, what recall offered, cut and missed, the extractor."""
    if not 0 <= index < len(replay.turns):
        return "<p>Pick a turn to see why recall surfaced what it did.</p>"
    t = replay.turns[index]
    surfaced = (
        "".join(
            f"<li><code>{html_safe(s.rel)}</code> ({html_safe(s.age)}, {s.injected_bytes} bytes"
            + (
                f", cut from {s.file_bytes} bytes by the 200-line / 4 KB caps"
                if s.truncated
                else ""
            )
            + ")</li>"
            for s in t.surfaced
        )
        or "<li>nothing</li>"
    )
    parts = [
        f"<h4>Turn {t.index + 1} ({html_safe(t.kind)})</h4>",
        f"<pre style='white-space:pre-wrap'>{html_safe(t.prompt) or '(no text)'}</pre>",
        f"<p>Flags: {html_safe(', '.join(t.flags)) or 'none'}. Tools of the previous turn: {_list(t.recent_tools)}.</p>",
        f"<p>Memories as of this turn ({len(t.existing)}): {_list(t.existing)}."
        + (f" Not rebuilt exactly: {_list(t.uncertain)}." if t.uncertain else "")
        + "</p>",
        f"<p>Already surfaced before: {_list(t.already_surfaced)}.</p>",
        f"<p>Surfaced:</p><ul class='memdir-replay-surfaced'>{surfaced}</ul>",
        *(
            [
                "<p>Claude Code's own recall surfaced: "
                f"{_list(t.cli_surfaced, CLI_SURFACED_SHOWN)}.</p>"
            ]
            if t.cli_surfaced
            else []
        ),
        f"<p>Cut by the session budget (60 KB): {_list(t.budget_cut)}. Budget used after this turn: {t.budget_used} bytes.</p>",
        f"<p>The agent read: {_list(t.agent_read)}; wrote: {_list(t.agent_wrote)}.</p>",
        *(
            [
                "<p>Typed while the agent worked, taken into this turn:</p><ul class="
                f"'memdir-replay-queued'>{''.join(f'<li>{html_safe(q)}</li>' for q in t.queued_prompts)}</ul>"
            ]
            if t.queued_prompts
            else []
        ),
    ]
    if t.likely_misses:
        parts.append(
            f"<p class='memdir-replay-miss' style='{MISS_STYLE}'><b>Likely recall miss</b>: the agent read "
            f"{_list(t.likely_misses)} itself; recall had not surfaced it.</p>"
        )
    parts.append(_notices_html(replay, t))
    if t.extraction is not None:
        parts.append(
            f"<p>Extractor: <b>{html_safe(t.extraction.action)}</b> ({html_safe(t.extraction.detail)}).</p>"
        )
    parts.append(_explanation_html(t))
    return "".join(parts)


def session_label(s: SessionFile, *, show_secrets: bool = False) -> str:
    """The session picker's label: the session, the date of its first record and its kind
    (a subagent's, a compaction agent's), its title (SessionFile.shown_title), then for a
    subagent what its meta file says it was for (home.subagent_meta, as `memdir-nb sessions`
    lists it): plain text, one line. A credential in the title is redacted unless show_secrets."""
    label = f"{s.session_id} ({s.date}{'' if s.kind == 'main' else ', ' + s.kind})"
    if s.title:  # its name (/rename) or the CLI's title for it, as `memdir-nb sessions` shows it
        label += f"  {s.shown_title(show_secrets=show_secrets)}"
    if s.problems:  # as `memdir-nb sessions` notes a damaged transcript (attack39)
        label += f"  ({plural(s.problems, 'bad line')})"
    meta = subagent_meta(s.path) if s.kind == "subagent" else None
    if meta is not None and meta.shown:
        label += f"  {meta.shown}"
    return terminal_line(label)


def sessions_beside(memory_dir: str | os.PathLike[str]) -> list[SessionFile]:
    """The transcripts of the sessions that used memory_dir, newest first, if it is a project's.

    Those beside it and those of its subfolders' and worktrees' sessions
    (home.sessions.sessions_using), each read for its turns and the date of its first record
    (home.sessions.described), as `memdir-nb sessions --dir` lists them: a label dated by the
    file's modification time read as today's for a session begun weeks ago (fresh37).
    """
    return [described(s) for s in sessions_using(memory_dir, heads=False)]
