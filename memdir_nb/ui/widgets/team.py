"""TeamScopeView: private and team memories side by side, each type's scope rule, promote and demote.

DOM classes: memdir-team (the view), memdir-team-rules (scope rule table),
memdir-team-private and memdir-team-shared (the two lists), memdir-team-verdict (the secret
scan's verdict on the chosen private memory), memdir-team-promote, memdir-team-demote,
memdir-team-status.

State lives in traitlets (the two row lists, the verdict, the status); the lists, the verdict
box and the buttons follow them through observe/dlink.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import traitlets

from memdir_nb.spec.constants import TEAM_DIRNAME
from memdir_nb.storage.store import MemoryStore
from memdir_nb.ui.views import browser as rows_view
from memdir_nb.ui.views import team as view
from memdir_nb.ui.widgets._common import MemdirView, classed, esc, message_list, status_html

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.home.config import MemdirConfig


class TeamScopeView(MemdirView):
    """Move memories between private and team scope, checked by the type rule and the secret scan."""

    private_rows: traitlets.List[rows_view.MemoryRow] = traitlets.List(
        help="private memories (view.MemoryRow), by filename"
    )
    team_rows: traitlets.List[rows_view.MemoryRow] = traitlets.List(
        help="team memories (view.MemoryRow), by filename"
    )
    verdict = traitlets.Instance(view.PromotionVerdict, allow_none=True)
    status_text = traitlets.Unicode("")
    status_error = traitlets.Bool(False)
    last_moved = traitlets.Instance(Path, allow_none=True)

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        now_ms: float | None = None,
        config: MemdirConfig | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(memory_dir, now_ms=now_ms, config=config, **kwargs)
        self.add_class("memdir-team")
        self.rules = view.scope_rules()
        rule_rows = "".join(
            f"<tr><td><b>{esc(r.type)}</b></td><td>{esc(r.default_scope)}</td>"
            f"<td>{'yes' if r.allowed_in_team else 'never'}</td><td>{esc(r.rule)}</td></tr>"
            for r in self.rules
        )
        self.rules_box = classed(
            widgets.HTML(
                "<table><thead><tr><th>type</th><th>default scope</th><th>in team?</th><th>rule</th></tr></thead>"
                f"<tbody>{rule_rows}</tbody></table>"
            ),
            "memdir-team-rules",
        )
        layout = widgets.Layout(width="48%")
        self.private_list = classed(
            widgets.Select(options=[], rows=14, description="private", layout=layout),
            "memdir-team-private",
        )
        self.team_list = classed(
            widgets.Select(options=[], rows=14, description="team", layout=layout),
            "memdir-team-shared",
        )
        self.verdict_box = classed(widgets.HTML(), "memdir-team-verdict")
        self.promote_button = classed(
            widgets.Button(
                layout=widgets.Layout(width="auto"),
                description="Promote to team →",
                button_style="info",
                disabled=True,
            ),
            "memdir-team-promote",
        )
        self.demote_button = classed(
            widgets.Button(
                layout=widgets.Layout(width="auto"),
                description="← Demote to private",
                disabled=True,
            ),
            "memdir-team-demote",
        )
        self.status = classed(widgets.HTML(), "memdir-team-status")

        self.private_list.observe(self._on_private, names="value")
        self.team_list.observe(self._on_team, names="value")
        self.observe(self._show_lists, names=["private_rows", "team_rows"])
        self.observe(self._show_verdict, names="verdict")
        self.observe(self._show_status, names=["status_text", "status_error"])
        self.promote_button.on_click(lambda _b: self.promote())
        self.demote_button.on_click(lambda _b: self.demote())
        self.children = [
            self.rules_box,
            widgets.HBox([self.private_list, self.team_list]),
            widgets.HBox([self.promote_button, self.demote_button]),
            self.verdict_box,
            self.status,
        ]
        self.refresh()

    def refresh(self) -> None:
        """Rescan both scopes and redraw the lists."""
        rows = rows_view.memory_rows(self.memory_dir, now_ms=self.now_ms())
        with self.hold_trait_notifications():
            self.private_rows = sorted(
                (r for r in rows if r.scope == "private"), key=lambda r: r.filename
            )
            self.team_rows = sorted(
                (r for r in rows if r.scope == "team"), key=lambda r: r.filename
            )
        self._on_private({"new": self.private_list.value})  # the chosen file may have changed
        self.demote_button.disabled = self.team_list.value is None

    def _show_lists(self, _change: Any = None) -> None:
        for select, items in (
            (self.private_list, self.private_rows),
            (self.team_list, self.team_rows),
        ):
            keep = select.value
            select.options = [(f"{r.filename} [{r.type or '?'}]", r.filename) for r in items]
            select.value = keep if keep in [r.filename for r in items] else None

    def promote(self, filename: str | None = None) -> Path | None:
        """Promote a private memory (the chosen one by default) via MemoryStore.promote."""

        target = filename or self.private_list.value
        if not target:
            self._fail("Choose a private memory to promote.")
            return None
        self.verdict = view.promotion_verdict(self.memory_dir, target)
        try:
            moved = MemoryStore(self.memory_dir, config=self.config, now_ms=self.now_ms()).promote(
                target
            )
        except (OSError, ValueError) as err:  # validation, secret, traversal; a disk refusal
            self._fail(f"Not promoted: {err}")
            return None
        return self._moved(moved, f"Promoted {target} to {TEAM_DIRNAME}/; both indexes updated.")

    def demote(self, filename: str | None = None) -> Path | None:
        """Demote a team memory (the chosen one by default) via MemoryStore.demote."""

        target = filename or self.team_list.value
        if not target:
            self._fail("Choose a team memory to demote.")
            return None
        try:
            moved = MemoryStore(self.memory_dir, config=self.config, now_ms=self.now_ms()).demote(
                target
            )
        except (OSError, ValueError) as err:
            self._fail(f"Not demoted: {err}")
            return None
        return self._moved(moved, f"Demoted {target} to private memory; both indexes updated.")

    # -- helpers

    def _moved(self, path: Path, text: str) -> Path:
        self.last_moved = path
        self._set_status(text, error=False)
        self.private_list.value = None
        self.team_list.value = None
        self.refresh()
        self._changed()
        return path

    def _fail(self, text: str) -> None:
        self._set_status(text, error=True)
        return None

    def _set_status(self, text: str, *, error: bool) -> None:
        with self.hold_trait_notifications():
            self.status_text = text
            self.status_error = error

    def _show_status(self, _change: Any = None) -> None:
        self.status.value = status_html(self.status_text, self.status_error)

    def _on_private(self, change: Any) -> None:
        filename = change["new"]
        if not filename:
            self.verdict = None
            self._show_verdict()
            return
        try:
            self.verdict = view.promotion_verdict(self.memory_dir, filename)
        except OSError as err:
            self.verdict = None
            self.verdict_box.value = f"<p>Cannot read {esc(filename)}: {esc(err)}</p>"

    def _show_verdict(self, _change: Any = None) -> None:
        v = self.verdict
        self.promote_button.disabled = v is None or not v.allowed
        if v is None:
            self.verdict_box.value = (
                "<p>Choose a private memory to see whether it may be shared.</p>"
            )
            return
        scan = (
            "no credential found"
            if not v.secret_findings
            else f"{len(v.secret_findings)} suspected credential(s)"
        )
        self.verdict_box.value = (
            f"<p><b>{esc(v.filename)}</b>: secret scan: {esc(scan)}. "
            f"{'It may be promoted.' if v.allowed else 'It cannot be promoted:'}</p>"
            + message_list(v.reasons, "error")
        )
        self.promote_button.disabled = not v.allowed

    def _on_team(self, change: Any) -> None:
        self.demote_button.disabled = not change["new"]
