"""Shared pieces of the widget views: the base class, the clock, and HTML helpers.

Widgets keep their state in traitlets and react through `observe` and `link`/`dlink`: a view
that changes files on disk bumps its `disk_revision` trait, and whoever shows the same dir
(the dashboard) observes it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import traitlets

from memdir_nb.clock import resolve_now_ms
from memdir_nb.spec.text import html_safe

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.home.config import MemdirConfig

BADGE_STYLE = {
    "fresh": "background:#1b7837;color:#fff",
    "aging": "background:#dfc27d;color:#000",
    "stale": "background:#542788;color:#fff",
}


# The widgets' short name for the one HTML escaper (memdir_nb.spec.text.html_safe).
esc = html_safe


def pre(text: str, css_class: str = "") -> str:
    """Text in a <pre> block, escaped."""
    cls = f' class="{css_class}"' if css_class else ""
    return (
        f'<pre{cls} style="white-space:pre-wrap;word-break:normal;overflow-wrap:anywhere;'
        f'max-height:24em;overflow:auto">{esc(text)}</pre>'
    )


def badge(name: str) -> str:
    """A coloured freshness badge."""
    style = BADGE_STYLE.get(name, "background:#999;color:#fff")
    return f'<span class="memdir-badge memdir-badge-{esc(name)}" style="{style};padding:0 .4em;border-radius:3px">{esc(name)}</span>'


def message_list(items: list[str], kind: str) -> str:
    """Errors or warnings as an HTML list ('' when there are none)."""
    if not items:
        return ""
    colour = "#b2182b" if kind == "error" else "#8c510a"
    lis = "".join(f"<li>{esc(i)}</li>" for i in items)
    return f'<ul class="memdir-{kind}s" style="color:{colour}">{lis}</ul>'


def status_html(text: str, error: bool) -> str:
    """A status line, red for a failure and green otherwise ('' when there is no text)."""
    if not text:
        return ""
    colour = "#b2182b" if error else "#1b7837"
    return f'<p style="color:{colour}">{esc(text)}</p>'


class MemdirView(widgets.VBox):  # type: ignore[misc]  # ipywidgets ships no type information
    """A VBox showing one memory dir; subclasses build controls and call the core."""

    disk_revision = traitlets.Int(0, help="bumped each time this view changes files on disk")

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        now_ms: float | None = None,
        config: MemdirConfig | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        path = Path(os.path.abspath(os.fspath(memory_dir)))
        if path.exists() and not path.is_dir():
            raise ValueError(
                f"{path} is not a folder; pass the memory dir (the folder holding MEMORY.md)"
            )
        self.memory_dir = path
        self.config = config
        self._fixed_now_ms = now_ms
        self.add_class("memdir-view")

    def now_ms(self) -> float:
        """The view's clock: the fixed now_ms, else the config's clock, else the wall clock."""

        return resolve_now_ms(self._fixed_now_ms, self.config)

    def refresh(self) -> None:
        """Re-read the memory dir and redraw (each view defines what that means)."""
        raise NotImplementedError(f"{type(self).__name__} must define refresh()")

    def _changed(self) -> None:
        """Record a change made on disk; observers of disk_revision (the dashboard) refresh."""
        self.disk_revision += 1

    def __repr__(self) -> str:
        return f"{type(self).__name__}(VBox, memory_dir={self.memory_dir.name!r})"


def classed(widget: widgets.DOMWidget, *names: str) -> Any:
    """Add stable DOM classes to a control and return it."""
    for name in names:
        widget.add_class(name)
    return widget
