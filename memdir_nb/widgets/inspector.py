"""IndexInspector: each MEMORY.md against its two budgets, the lines truncation drops, and a rebuild.

DOM classes: memdir-inspector (the view), memdir-inspector-private and memdir-inspector-team
(one panel per scope), memdir-inspector-lines and memdir-inspector-bytes (the gauges),
memdir-inspector-dropped (the dropped lines, each in a <mark>), memdir-inspector-warning,
memdir-inspector-rebuild-preview, memdir-inspector-rebuild, memdir-inspector-status.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from memdir_nb import explain
from memdir_nb.types import SCOPES
from memdir_nb.widgets._common import MemdirView, classed, esc, pre

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.config import MemdirConfig


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


class IndexInspector(MemdirView):
    """How the private and team MEMORY.md use their line and byte budgets, and what loading drops."""

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
        self.budgets: dict[str, explain.IndexBudget] = {}
        self.dropped_lines: dict[str, list[explain.DroppedLine]] = {}
        self.warnings: dict[str, str] = {}
        self.rebuild_preview: dict[
            str, tuple[int, int, bool] | None
        ] = {}  # (lines, bytes, still cut)
        self.status_text = ""
        self.panels: dict[str, widgets.VBox] = {}
        self.rebuild_button = classed(
            widgets.Button(
                layout=widgets.Layout(width="auto"),
                description="Rebuild both indexes",
                icon="wrench",
                button_style="warning",
                tooltip="Regenerate MEMORY.md and team/MEMORY.md from the topic files' frontmatter",
            ),
            "memdir-inspector-rebuild",
        )
        self.status = classed(widgets.HTML(), "memdir-inspector-status")
        self.rebuild_button.on_click(lambda _b: self.rebuild())
        self.refresh()

    def refresh(self) -> None:
        """Re-measure both indexes and redraw the panels."""
        from memdir_nb.index import rebuild_index, truncate_entrypoint_content

        for scope in SCOPES:
            budget = explain.index_budget(self.memory_dir, scope)
            self.budgets[scope] = budget
            self.dropped_lines[scope] = budget.dropped_lines
            self.warnings[scope] = budget.warning
            scope_dir = self.memory_dir / "team" if scope == "team" else self.memory_dir
            preview = None
            if scope_dir.is_dir():
                rebuilt = rebuild_index(scope_dir, write=False, scope=scope)
                t = truncate_entrypoint_content(rebuilt)
                preview = (t.line_count, t.byte_count, bool(t.warning))
            self.rebuild_preview[scope] = preview
            self.panels[scope] = self._panel(budget, preview)
        self.children = [
            widgets.HBox([self.panels["private"], self.panels["team"]]),
            widgets.HBox([self.rebuild_button]),
            self.status,
        ]

    def rebuild(self) -> None:
        """Regenerate both indexes through MemoryStore.rebuild_indexes, then re-measure."""
        from memdir_nb.store import MemoryStore

        try:
            written = MemoryStore(
                self.memory_dir, config=self.config, now_ms=self.now_ms()
            ).rebuild_indexes()
        except (OSError, ValueError) as err:
            self.status_text = f"Rebuild failed: {err}"
        else:
            names = ", ".join(p.relative_to(self.memory_dir).as_posix() for p in written.values())
            self.status_text = (
                f"Rebuilt {names or 'nothing (no scope folders)'} from the topic files."
            )
        self.status.value = f"<p>{esc(self.status_text)}</p>"
        self.refresh()
        self._changed()

    @staticmethod
    def _panel(b: explain.IndexBudget, preview: tuple[int, int, bool] | None) -> widgets.VBox:
        title = "team/MEMORY.md" if b.scope == "team" else "MEMORY.md"
        head = widgets.HTML(
            f"<h4>{esc(title)}{'' if b.exists else ' (missing)'}</h4>"
            f"<p>{b.line_count} of {b.max_lines} lines ({b.line_fraction:.0%}), "
            f"{b.byte_count:,} of {b.max_bytes:,} bytes ({b.byte_fraction:.0%}); "
            f"{b.kept_line_count} lines reach the prompt.</p>"
        )
        lines = _gauge(b.line_count, b.max_lines, "lines", "memdir-inspector-lines")
        size = _gauge(b.byte_count, b.max_bytes, "bytes", "memdir-inspector-bytes")
        if b.dropped_lines:
            items = "".join(
                f'<div><code>{d.line_no:>4}</code> <mark title="{esc(d.reason)}">{esc(d.text)}</mark> '
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
        warning = classed(
            widgets.HTML(
                f"<p><b>Warning appended to the prompt:</b></p>{pre(b.warning)}"
                if b.warning
                else ""
            ),
            "memdir-inspector-warning",
        )
        if preview is None:
            after = "<p>No folder for this scope, so a rebuild writes nothing here.</p>"
        else:
            n_lines, n_bytes, cut = preview
            after = (
                f"<p>After a rebuild from the topic files: {n_lines} lines, {n_bytes:,} bytes"
                f"{' (still over a cap)' if cut else ' (within both caps)'}.</p>"
            )
        rebuild = classed(widgets.HTML(after), "memdir-inspector-rebuild-preview")
        return classed(
            widgets.VBox([head, lines, size, warning, dropped, rebuild]),
            f"memdir-inspector-{b.scope}",
        )
