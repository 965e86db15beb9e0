"""RecallPlayground: run recall turns by hand and see the manifest, the request, and what is injected.

DOM classes: memdir-recall (the view), memdir-recall-query, memdir-recall-examples,
memdir-recall-tools (TagsInput chips), memdir-recall-claude (the Claude toggle; disabled
without an API key), memdir-recall-claude-reason, memdir-recall-run, memdir-recall-reset,
memdir-recall-manifest, memdir-recall-request (the JSON), memdir-recall-result (memories as
injected), memdir-recall-session (surfaced set and byte budget), memdir-recall-error.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from memdir_nb import explain
from memdir_nb.widgets._common import MemdirView, classed, esc, pre

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.config import MemdirConfig
    from memdir_nb.recall.base import Selector
    from memdir_nb.recall.session import InjectedMemory

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

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        now_ms: float | None = None,
        config: MemdirConfig | None = None,
        selector: Selector | None = None,
        **kwargs: Any,
    ) -> None:
        from memdir_nb.recall.session import RecallSession

        if config is None:
            from memdir_nb.config import MemdirConfig

            config = MemdirConfig.from_environment()
        super().__init__(memory_dir, now_ms=now_ms, config=config, **kwargs)
        self.add_class("memdir-recall")
        self.session = RecallSession()
        self.custom_selector = (
            selector  # overrides the offline/Claude choice (e.g. a local test server)
        )
        self.selected: list[InjectedMemory] = []
        self.manifest = ""
        self.request_json = ""
        self.rendered = ""
        self.last_error: str | None = None
        self.last_preview: explain.RecallPreview | None = None
        self.has_key = bool(config.anthropic_api_key)
        self.claude_disabled_reason = (
            ""
            if self.has_key
            else "Claude selection is off: no ANTHROPIC_API_KEY in this configuration. The offline selector "
            "runs instead; the request below is exactly what Claude would receive."
        )

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
        self.tools = classed(
            widgets.TagsInput(value=[], allowed_tags=[], allow_duplicates=False),
            "memdir-recall-tools",
        )
        self.tool_suggestions = widgets.HTML(
            f"<small>recently used tools, e.g. {esc(', '.join(COMMON_TOOLS))}</small>"
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
        self.result_box = classed(widgets.HTML(), "memdir-recall-result")
        self.manifest_box = classed(widgets.HTML(), "memdir-recall-manifest")
        self.request_box = classed(widgets.HTML(), "memdir-recall-request")
        self.session_box = classed(widgets.HTML(), "memdir-recall-session")
        self.error_box = classed(widgets.HTML(), "memdir-recall-error")

        self.examples.observe(self._on_example, names="value")
        self.query.observe(lambda _c: self._preview_request(), names="value")
        self.tools.observe(lambda _c: self._preview_request(), names="value")
        self.run_button.on_click(lambda _b: self.run())
        self.reset_button.on_click(lambda _b: self.new_session())

        self.children = [
            self.query,
            self.examples,
            widgets.HBox([self.tools, self.tool_suggestions]),
            widgets.HBox([self.claude, self.run_button, self.reset_button]),
            self.claude_reason,
            self.error_box,
            widgets.HTML("<b>Memories injected this turn</b>"),
            self.result_box,
            self.session_box,
            widgets.HTML("<b>Manifest the selector reads</b>"),
            self.manifest_box,
            widgets.HTML("<b>Request a Claude selection carries</b>"),
            self.request_box,
        ]
        self._preview_request()
        self._show_session()

    @property
    def selector_name(self) -> str:
        """'anthropic' when the Claude toggle is on (only possible with a key), else 'lexical'."""
        if self.custom_selector is not None:
            return str(getattr(self.custom_selector, "name", type(self.custom_selector).__name__))
        return "anthropic" if (self.claude.value and self.has_key) else "lexical"

    @property
    def surfaced(self) -> frozenset[str]:
        """Absolute paths the session has already injected."""
        return self.session.surfaced

    # -- actions

    def run(
        self, query: str | None = None, tools: Sequence[str] | None = None
    ) -> list[InjectedMemory]:
        """Run one recall turn in the current session and show everything about it."""
        from memdir_nb.recall.selectors import make_selector

        if query is not None:
            self.query.value = query
        if tools is not None:
            self.tools.value = list(tools)
        if not self.query.value.strip():
            self.last_error = None
            self.error_box.value = "<p>Type a query first.</p>"
            return []
        selector = self.custom_selector or make_selector(self.selector_name, self.config)
        preview = explain.recall_preview(
            self.query.value,
            self.memory_dir,
            self.session,
            selector,
            recent_tools=list(self.tools.value),
            now_ms=self.now_ms(),
        )
        self.last_preview = preview
        self.selected = preview.selected
        self.manifest = preview.manifest
        self.request_json = preview.request_json
        self.rendered = preview.rendered
        self.last_error = preview.last_error
        self.manifest_box.value = pre(self.manifest or "(no memories left to offer)")
        self.request_box.value = pre(self.request_json)
        self.error_box.value = (
            f'<p style="color:#b2182b">Selector error ({esc(self.selector_name)}): {esc(self.last_error)}</p>'
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
        self.selected = []
        self.rendered = ""
        self.last_error = None
        self.result_box.value = "<p>New session started.</p>"
        self.error_box.value = ""
        self._preview_request()
        self._show_session()

    # -- helpers

    def _example_queries(self) -> Sequence[str]:
        if explain.is_demo_dir(self.memory_dir):
            from memdir_nb.demo import DEMO_QUERIES

            return tuple(DEMO_QUERIES)
        return ()

    def _on_example(self, change: Any) -> None:
        if change["new"]:
            self.query.value = change["new"]

    def _preview_request(self) -> None:
        """Show the manifest and request the next turn would send (nothing is sent)."""
        from memdir_nb.recall.find import drop_surfaced
        from memdir_nb.scan import format_memory_manifest, scan_memory_files

        candidates = drop_surfaced(scan_memory_files(self.memory_dir), self.session.surfaced)
        self.manifest = format_memory_manifest(candidates)
        self.request_json = explain.request_json(
            self.query.value, candidates, list(self.tools.value)
        )
        self.manifest_box.value = pre(self.manifest or "(no memories left to offer)")
        self.request_box.value = pre(self.request_json)

    def _show_session(self) -> None:
        s = self.session
        names = sorted(os.path.relpath(p, self.memory_dir) for p in s.surfaced)
        listed = "".join(f"<li><code>{esc(n)}</code></li>" for n in names) or "<li>(none yet)</li>"
        self.session_box.value = (
            f"<p><b>Session:</b> {esc(s.status)}</p>"
            f"<p>{s.bytes_used:,} of {s.max_session_bytes:,} bytes of recall budget used.</p>"
            f"<p>Already surfaced (never offered again this session):</p><ul>{listed}</ul>"
        )
