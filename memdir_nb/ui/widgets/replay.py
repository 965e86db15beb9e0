"""ReplayView: a recorded session turn by turn, against the memory as it stood at each turn.

DOM classes: memdir-replay (the view), memdir-replay-session (transcript picker),
memdir-replay-selector, memdir-replay-summary, memdir-replay-notes (the replay's notes: whose
session, refusals, the recaps and notices the CLI showed the user), memdir-replay-table (the turn table; rows
memdir-replay-miss are likely recall misses), memdir-replay-turns (the turn picker),
memdir-replay-detail (the picked turn: recall's explanation, the caps, what the CLI told the
user in it, the extractor).

State lives in traitlets: `transcript` and `selector_name` choose what is replayed, `rows`
and `misses` hold the table, `notes` the replay's notes (plain text, one line each; the
session's token totals and file-history snapshots last), `ledger` those counts,
`selected_turn` the picked turn and `detail_html` its detail.
The logic is in ui/views/replay.py and reports/replay.py.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import traitlets

from memdir_nb.recall.selectors import make_selector
from memdir_nb.reports.replay import SessionReplay, replay_session
from memdir_nb.spec.text import terminal_line
from memdir_nb.ui.views import replay as view
from memdir_nb.ui.widgets._common import MemdirView, classed, pre

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.home.config import MemdirConfig

NO_SESSION = "No session transcript used this memory dir; give one in `transcript`."


class ReplayView(MemdirView):
    """Replay one session: the turn table, misses marked, and a click on a turn to explain it."""

    transcript = traitlets.Unicode("", help="the transcript (.jsonl) being replayed")
    selector_name = traitlets.Unicode("semantic", help="the offline selector: semantic or lexical")
    turns_between = traitlets.Int(1, help="the extractor's throttling")
    rows: traitlets.List[view.TurnRow] = traitlets.List(help="the turn table (view.TurnRow)")
    misses: traitlets.List[int] = traitlets.List(help="indexes of turns with a likely recall miss")
    selected_turn = traitlets.Int(-1, help="the picked turn (-1: none)")
    detail_html = traitlets.Unicode("")
    summary = traitlets.Unicode("")
    notes: traitlets.List[str] = traitlets.List(
        traitlets.Unicode(),
        help="the replay's notes, one line each (SessionReplay.note_lines, then the ledger's)",
    )
    ledger = traitlets.Dict(help="the session's snapshot and token counts (view.ledger_totals)")
    error = traitlets.Unicode("")

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        transcript: str | os.PathLike[str] | None = None,
        *,
        selector: str = "semantic",
        now_ms: float | None = None,
        config: MemdirConfig | None = None,
        show_secrets: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(memory_dir, now_ms=now_ms, config=config, **kwargs)
        self.add_class("memdir-replay")
        # prompts and notes show credentials redacted unless asked for by name (attack40b)
        self.show_secrets = show_secrets
        self.replay: SessionReplay | None = None
        offered = view.sessions_beside(self.memory_dir)
        # option labels are plain text named by files in the home: shown as the CLI shows them
        options = [(view.session_label(s, show_secrets=show_secrets), s.path) for s in offered]
        if transcript is not None and os.fspath(transcript) not in [p for _, p in options]:
            shown = terminal_line(os.path.basename(os.fspath(transcript)))
            options.insert(0, (shown, os.fspath(transcript)))
        self.picker = classed(
            widgets.Dropdown(options=options or [("(none)", "")], description="session"),
            "memdir-replay-session",
        )
        self.selector_box = classed(
            widgets.ToggleButtons(options=["semantic", "lexical"], value=selector),
            "memdir-replay-selector",
        )
        self.summary_box = classed(widgets.HTML(), "memdir-replay-summary")
        self.notes_box = classed(widgets.HTML(), "memdir-replay-notes")
        self.table = classed(widgets.HTML(), "memdir-replay-table")
        self.turn_picker = classed(
            widgets.Select(options=[], rows=8, layout=widgets.Layout(width="100%")),
            "memdir-replay-turns",
        )
        self.detail = classed(widgets.HTML(), "memdir-replay-detail")
        self.selector_name = selector
        widgets.dlink((self, "selector_name"), (self.selector_box, "value"))
        self.selector_box.observe(self._selector_picked, names="value")
        widgets.dlink((self, "detail_html"), (self.detail, "value"))
        self.turn_picker.observe(self._picked, names="value")
        self.observe(
            lambda _c: self.refresh(), names=["transcript", "selector_name", "turns_between"]
        )
        self.observe(self._show_turn, names="selected_turn")
        self.picker.observe(lambda c: setattr(self, "transcript", c["new"] or ""), names="value")
        self.children = [
            widgets.HBox([self.picker, self.selector_box]),
            self.summary_box,
            self.notes_box,
            self.table,
            self.turn_picker,
            self.detail,
        ]
        first = (
            os.fspath(transcript) if transcript is not None else (options[0][1] if options else "")
        )
        if first and self.picker.value != first:
            self.picker.value = first  # sets `transcript`, which replays
        elif first:
            self.transcript = first
        else:
            self.refresh()

    def refresh(self) -> None:
        """Replay the chosen transcript again (the memory dir may have changed)."""
        self.error = ""
        if not self.transcript:
            self.replay = None
            with self.hold_trait_notifications():
                self.rows, self.misses, self.notes, self.summary = [], [], [], NO_SESSION
                self.ledger = {}
            self._draw()
            return
        try:
            self.replay = replay_session(
                self.transcript,
                self.memory_dir,
                selector=make_selector(self.selector_name, self.config),
                now_ms=self.now_ms(),
                turns_between=self.turns_between,
                show_secrets=self.show_secrets,
            )
        except (OSError, ValueError) as exc:
            self.replay = None
            self.error = f"{type(exc).__name__}: {exc}"
            with self.hold_trait_notifications():
                self.rows, self.misses, self.notes, self.ledger = [], [], [], {}
                self.summary = f"Cannot replay: {self.error}"
            self._draw()
            return
        rows = view.turn_rows(self.replay)
        with self.hold_trait_notifications():
            self.rows = rows
            self.misses = [r.index for r in rows if r.is_miss]
            # a damaged transcript's skipped lines above the counts, as `memdir-nb replay` says;
            # the notes below them, as a list of their own
            summary = self.replay.summary(notes=False)
            self.summary = "\n".join([*self.replay.problem_lines(), summary])
            # then the session's ledger: its token totals and file-history snapshots
            self.notes = self.replay.note_lines() + view.ledger_notes(self.replay)
            self.ledger = view.ledger_totals(self.replay.session.ledger)
        self._draw()

    def select_turn(self, index: int) -> None:
        """Pick a turn, as a click in the turn list does."""
        self.turn_picker.value = index if 0 <= index < len(self.rows) else None

    def _draw(self) -> None:
        self.summary_box.value = pre(self.summary)
        self.notes_box.value = view.notes_html(self.notes)
        self.turn_picker.options = [(r.label, r.index) for r in self.rows]
        self.table.value = view.turn_table_html(self.rows, self.selected_turn)
        if self.selected_turn >= len(self.rows):
            self.selected_turn = -1
        self._show_turn()

    def _selector_picked(self, change: dict[str, Any]) -> None:
        """The toggle's choice. A cleared toggle (index null, which ipywidgets accepts from a
        front end) shows the current selector again instead of setting it to None: a
        TraitError out of the comm message before (attack round 30)."""
        if change["new"] is None:
            self.selector_box.value = self.selector_name
        else:
            self.selector_name = change["new"]

    def _picked(self, change: dict[str, Any]) -> None:
        self.selected_turn = -1 if change["new"] is None else int(change["new"])

    def _show_turn(self, _change: Any = None) -> None:
        if self.replay is None:
            self.detail_html = ""  # the summary above already says why there is nothing to show
            return
        self.detail_html = view.turn_detail_html(self.replay, self.selected_turn)
        self.table.value = view.turn_table_html(self.rows, self.selected_turn)
