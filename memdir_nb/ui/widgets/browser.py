"""MemoryBrowser: a filterable table of every memory, with a freshness badge and a detail pane.

DOM classes: memdir-browser (the view), memdir-browser-type, memdir-browser-scope,
memdir-browser-age, memdir-browser-search (filters), memdir-browser-table (HTML table: the
one list of memories), memdir-browser-list (a combobox: type or pick a file name to open it;
its suggestions stay hidden until asked for, so the list is not drawn a second time), memdir-browser-detail (file, index line, freshness note),
memdir-browser-progress, memdir-browser-refresh, memdir-browser-summary, and
memdir-browser-index-problems (why an index counts as missing, the contained reader's reason),
memdir-browser-unseen (the detail pane's list of body sentences the manifest cannot see).

State lives in traitlets (rows, visible_rows, selected, index_problems); the table, summary and
detail pane follow them through observe/dlink.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import traitlets

from memdir_nb.spec.taxonomy import SCOPES, TYPE_NAMES
from memdir_nb.ui.views import browser as view
from memdir_nb.ui.views.common import STALE_AFTER_DAYS, index_title
from memdir_nb.ui.widgets._common import MemdirView, badge, classed, esc, pre

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.home.config import MemdirConfig

ALL = "all"
AGE_CHOICES = (
    ("any age", ALL),
    ("fresh (today/yesterday)", "fresh"),
    ("aging", "aging"),
    ("stale", "stale"),
)


def _warning_list(items: list[str]) -> str:
    """A red list of already-escaped HTML items ('' when there are none)."""
    return f'<ul style="color:#b2182b">{"".join(items)}</ul>' if items else ""


def _problems_html(problems: dict[str, str]) -> str:
    """One line per index the contained reader would not (wholly) read ('' when none)."""
    return _warning_list(
        [
            f"<li><b>{esc(index_title(scope))}</b>: {esc(why)}</li>"
            for scope, why in problems.items()
        ]
    )


AUDIT_CELLS = {"covered": "all", "partly": "part", "misses-body": "<b>little</b>", "": "—"}


def _audit_cell(verdict: str) -> str:
    """The 'manifest sees' cell: how much of the body the name and description reveal."""
    return AUDIT_CELLS.get(verdict, esc(verdict))


def _unseen_html(detail: view.MemoryDetail) -> str:
    """The detail pane's audit block: the verdict and the body sentences the manifest misses."""
    if not detail.unseen:
        return (
            "<p><b>What a manifest-only selector sees</b>: the description covers the body "
            f"({esc(detail.audit_note)})</p>"
        )
    items = "".join(f"<li>{esc(line)}</li>" for line in detail.unseen)
    return (
        f"<p><b>What a manifest-only selector cannot see</b> ({esc(detail.audit_note)}): "
        "Claude Code picks memories from the file name and description alone, so these body "
        "sentences never reach it; name their subjects in the description.</p>"
        f'<ul class="memdir-browser-unseen">{items}</ul>'
    )


def _skipped_html(skipped: dict[str, str]) -> str:
    """One line per file the scan passed over, with why ('' when none)."""
    return _warning_list(
        [f"<li><code>{esc(path)}</code>: {esc(why)}</li>" for path, why in skipped.items()]
    )


# Beside the age of a memory whose `modified:` time and file mtime disagree (after a restore).
TIME_MARK = (
    ' <span title="the file\'s mtime disagrees with its modified: time">(mtime differs)</span>'
)


