"""PathSecurityLab: type a team key and watch each path-security check pass or fail, in order.

Testing a key never writes anything. The symlink examples need a link planted in team/ first;
that happens only when the "Plant example symlink" button is pressed. DOM classes:
memdir-lab (the view), memdir-lab-key, memdir-lab-examples, memdir-lab-run-all,
memdir-lab-steps (one row per check, classes memdir-step-pass / -fail / -not-reached),
memdir-lab-verdict, memdir-lab-plant, memdir-lab-status.

State lives in traitlets (steps, verdict, status); the step list and verdict follow `steps`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import traitlets

from memdir_nb.spec.constants import TEAM_DIRNAME
from memdir_nb.ui.views import security as view
from memdir_nb.ui.widgets._common import MemdirView, classed, esc

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.home.config import MemdirConfig

STEP_STYLE = {"pass": "#1b7837", "fail": "#b2182b", "not reached": "#888888"}
STEP_MARK = {"pass": "✔", "fail": "✘", "not reached": "·"}


class PathSecurityLab(MemdirView):
    """Each check a team memory key goes through (sanitizer, pass 1, pass 2) with its verdict."""

    steps: traitlets.List[view.CheckStep] = traitlets.List(
        help="the checks run on the key (view.CheckStep), in order"
    )
    verdict = traitlets.Unicode("", help="'accepted', 'rejected at <rule>', or '' with no key")
    status_text = traitlets.Unicode("")
    planted: traitlets.List[Path] = traitlets.List(
        help="symlinks this lab planted in team/ (Paths)"
    )

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        now_ms: float | None = None,
        config: MemdirConfig | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(memory_dir, now_ms=now_ms, config=config, **kwargs)
        self.add_class("memdir-lab")
        self.team_dir = self.memory_dir / TEAM_DIRNAME
        options = [("— attack examples —", -1)] + [
            (ex.label, i) for i, ex in enumerate(view.ATTACK_EXAMPLES)
        ]
        self.key = classed(
            widgets.Text(
                description="key",
                placeholder="e.g. notes/deploy.md",
                layout=widgets.Layout(width="60%"),
            ),
            "memdir-lab-key",
        )
        self.examples = classed(
            widgets.Dropdown(options=options, value=-1, description="examples"),
            "memdir-lab-examples",
        )
        self.run_all = classed(
            widgets.Checkbox(
                value=False,
                layout=widgets.Layout(width="auto"),
                description="run the containment passes even when the sanitizer rejects",
                indent=False,
            ),
            "memdir-lab-run-all",
        )
        self.steps_box = classed(widgets.HTML(), "memdir-lab-steps")
        self.verdict_box = classed(widgets.HTML(), "memdir-lab-verdict")
        self.plant_button = classed(
            widgets.Button(
                layout=widgets.Layout(width="auto"),
                description=f"Plant example symlink in {TEAM_DIRNAME}/",
                icon="link",
                button_style="danger",
                disabled=True,
            ),
            "memdir-lab-plant",
        )
        self.status = classed(widgets.HTML(), "memdir-lab-status")
        widgets.dlink(
            (self, "status_text"), (self.status, "value"), lambda t: f"<p>{esc(t)}</p>" if t else ""
        )
        self.key.observe(lambda _c: self.check(), names="value")
        self.run_all.observe(lambda _c: self.check(), names="value")
        self.examples.observe(self._on_example, names="value")
        self.plant_button.on_click(lambda _b: self.plant())
        self.children = [
            widgets.HTML(
                f"<p>Team dir: <code>{esc(self.team_dir)}</code>. Testing a key writes nothing.</p>"
            ),
            widgets.HBox([self.key, self.examples]),
            self.run_all,
            self.verdict_box,
            self.steps_box,
            self.plant_button,
            self.status,
        ]
        self.check()

    @property
    def example(self) -> view.AttackExample | None:
        """The attack example chosen in the menu, if any."""
        i = self.examples.value
        return view.ATTACK_EXAMPLES[i] if i is not None and i >= 0 else None

    def check(self, key: str | None = None) -> list[view.CheckStep]:
        """Run every check on the key (the typed one by default) and redraw; writes nothing."""
        if key is not None:
            self.key.value = key  # the observer runs the check
            return self.steps
        text = self.key.value
        if not text:
            self.verdict = ""
            self.steps = []
            self._show_steps()
            return self.steps
        steps = view.check_team_key(text, self.team_dir, run_all=self.run_all.value)
        failed = [s for s in steps if s.status == "fail"]
        self.verdict = f"rejected at {failed[0].rule}" if failed else "accepted"
        self.steps = steps
        self._show_steps()
        return self.steps

    def _show_steps(self, _change: Any = None) -> None:
        text = self.key.value
        if not text:
            self.steps_box.value = ""
            self.verdict_box.value = "<p>Type a key or pick an attack example.</p>"
            return
        colour = STEP_STYLE["pass" if self.verdict == "accepted" else "fail"]
        self.verdict_box.value = (
            f'<p style="color:{colour}"><b>{esc(view.shown_key(text))}: {esc(self.verdict)}</b></p>'
        )
        self.steps_box.value = "".join(
            f'<div class="memdir-step memdir-step-{s.status.replace(" ", "-")}" style="color:{STEP_STYLE[s.status]}">'
            f"{STEP_MARK[s.status]} {i}. {esc(s.title)}: <b>{esc(s.status)}</b>"
            f"{' [' + esc(s.rule) + ']' if s.rule else ''}"
            f"{'<br><small>' + esc(s.detail) + '</small>' if s.detail else ''}</div>"
            for i, s in enumerate(self.steps, start=1)
        )

    def refresh(self) -> None:
        """Re-run the checks on the current key (links in team/ may have changed)."""
        self.check()

    def plant(self) -> Path | None:
        """Plant the chosen example's symlink inside team/ (explicit request only), then re-check."""
        ex = self.example
        if ex is None or ex.symlink is None:
            self.status_text = "This example needs no symlink."
        else:
            try:
                link = view.plant_example_symlink(self.team_dir, ex)
            except (OSError, ValueError) as err:
                self.status_text = f"Could not plant the symlink: {err}"
            else:
                if link not in self.planted:
                    self.planted = [*self.planted, link]
                self.status_text = f"Planted {link} -> {os.readlink(link)}. Remove it when done."
                self.check()
                return link
        return None

    def _on_example(self, change: Any) -> None:
        ex = self.example
        self.plant_button.disabled = ex is None or ex.symlink is None
        if ex is not None:
            self.key.value = ex.key
