"""DreamPlanner: the dream gates, a dry-run consolidation plan as a diff, approve/apply, restore.

All logic lives in memdir_nb.dream; this view only calls it and shows the results.

DOM classes: memdir-dream (the view), memdir-dream-gates (gate table), memdir-dream-plan
(the "Plan" button), memdir-dream-actions (the action list), memdir-dream-action (each
action's checkbox), memdir-dream-action-label (its escaped summary beside it), memdir-dream-diff (the diff of the approved actions), memdir-dream-apply,
memdir-dream-dreams (the restore list: applied dreams, then memories forget moved to .trash),
memdir-dream-restore, memdir-dream-restore-preview (what Restore would put back), memdir-dream-status.

State lives in traitlets (gate, lock status, plan, approved ids, diff, dreams, forgotten,
restore preview, status); the
gate table, diff, buttons and status follow them through observe/dlink.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import traitlets

from memdir_nb import dream
from memdir_nb.home.config import MemdirConfig
from memdir_nb.home.gates import AutoDreamDecision, auto_dream_decision
from memdir_nb.spec.constants import TRASH_DIRNAME
from memdir_nb.ui.views import dream as view
from memdir_nb.ui.widgets._common import MemdirView, classed, esc, pre

Planner = Callable[[Path], "dream.ConsolidationPlan"]


class DreamPlanner(MemdirView):
    """Shows why a dream would or would not run, proposes a plan, applies the approved part, restores."""

    gate = traitlets.Instance(dream.GateResult, allow_none=True)
    lock_status = traitlets.Unicode("")
    plan = traitlets.Instance(dream.ConsolidationPlan, allow_none=True)
    approved = traitlets.Set(traitlets.Unicode(), help="ids of the ticked actions")
    diff_text = traitlets.Unicode("")
    last_result = traitlets.Instance(dream.ApplyResult, allow_none=True)
    dreams = traitlets.List(traitlets.Unicode(), help="applied dreams, oldest first")
    forgotten = traitlets.List(traitlets.Unicode(), help="memories forget moved, newest first")
    restore_preview = traitlets.Unicode("", help="what Restore would put back, or why not")
    status_text = traitlets.Unicode("")

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        project_dir: str | os.PathLike[str] | None = None,
        current_session: str | None = None,
        planner: Planner | None = None,
        min_hours: float = dream.MIN_HOURS,
        min_sessions: int = dream.MIN_SESSIONS,
        now_ms: float | None = None,
        config: MemdirConfig | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(memory_dir, now_ms=now_ms, config=config, **kwargs)
        self.add_class("memdir-dream")
        self.project_dir = Path(project_dir) if project_dir is not None else self.memory_dir.parent
        self.current_session = current_session
        self.min_hours = min_hours
        self.min_sessions = min_sessions
        self._planner = planner
        self.action_boxes: dict[str, widgets.Checkbox] = {}
        # controls
        self.gates_html = classed(widgets.HTML(), "memdir-dream-gates")
        self.plan_button = classed(
            widgets.Button(
                layout=widgets.Layout(width="auto"),
                description="Plan (dry run)",
                icon="search",
                tooltip="Read the memory dir and propose changes; nothing is written",
            ),
            "memdir-dream-plan",
        )
        self.actions_box = classed(widgets.VBox(), "memdir-dream-actions")
        self.diff_html = classed(widgets.HTML(), "memdir-dream-diff")
        self.apply_button = classed(
            widgets.Button(
                layout=widgets.Layout(width="auto"),
                description="Apply approved",
                icon="check",
                button_style="warning",
                disabled=True,
                tooltip=f"Change only the ticked actions; old versions go to {TRASH_DIRNAME}/",
            ),
            "memdir-dream-apply",
        )
        self.dreams_select, self.restore_button, self.restore_preview_html = (
            self._restore_controls()
        )
        self.status = classed(widgets.HTML(), "memdir-dream-status")
        widgets.dlink(
            (self, "status_text"), (self.status, "value"), lambda t: f"<p>{esc(t)}</p>" if t else ""
        )
        self.observe(self._show_gates, names=["gate", "lock_status"])
        self.observe(self._show_dreams, names=["dreams", "forgotten"])
        self.observe(self._show_diff, names="approved")
        self.plan_button.on_click(lambda _b: self.make_plan())
        self.apply_button.on_click(lambda _b: self.apply())
        self.restore_button.on_click(lambda _b: self.restore())
        self.children = [
            self.gates_html,
            widgets.HBox([self.plan_button, self.apply_button]),
            self.actions_box,
            self.diff_html,
            widgets.HBox([self.dreams_select, self.restore_button]),
            self.restore_preview_html,
            self.status,
        ]
        self.refresh()

    def _restore_controls(self) -> tuple[widgets.Dropdown, widgets.Button, widgets.HTML]:
        """The restore list (applied dreams, then forgotten memories), its button, and the
        preview of what the chosen one would put back, which follows the choice."""
        select = classed(widgets.Dropdown(description="Undo", options=[]), "memdir-dream-dreams")
        button = classed(
            widgets.Button(
                layout=widgets.Layout(width="auto"),
                description="Restore",
                icon="undo",
                disabled=True,
                tooltip="Put back every file the chosen dream changed, or the chosen forgotten memory",
            ),
            "memdir-dream-restore",
        )
        preview = classed(widgets.HTML(), "memdir-dream-restore-preview")
        widgets.dlink(
            (self, "restore_preview"),
            (preview, "value"),
            lambda t: f"<p>{esc(t)}</p>" if t else "",
        )
        select.observe(self._preview_restore, names="value")
        return select, button, preview

    # ----------------------------------------------------------------------------- gates

    def refresh(self) -> None:
        """Re-check the gates (without taking the lock) and the restore list."""
        gate: dream.GateResult | None = None
        try:
            gate = dream.dream_gates(
                self.memory_dir,
                current_session=self.current_session,
                project_dir=self.project_dir,
                now_ms=self.now_ms(),
                min_hours=self.min_hours,
                min_sessions=self.min_sessions,
                acquire=False,
            )
            lock_status = dream.ConsolidationLock(self.memory_dir).holder_status(
                now_ms=self.now_ms()
            )
        except dream.LockFileCorruptError as err:
            gate, lock_status = self.gate, f"unreadable: {err}"
        with self.hold_trait_notifications():
            self.gate = gate
            self.lock_status = lock_status
        self._show_gates()  # the gate's hours move on with the clock even when nothing else did
        with self.hold_trait_notifications():
            self.dreams = dream.list_dreams(self.memory_dir)
            self.forgotten = dream.forgotten_names(self.memory_dir)
        self._show_dreams()

    def _switch(self) -> AutoDreamDecision | None:
        """Claude Code's own switch for background dreams, when the view knows the settings."""
        return auto_dream_decision(self.config) if self.config is not None else None

    def _show_gates(self, _change: object = None) -> None:
        rows = view.gate_rows(
            self.gate,
            self.lock_status,
            min_hours=self.min_hours,
            min_sessions=self.min_sessions,
            now_ms=self.now_ms(),
            switch=self._switch(),
        )
        body = "".join(
            f'<tr class="memdir-dream-gate-{esc(r.name)}"><td>{esc(r.name)}</td>'
            f"<td><b>{esc(r.state)}</b></td><td>{esc(r.why)}</td></tr>"
            for r in rows
        )
        verdict = (
            "A dream would run now."
            if view.would_run(self.gate, self.lock_status, self._switch())
            else "A dream would not run on its own now; you can still plan and apply one by hand."
        )
        self.gates_html.value = f"<h4>Gates</h4><table>{body}</table><p>{esc(verdict)}</p>"

    def _show_dreams(self, _change: object = None) -> None:
        choices = view.restore_choices(self.dreams, self.forgotten)
        self.dreams_select.options = choices
        self.dreams_select.value = choices[0][1] if choices else None
        self.restore_button.disabled = not choices
        self._preview_restore()

    def _preview_restore(self, _change: object = None) -> None:
        self.restore_preview = view.restore_preview(self.memory_dir, self.dreams_select.value)

    # ----------------------------------------------------------------------------- plan

    def make_plan(self) -> dream.ConsolidationPlan | None:
        """Build a dry-run plan (nothing is written) and approve all of its actions by default."""
        cache_note: str | None = None
        try:
            if self._planner is not None:
                plan = self._planner(self.memory_dir)
            else:
                # The notebook keeps the plan's derived work under the cache root, as recall
                # keeps its vectors: the first plan after a kernel restart reuses it.
                cache_root, cache_note = view.plan_cache_folder(self.memory_dir, self.config)
                plan = dream.plan_consolidation(
                    self.memory_dir, now_ms=self.now_ms(), cache_dir=cache_root
                )
        except (OSError, ValueError) as err:
            self.plan = None
            self._set_status(f"Planning failed: {err}")
            self._show_plan()
            return None
        with self.hold_trait_notifications():
            self.approved = {a.id for a in plan.actions if a.ops}
            self.plan = plan
        self._show_plan()  # new checkboxes, even when the new plan equals the old one
        said = [*plan.notes, *([cache_note] if cache_note else [])]
        notes = f" Notes: {'; '.join(said)}" if said else ""
        self._set_status(
            f"Plan ready ({plan.source}): {len(plan.actions)} action(s); nothing has been written yet.{notes}"
        )
        return plan

    def set_approved(self, action_ids: set[str] | list[str] | tuple[str, ...]) -> None:
        """Tick exactly these actions (ids from plan.actions) and redraw the diff."""
        if self.plan is None:
            raise ValueError(
                "there is no plan yet; click 'Plan (dry run)' (or call make_plan()) first"
            )
        ids = set(action_ids)
        known = {a.id for a in self.plan.actions}
        if ids - known:
            raise ValueError(
                f"unknown action id(s) {sorted(ids - known)}; choose from {sorted(known)}"
            )
        for aid, box in self.action_boxes.items():
            box.value = aid in ids  # each change calls _on_tick, which keeps self.approved in step
        self.approved = ids

    def _show_plan(self) -> None:
        self.action_boxes = {}
        rows: list[widgets.Widget] = []
        if self.plan is None:
            self.actions_box.children = ()
            self._show_diff()
            return
        if not self.plan.actions:
            rows.append(widgets.HTML("<p>Nothing to consolidate: the dir is already tidy.</p>"))
        for a in self.plan.actions:
            # The summary quotes file names and memory text (a Claude plan's, model text), so it
            # is an escaped HTML label, never the description: ipywidgets typesets a
            # description's $...$ as LaTeX, and \href in it would make a link.
            box = classed(
                widgets.Checkbox(
                    value=a.id in self.approved,
                    indent=False,
                    disabled=not a.ops,
                    tooltip=f"[{a.kind}] {a.summary}",
                    layout=widgets.Layout(width="auto"),
                ),
                "memdir-dream-action",
            )
            box.observe(lambda change, aid=a.id: self._on_tick(aid, change["new"]), names="value")
            self.action_boxes[a.id] = box
            label = classed(
                widgets.HTML(f"<code>[{esc(a.kind)}]</code> {esc(a.summary)}"),
                "memdir-dream-action-label",
            )
            rows.append(widgets.HBox([box, label]))
        self.actions_box.children = tuple(rows)
        self._show_diff()

    def _on_tick(self, action_id: str, ticked: bool) -> None:
        # a new set, not an in-place change, so the approved observer redraws the diff
        self.approved = self.approved | {action_id} if ticked else self.approved - {action_id}

    def _show_diff(self, _change: object = None) -> None:
        if self.plan is None:
            self.diff_text = ""
            self.diff_html.value = ""
        else:
            self.diff_text = self.plan.diff(sorted(self.approved))
            shown = self.diff_text or "(no file changes for the ticked actions)"
            self.diff_html.value = "<h4>Diff of the ticked actions</h4>" + pre(
                shown, "memdir-dream-diff-text"
            )
        self.apply_button.disabled = self.plan is None or self.plan.applied or not self.approved

    # ----------------------------------------------------------------------------- apply / restore

    def apply(self) -> dream.ApplyResult | None:
        """Apply the ticked actions under the consolidation lock; a success stamps lastConsolidatedAt."""
        if self.plan is None or not self.approved:
            self._set_status("Nothing to apply: make a plan and tick at least one action.")
            return None
        lock = dream.ConsolidationLock(self.memory_dir)
        try:
            got = lock.try_acquire(now_ms=self.now_ms())
        except (dream.LockFileCorruptError, OSError) as err:
            self._set_status(f"Not applied: {err}")
            return None
        if not got:
            self._set_status(
                f"Not applied: another process is consolidating ({lock.path} is held)."
            )
            return None
        try:
            result = dream.apply_plan(self.plan, sorted(self.approved))
        except (OSError, ValueError) as err:
            lock.rollback()  # a failed dream must not close the time gate
            self._set_status(f"Not applied: {err}")
            return None
        lock.release()
        self.last_result = result
        self._set_status(
            f"Applied {len(self.approved)} action(s): changed {', '.join(result.changed) or 'nothing'}"
            + (
                f"; moved to {TRASH_DIRNAME}/: {', '.join(result.trashed)}"
                if result.trashed
                else ""
            )
            + ". Restore puts every file back."
            + "".join(f" Note: {note}." for note in result.link_notes)
        )
        self._show_diff()
        self.refresh()
        self._changed()
        return result

    def restore(self, batch: str | None = None) -> list[str]:
        """Undo an applied dream or put back a forgotten memory (default: the one chosen in the
        list, whose preview shows what it puts back)."""
        name = batch or self.dreams_select.value
        if not name:
            self._set_status(
                view.nothing_to_restore(bool(self.dreams_select.options), bool(self.forgotten))
            )
            return []
        try:
            restored = dream.restore(self.memory_dir, name)
        except (OSError, ValueError) as err:
            self._set_status(f"Not restored: {err}")
            return []
        self._set_status(f"Restored {len(restored)} file(s): {', '.join(restored)}.")
        self.refresh()
        self._changed()
        return restored

    def _set_status(self, text: str) -> None:
        self.status_text = text
