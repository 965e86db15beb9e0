"""What a notebook needs to know about the memory dir it opened, so its narration can adapt.

Every notebook opens the bundled demo unless MEMDIR_NB_DIR (or its parameters cell) names a
real dir. A real dir may be private-only, team-only, empty, without an index, or hold
hundreds of files; the demo-only examples (the demo's own file names and planted problems)
make sense only on the demo. `open_notebook_dir` says which dir was opened and what is in it;
`DirProfile.demo_only` and `DirProfile.nothing_to_show` print why a step shows nothing.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memdir_nb.clock import resolve_now_ms
from memdir_nb.formats.names import name_encoding_problem
from memdir_nb.home.config import MemdirConfig
from memdir_nb.spec.calendar_days import set_day_zone
from memdir_nb.spec.constants import (
    ENTRYPOINT_NAME,
    MAX_MEMORY_FILES,
    TEAM_DIRNAME,
)
from memdir_nb.spec.taxonomy import Scope, scope_of_path
from memdir_nb.spec.text import plural, terminal_line
from memdir_nb.storage.agent_root_index import unloaded_agent_index
from memdir_nb.storage.index_files import read_entrypoint
from memdir_nb.storage.listing import list_daily_logs, list_memory_files
from memdir_nb.storage.scan import ScanReport
from memdir_nb.ui.demo import notebook_memory_dir
from memdir_nb.ui.demo.build import demo_built_at_ms
from memdir_nb.ui.nbhome import memory_dirs_named
from memdir_nb.ui.views import is_demo_dir
from memdir_nb.ui.views.common import index_title
from memdir_nb.ui.views.freshness import UNTYPED

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


@dataclass(frozen=True)
class ScopeIndexText:
    """One scope's MEMORY.md as a notebook shows it: where it is and its text (None: no file)."""

    scope: Scope
    folder: Path
    text: str | None


@dataclass(frozen=True)
class DirProfile:
    """The shape of one memory dir: counts per scope, which indexes exist, and hints."""

    path: Path
    is_demo: bool
    private_files: int
    team_files: int
    has_team_dir: bool
    private_index: bool
    team_index: bool
    log_files: int
    ignored: tuple[str, ...]
    hints: tuple[str, ...]
    # "Now" for everything the notebook computes about this dir: the moment a demo dir was
    # built as of (fixed, so stored outputs reproduce on any day), else the clock at opening.
    now_ms: float
    # The dir was named (MEMDIR_NB_DIR, the parameters cell), not built fresh by the notebook.
    named: bool = False

    @property
    def label(self) -> str:
        """How notebooks name the dir, on one line (a newline in it is escaped, as every line
        the package prints is): 'the bundled demo dir' for the demo the notebook built itself
        (a fresh temp folder, whose path would differ on each run); else its path, followed for
        a demo dir someone named (`make lab`'s demo_memory/, a copy: the demo marker tells it)
        by that it is the demo. They chose that path, and the sweep over dirs checks that the
        dir opened is named (lefts40)."""
        if self.is_demo and not self.named:
            return "the bundled demo dir"
        return terminal_line(self.path) + (" (the bundled demo)" if self.is_demo else "")

    @property
    def total_files(self) -> int:
        """Memory files in both scopes."""
        return self.private_files + self.team_files

    @property
    def markdown_files(self) -> int:
        """The Markdown files the dir's routes read: its memories (the listing's rule, so never
        `.trash/`, a folder link out or a repository file), its indexes and its daily logs."""
        return self.total_files + self.private_index + self.team_index + self.log_files

    @property
    def team_folder(self) -> Path:
        """Where team memory lives (it may not exist)."""
        return self.path / TEAM_DIRNAME

    def summary(self) -> str:
        """One line: what the dir holds."""

        parts = [
            plural(self.private_files, "private memory", "private memories"),
            plural(self.team_files, "team memory", "team memories")
            if self.has_team_dir
            else "no team/ folder",
            "private index: " + (ENTRYPOINT_NAME if self.private_index else "none"),
        ]
        if self.has_team_dir:
            parts.append("team index: " + (index_title("team") if self.team_index else "none"))
        if self.log_files:
            parts.append(f"daily log files: {self.log_files} (not scanned)")
        return ", ".join(parts)

    def demo_only(self, what: str) -> bool:
        """True on the demo; elsewhere print why a demo-only example is skipped and return False."""
        if self.is_demo:
            return True
        print(
            f"Skipped on {terminal_line(self.path)}: {what} uses files that only the bundled demo dir has. "
            "Unset MEMDIR_NB_DIR (or MEMORY_DIR) to see it."
        )
        return False

    def nothing_to_show(self, what: str, why: str) -> None:
        """Print that a step has nothing to show on this dir, and why."""
        print(terminal_line(f"Nothing to show for {what} on {self.path}: {why}."))

    def index_texts(self) -> list[ScopeIndexText]:
        """Each scope's MEMORY.md text (None when the file is missing); team only if team/ exists."""

        out = [
            ScopeIndexText(
                "private", self.path, read_entrypoint(self.path) if self.private_index else None
            )
        ]
        if self.has_team_dir:
            out.append(
                ScopeIndexText(
                    "team",
                    self.team_folder,
                    read_entrypoint(self.team_folder) if self.team_index else None,
                )
            )
        return out