class MemoryBrowser(MemdirView):
    """Every memory by type, scope and age; selecting one shows its file, index line and freshness note."""

    rows: traitlets.List[view.MemoryRow] = traitlets.List(
        help="every memory in the dir, newest first (view.MemoryRow)"
    )
    visible_rows: traitlets.List[view.MemoryRow] = traitlets.List(
        help="the rows the filters let through"
    )
    selected = traitlets.Instance(view.MemoryDetail, allow_none=True)
    index_problems = traitlets.Dict(help="scope -> why its MEMORY.md was not (wholly) read")
    skipped_files = traitlets.Dict(help="file -> why the scan passed over it (shown safely)")
    stale_after_days = traitlets.Int(STALE_AFTER_DAYS)

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        now_ms: float | None = None,
        config: MemdirConfig | None = None,
        stale_after_days: int = STALE_AFTER_DAYS,
        **kwargs: Any,
    ) -> None:
        super().__init__(memory_dir, now_ms=now_ms, config=config, **kwargs)
        self.add_class("memdir-browser")
        self.stale_after_days = stale_after_days

        self.type_filter = classed(
            widgets.Dropdown(options=[ALL, *TYPE_NAMES], value=ALL, description="type"),
            "memdir-browser-type",
        )
        self.scope_filter = classed(
            widgets.ToggleButtons(options=[ALL, *SCOPES], value=ALL, description="scope"),
            "memdir-browser-scope",
        )
        self.age_filter = classed(
            widgets.Dropdown(options=AGE_CHOICES, value=ALL, description="age"),
            "memdir-browser-age",
        )
        self.search = classed(
            widgets.Text(placeholder="search name, description, file", description="search"),
            "memdir-browser-search",
        )
        self.refresh_button = classed(
            widgets.Button(
                layout=widgets.Layout(width="auto"), description="Rescan", icon="refresh"
            ),
            "memdir-browser-refresh",
        )
        self.progress = classed(
            widgets.IntProgress(value=0, min=0, max=1, description="scan"),
            "memdir-browser-progress",
        )
        self.summary = classed(widgets.HTML(), "memdir-browser-summary")
        self.table = classed(widgets.HTML(), "memdir-browser-table")
        self.problems_box = classed(widgets.HTML(), "memdir-browser-index-problems")
        self.skipped_box = classed(widgets.HTML(), "memdir-browser-skipped")
        self.chooser = classed(
            widgets.Combobox(
                options=[],
                value="",
                ensure_option=True,
                description="open",
                placeholder="type or pick a file name from the table",
                layout=widgets.Layout(width="60%"),
            ),
            "memdir-browser-list",
        )
        self.detail = classed(widgets.HTML(), "memdir-browser-detail")

        for control in (self.type_filter, self.scope_filter, self.age_filter, self.search):
            control.observe(self._on_filter, names="value")
        self.observe(self._on_filter, names="rows")
        self.observe(self._show_summary, names=["rows", "visible_rows"])
        self.observe(self._show_choices, names="visible_rows")
        widgets.dlink((self, "visible_rows"), (self.table, "value"), self._render_table)
        widgets.dlink((self, "index_problems"), (self.problems_box, "value"), _problems_html)
        widgets.dlink((self, "skipped_files"), (self.skipped_box, "value"), _skipped_html)
        widgets.dlink((self, "selected"), (self.detail, "value"), self._render_detail)
        self.chooser.observe(self._on_choose, names="value")
        self.refresh_button.on_click(lambda _b: self.refresh())

        self.children = [
            widgets.HBox([self.type_filter, self.age_filter, self.search]),
            widgets.HBox([self.scope_filter, self.refresh_button, self.progress]),
            self.summary,
            self.problems_box,
            self.skipped_box,
            self.table,
            self.chooser,
            self.detail,
        ]
        self.refresh()

    # -- actions

    def refresh(self) -> None:
        """Rescan the memory dir; the table redraws and the selection stays when it still exists."""
        self.progress.value = 0

        def step(done: int, total: int) -> None:
            self.progress.max = max(total, 1)
            self.progress.value = done

        rows = view.memory_rows(
            self.memory_dir,
            now_ms=self.now_ms(),
            stale_after_days=self.stale_after_days,
            progress=step,
        )
        self.progress.max = max(len(rows), 1)
        self.progress.value = self.progress.max
        self.index_problems = view.index_problems(self.memory_dir)
        self.skipped_files = view.skipped_files(self.memory_dir)
        self.rows = rows  # observers re-filter, redraw and keep the selection when it still exists

    def select(self, filename: str | None) -> None:
        """Select a memory by its filename relative to the dir ('team/x.md'), or clear with None."""
        self.chooser.value = filename or ""

    # -- callbacks

    def _on_filter(self, _change: Any = None) -> None:
        kind = self.type_filter.value
        self.visible_rows = view.filter_rows(
            self.rows,
            types=None if kind == ALL else [kind],
            scope=None if self.scope_filter.value == ALL else self.scope_filter.value,
            badge=None if self.age_filter.value == ALL else self.age_filter.value,
            text=self.search.value,
        )

    def _on_choose(self, change: Any) -> None:
        self._show_detail(change["new"])

    def _show_detail(self, filename: str | None) -> None:
        """Load the detail of the chosen row (re-read, so a rescan shows the file as it is now)."""
        row = next((r for r in self.rows if r.filename == filename), None)
        if row is None:
            self.selected = None
            return
        try:
            self.selected = view.memory_detail(row, now_ms=self.now_ms())
        except OSError as err:
            self.selected = None
            self.detail.value = f"<p>Cannot read {esc(row.filename)}: {esc(err)}. Press Rescan.</p>"

    # -- rendering

    def _show_summary(self, _change: Any = None) -> None:
        shown, total, team, stale = view.rows_summary(
            self.rows, self.visible_rows, self.stale_after_days
        )
        self.summary.value = (
            f"<b>{shown}</b> of {total} memories shown ({team} team, "
            f"{stale} stale: {self.stale_after_days}+ days old)"
        )

    def _show_choices(self, _change: Any = None) -> None:
        keep = self.chooser.value
        names = [r.filename for r in self.visible_rows]
        self.chooser.options = names
        self.chooser.value = keep if keep in names else ""
        self._show_detail(self.chooser.value)  # re-read even when the choice stayed the same

    @staticmethod
    def _render_table(rows: list[view.MemoryRow]) -> str:
        head = "".join(
            f"<th>{h}</th>"
            for h in (
                "file",
                "type",
                "scope",
                "age",
                "freshness",
                "description",
                "in index",
                "manifest sees",
            )
        )
        body = "".join(
            "<tr>"
            f"<td><code>{esc(r.filename)}</code>{' (malformed header)' if r.malformed else ''}</td>"
            f"<td>{esc(r.type or '—')}</td><td>{esc(r.scope)}</td><td>{esc(r.age)}{TIME_MARK if r.times_disagree else ''}</td>"
            f"<td>{badge(r.badge)}</td><td>{esc(r.description)}</td>"
            f"<td>{'yes' if r.index_line else '<b>no</b>'}</td>"
            f'<td title="{esc(r.audit_note)}">{_audit_cell(r.audit)}</td>'
            "</tr>"
            for r in rows
        )
        return (
            '<div style="max-height:22em;overflow:auto"><table class="memdir-table">'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
        )

    def _render_detail(self, detail: view.MemoryDetail | None) -> str:
        if detail is None:
            return ""
        r = detail.row
        cut = " (first 64 KB shown)" if detail.truncated else ""
        note = r.time_note(self.now_ms())
        times = f'<p class="memdir-time-note">{esc(note)}</p>' if note else ""
        return (
            f"<h4>{esc(r.name or r.filename)} {badge(r.badge)}</h4>"
            f"<p><code>{esc(r.file_path)}</code>, saved {esc(r.age)}{cut}</p>{times}"
            f"<p><b>Index line</b></p>{pre(detail.index_line, 'memdir-index-line')}"
            f"<p><b>Freshness note recall adds</b></p>{pre(detail.freshness_note, 'memdir-freshness-note')}"
            f"{_unseen_html(detail)}"
            f"<p><b>File</b></p>{pre(detail.text, 'memdir-file')}"
        )
