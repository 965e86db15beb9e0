"""IndexInspector: each MEMORY.md against its two budgets, the lines truncation drops, and a rebuild.

DOM classes: memdir-inspector (the view), memdir-inspector-private and memdir-inspector-team
(one panel per scope), memdir-inspector-lines and memdir-inspector-bytes (the gauges),
memdir-inspector-dropped (the dropped lines, each in a <mark>), memdir-inspector-warning,
memdir-inspector-problem (why the contained reader treats an index as missing, or what its
read cap cut: the same reason lint reports as index-refused),
memdir-inspector-rebuild-preview, memdir-inspector-rebuild, memdir-inspector-status.

The two panels share the row equally and wrap long index lines, so the private panel stays
readable at the dashboard's width whatever the team index holds.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import traitlets

from memdir_nb.formats.index import truncate_entrypoint_content
from memdir_nb.spec.constants import TEAM_DIRNAME
from memdir_nb.spec.taxonomy import SCOPES
from memdir_nb.spec.text import plural
from memdir_nb.storage.rebuild import rebuild_index
from memdir_nb.storage.store import MemoryStore
from memdir_nb.ui.views import inspector as view
from memdir_nb.ui.views.common import index_title
from memdir_nb.ui.widgets._common import MemdirView, classed, esc, pre

# Each scope's panel takes half the row (flex-basis 0, allowed to shrink below its content).
PANEL_LAYOUT = {"flex": "1 1 0%", "min_width": "0", "width": "50%"}
WRAP = "overflow-wrap:anywhere;word-break:break-word"

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.home.config import MemdirConfig


def _gauge(used: int, cap: int, unit: str, css: str) -> widgets.IntProgress:
    over = used > cap
    bar = widgets.IntProgress(
        value=min(used, cap),
        min=0,
        max=cap,
        description=unit,
        bar_style="danger" if over else ("warning" if used > 0.8 * cap else "success"),
    )
    return classed(bar, css)


def _stripped_html(b: view.IndexBudget) -> str:
    """The frontmatter and block comments left out before counting ('' when none)."""
    if not b.stripped:
        return ""
    items = "".join(
        f'<div style="{WRAP}"><code>{s.line_no:>4}</code> <small>{esc(s.kind)}</small>'
        f"{pre(s.text)}</div>"
        for s in b.stripped
    )
    return (
        f"<p><b>{plural(len(b.stripped), 'block')} stripped before counting</b> (frontmatter and "
        "block-level HTML comments neither load nor count toward the caps, as in Claude Code "
        f'2.1.211+):</p><div style="max-height:12em;overflow:auto">{items}</div>'
    )


class IndexInspector(MemdirView):
    """How the private and team MEMORY.md use their line and byte budgets, and what loading drops."""

    budgets = traitlets.Dict(help="scope -> view.IndexBudget")
    dropped_lines = traitlets.Dict(help="scope -> the lines loading drops")
    warnings = traitlets.Dict(help="scope -> the warning appended to the prompt ('' when none)")
    problems = traitlets.Dict(help="scope -> why the index counts as missing ('' when none)")
    rebuild_preview = traitlets.Dict(
        help="scope -> (lines, bytes, lines that would not load, lines that do not load now) "
        "after a rebuild"
    )
    status_text = traitlets.Unicode("")

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        now_ms: float | None = None,
        config: MemdirConfig | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(memory_dir, now_ms=now_ms, config=config, **kwargs)
        self.add_class("memdir-inspector")
        self.panels: dict[str, widgets.VBox] = {}
        self.rebuild_button = classed(
            widgets.Button(
                layout=widgets.Layout(width="auto"),
                description="Rebuild both indexes",
                icon="wrench",
                button_style="warning",
                tooltip=f"Regenerate {index_title('private')} and {index_title('team')} "
                "from the topic files' frontmatter",
            ),
            "memdir-inspector-rebuild",
        )
        self.status = classed(widgets.HTML(), "memdir-inspector-status")
        widgets.dlink(
            (self, "status_text"), (self.status, "value"), lambda t: f"<p>{esc(t)}</p>" if t else ""
        )
        self.observe(self._show_panels, names=["budgets", "rebuild_preview"])
        self.rebuild_button.on_click(lambda _b: self.rebuild())
        self.refresh()

    def refresh(self) -> None:
        """Re-measure both indexes and redraw the panels."""

        budgets: dict[str, view.IndexBudget] = {}
        previews: dict[str, tuple[int, int, int, int] | None] = {}
        for scope in SCOPES:
            budgets[scope] = view.index_budget(self.memory_dir, scope)
            scope_dir = self.memory_dir / TEAM_DIRNAME if scope == "team" else self.memory_dir
            previews[scope] = None
            if scope_dir.is_dir():
                try:
                    rebuilt = rebuild_index(scope_dir, write=False, scope=scope)
                except ValueError:  # an index over the read cap: no preview (the budget says why)
                    continue
                t = truncate_entrypoint_content(rebuilt)
                now = budgets[scope].line_count - budgets[scope].kept_line_count
                previews[scope] = (t.line_count, t.byte_count, t.unloaded_line_count, now)
        with self.hold_trait_notifications():
            self.dropped_lines = {s: b.dropped_lines for s, b in budgets.items()}
            self.warnings = {s: b.warning for s, b in budgets.items()}
            self.problems = {s: b.problem for s, b in budgets.items()}
            self.rebuild_preview = previews
            self.budgets = budgets

    def _show_panels(self, _change: object = None) -> None:
        for scope in SCOPES:
            self.panels[scope] = self._panel(self.budgets[scope], self.rebuild_preview[scope])
        self.children = [
            widgets.HBox(
                [self.panels["private"], self.panels["team"]],
                layout=widgets.Layout(width="100%"),
            ),
            widgets.HBox([self.rebuild_button]),
            self.status,
        ]

    def rebuild(self) -> None:
        """Rebuild both indexes through MemoryStore.rebuild_indexes (lines kept), then re-measure."""

        try:
            written = MemoryStore(
                self.memory_dir, config=self.config, now_ms=self.now_ms()
            ).rebuild_indexes()
        except (OSError, ValueError) as err:
            self.status_text = f"Rebuild failed: {err}"
        else:
            names = ", ".join(p.relative_to(self.memory_dir).as_posix() for p in written.values())
            self.status_text = (
                f"Rebuilt {names}: the memories missing from it were added, every line "
                "people wrote was kept, and the old index is in .trash/."
                if names
                else "Nothing to rebuild: every memory already has a line."
            )
        self.refresh()
        self._changed()

    @staticmethod
    def _panel(b: view.IndexBudget, preview: tuple[int, int, int, int] | None) -> widgets.VBox:
        title = index_title(b.scope)
        missing = " (treated as missing)" if b.problem and not b.exists else " (missing)"
        head = widgets.HTML(
            f"<h4>{esc(title)}{'' if b.exists else missing}</h4>"
            f"<p>{b.line_count} of {b.max_lines} lines ({b.line_fraction:.0%}), "
            f"{b.byte_count:,} of {b.max_bytes:,} bytes ({b.byte_fraction:.0%}); "
            f"{b.kept_line_count} lines reach the prompt.</p>"
        )
        lines = _gauge(b.line_count, b.max_lines, "lines", "memdir-inspector-lines")
        size = _gauge(b.byte_count, b.max_bytes, "bytes", "memdir-inspector-bytes")
        if b.dropped_lines:
            items = "".join(
                f'<div style="{WRAP}"><code>{d.line_no:>4}</code> <mark title="{esc(d.reason)}">{esc(d.text)}</mark> '
                f"<small>({esc(d.reason)})</small></div>"
                for d in b.dropped_lines
            )
            dropped_html = (
                f"<p><b>{len(b.dropped_lines)} lines dropped when loaded:</b></p>"
                f'<div style="max-height:16em;overflow:auto">{items}</div>'
            )
        else:
            dropped_html = "<p>Nothing is dropped: the whole index reaches the prompt.</p>"
        dropped = classed(widgets.HTML(dropped_html), "memdir-inspector-dropped")
        stripped = classed(widgets.HTML(_stripped_html(b)), "memdir-inspector-stripped")
        warning = classed(
            widgets.HTML(
                f"<p><b>Warning appended to the prompt:</b></p>{pre(b.warning)}"
                if b.warning
                else ""
            ),
            "memdir-inspector-warning",
        )
        problem = classed(
            widgets.HTML(
                f'<p style="color:#b2182b;{WRAP}"><b>{"Partly read" if b.exists else "Not read"}:</b> '
                f"{esc(b.problem)}</p>"
                if b.problem
                else ""
            ),
            "memdir-inspector-problem",
        )
        if preview is None:
            after = "<p>No folder for this scope, so a rebuild writes nothing here.</p>"
        else:
            n_lines, n_bytes, unloaded, unloaded_now = preview
            after = (
                f"<p>After a rebuild (every line kept, missing memories added): {n_lines} lines, "
                f"{n_bytes:,} bytes{view.rebuild_caps_note(unloaded, unloaded_now)}.</p>"
            )
        rebuild = classed(widgets.HTML(after), "memdir-inspector-rebuild-preview")
        return classed(
            widgets.VBox(
                [head, problem, lines, size, warning, dropped, stripped, rebuild],
                layout=widgets.Layout(**PANEL_LAYOUT),
            ),
            f"memdir-inspector-{b.scope}",
        )