def _hints(path: Path, total: int, config: MemdirConfig | None) -> tuple[str, ...]:
    """Advice for a dir that is probably not the memory dir the user meant."""
    hints = []
    project_local = path / ".claude" / "memory"
    if total == 0 and project_local.is_dir():
        hints.append(
            f"this looks like a project folder: its memory dir is {project_local}; "
            "point MEMDIR_NB_DIR there"
        )
    if total == 0 and (path / "memory").is_dir() and (path / "memory" / ENTRYPOINT_NAME).exists():
        hints.append(f"the memories are probably in {path / 'memory'}")
    unloaded = unloaded_agent_index(path)
    if unloaded is not None:  # an agent memory root: its own index reaches no agent
        hints.append(f"{unloaded.problem}; {unloaded.fix}")
    if total == 0 and not hints:  # a home folder, or a Claude home (~/.claude, ~/.config/claude)
        dirs = memory_dirs_named(path, config=config)
        if dirs:
            shown = ", ".join(map(str, dirs[:3]))
            more = f" and {len(dirs) - 3} more" if len(dirs) > 3 else ""
            hints.append(
                f"this folder holds a Claude home; its memory dirs are {shown}{more}; "
                "point MEMDIR_NB_DIR (or the notebook's MEMORY_DIR) at one"
            )
    return tuple(hints)


def profile_dir(
    memory_dir: str | os.PathLike[str],
    *,
    now_ms: float | None = None,
    config: MemdirConfig | None = None,
) -> DirProfile:
    """Count what a memory dir holds, per scope, without reading any file's content.

    now_ms, when not given, is the demo's build moment for a demo dir, else the wall clock.
    config (default: the environment's) says whose home ``~`` is, for the hint that lists the
    memory dirs of a home folder or Claude home opened by mistake (ui.nbhome).
    """

    path = Path(memory_dir)
    if now_ms is None:
        now_ms = demo_built_at_ms(path) if is_demo_dir(path) else None
    now = resolve_now_ms(now_ms)
    team = path / TEAM_DIRNAME
    # One listing of the whole dir: a team/ (or any folder) that is a symlink is not followed,
    # so nothing outside the dir is counted or read
    listing = list_memory_files(path)
    team_files = sum(1 for f in listing.files if scope_of_path(f.rel) == "team")
    private = len(listing.files) - team_files
    log_files = len(list_daily_logs(path))
    ignored = tuple(listing.ignored)
    return DirProfile(
        path=path,
        is_demo=is_demo_dir(path),
        private_files=private,
        team_files=team_files,
        has_team_dir=team.is_dir() and not team.is_symlink(),
        private_index=(path / ENTRYPOINT_NAME).is_file(),
        team_index=team.is_dir() and not team.is_symlink() and (team / ENTRYPOINT_NAME).is_file(),
        log_files=log_files,
        ignored=ignored,
        # Counted as this Python reads names: when it misreads them (not UTF-8), say so first
        hints=(
            *filter(None, [name_encoding_problem()]),
            *_hints(path, private + team_files, config),
        ),
        now_ms=now,
    )


# The day zone before hold_demo_zone set UTC: [] while none is held, else [that zone, None for
# the machine's own]. A list, so hold_demo_zone changes no module global binding.
_ZONE_BEFORE_DEMO: list[_dt.tzinfo | None] = []


