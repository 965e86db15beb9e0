"""RecallPlayground: run recall turns by hand and see the manifest, the request, and what is injected.

DOM classes: memdir-recall (the view), memdir-recall-query, memdir-recall-examples,
memdir-recall-tools (TagsInput chips), memdir-recall-claude (the Claude toggle; disabled
without an API key), memdir-recall-claude-reason, memdir-recall-run, memdir-recall-reset,
memdir-recall-manifest, memdir-recall-request (the JSON), memdir-recall-result (memories as
injected), memdir-recall-session (surfaced set and byte budget), memdir-recall-error,
memdir-recall-explanation (a per-memory table, shown when the selector records one).

The request shown is the one the selector recorded while it ran (`last_request`), not one
rebuilt for display; before the first turn the panel says so. State lives in traitlets and the
panels follow through dlink.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import traitlets

from memdir_nb.formats.manifest import format_memory_manifest
from memdir_nb.home.config import MemdirConfig
from memdir_nb.recall.explain_selection import (
    quote_window,
    selection_explanation,
    shown,
    window_label,
)
from memdir_nb.recall.find import drop_surfaced
from memdir_nb.recall.selectors import make_selector
from memdir_nb.recall.session import RecallSession
from memdir_nb.storage.scan import scan_memory_files
from memdir_nb.ui.demo import DEMO_QUERIES
from memdir_nb.ui.views import recall as view
from memdir_nb.ui.views.common import is_demo_dir
from memdir_nb.ui.widgets._common import MemdirView, classed, esc, pre

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.home.config import MemdirConfig
    from memdir_nb.recall.base import Selector
    from memdir_nb.recall.session import InjectedMemory

NO_MANIFEST = "(no memories left to offer)"
TOOLS_PLACEHOLDER = "add a recently used tool, then press Enter"

COMMON_TOOLS = (
    "Bash",
    "Read",
    "Edit",
    "Write",
    "Grep",
    "Glob",
    "WebFetch",
    "pytest",
    "git",
    "docker",
    "kubectl",
)


class RecallPlayground(MemdirView):
    """Query box, recent-tool chips and a selector choice; shows each turn's request and injection."""

    manifest = traitlets.Unicode("", help="the memories the next (or last) turn offers")
    request_json = traitlets.Unicode(view.NOT_RUN_NOTE, help="the request the selector sent")
    rendered = traitlets.Unicode("")
    last_error = traitlets.Unicode(None, allow_none=True)
    selected: traitlets.List[InjectedMemory] = traitlets.List(
        help="the memories injected by the last turn (InjectedMemory)"
    )
    last_preview = traitlets.Instance(view.RecallPreview, allow_none=True)
    explanation = traitlets.List(
        traitlets.Dict(), help="one row per memory from the selector's own explanation, if any"
    )

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        now_ms: float | None = None,
        config: MemdirConfig | None = None,
        selector: Selector | None = None,
        **kwargs: Any,
    ) -> None:
        if config is None:
            config = MemdirConfig.from_environment()
        super().__init__(memory_dir, now_ms=now_ms, config=config, **kwargs)
        self.add_class("memdir-recall")
        self.session = RecallSession()
        # overrides the offline/Claude choice (e.g. a selector pointed at a local test server)
        self.custom_selector = selector
        self.has_key = bool(config.anthropic_api_key)
        self.claude_disabled_reason = (
            ""
            if self.has_key
            else "Claude selection is off: no ANTHROPIC_API_KEY in this configuration. The offline "
            "selector runs instead, and the request panel shows what it received."
        )

        self._build_controls(config)
        self._build_outputs()
        self._wire()
        self._lay_out()
        self._show_request_title()
        self._show_manifest()
        self._show_session()

    # -- construction

    def _build_controls(self, config: MemdirConfig) -> None:
        """The query, example picker, recent tools, Claude toggle and the buttons."""
        examples = list(self._example_queries())
        self.query = classed(
            widgets.Text(
                description="query",
                placeholder="what is the user asking about?",
                layout=widgets.Layout(width="95%"),
            ),
            "memdir-recall-query",
        )
        self.examples = classed(
            widgets.Dropdown(
                options=[("— example queries —", "")] + [(q, q) for q in examples],
                value="",
                description="examples",
            ),
            "memdir-recall-examples",
        )
        # TagsInput sizes its text box to the placeholder, so the placeholder also sets the width
        self.tools = classed(
            widgets.TagsInput(
                value=[],
                allowed_tags=[],
                allow_duplicates=False,
                placeholder=TOOLS_PLACEHOLDER,
                layout=widgets.Layout(width="60%", min_width="24em"),
            ),
            "memdir-recall-tools",
        )
        self.tool_suggestions = widgets.HTML(
            f"<small>recently used tools, e.g. {esc(', '.join(COMMON_TOOLS))}</small>",
            layout=widgets.Layout(flex="1 1 0%", min_width="0"),
        )
        prefer_claude = self.has_key and (config.selector or "anthropic") == "anthropic"
        self.claude = classed(
            widgets.ToggleButton(
                layout=widgets.Layout(width="auto"),
                value=prefer_claude,
                description="Use Claude",
                disabled=not self.has_key,
                tooltip=self.claude_disabled_reason or "select with the Anthropic API",
            ),
            "memdir-recall-claude",
        )
        self.claude_reason = classed(
            widgets.HTML(f"<small>{esc(self.claude_disabled_reason)}</small>"),
            "memdir-recall-claude-reason",
        )
        self.run_button = classed(
            widgets.Button(
                layout=widgets.Layout(width="auto"),
                description="Recall",
                button_style="primary",
                icon="search",
            ),
            "memdir-recall-run",
        )
        self.reset_button = classed(
            widgets.Button(
                layout=widgets.Layout(width="auto"), description="New session", icon="undo"
            ),
            "memdir-recall-reset",
        )

    def _build_outputs(self) -> None:
        """The boxes the result, manifest, request, session and explanation are shown in."""
        self.result_box = classed(widgets.HTML(), "memdir-recall-result")
        self.manifest_box = classed(widgets.HTML(), "memdir-recall-manifest")
        self.request_box = classed(widgets.HTML(), "memdir-recall-request")
        self.request_title = widgets.HTML()
        self.session_box = classed(widgets.HTML(), "memdir-recall-session")
        self.error_box = classed(widgets.HTML(), "memdir-recall-error")
        self.explanation_box = classed(widgets.HTML(), "memdir-recall-explanation")

    def _wire(self) -> None:
        """Traitlets flow to the boxes; the controls call run() and new_session()."""
        widgets.dlink(
            (self, "manifest"), (self.manifest_box, "value"), lambda m: pre(m or NO_MANIFEST)
        )
        widgets.dlink((self, "request_json"), (self.request_box, "value"), pre)
        widgets.dlink((self, "explanation"), (self.explanation_box, "value"), explanation_table)
        self.observe(self._show_request_title, names="last_preview")
        self.examples.observe(self._on_example, names="value")
        self.run_button.on_click(lambda _b: self.run())
        self.reset_button.on_click(lambda _b: self.new_session())

    def _lay_out(self) -> None:
        """The widget's children, top to bottom."""
        self.children = [
            self.query,
            self.examples,
            widgets.HBox([self.tools, self.tool_suggestions], layout=widgets.Layout(width="95%")),
            widgets.HBox([self.claude, self.run_button, self.reset_button]),
            self.claude_reason,
            self.error_box,
            widgets.HTML("<b>Memories injected this turn</b>"),
            self.result_box,
            self.explanation_box,
            self.session_box,
            widgets.HTML("<b>Manifest the selector reads</b>"),
            self.manifest_box,
            self.request_title,
            self.request_box,
        ]

    @property
    def selector_name(self) -> str:
        """'anthropic' when the Claude toggle is on (only possible with a key), else 'semantic'.

        The offline default: the semantic selector, which falls back to the lexical one (and
        says so) when its model package is missing.
        """
        if self.custom_selector is not None:
            return view.selector_label(self.custom_selector)
        return "anthropic" if (self.claude.value and self.has_key) else "semantic"

    @property
    def surfaced(self) -> frozenset[str]:
        """Absolute paths the session has already injected."""
        return self.session.surfaced

    # -- actions

    def run(
        self, query: str | None = None, tools: Sequence[str] | None = None
    ) -> list[InjectedMemory]:
        """Run one recall turn in the current session and show everything about it."""

        if query is not None:
            self.query.value = query
        if tools is not None:
            self.tools.value = list(tools)
        if not self.query.value.strip():
            self.last_error = None
            self.error_box.value = "<p>Type a query first.</p>"
            return []
        selector = self.custom_selector or make_selector(self.selector_name, self.config)
        preview = view.recall_preview(
            self.query.value,
            self.memory_dir,
            self.session,
            selector,
            recent_tools=list(self.tools.value),
            now_ms=self.now_ms(),
        )
        with self.hold_trait_notifications():
            self.last_preview = preview
            self.selected = preview.selected
            self.manifest = preview.manifest
            self.request_json = preview.request_json
            self.rendered = preview.rendered
            self.last_error = preview.last_error
            self.explanation = explanation_rows(selector)
        self.error_box.value = (
            f'<p style="color:#b2182b">Selector error ({esc(preview.selector)}): {esc(self.last_error)}</p>'
            if self.last_error
            else ""
        )
        if self.selected:
            self.result_box.value = pre(self.rendered, "memdir-recall-rendered")
        elif self.session.budget_spent:
            self.result_box.value = pre(
                self.rendered or "Session budget spent: nothing more is injected."
            )
        else:
            self.result_box.value = (
                "<p>No memory clearly helps with this query, so nothing is injected.</p>"
            )
        self._show_session()
        return self.selected

    def new_session(self) -> None:
        """Start a fresh session: nothing surfaced, the full byte budget back."""
        self.session.reset()
        with self.hold_trait_notifications():
            self.selected = []
            self.rendered = ""
            self.last_error = None
            self.last_preview = None
            self.request_json = view.NOT_RUN_NOTE
            self.explanation = []
        self.result_box.value = "<p>New session started.</p>"
        self.error_box.value = ""
        self._show_manifest()
        self._show_session()

    def refresh(self) -> None:
        """Re-scan the dir so the manifest shows what the next turn would offer."""
        self._show_manifest()

    def show_explanation(self, rows: Sequence[dict[str, object]]) -> None:
        """Show a per-memory explanation table (one dict per memory, same keys in each)."""
        self.explanation = [dict(r) for r in rows]

    # -- helpers

    def _example_queries(self) -> Sequence[str]:
        if is_demo_dir(self.memory_dir):
            return tuple(DEMO_QUERIES)
        return ()

    def _on_example(self, change: Any) -> None:
        if change["new"]:
            self.query.value = change["new"]

    def _show_manifest(self) -> None:
        """The manifest the next turn would offer (what this session has not surfaced yet)."""

        candidates = drop_surfaced(scan_memory_files(self.memory_dir), self.session.surfaced)
        self.manifest = format_memory_manifest(candidates)

    def _show_request_title(self, _change: Any = None) -> None:
        p = self.last_preview
        who = f"the {p.selector} selector" if p is not None else "the selector"
        self.request_title.value = f"<b>Request {esc(who)} received this turn</b>"

    def _show_session(self) -> None:
        s = self.session
        names = sorted(os.path.relpath(p, self.memory_dir) for p in s.surfaced)
        listed = "".join(f"<li><code>{esc(n)}</code></li>" for n in names) or "<li>(none yet)</li>"
        self.session_box.value = (
            f"<p><b>Session:</b> {esc(s.status)}</p>"
            f"<p>{s.bytes_used:,} of {s.max_session_bytes:,} bytes of recall budget used.</p>"
            f"<p>Already surfaced (never offered again this session):</p><ul>{listed}</ul>"
        )


def explanation_rows(selector: object) -> list[dict[str, object]]:
    """The selector's recorded per-memory decision as table rows ([] if it records none)."""

    def num(x: float | None) -> str:
        return "" if x is None else f"{shown(x):.2f}"

    return [
        {
            "picked": "yes" if r.selected else "no",
            "memory": r.filename,
            "lexical (BM25)": num(r.lexical),
            "semantic": num(r.semantic),
            "p": num(r.probability),
            "why": r.reason,
            "matched window": f"{window_label(r)}: {quote_window(r.window)}" if r.window else "",
        }
        for r in selection_explanation(selector)
    ]


def explanation_table(rows: Sequence[dict[str, object]]) -> str:
    """Rows of dicts as an HTML table, columns in the first row's key order ('' when empty)."""
    if not rows:
        return ""
    columns = list(rows[0])
    head = "".join(f"<th>{esc(c)}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{esc(r.get(c, ''))}</td>" for c in columns) + "</tr>" for r in rows
    )
    return (
        "<p><b>Why each memory was or was not picked</b></p>"
        f'<table class="memdir-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    )
