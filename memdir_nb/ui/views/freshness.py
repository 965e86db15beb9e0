"""The freshness view's view-model: memories per age bin and type, and a timeline marking stale ones."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memdir_nb.spec.freshness import STALE_AFTER_DAYS, is_stale_age
from memdir_nb.spec.taxonomy import MEMORY_TYPES
from memdir_nb.ui.views.browser import MemoryRow

__all__ = ["AGE_BINS", "UNTYPED", "FreshnessData", "freshness_data"]

# (label, lowest age in days, highest age in days or None for open-ended); one bin starts at the
# stale age, so the bins from there on hold exactly the memories the stale list names.
AGE_BINS: tuple[tuple[str, int, int | None], ...] = (
    ("today", 0, 0),
    ("yesterday", 1, 1),
    ("2-7 days", 2, 7),
    ("8-30 days", 8, 30),
    (f"31-{STALE_AFTER_DAYS - 1} days", 31, STALE_AFTER_DAYS - 1),
    (f"{STALE_AFTER_DAYS}-365 days", STALE_AFTER_DAYS, 365),
    ("over a year", 366, None),
)
UNTYPED = "(no type)"


@dataclass(frozen=True)
class FreshnessData:
    """Histogram counts per age bin and type, and a timeline point per memory."""

    bins: list[str]
    types: list[str]
    counts: dict[str, list[int]]  # type -> count per bin
    timeline: list[tuple[str, str, int, bool]]  # (filename, type, age_days, stale), oldest first
    stale_after_days: int

    @property
    def stale(self) -> list[str]:
        """Filenames at or past the stale threshold, oldest first."""
        return [f for f, _, _, s in self.timeline if s]


def _bin_index(age_days: int) -> int:
    for i, (_, lo, hi) in enumerate(AGE_BINS):
        if age_days >= lo and (hi is None or age_days <= hi):
            return i
    return len(AGE_BINS) - 1


def freshness_data(
    rows: Sequence[MemoryRow], *, stale_after_days: int = STALE_AFTER_DAYS
) -> FreshnessData:
    """Count memories per age bin and type, and list each one's age, marking the stale ones."""
    types = [t.value for t in MEMORY_TYPES]
    if any(not r.type for r in rows):
        types.append(UNTYPED)
    counts = {t: [0] * len(AGE_BINS) for t in types}
    for r in rows:
        counts[r.type or UNTYPED][_bin_index(r.age_days)] += 1
    timeline = [
        (r.filename, r.type or UNTYPED, r.age_days, is_stale_age(r.age_days, stale_after_days))
        for r in sorted(rows, key=lambda r: (-r.age_days, r.filename))
    ]
    return FreshnessData(
        bins=[label for label, _, _ in AGE_BINS],
        types=types,
        counts=counts,
        timeline=timeline,
        stale_after_days=stale_after_days,
    )
