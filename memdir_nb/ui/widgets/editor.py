"""MemoryEditor: a save form with live previews and validation, saving through MemoryStore.

DOM classes: memdir-editor (the view), memdir-editor-type, memdir-editor-guidance,
memdir-editor-scope, memdir-editor-name, memdir-editor-description, memdir-editor-body,
memdir-editor-why, memdir-editor-how, memdir-editor-errors, memdir-editor-warnings,
memdir-editor-preview-file, memdir-editor-preview-index, memdir-editor-save,
memdir-editor-forget-choice, memdir-editor-forget, memdir-editor-status.

The checks are the store's: `errors` and `warnings` are the messages of
`memdir_nb.storage.draft.validate_draft`'s verdict (the one MemoryStore.save applies), each problem
named once. Errors (red, under "Not saved until fixed") refuse the save; warnings (amber,
under "Saved anyway") do not. State lives in traitlets (errors, warnings, their codes,
previews, status); the boxes follow through observe/dlink. An untouched form shows no errors:
they appear once a field is committed or Save is pressed (`show_errors`), though `errors`
always holds the current verdict.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import traitlets

from memdir_nb.spec.constants import TRASH_DIRNAME
from memdir_nb.spec.taxonomy import (
    MEMORY_TYPES,
    SCOPES,
    TYPE_GUIDANCE,
    default_scope,
    parse_memory_type,
    scope_of_path,
)
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.storage.store import MemoryStore
from memdir_nb.ui.views import editor as view
from memdir_nb.ui.views.common import index_title
from memdir_nb.ui.widgets._common import MemdirView, classed, esc, message_list, pre, status_html

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.home.config import MemdirConfig

NO_TYPE = ""
FILL_IN = "(fill in type, name and description)"
ERRORS_TITLE = "Not saved until fixed"
WARNINGS_TITLE = "Saved anyway, but worth fixing"


def _count(n: int, noun: str) -> str:
    """'1 error', '2 errors'."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def verdict_html(messages: list[str], kind: str) -> str:
    """A titled list of the verdict's errors or warnings ('' when there are none)."""
    if not messages:
        return ""
    title = ERRORS_TITLE if kind == "error" else WARNINGS_TITLE
    return f"<b>{esc(title)}</b>" + message_list(messages, kind)


def _text_area(description: str, placeholder: str, css: str) -> Any:
    """A wide Textarea that commits on blur, carrying its DOM class."""
    return classed(
        widgets.Textarea(
            description=description,
            continuous_update=False,
            placeholder=placeholder,
            layout=widgets.Layout(width="95%"),
        ),
        css,
    )


