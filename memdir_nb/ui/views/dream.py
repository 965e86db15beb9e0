"""The dream planner's view-model: each gate's state and reason, whether a dream would run now,
and the restore list (applied dreams and forgotten memories) with a preview of each.

The gates themselves are decided by memdir_nb.dream; this module words its answer as rows.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memdir_nb.clock import resolve_now_ms
from memdir_nb.dream.apply import restore
from memdir_nb.dream.gates import since_text
from memdir_nb.home.config import MemdirConfig
from memdir_nb.home.paths import derived_output_problem

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.dream import GateResult
    from memdir_nb.home.gates import AutoDreamDecision

__all__ = [
    "LOCK_OPEN_STATES",
    "GateRow",
    "gate_rows",
    "nothing_to_restore",
    "plan_cache_folder",
    "restore_choices",
    "restore_preview",
    "would_run",
]

LOCK_OPEN_STATES = ("free", "stale", "dead")  # lock holder states a new dream may take over
HOUR_MS = 3_600_000


@dataclass(frozen=True)
class GateRow:
    """One gate: its name, 'open' / 'closed' / 'not checked', and why."""

    name: str  # "setting" | "time" | "sessions" | "lock"
    state: str
    why: str


def gate_rows(
    gate: GateResult | None,
    lock_status: str,
    *,
    min_hours: float,
    min_sessions: int,
    now_ms: float | None = None,
    switch: AutoDreamDecision | None = None,
) -> list[GateRow]:
    """The time, sessions and lock gates as rows; only the lock row when the gates could not be read.

    With ``switch`` (Claude Code's own setting for background consolidation) a first row says
    whether the CLI would dream at all: "closed" when it is off, "not known" when its rollout
    flag decides.
    """
    rows: list[GateRow] = []
    if switch is not None:
        state = {True: "open", False: "closed", None: "not known"}[switch.enabled]
        rows.append(GateRow("setting", state, switch.reason))
    if gate is None:
        return [*rows, GateRow("lock", "closed", lock_status)]
    last = gate.last_consolidated_ms
    if not last:
        rows.append(GateRow("time", "open", "never consolidated"))
    else:
        now = resolve_now_ms(now_ms)
        rows.append(
            GateRow(
                "time",
                "open" if (now - last) / HOUR_MS >= min_hours else "closed",
                f"last consolidation {since_text(last, now)} (needs {min_hours:g} h)",
            )
        )
    if gate.session_count is None:
        why = gate.reason if gate.gate == "sessions" else "time gate closed first"
        rows.append(GateRow("sessions", "not checked", why))
    else:
        rows.append(
            GateRow(
                "sessions",
                "open" if gate.session_count >= min_sessions else "closed",
                f"{gate.session_count} session(s) since then (needs {min_sessions})",
            )
        )
    rows.append(
        GateRow(
            "lock",
            "open" if lock_status in LOCK_OPEN_STATES else "closed",
            f"consolidation lock is {lock_status}",
        )
    )
    return rows


def would_run(
    gate: GateResult | None, lock_status: str, switch: AutoDreamDecision | None = None
) -> bool:
    """True when every gate is open and the lock could be taken, so a dream would start now.

    A switch that is off (autoDreamEnabled false, auto memory off, KAIROS or a remote session)
    stops it; one its rollout flag decides does not, since that cannot be known here.
    """
    if switch is not None and switch.enabled is False:
        return False
    return gate is not None and gate.open and lock_status in LOCK_OPEN_STATES


def plan_cache_folder(
    memory_dir: str | os.PathLike[str], config: MemdirConfig | None
) -> tuple[Path | None, str | None]:
    """Where the planner keeps a plan's derived work: the config's cache root, or None and why.

    The cache root is kept out of memory dirs, but a home that is itself inside the dir being
    planned (a Claude home kept in a project's memory, a test's HOME) puts the default there,
    and plan_consolidation refuses such a folder. The plan is the same without its cache, so
    the planner then plans without one and says so, instead of failing (the lead, at bounds37's
    merge: the markup-route tests' DreamPlanner showed only "Planning failed")."""
    folder = (config or MemdirConfig.from_environment()).cache_root()
    why = derived_output_problem(folder, config, memory_dirs=(os.fspath(memory_dir),))
    if why is None:
        return folder, None
    return None, f"the plan's cache was not used: {folder} {why}"


FORGOTTEN_LABEL = " (forgotten)"


def restore_choices(dreams: list[str], forgotten: list[str]) -> list[tuple[str, str]]:
    """The restore list's (label, name) pairs: the applied dreams, newest first, then the
    memories forget moved to .trash, newest first, labelled as such (restore takes the name)."""
    return [(d, d) for d in reversed(dreams)] + [(f + FORGOTTEN_LABEL, f) for f in forgotten]


def nothing_to_restore(has_choices: bool, forgotten: bool) -> str:
    """The status when Restore is clicked with nothing chosen in the list."""
    what = "no dream or forgotten memory" if forgotten else "no dream"
    if has_choices:
        return f"Nothing to restore: {what} is selected; pick one in the list, then Restore."
    return "Nothing to restore: no dream has been applied and no memory forgotten in this dir."


def restore_preview(memory_dir: str | os.PathLike[str], name: str | None) -> str:
    """What restoring name would put back (restore's dry run: nothing is written), or why it
    cannot be; '' when nothing is chosen."""
    if not name:
        return ""
    try:
        files = restore(memory_dir, name, dry_run=True)
    except (OSError, ValueError) as why:  # RestoreError is a ValueError
        return f"{name} cannot be restored: {why}"
    return f"Restoring {name} would put back {len(files)} file(s): {', '.join(files) or 'none'}."