def hold_demo_zone(is_demo: bool) -> None:
    """Count the demo's days in UTC, and any other dir's in the zone counted in before again.

    The demo is a fixed moment (DEMO_NOW_MS, noon UTC) whose memories are dated by the UTC day
    (ui.demo.model.date_fn); its daily logs and the dream's absolute dates follow the local
    day, as Claude Code's do. East of UTC+12 (New Zealand, Kiritimati) that day is the next
    one, so notebook 07 named other log files and turned "next Thursday" into a date a week
    later; nbval's date substitution hid it (fresh38). On the demo local days are counted in
    UTC (spec.calendar_days.set_day_zone, the one setting for it; the process's TZ is left
    alone, lefts39); a real dir opened after it in the same kernel gets the zone back. Asking
    twice for the same thing changes nothing.
    """
    if is_demo and not _ZONE_BEFORE_DEMO:
        _ZONE_BEFORE_DEMO.append(set_day_zone(_dt.UTC))
    elif not is_demo and _ZONE_BEFORE_DEMO:
        set_day_zone(_ZONE_BEFORE_DEMO.pop())


def open_notebook_dir(
    chosen: str | os.PathLike[str] | None = None,
    *,
    config: MemdirConfig | None = None,
    now_ms: float | None = None,
) -> DirProfile:
    """Open the notebook's memory dir (chosen, else MEMDIR_NB_DIR, else a fresh demo) and say which.

    A fresh demo is built as of now_ms (default: the fixed DEMO_NOW_MS); the profile's now_ms
    is what the notebook passes on as `now`, so its outputs reproduce on any day, and the
    demo is read in UTC (hold_demo_zone), so they reproduce in any zone.
    """

    path = notebook_memory_dir(chosen, config=config, now_ms=now_ms)
    named = bool(chosen or (config or MemdirConfig.from_environment()).demo_dir)
    profile = dataclasses.replace(profile_dir(path, now_ms=now_ms, config=config), named=named)
    hold_demo_zone(profile.is_demo)
    print("opened", profile.label)
    print("  " + profile.summary())
    if profile.ignored:
        print(terminal_line(f"  not memories (repository files): {', '.join(profile.ignored)}"))
    for hint in profile.hints:
        print(terminal_line(f"  note: {hint}"))
    if not profile.is_demo and profile.total_files == 0:
        print(
            "  this dir holds no memories yet, so most steps below will say what they would "
            "show and why there is nothing"
        )
    return profile


def scan_count_line(report: ScanReport) -> str:
    """How many memories a scan listed; past the scan's cap, also how many it found.

    The scan keeps the newest MAX_MEMORY_FILES files (as Claude Code does), so on a big dir
    "200 memories" is the cap speaking, not the size of the dir.
    """
    listed = len(report.headers)
    # A file skipped at its read is counted in total_found too: it is no memory past the cap
    # (named among the skips instead; fresh32).
    not_read = (
        f"; {plural(report.read_skips, 'file')} could not be read" if report.read_skips else ""
    )
    if report.past_cap:
        return (
            f"{listed} memories listed: the newest {listed} of {report.total_found} found "
            f"(the scan keeps at most {MAX_MEMORY_FILES}){not_read}"
        )
    if not_read:
        return plural(listed, "memory") + " listed" + not_read
    return plural(listed, "memory") + " in all"


def type_scope_table(df: pd.DataFrame) -> pd.DataFrame:
    """Memories per type (rows) and scope (columns) with totals, from `to_dataframe`'s frame.

    A memory with no type is counted on a `(no type)` row: a plain crosstab drops it, and
    its totals then disagree with the number of memories printed just above it.
    """
    import pandas as pd

    return pd.crosstab(df["type"].fillna(UNTYPED), df["scope"], margins=True)


def text_bars(counts: Mapping[str, int], *, width: int = 40) -> list[str]:
    """One line per count, `label  n  ####`: one # per item, no bar wider than `width`.

    When the largest count is over `width`, every bar is scaled down by the same factor (a
    dir of 330 files would otherwise print a 330-character bar that wraps across the page);
    a count above zero always keeps at least one #.
    """
    largest = max(counts.values(), default=0)
    scale = min(1.0, width / largest) if largest else 1.0
    label_width = max((len(label) for label in counts), default=0)
    lines = []
    for label, n in counts.items():
        bar = max(1 if n else 0, round(n * scale))
        lines.append(f"{label:>{label_width}}  {n:3d}  " + "#" * bar)
    return lines


def figure_image(fig: object, *, dpi: int = 100) -> object:
    """A matplotlib figure as an IPython PNG image, so it draws whatever backend is active.

    Under the Agg backend (set so notebooks run headless) a bare Figure displays as its repr;
    the PNG always renders, in Jupyter, Voila and nbconvert alike. The figure is closed.
    """
    import io

    import matplotlib.pyplot as plt
    from IPython.display import Image

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)  # type: ignore[attr-defined]
    plt.close(fig)  # type: ignore[arg-type]
    return Image(data=buf.getvalue(), format="png")  # type: ignore[no-untyped-call]  # IPython is untyped
