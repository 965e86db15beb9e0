"""The demo's vocabulary: its marker, errors, memory and quirk types, quirks, queries and clock."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from memdir_nb.clock import now_ms_problem, system_clock_ms
from memdir_nb.spec.constants import ENTRYPOINT_NAME, TEAM_DIRNAME
from memdir_nb.spec.dates import utc_date
from memdir_nb.spec.taxonomy import MemoryType, Scope, scope_of_path

DAY_MS = 86_400_000
# Every memory's mtime sits two hours past a whole number of days, so the floor of its age in
# days does not flip if a notebook runs a little after the demo was built.
MTIME_OFFSET_MS = 2 * 3_600_000
MARKER_NAME = ".memdir-nb-demo"
MARKER_TEXT = (
    "This folder is the memdir_nb demo memory dir, built by memdir_nb.ui.demo.\n"
    "It holds fictional memories only; build_demo_memory_dir(..., overwrite=True) may replace it.\n"
)
# The demo is built as of this fixed moment (2026-06-01T12:00Z) wherever reproducible output is
# wanted: the notebooks pass it as `now`, so their stored outputs hold on any day and machine.
# Noon UTC is the same calendar date in every time zone from UTC-11 to UTC+11.
DEMO_NOW_MS = float(_dt.datetime(2026, 6, 1, 12, 0, tzinfo=_dt.UTC).timestamp() * 1000)
# Age (days) of the pasted planning-call notes in team/MEMORY.md.
TEAM_NOTES_AGE_DAYS = 3


class DemoDirError(ValueError):
    """The demo cannot be built at the requested target (it would clobber real data)."""


class DemoDirExistsError(DemoDirError):
    """The target already holds a demo dir and overwrite was not asked for."""

    def __init__(self, target: Path) -> None:
        super().__init__(
            f"{target} already holds a demo memory dir; pass overwrite=True to rebuild it, "
            "or choose a new directory"
        )
        self.target = target


@dataclass(frozen=True)
class DemoMemory:
    """One memory in the demo: where it lives, its frontmatter, its age and its body."""

    path: str  # relative to the memory dir, '/'-separated, e.g. "team/project_x.md"
    name: str
    description: str
    type: MemoryType
    age_days: int
    body: str
    in_index: bool = True  # False for the file a user saved by hand and never indexed
    malformed: bool = False  # True for the file whose frontmatter strict YAML rejects

    @property
    def scope(self) -> Scope:
        """'team' for files under team/, else 'private'."""
        return scope_of_path(self.path)

    @property
    def filename(self) -> str:
        """The file name inside its scope folder (what its MEMORY.md links to)."""
        return self.path.rsplit("/", 1)[-1]

    def mtime_ms(self, now_ms: float) -> float:
        """The file's mtime in the demo built at now_ms."""
        return mtime_for_age(self.age_days, now_ms)


@dataclass(frozen=True)
class DemoQuirk:
    """A deliberate imperfection: which files carry it and what a checker should notice."""

    paths: tuple[str, ...]  # relative to the memory dir
    what: str


DEMO_QUIRKS: Mapping[str, DemoQuirk] = MappingProxyType(
    {
        "malformed_frontmatter": DemoQuirk(
            ("team/reference_release_steps.md",),
            "description has unquoted colons, so strict YAML rejects the header; "
            "the scanner recovers it line by line and flags it malformed",
        ),
        "relative_date": DemoQuirk(
            ("project_insurer_demo.md",),
            "a project memory still says 'next Thursday' instead of an absolute date",
        ),
        "derivable_content": DemoQuirk(
            ("reference_forecast_cache_ttl.md",),
            "records a source file path with a line number, which the code already tells you",
        ),
        "near_duplicate": DemoQuirk(
            ("feedback_no_recap.md", "feedback_no_summary_after_diff.md"),
            "two private feedback memories saying the same thing, saved weeks apart",
        ),
        "dangling_index_entry": DemoQuirk(
            (ENTRYPOINT_NAME, "user_old_laptop.md"),
            "the private index links user_old_laptop.md, which no longer exists",
        ),
        "missing_from_index": DemoQuirk(
            ("user_colour_vision.md",),
            "a private memory file that MEMORY.md does not list",
        ),
        "vague_description": DemoQuirk(
            ("reference_misc.md",),
            "description is just 'misc notes', useless for recall",
        ),
        "oversized_index": DemoQuirk(
            (f"{TEAM_DIRNAME}/{ENTRYPOINT_NAME}",),
            "a teammate pasted a whole call transcript into the team index: "
            "over 200 lines and over 25,000 bytes",
        ),
        "stale_project": DemoQuirk(
            ("team/project_availability_okr.md",),
            "a project goal saved over a year ago that may no longer hold",
        ),
    }
)

# Queries for the recall playground, each with the memory that should clearly answer it.
DEMO_QUERIES: Mapping[str, str] = MappingProxyType(
    {
        "how do we deploy to production": "team/reference_deploy_runbook.md",
        "write tests for the billing service": "team/feedback_billing_tests.md",
        "who is on call this week": "team/reference_oncall.md",
        "where are the API latency dashboards": "team/reference_latency_dashboards.md",
        "is there a merge freeze coming up": "team/project_merge_freeze.md",
        "which colours should this chart use": "user_colour_vision.md",
    }
)

DANGLING_INDEX_TARGET = "user_old_laptop.md"
DANGLING_INDEX_AFTER = "user_editor_shell.md"  # the dangling line sits right after this entry


def demo_clock(now_ms: float | None) -> float:
    """now_ms as a float, or the wall clock; rejects what the clock's rule refuses."""
    if now_ms is None:
        return system_clock_ms()
    problem = now_ms_problem(now_ms)
    if problem is not None:
        raise ValueError(f"now_ms {problem}, or None for the current time")
    return float(now_ms)


def mtime_for_age(age_days: int, now_ms: float) -> float:
    """The mtime (ms) a demo file of this age gets: age whole days plus two hours ago."""
    return now_ms - age_days * DAY_MS - MTIME_OFFSET_MS


DateFn = Callable[[int], str]  # a day offset from today -> ISO date


def date_fn(now_ms: float) -> DateFn:
    """A helper that turns a day offset from today into an ISO date string.

    "Today" is the UTC date of now_ms, so the memories say the same dates in every time zone
    (DEMO_NOW_MS, noon UTC, is already the next day in New Zealand) and the notebooks' stored
    outputs hold there too. The demo's daily log is named by the UTC day as well (fresh38).
    """
    today = utc_date(now_ms)

    def d(offset_days: int) -> str:
        return (today + _dt.timedelta(days=offset_days)).isoformat()

    return d
