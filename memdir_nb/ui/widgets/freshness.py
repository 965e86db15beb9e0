"""FreshnessView: an age histogram and a timeline by type, with stale memories marked.

Charts are drawn by matplotlib into inline SVG (no CDN, renders offline); the SVG is
deterministic for a given dir and now_ms. DOM classes: memdir-freshness (the view),
memdir-freshness-threshold (stale-after slider), memdir-freshness-histogram,
memdir-freshness-timeline, memdir-freshness-stale (list of stale memories),
memdir-freshness-progress.

State lives in traitlets: the slider is linked to `stale_after_days`, and the charts and the
stale list follow `data`.
"""

from __future__ import annotations

import io
import math
import os
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import traitlets

from memdir_nb.ui.views import browser as rows_view
from memdir_nb.ui.views import freshness as view
from memdir_nb.ui.views.common import STALE_AFTER_DAYS
from memdir_nb.ui.widgets._common import MemdirView, classed, esc

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.home.config import MemdirConfig

# Colour-blind-safe (Okabe-Ito) colours plus distinct markers, so type is never colour alone.
TYPE_STYLE = {
    "user": ("#0072B2", "o"),
    "feedback": ("#E69F00", "s"),
    "project": ("#009E73", "^"),
    "reference": ("#CC79A7", "D"),
    view.UNTYPED: ("#999999", "v"),
}
SVG_SALT = "memdir-nb"


def _svg(fig: Any) -> str:
    """A figure as SVG text without the volatile parts (date, random ids)."""
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": SVG_SALT, "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", metadata={"Date": None}, bbox_inches="tight")
    text = buf.getvalue()
    return text[text.index("<svg") :]  # drop the XML prolog and doctype so it embeds in HTML


def histogram_svg(data: view.FreshnessData) -> str:
    """Stacked bars: how many memories of each type fall in each age bin."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 3.2))
    ax = fig.add_subplot()
    bottoms = [0] * len(data.bins)
    for t in data.types:
        counts = data.counts[t]
        colour, _ = TYPE_STYLE.get(t, TYPE_STYLE[view.UNTYPED])
        ax.bar(
            range(len(data.bins)), counts, bottom=bottoms, color=colour, label=t, edgecolor="white"
        )
        bottoms = [b + c for b, c in zip(bottoms, counts, strict=False)]
    ax.set_xticks(range(len(data.bins)), data.bins, rotation=20, ha="right")
    ax.set_ylabel("memories")
    ax.set_title("Memory age by type")
    ax.legend(frameon=False, fontsize="small")
    return _svg(fig)


def timeline_svg(data: view.FreshnessData) -> str:
    """One point per memory at its age (log scale), a row per type; stale ones drawn as red crosses."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter

    fig = Figure(figsize=(7, 2.8))
    ax = fig.add_subplot()
    rows = {t: i for i, t in enumerate(data.types)}
    for t in data.types:
        colour, marker = TYPE_STYLE.get(t, TYPE_STYLE[view.UNTYPED])
        fresh = [
            (age + 1, rows[t]) for _, kind, age, stale in data.timeline if kind == t and not stale
        ]
        if fresh:
            ax.scatter(
                [x for x, _ in fresh], [y for _, y in fresh], color=colour, marker=marker, label=t
            )
    stale = [(age + 1, rows[kind]) for _, kind, age, s in data.timeline if s]
    if stale:
        ax.scatter(
            [x for x, _ in stale],
            [y for _, y in stale],
            color="#D55E00",
            marker="x",
            s=60,
            label=f"stale ({data.stale_after_days}+ days)",
        )
    ax.axvline(data.stale_after_days + 1, color="#D55E00", linestyle="--", linewidth=1)
    ax.set_xscale("log")
    # Whole decades from 1 (today) past the oldest memory and the stale line, labelled as plain
    # day counts: memories of one age (a cloned dir) no longer squeeze the axis into 9.2×10¹.
    oldest = max([age + 1 for _, _, age, _ in data.timeline] + [data.stale_after_days + 1])
    ax.set_xlim(0.8, 10 ** max(1, math.ceil(math.log10(oldest * 1.05))))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _pos: f"{value:g}"))
    ax.set_yticks(range(len(data.types)), data.types)
    ax.set_xlabel("age in days + 1 (log scale)")
    ax.set_title("Timeline: each memory by age")
    if ax.get_legend_handles_labels()[0]:  # a dir with no memory has no point to name
        ax.legend(frameon=False, fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    return _svg(fig)


class FreshnessView(MemdirView):
    """How old the memories are, per type, and which ones have gone stale."""

    stale_after_days = traitlets.Int(STALE_AFTER_DAYS)
    rows: traitlets.List[rows_view.MemoryRow] = traitlets.List(
        help="every memory (view.MemoryRow), newest first"
    )
    data = traitlets.Instance(view.FreshnessData, allow_none=True)
    histogram_svg = traitlets.Unicode("")
    timeline_svg = traitlets.Unicode("")

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
        self.add_class("memdir-freshness")
        self.stale_after_days = stale_after_days
        self.threshold = classed(
            widgets.IntSlider(
                value=stale_after_days,
                min=2,
                max=730,
                description="stale after (days)",
                style={"description_width": "initial"},
                continuous_update=False,
            ),
            "memdir-freshness-threshold",
        )
        self.progress = classed(
            widgets.IntProgress(value=0, min=0, max=1, description="scan"),
            "memdir-freshness-progress",
        )
        self.histogram = classed(widgets.HTML(), "memdir-freshness-histogram")
        self.timeline = classed(widgets.HTML(), "memdir-freshness-timeline")
        self.stale_box = classed(widgets.HTML(), "memdir-freshness-stale")
        widgets.link((self, "stale_after_days"), (self.threshold, "value"))
        widgets.dlink((self, "histogram_svg"), (self.histogram, "value"))
        widgets.dlink((self, "timeline_svg"), (self.timeline, "value"))
        self.observe(lambda _c: self.refresh(), names="stale_after_days")
        self.observe(self._show_data, names="data")
        self.children = [
            widgets.HBox([self.threshold, self.progress]),
            self.histogram,
            self.timeline,
            self.stale_box,
        ]
        self.refresh()

    @property
    def stale(self) -> list[str]:
        """Filenames at or past the stale threshold, oldest first."""
        return self.data.stale if self.data else []

    def refresh(self) -> None:
        """Rescan and redraw both charts and the stale list."""

        def step(done: int, total: int) -> None:
            self.progress.max = max(total, 1)
            self.progress.value = done

        days = self.stale_after_days
        rows = rows_view.memory_rows(
            self.memory_dir, now_ms=self.now_ms(), stale_after_days=days, progress=step
        )
        with self.hold_trait_notifications():
            self.rows = rows
            self.data = view.freshness_data(rows, stale_after_days=days)

    def _show_data(self, _change: Any = None) -> None:
        data = self.data
        if data is None:
            return
        self.histogram_svg = histogram_svg(data)
        self.timeline_svg = timeline_svg(data)
        by_name = {r.filename: r for r in self.rows}
        items = "".join(
            f"<li><code>{esc(f)}</code>: {esc(by_name[f].age)}, {esc(by_name[f].description)}</li>"
            for f in data.stale
        )
        self.stale_box.value = (
            f"<p><b>{len(data.stale)} stale memories</b> ({data.stale_after_days}+ days old; recall "
            "shows them with a staleness caveat, and they are worth checking or forgetting):</p>"
            f"<ul>{items}</ul>"
        )