class MemoryEditor(MemdirView):
    """Fill in a memory, see the file and index line it makes, then save or forget via MemoryStore."""

    errors = traitlets.List(traitlets.Unicode(), help="what blocks a save, always up to date")
    warnings = traitlets.List(traitlets.Unicode(), help="what the save goes ahead with")
    error_codes = traitlets.List(traitlets.Unicode(), help="the errors' codes (draft.DraftProblem)")
    warning_codes = traitlets.List(traitlets.Unicode(), help="the warnings' codes")
    show_errors = traitlets.Bool(False, help="True once a field was committed or Save pressed")
    preview_file = traitlets.Unicode("")
    preview_index_line = traitlets.Unicode("")
    relative_path = traitlets.Unicode("")
    status_text = traitlets.Unicode("")
    status_error = traitlets.Bool(False)
    last_saved = traitlets.Instance(Path, allow_none=True)
    last_forgotten = traitlets.Instance(Path, allow_none=True)

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        now_ms: float | None = None,
        config: MemdirConfig | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(memory_dir, now_ms=now_ms, config=config, **kwargs)
        self.add_class("memdir-editor")
        self._build_inputs()
        self._build_outputs()
        self._wire()
        self._lay_out()
        self._on_type({"new": self.type_select.value})
        self.update_preview()
        self._show_errors()
        self._show_index_preview()
        self._refresh_forget_choices()

    # -- construction

    def _build_inputs(self) -> None:
        """The form's controls: type, scope, name, description, body, Why and How to apply."""
        type_options = [("— choose a type —", NO_TYPE)] + [(t.value, t.value) for t in MEMORY_TYPES]
        self.type_select = classed(
            widgets.Dropdown(options=type_options, value=NO_TYPE, description="type"),
            "memdir-editor-type",
        )
        self.guidance = classed(widgets.HTML(), "memdir-editor-guidance")
        self.scope_toggle = classed(
            widgets.ToggleButtons(options=list(SCOPES), value=SCOPES[0], description="scope"),
            "memdir-editor-scope",
        )
        self.scope_rule = classed(widgets.HTML(), "memdir-editor-scope-rule")
        wide = widgets.Layout(width="95%")
        self.name_input = classed(
            widgets.Text(description="name", continuous_update=False, layout=wide),
            "memdir-editor-name",
        )
        self.description_input = classed(
            widgets.Text(
                description="description",
                continuous_update=False,
                placeholder="one line: the index hook",
                layout=wide,
            ),
            "memdir-editor-description",
        )
        self.body_input = _text_area("memory", "the rule or fact", "memdir-editor-body")
        self.why_input = _text_area("Why", "the reason behind it", "memdir-editor-why")
        self.how_input = _text_area(
            "How to apply", "when and where it applies", "memdir-editor-how"
        )

    def _build_outputs(self) -> None:
        """The verdict boxes, the previews, and the save and forget buttons."""
        self.errors_box = classed(widgets.HTML(), "memdir-editor-errors")
        self.warnings_box = classed(widgets.HTML(), "memdir-editor-warnings")
        self.preview_file_box = classed(widgets.HTML(), "memdir-editor-preview-file")
        self.preview_index_box = classed(widgets.HTML(), "memdir-editor-preview-index")
        self.save_button = classed(
            widgets.Button(
                layout=widgets.Layout(width="auto"),
                description="Save",
                button_style="primary",
                icon="save",
            ),
            "memdir-editor-save",
        )
        self.forget_choice = classed(
            widgets.Dropdown(options=[], description="memory"), "memdir-editor-forget-choice"
        )
        self.forget_button = classed(
            widgets.Button(
                layout=widgets.Layout(width="auto"),
                description=f"Forget (move to {TRASH_DIRNAME})",
                button_style="warning",
                icon="trash",
            ),
            "memdir-editor-forget",
        )
        self.status = classed(widgets.HTML(), "memdir-editor-status")

    def _wire(self) -> None:
        """Every control's changes flow into the draft's traitlets and back to the boxes."""
        self.type_select.observe(self._on_type, names="value")
        for control in (
            self.type_select,
            self.scope_toggle,
            self.name_input,
            self.description_input,
            self.body_input,
            self.why_input,
            self.how_input,
        ):
            control.observe(self._on_commit, names="value")
        self.observe(self._show_errors, names=["errors", "show_errors"])
        widgets.dlink(
            (self, "warnings"), (self.warnings_box, "value"), lambda w: verdict_html(w, "warning")
        )
        widgets.dlink(
            (self, "preview_file"), (self.preview_file_box, "value"), lambda t: pre(t or FILL_IN)
        )
        self.observe(self._show_index_preview, names=["preview_index_line", "relative_path"])
        self.observe(self._show_status, names=["status_text", "status_error"])
        self.save_button.on_click(lambda _b: self.save())
        self.forget_button.on_click(lambda _b: self.forget())

    def _lay_out(self) -> None:
        """The widget's children, top to bottom."""
        self.why_how = widgets.VBox([self.why_input, self.how_input])
        self.children = [
            self.type_select,
            self.guidance,
            widgets.HBox([self.scope_toggle, self.scope_rule]),
            self.name_input,
            self.description_input,
            self.body_input,
            self.why_how,
            self.errors_box,
            self.warnings_box,
            widgets.HTML("<b>Index line preview</b>"),
            self.preview_index_box,
            widgets.HTML("<b>File preview</b>"),
            self.preview_file_box,
            self.save_button,
            widgets.HBox([self.forget_choice, self.forget_button]),
            self.status,
        ]

    # -- public actions

    def fill(
        self,
        *,
        type: str,
        name: str,
        description: str,
        body: str,
        why: str = "",
        how: str = "",
        scope: str | None = None,
    ) -> None:
        """Set every field at once (the scope defaults from the type's rule unless given)."""
        self.type_select.value = type
        if scope is not None:
            self.scope_toggle.value = scope
        self.name_input.value = name
        self.description_input.value = description
        self.body_input.value = body
        self.why_input.value = why
        self.how_input.value = how
        self.show_errors = True
        self.update_preview()

    def update_preview(self) -> view.DraftCheck:
        """Take the store's verdict on the form; the errors, warnings and previews follow it."""
        check = view.check_draft(
            self.memory_dir,
            name=self.name_input.value,
            description=self.description_input.value,
            type=self.type_select.value or None,
            rule=self.body_input.value,
            why=self.why_input.value,
            how=self.how_input.value,
            scope=self.scope_toggle.value,
            now_ms=self.now_ms(),
        )
        with self.hold_trait_notifications():
            self.errors = check.errors
            self.warnings = check.warnings
            self.error_codes = [p.code for p in check.verdict.errors]
            self.warning_codes = [p.code for p in (*check.verdict.warnings, *check.notes)]
        self.preview_file = check.preview_file
        self.preview_index_line = check.preview_index_line
        self.relative_path = check.relative_path
        return check

    def save(self) -> Path | None:
        """Save through MemoryStore when the form is valid; returns the file written, or None."""

        self.show_errors = True
        check = self.update_preview()
        if check.errors:
            self._set_status(
                f"Not saved: fix the {_count(len(check.errors), 'error')} listed above.",
                error=True,
            )
            return None
        store = MemoryStore(self.memory_dir, config=self.config, now_ms=self.now_ms())
        try:
            path = store.save(
                self.name_input.value,
                self.description_input.value,
                self.type_select.value,
                check.body,
                scope=self.scope_toggle.value,
            )
        except (OSError, ValueError) as err:  # validation, secret, traversal; a disk refusal
            self.errors = [str(err)]
            self._set_status("Not saved: the store refused it (see above).", error=True)
            return None
        # store.warnings repeats the verdict's warnings (already shown), so nothing is added
        self.last_saved = path
        rel = path.relative_to(self.memory_dir).as_posix()
        self._set_status(f"Saved {rel} and its line in {index_title(scope_of_path(rel))}.")
        self._refresh_forget_choices()
        self._changed()
        return path

    def forget(self, filename: str | None = None) -> Path | None:
        """Forget a memory (the chosen one by default) through MemoryStore; returns its place in .trash/."""

        target = filename if filename is not None else self.forget_choice.value
        if not target:
            self._set_status("Choose a memory to forget first.", error=True)
            return None
        store = MemoryStore(self.memory_dir, config=self.config, now_ms=self.now_ms())
        try:
            trashed = store.forget(target)
        except (OSError, ValueError) as err:  # validation; a disk refusal (FIFO, folder, lock)
            self._set_status(f"Not forgotten: {err}", error=True)
            return None
        self.last_forgotten = trashed
        # links other memories keep to it are named, not rewritten (storage.link_report)
        left = store.last_links_left
        self._set_status(
            f"Forgot {target}: moved to {trashed.relative_to(self.memory_dir).as_posix()} and "
            "removed its index line." + (f" {left.message('it')}." if left else "")
        )
        self._refresh_forget_choices()
        self._changed()
        return trashed

    def refresh(self) -> None:
        """Re-list the memories the forget menu offers and re-check the form."""
        self._refresh_forget_choices()
        self.update_preview()

    # -- callbacks and helpers

    def _on_commit(self, _change: Any) -> None:
        self.show_errors = True
        self.update_preview()

    def _show_errors(self, _change: Any = None) -> None:
        shown = self.errors if self.show_errors else []
        self.errors_box.value = verdict_html(shown, "error")
        self.save_button.disabled = bool(shown)

    def _show_index_preview(self, _change: Any = None) -> None:
        target = f" → {self.relative_path}" if self.relative_path else ""
        self.preview_index_box.value = pre(self.preview_index_line or FILL_IN) + esc(target)

    def _show_status(self, _change: Any = None) -> None:
        self.status.value = status_html(self.status_text, self.status_error)

    def _on_type(self, change: Any) -> None:
        mtype = parse_memory_type(change["new"])
        if mtype is None:
            self.guidance.value = (
                "<p>Choose one of the four types; each has its own purpose and scope rule.</p>"
            )
            self.scope_rule.value = ""
            self.why_how.layout.display = "none"
        else:
            g = TYPE_GUIDANCE[mtype]
            examples = "".join(f"<li>{esc(e)}</li>" for e in g.examples)
            self.guidance.value = (
                f"<p><b>{esc(mtype.value)}</b>: {esc(g.purpose)}<br><i>When to save:</i> {esc(g.when_to_save)}"
                f"<br><i>How it is used:</i> {esc(g.how_to_use)}</p><ul>{examples}</ul>"
            )
            self.scope_rule.value = f"<i>{esc(g.scope_rule)}</i>"
            self.scope_toggle.value = default_scope(mtype)
            self.why_how.layout.display = "flex" if g.needs_why_and_how else "none"

    def _refresh_forget_choices(self) -> None:
        names = sorted(h.filename for h in scan_memory_dir(self.memory_dir, limit=None).headers)
        current = self.forget_choice.value
        self.forget_choice.options = names
        self.forget_choice.value = current if current in names else None

    def _set_status(self, text: str, *, error: bool = False) -> None:
        with self.hold_trait_notifications():
            self.status_text = text
            self.status_error = error
