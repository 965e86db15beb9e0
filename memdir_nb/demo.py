"""Build the bundled demo memory dir: one engineer's lived-in memory at a weather-API startup.

The demo is the embedded default that notebooks, the dashboard and the Binder demo open when
no real memory dir is named. Its company (Isobar Labs, a small forecast and climate-data API
startup) and people are fictional. Every date and file time derives from `now_ms`, so
"47 days ago" reads the same on every run and the same `now_ms` gives byte-identical files.

It carries a few deliberate imperfections (see `DEMO_QUIRKS`) for the lint and consolidation
demos, plus an oversized team index that trips both MEMORY.md caps.
"""

from __future__ import annotations

import datetime as _dt
import math
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from memdir_nb.config import MemdirConfig, system_clock_ms
from memdir_nb.constants import DAILY_LOG_LOCK_NAME, ENTRYPOINT_NAME, LOGS_DIRNAME, TEAM_DIRNAME
from memdir_nb.dates import local_date
from memdir_nb.frontmatter import render_memory_file
from memdir_nb.index import format_index_entry
from memdir_nb.kairos import append_daily_log
from memdir_nb.types import MemoryType, Scope, scope_of_path

DAY_MS = 86_400_000
# Every memory's mtime sits two hours past a whole number of days, so the floor of its age in
# days does not flip if a notebook runs a little after the demo was built.
MTIME_OFFSET_MS = 2 * 3_600_000
MARKER_NAME = ".memdir-nb-demo"
MARKER_TEXT = (
    "This folder is the memdir_nb demo memory dir, built by memdir_nb.demo.\n"
    "It holds fictional memories only; build_demo_memory_dir(..., overwrite=True) may replace it.\n"
)
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


def _clock(now_ms: float | None) -> float:
    """now_ms as a float, or the wall clock; rejects values that are not finite numbers."""
    if now_ms is None:
        return system_clock_ms()
    if (
        isinstance(now_ms, bool)
        or not isinstance(now_ms, (int, float))
        or not math.isfinite(now_ms)
    ):
        raise ValueError(
            f"now_ms must be a finite number of milliseconds since the epoch, got {now_ms!r}; "
            "pass e.g. time.time() * 1000, or None for the current time"
        )
    return float(now_ms)


def mtime_for_age(age_days: int, now_ms: float) -> float:
    """The mtime (ms) a demo file of this age gets: age whole days plus two hours ago."""
    return now_ms - age_days * DAY_MS - MTIME_OFFSET_MS


def _date_fn(now_ms: float) -> Callable[[int], str]:
    """A helper that turns a day offset from today into an ISO date string."""
    today = local_date(now_ms)

    def d(offset_days: int) -> str:
        return (today + _dt.timedelta(days=offset_days)).isoformat()

    return d


def demo_memories(now_ms: float | None = None) -> tuple[DemoMemory, ...]:
    """Every memory in the demo, with its dates filled in relative to now_ms."""
    now = _clock(now_ms)
    d = _date_fn(now)
    U, F, P, R = MemoryType.USER, MemoryType.FEEDBACK, MemoryType.PROJECT, MemoryType.REFERENCE
    m = DemoMemory
    return (
        # ---- user (always private) ----
        m(
            "user_role.md",
            "Role at Isobar Labs",
            "User is a backend engineer on Isobar's Forecast API team: strong Python and Postgres, "
            "new to the Rust ingest workers",
            U,
            430,
            "Noor Haddad, backend engineer on the Forecast API team at Isobar Labs since "
            f"{d(-430)}.\nOwns the public REST API (FastAPI) and its Postgres/TimescaleDB storage.\n"
            "Has read but never written the Rust ingest workers; explain ownership and async Rust "
            "when we touch them.",
        ),
        m(
            "user_meteorology_background.md",
            "Meteorology background",
            "User holds an MSc in atmospheric science: skip explaining GRIB, reanalysis or "
            "ensembles, but do explain CSS and frontend build tooling",
            U,
            400,
            "Noor studied atmospheric science before moving into software.\nGRIB2, NetCDF, ERA5 "
            "reanalysis, ensemble spreads and forecast skill scores need no introduction.\n"
            "Frontend work (React, CSS, Vite) is unfamiliar territory: spell those parts out.",
        ),
        m(
            "user_working_hours.md",
            "Working hours and time zone",
            "User works from Montréal (Eastern time), core hours 10:00-18:00, no meetings before 10",
            U,
            200,
            "Noor is in Montréal (America/Toronto time zone).\nCore hours 10:00-18:00 local; keeps "
            "mornings before 10 for focused work.\nWhen suggesting a time to meet Bram (Rotterdam), "
            "give it in both zones.",
        ),
        m(
            "user_languages.md",
            "Languages",
            "User reads and writes English and French; all code, commits and docs stay in English",
            U,
            200,
            "Noor is fluent in English and French.\nRepository text (code, commit messages, docs, "
            "PR descriptions) is English by team rule; French is fine in chat if Noor starts it.",
        ),
        m(
            "user_editor_shell.md",
            "Editor and shell",
            "User edits in Emacs (eglot + pyright) under zsh; give shell commands, not IDE menu paths",
            U,
            90,
            "Noor uses Emacs with eglot (pyright for Python, rust-analyzer for Rust) and zsh.\n"
            "Suggest commands to run in a terminal rather than steps in an IDE's menus.",
        ),
        m(
            "user_colour_vision.md",
            "Colour vision",
            "User has deuteranopia (red-green colour blindness): charts need a colour-blind-safe "
            "palette or line styles",
            U,
            1,
            "Noor mentioned red/green chart colours are indistinguishable for them.\nUse viridis "
            "or cividis, or vary line style and markers, whenever we draw a chart or dashboard.",
            in_index=False,
        ),
        m(
            "user_oncall_rotation.md",
            "User's on-call duty",
            "User is in the Forecast API primary on-call rotation one week in five; when paged "
            "wants the runbook link first, explanation after",
            U,
            30,
            "Noor joined the primary on-call rotation for the Forecast API.\nDuring an incident, "
            "lead with the relevant runbook link and the exact command; background can follow.",
        ),
        m(
            "user_rust_learning.md",
            "Learning Rust",
            "User is learning Rust through the ingest workers; welcomes short notes on borrowing "
            "and lifetimes as they come up",
            U,
            47,
            "Noor is working through the Rust book alongside real tickets in the ingest workers.\n"
            "A sentence of explanation about borrowing, lifetimes or error handling with `?` "
            "helps; a tutorial does not.",
        ),
        m(
            "user_v3_goal.md",
            "Goal: lead the v3 API design",
            "User wants to own the v3 API design (pagination, units, errors) as a step toward a "
            "staff role",
            U,
            12,
            "Noor asked Jonah (CTO) to own the v3 API design and got a yes.\nVisible authorship "
            "matters here: draft design docs under Noor's name, and keep decision records tidy.",
        ),
        # ---- feedback, private ----
        m(
            "feedback_no_recap.md",
            "No recap after a diff",
            "Don't end a reply with a summary of the diff the user just saw",
            F,
            47,
            "After showing a change, stop. Do not add a paragraph restating what the diff does.\n\n"
            "**Why:** Noor reads every diff anyway; the recap doubles the length of the reply.\n\n"
            "**How to apply:** End with the diff or with one line on what is left to do, nothing "
            "more.",
        ),
        m(
            "feedback_no_summary_after_diff.md",
            "No summary after a diff",
            "Don't close a reply with a summary of the diff the user already saw",
            F,
            5,
            "Noor said again: no closing summary after a diff.\n\n"
            "**Why:** the summary repeats what the diff already shows and buries the open "
            "questions.\n\n"
            "**How to apply:** stop after the diff; if something needs a decision, ask it in one "
            "line.",
        ),
        m(
            "feedback_small_prs.md",
            "Keep pull requests small",
            "Split work into small PRs (under ~400 changed lines) that each pass CI on their own",
            F,
            90,
            "Prefer a stack of small PRs over one large one.\n\n"
            "**Why:** reviews on the Forecast API team stall on big diffs; two 1,500-line PRs sat "
            "for a week last spring.\n\n"
            "**How to apply:** propose a split before writing code when a change will pass ~400 "
            "lines; each PR must build and pass tests alone.",
        ),
        m(
            "feedback_ask_before_migrations.md",
            "Ask before running migrations",
            "Always ask before running a database migration, even against the shared dev database",
            F,
            30,
            "Never run `alembic upgrade` (or any schema change) without asking first.\n\n"
            "**Why:** the dev database is shared by five people and a half-applied migration "
            f"blocked the whole team on {d(-31)}.\n\n"
            "**How to apply:** show the migration and the command, then wait for a go-ahead; "
            "local throwaway containers are fine without asking.",
        ),
        m(
            "feedback_state_units.md",
            "State units in API examples",
            "Every API example and doc snippet states its units (mm, °C, m/s, hPa) explicitly",
            F,
            12,
            "Write units next to every number in examples: `precipitation_mm`, `temp_c`, "
            "`wind_speed_ms`.\n\n"
            "**Why:** customers mixed up kg/m² and mm, and a support ticket traced back to an "
            "example in our docs that had no units.\n\n"
            "**How to apply:** in code samples, responses and docs, never leave a bare number for "
            "a physical quantity.",
        ),
        m(
            "feedback_pytest_style.md",
            "Plain pytest style",
            "Write tests as plain pytest functions with fixtures, not unittest.TestCase classes",
            F,
            200,
            "Use module-level test functions and fixtures; parametrize instead of loops.\n\n"
            "**Why:** the repo standardised on pytest in the big test clean-up, and mixed styles "
            "confuse fixture scope.\n\n"
            "**How to apply:** new tests follow this; do not convert old TestCase files unless "
            "already editing them.",
        ),
        m(
            "feedback_bundled_refactor_ok.md",
            "One PR was right for the cache refactor",
            "Confirmed: for the forecast-cache refactor a single bundled PR was the right call, "
            "not a stack",
            F,
            2,
            "Noor agreed the forecast-cache refactor should land as one PR even though it was "
            "~900 lines.\n\n"
            "**Why:** the old and new cache cannot coexist; any split would leave main broken in "
            "between.\n\n"
            "**How to apply:** the small-PR rule yields when the pieces cannot stand alone; say so "
            "up front instead of splitting artificially.",
        ),
        # ---- project, private ----
        m(
            "project_v3_pagination_doc.md",
            "v3 pagination design doc",
            f"User owns the v3 cursor-pagination design doc; review with Keiko on {d(6)}",
            P,
            0,
            f"Noor is writing the v3 cursor-pagination design doc; review with Keiko on {d(6)}.\n\n"
            "**Why:** offset pagination over the observations table times out past page 200 and "
            "breaks when late data arrives.\n\n"
            "**How to apply:** suggestions for list endpoints should use signed opaque cursors; "
            f"keep the doc's open questions current before {d(6)}.",
        ),
        m(
            "project_insurer_demo.md",
            "Insurer demo of the v3 API",
            "Live demo of the v3 API for Northgate Mutual (the insurer pilot) next Thursday",
            P,
            5,
            "Keiko booked a live demo of the v3 API for Northgate Mutual next Thursday.\n\n"
            "**Why:** Northgate's pilot decides whether they sign the annual contract that funds "
            "the v3 launch.\n\n"
            "**How to apply:** keep the staging v3 endpoints stable that week and prepare the "
            "hail-risk example queries.",
        ),
        # ---- reference, private ----
        m(
            "reference_copernicus_cds.md",
            "Copernicus CDS account",
            "Copernicus Climate Data Store (CDS) API docs and the quota page for ERA5 downloads",
            R,
            47,
            "ERA5 downloads go through the Copernicus Climate Data Store API under the team "
            "account.\nQuota and queue status: the CDS 'Your requests' page; the API key lives "
            "in 1Password, vault 'Data vendors'.",
        ),
        m(
            "reference_forecast_cache_ttl.md",
            "Forecast cache TTL location",
            "Forecast cache TTL is set in services/forecast/cache.py line 142 "
            "(FORECAST_TTL_SECONDS = 900)",
            R,
            30,
            "The TTL for cached forecast responses is in services/forecast/cache.py:142, "
            "`FORECAST_TTL_SECONDS = 900`.\nThe eviction hook is a few lines below it.",
        ),
        m(
            "reference_misc.md",
            "Misc",
            "misc notes",
            R,
            200,
            "- NOAA GFS mirror we use: the AWS open-data bucket, not NOMADS.\n"
            "- Keiko's roadmap board is the Linear view 'Forecast API roadmap'.\n"
            "- The old ingest cron host was retired; anything about it is history.",
        ),
        # ---- feedback, team conventions ----
        m(
            "team/feedback_billing_tests.md",
            "Testing the billing service",
            "How to write tests for the billing service (billing-svc): real Postgres plus Stripe "
            "test clocks, never a mocked usage meter",
            F,
            30,
            "billing-svc tests run against a real Postgres container and Stripe test mode with "
            "test clocks; the usage meter is never mocked.\n\n"
            "**Why:** a mocked meter hid a double-count bug in proration that overbilled three "
            f"customers in the {d(-60)} invoice run.\n\n"
            "**How to apply:** use the `stripe_test_clock` and `pg_container` fixtures from "
            "billing-svc's conftest; advance the clock instead of sleeping.",
        ),
        m(
            "team/feedback_commit_messages.md",
            "Commit message convention",
            "Commits use Conventional Commits with the Linear ticket id, e.g. "
            "'fix(api): clamp wind gusts (FCST-412)'",
            F,
            200,
            "Every commit message is Conventional Commits style and ends with the Linear ticket "
            "id in parentheses.\n\n"
            "**Why:** the changelog and release notes are generated from commit messages.\n\n"
            "**How to apply:** type(scope): summary (TICKET); use 'chore' when there is no ticket.",
        ),
        m(
            "team/feedback_feature_flags.md",
            "New API behaviour behind flags",
            "Any change in public API behaviour ships behind an Unleash feature flag, default off",
            F,
            90,
            "Changes customers can observe (response fields, defaults, rounding) go behind an "
            "Unleash flag that starts off.\n\n"
            "**Why:** enterprise customers pin behaviour and need notice; flags let support turn "
            "a change off per customer.\n\n"
            "**How to apply:** name flags api.<area>.<change>; remove the flag within two "
            "releases of full rollout.",
        ),
        # ---- project, team ----
        m(
            "team/project_merge_freeze.md",
            "Merge freeze for the v3 launch",
            f"Merge freeze on the forecast-api repo from {d(9)} to {d(16)} for the v3 launch",
            P,
            2,
            f"No merges to forecast-api main from {d(9)} through {d(16)}, except fixes approved "
            "in #forecast-release.\n\n"
            "**Why:** the v3 launch cut happens in that window and release engineering needs a "
            "quiet main to bisect.\n\n"
            f"**How to apply:** land non-urgent work before {d(9)}; flag anything that would "
            "merge during the freeze.",
        ),
        m(
            "team/project_v3_launch.md",
            "v3 API launch",
            f"v3 of the public Forecast API launches on {d(23)}; driven by the Northgate Mutual "
            "pilot contract",
            P,
            5,
            f"v3 goes public on {d(23)}: cursor pagination, explicit units and structured errors.\n\n"
            "**Why:** the Northgate Mutual contract requires v3 features, and sales promised the "
            "date.\n\n"
            "**How to apply:** prioritise v3 tickets over v2 polish; anything that risks the date "
            "goes to Keiko first.",
        ),
        m(
            "team/project_billing_metering.md",
            "Usage-based billing migration",
            f"Billing moves from flat plans to usage-based metering in Stripe by {d(40)}, as "
            "finance requires for the quarter close",
            P,
            12,
            f"billing-svc switches every plan to metered usage in Stripe by {d(40)}.\n\n"
            "**Why:** finance needs usage revenue reported from the next quarter close, and flat "
            "plans undercharge the heaviest API users.\n\n"
            "**How to apply:** new endpoints must emit usage events; billing changes need a "
            "test-clock test (see the billing testing convention).",
        ),
        m(
            "team/project_era5_backfill.md",
            "ERA5 backfill in progress",
            f"ERA5 reanalysis backfill for 1990-2000 is running until about {d(4)}; do not "
            "restart the ingest workers",
            P,
            1,
            f"The ingest workers are backfilling ERA5 for 1990-2000 and should finish around {d(4)}.\n\n"
            "**Why:** a restart loses the CDS request queue position, which costs days of "
            "waiting.\n\n"
            "**How to apply:** no ingest-worker deploys or restarts until Bram posts the "
            "all-clear in #data-ingest.",
        ),
        m(
            "team/project_latency_incident.md",
            "Latency incident after cache deploy",
            f"Incident {d(-47)}: p99 latency spiked to 4 s after a deploy emptied the Redis "
            "forecast cache; follow-ups pending",
            P,
            47,
            f"On {d(-47)} p99 latency of /v2/forecast went from 180 ms to 4 s for 40 minutes "
            "after a deploy flushed the Redis cache.\n\n"
            "**Why:** every pod cold-started against Postgres at once; there was no cache "
            "warm-up.\n\n"
            "**How to apply:** deploys touching the cache need the warm-up job first; the "
            "postmortem's two open follow-ups are FCST-388 and FCST-391.",
        ),
        m(
            "team/project_v1_sunset.md",
            "v1 API sunset",
            f"The v1 endpoints are switched off on {d(30)}; customers were notified on {d(-90)}",
            P,
            90,
            f"v1 returns 410 Gone from {d(30)}. Notice went to all v1 keys on {d(-90)}.\n\n"
            "**Why:** v1 serves unversioned units and blocks the storage migration.\n\n"
            "**How to apply:** do not fix v1 bugs beyond security; point customers to the v2 "
            "migration guide.",
        ),
        m(
            "team/project_grib_decoder.md",
            "Keep eccodes for GRIB decoding",
            "Decision: keep eccodes for GRIB2 decoding rather than rewriting on cfgrib/xarray",
            P,
            200,
            f"On {d(-200)} the team decided to stay on eccodes for GRIB2 decoding.\n\n"
            "**Why:** the cfgrib prototype was 3x slower on ensemble files and mis-read two "
            "local GRIB tables.\n\n"
            "**How to apply:** do not propose a cfgrib rewrite without new benchmarks; wrap "
            "eccodes calls behind the decoder interface.",
        ),
        m(
            "team/project_rate_limit_tiers.md",
            "New rate-limit tiers",
            "Rate limits are per plan tier (free 1k/day, pro 100k/day, enterprise custom) "
            f"from {d(-25)}",
            P,
            30,
            f"From {d(-25)} the gateway enforces per-tier daily limits: free 1,000, pro 100,000, "
            "enterprise set per contract.\n\n"
            "**Why:** one free-tier scraper caused most of last quarter's gateway load.\n\n"
            "**How to apply:** 429 responses must say which limit was hit and when it resets.",
        ),
        m(
            "team/project_availability_okr.md",
            "Availability objective",
            "Team objective: 99.9% monthly availability for /v2/forecast",
            P,
            420,
            "Objective for the year: /v2/forecast at 99.9% monthly availability.\n\n"
            "**Why:** the enterprise contracts promised it.\n\n"
            "**How to apply:** changes that risk availability need a rollback plan in the PR.",
        ),
        # ---- reference, team ----
        m(
            "team/reference_latency_dashboards.md",
            "API latency dashboards",
            "Where the API latency dashboards are: Grafana folder 'Forecast API', boards "
            "api-latency-p99 and edge-latency",
            R,
            30,
            "Grafana, folder 'Forecast API': `api-latency-p99` (per endpoint, p50/p95/p99) and "
            "`edge-latency` (CDN to origin).\nAlerts on them page the forecast-api-primary "
            "schedule.",
        ),
        m(
            "team/reference_oncall.md",
            "Who is on call",
            "Who is on call this week: PagerDuty schedule forecast-api-primary; handoff every "
            "Monday in #forecast-oncall",
            R,
            12,
            "The current on-call engineer is whoever PagerDuty's forecast-api-primary schedule "
            "shows; the secondary is forecast-api-secondary.\nHandoff notes are posted every "
            "Monday 10:00 in #forecast-oncall.",
        ),
        m(
            "team/reference_deploy_runbook.md",
            "How we deploy to production",
            "How to deploy to production: merge to main, Argo CD syncs staging, then promote the "
            "release tag to prod",
            R,
            47,
            "Deploys go through Argo CD. Merging to main syncs the staging app automatically.\n"
            "Production: promote the release tag with the 'promote' GitHub Action; the runbook "
            "is the Notion page 'Forecast API deploys'.",
        ),
        m(
            "team/reference_release_steps.md",
            "Release checklist",
            "Release steps: tag, build, canary, promote",
            R,
            90,
            "1. Tag the release on main.\n2. CI builds and pushes the image.\n3. Canary: 10% of "
            "prod traffic for 30 minutes, watch api-latency-p99.\n4. Promote with the GitHub "
            "Action.",
            malformed=True,
        ),
        m(
            "team/reference_linear_projects.md",
            "Where bugs are tracked",
            "Bugs live in Linear: team FCST for the API, team INGEST for the data pipeline",
            R,
            200,
            "API bugs and features: Linear team FCST.\nIngest and data-quality bugs: Linear team "
            "INGEST; the data team triages it on Tuesdays.",
        ),
        m(
            "team/reference_status_page.md",
            "Public status page",
            "Customer-facing status page at status.isobar.example, run on Statuspage",
            R,
            400,
            "Incidents that customers can see are posted on status.isobar.example (Statuspage).\n"
            "The incident commander owns updates; templates are in the Statuspage admin.",
        ),
        m(
            "team/reference_stripe_dashboards.md",
            "Stripe dashboards",
            "Stripe dashboard views for billing: test-mode customers, usage records and the "
            "invoice preview",
            R,
            90,
            "Stripe, account 'Isobar Labs': use test mode for billing-svc work.\nUsage records "
            "per subscription item and the upcoming-invoice preview show what a customer will be "
            "charged.",
        ),
    )


def _render_file(mem: DemoMemory) -> str:
    """The file text for one demo memory (the malformed one is written by hand)."""
    if mem.malformed:
        # Unquoted colons in the value: strict YAML rejects this header on purpose.
        return (
            f"---\nname: {mem.name}\ndescription: {mem.description}\n"
            f"type: {mem.type.value}\n---\n\n{mem.body}\n"
        )

    return render_memory_file(mem.name, mem.description, mem.type, mem.body)


def _index_line(mem: DemoMemory) -> str:
    """The MEMORY.md line for one memory, linking relative to its scope folder."""

    return format_index_entry(mem.name, mem.filename, mem.description)


def _private_index(memories: tuple[DemoMemory, ...]) -> str:
    """The private MEMORY.md: entries oldest first, one dangling line, one file left out."""

    lines: list[str] = []
    for mem in sorted(memories, key=lambda x: (-x.age_days, x.path)):
        if mem.scope != "private" or not mem.in_index:
            continue
        lines.append(_index_line(mem))
        if mem.path == DANGLING_INDEX_AFTER:
            lines.append(
                format_index_entry(
                    "Old laptop setup",
                    DANGLING_INDEX_TARGET,
                    "Intel MacBook with Docker Desktop; replaced, see editor and shell",
                )
            )
    return "\n".join(lines) + "\n"


_SPEAKERS = ("Keiko", "Bram", "Lucas", "Amara", "Noor", "Jonah")
_OPENERS = (
    "I think the cursor token has to be signed, otherwise people will hand-craft offsets",
    "for the insurer pilot the hail-risk query is the one they will actually run live",
    "the backfill is eating most of the CDS quota so anything new from ERA5 waits",
    "we still have three enterprise customers calling v1 every minute",
    "if the units move into field names we have to version the SDKs at the same time",
    "Grafana shows p99 creeping up on /v2/forecast since the cache change",
    "the error envelope should carry a machine-readable code and a docs link",
    "proration in the metered plans is the piece finance keeps asking about",
    "do we freeze the SDK repos as well or only forecast-api",
    "Northgate asked whether historical hail swaths can come through the same endpoint",
    "the canary step needs a real rollback threshold, not someone eyeballing a chart",
    "we could precompute the popular grid tiles at midnight UTC",
    "the docs site build is still pinned to the old OpenAPI generator",
    "rate-limit headers should say which tier you are on",
    "ensemble percentiles are expensive, maybe only p10/p50/p90 at launch",
)
_FOLLOWUPS = (
    "Let's write that down in the design doc rather than decide it on the call.",
    "Action item for next week, owner to be confirmed.",
    "Agreed, as long as it does not slip the launch date.",
    "Can someone check what the contract actually says?",
    "I will open a ticket in FCST for it.",
    "That is a bigger change than it sounds, we should timebox it.",
    "Noted; revisit after the freeze.",
    "Bram to confirm with the data team.",
    "Fine by me, but support needs to know before customers do.",
    "We tried something like it last year and dropped it because of cost.",
    "Keiko to ask Northgate directly.",
)


def _team_index(memories: tuple[DemoMemory, ...], now_ms: float) -> str:
    """The team MEMORY.md: real entries first, then a whole planning call pasted in."""
    d = _date_fn(now_ms)
    team = sorted((x for x in memories if x.scope == "team"), key=lambda x: (-x.age_days, x.path))
    lines = [_index_line(mem) for mem in team]
    lines += [
        "",
        f"## v3 planning call {d(-TEAM_NOTES_AGE_DAYS)} (notes pasted from the meeting doc)",
        "",
    ]
    start = 10 * 3600 + 2 * 60
    for i in range(210):
        t = start + i * 17
        stamp = f"{t // 3600:02d}:{t % 3600 // 60:02d}:{t % 60:02d}"
        who = _SPEAKERS[(i * 5 + i // 6) % len(_SPEAKERS)]
        said = _OPENERS[(i * 7) % len(_OPENERS)] + ". " + _FOLLOWUPS[(i * 4 + 1) % len(_FOLLOWUPS)]
        if i % 23 == 11:
            # Somebody pasted a whole chat thread into one "line".
            thread = " / ".join(
                f"{_SPEAKERS[(i + k) % len(_SPEAKERS)]}: {_OPENERS[(i + 3 * k) % len(_OPENERS)]}"
                for k in range(9)
            )
            said += f" [thread pasted from #forecast-v3: {thread}]"
        lines.append(f"- [{stamp}] {who}: {said}")
    lines += ["", "(recording in the shared drive, transcript continues in the doc)"]
    return "\n".join(lines) + "\n"


_LOG_ENTRIES = (
    (
        9,
        41,
        "Started the v3 pagination draft. Cursors must survive a deploy, so sign them "
        "with the rotating key instead of encoding raw offsets.",
    ),
    (
        11,
        5,
        "Bram: the ERA5 backfill holds the ingest queue for a few more days; nobody "
        "restarts ingest workers until he gives the all-clear.",
    ),
    (
        13,
        30,
        "Keiko may move the Northgate demo; update the project memory once the date is confirmed.",
    ),
    (
        15,
        12,
        "Noor corrected me: precipitation in v2 responses is mm, not kg/m². Units go "
        "next to every number in examples.",
    ),
    (
        17,
        48,
        "Stripe test clocks made the proration case reproducible in billing-svc tests; "
        "already covered by the team testing convention.",
    ),
)


def daily_log_date(now_ms: float) -> _dt.date:
    """The local date of the demo's daily log: yesterday relative to now_ms."""
    return local_date(now_ms) - _dt.timedelta(days=1)


def daily_log_relpath(now_ms: float) -> str:
    """Where the demo's daily log lives, relative to the memory dir."""
    day = daily_log_date(now_ms)
    return f"{LOGS_DIRNAME}/{day:%Y}/{day:%m}/{day.isoformat()}.md"


def _entry_ms(day: _dt.date, hour: int, minute: int) -> float:
    """The timestamp (ms) of a local wall-clock time on a given day."""
    return time.mktime((day.year, day.month, day.day, hour, minute, 0, 0, 0, -1)) * 1000


def _write_daily_log(root: Path, now_ms: float) -> Path:
    """Append yesterday's entries through the real KAIROS writer; mtime = the last entry."""

    day = daily_log_date(now_ms)
    log_path = root / daily_log_relpath(now_ms)
    last_ms = 0.0
    for hour, minute, text in _LOG_ENTRIES:
        last_ms = _entry_ms(day, hour, minute)
        written = append_daily_log(root, text, now_ms=last_ms)
        if written != log_path:
            raise RuntimeError(f"daily log went to {written}, expected {log_path}")
    _set_mtime(log_path, last_ms)
    lock = root / LOGS_DIRNAME / DAILY_LOG_LOCK_NAME
    if lock.exists():
        _set_mtime(lock, last_ms)
    return log_path


def _set_mtime(path: Path, mtime_ms: float) -> None:
    """Set a file's atime and mtime to mtime_ms, with nanosecond precision."""
    ns = int(mtime_ms * 1_000_000)
    os.utime(path, ns=(ns, ns))


def _write(path: Path, text: str, mtime_ms: float) -> None:
    """Write a UTF-8 file with LF endings and set its mtime."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    _set_mtime(path, mtime_ms)


def _check_target(target: Path, overwrite: bool) -> bool:
    """Raise DemoDirError if target may not hold the demo; return True if it must be replaced."""
    if target.is_symlink():
        raise DemoDirError(
            f"{target} is a symlink; pass the real directory path so the demo never writes "
            "through a link"
        )
    if not target.exists():
        return False
    if not target.is_dir():
        raise DemoDirError(f"{target} exists and is not a directory; choose another target path")
    if not any(target.iterdir()):
        return False
    marker = target / MARKER_NAME
    is_demo = marker.is_file() and not marker.is_symlink()
    if not is_demo:
        raise DemoDirError(
            f"{target} is not empty and is not a memdir_nb demo dir (no {MARKER_NAME} marker); "
            "refusing to touch it. Choose an empty or new directory."
        )
    if not overwrite:
        raise DemoDirExistsError(target)
    return True


def _populate(root: Path, now_ms: float) -> None:
    """Write every demo file under root (an empty directory) and set all mtimes."""
    memories = demo_memories(now_ms)
    for mem in memories:
        _write(root / mem.path, _render_file(mem), mem.mtime_ms(now_ms))
    newest_private = min(x.age_days for x in memories if x.scope == "private" and x.in_index)
    _write(root / ENTRYPOINT_NAME, _private_index(memories), mtime_for_age(newest_private, now_ms))
    _write(
        root / TEAM_DIRNAME / ENTRYPOINT_NAME,
        _team_index(memories, now_ms),
        mtime_for_age(TEAM_NOTES_AGE_DAYS, now_ms),
    )
    _write_daily_log(root, now_ms)
    _write(root / MARKER_NAME, MARKER_TEXT, mtime_for_age(0, now_ms))
    # Folders last, deepest first, so their mtimes are deterministic too.
    dirs = sorted((p for p in root.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts))
    for folder in [*dirs, root]:
        _set_mtime(folder, mtime_for_age(0, now_ms))


def build_demo_memory_dir(
    target: str | os.PathLike[str], *, now_ms: float | None = None, overwrite: bool = False
) -> Path:
    """Create the demo memory dir at target (new or empty; a previous demo only with overwrite)."""
    now = _clock(now_ms)
    dest = Path(os.path.abspath(os.fspath(target)))
    replace = _check_target(dest, overwrite)
    dest.parent.mkdir(parents=True, exist_ok=True)
    # Build beside the target and move it into place, so a failure leaves nothing half-built.
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.building-", dir=dest.parent))
    staging.chmod(0o755)  # mkdtemp makes it owner-only; a memory dir is an ordinary folder
    try:
        _populate(staging, now)
        if replace:
            old = Path(tempfile.mkdtemp(prefix=f".{dest.name}.old-", dir=dest.parent))
            os.replace(dest, old / "demo")
            os.replace(staging, dest)
            shutil.rmtree(old)
        else:
            os.replace(staging, dest)  # also fine onto an existing empty directory
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return dest


def notebook_memory_dir(
    chosen: str | os.PathLike[str] | None = None,
    *,
    config: MemdirConfig | None = None,
    now_ms: float | None = None,
) -> Path:
    """The memory dir a notebook opens: the one chosen, else MEMDIR_NB_DIR, else a fresh demo."""
    if config is None:
        config = MemdirConfig.from_environment()
    path: Path | None
    if chosen:
        path = config.expand_user(chosen)
        source = "the notebook's parameters cell"
    else:
        path = config.expand_user(config.demo_dir) if config.demo_dir else None
        source = "MEMDIR_NB_DIR"
    if path is not None:
        if not path.is_dir():
            raise DemoDirError(
                f"{path} (from {source}) is not a directory; point it at a memory dir "
                "(the folder that holds MEMORY.md), or unset it to use the bundled demo"
            )
        return path.resolve()
    scratch = Path(tempfile.mkdtemp(prefix="memdir-nb-demo-"))
    return build_demo_memory_dir(scratch / "memory", now_ms=now_ms)


# ---------------------------------------------------------------------------- a demo Claude home

# Problems seeded into the demo Claude home, for `memdir-nb doctor` and notebook 10.
DEMO_HOME_SETTINGS: Mapping[str, Mapping[str, object]] = MappingProxyType(
    {
        # Another tool "helpfully" switched auto memory off through the user settings' env block.
        "user": {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}, "theme": "dark"},
        # The repository tries to choose the memory dir; project settings are never trusted for it.
        "project": {"autoMemoryDirectory": "~/team-memory"},
    }
)


@dataclass(frozen=True)
class DemoClaudeHome:
    """Where the demo Claude home's parts are."""

    home: Path  # the fake $HOME
    claude_home: Path  # home/.claude
    project: Path  # the project folder (not a git repository)
    memory_dir: Path  # home/.claude/projects/<key>/memory, holding the demo memory dir
    policy_settings: Path  # where policy settings would be (absent)

    @property
    def user_settings(self) -> Path:
        """home/.claude/settings.json (holds the seeded env block)."""
        return self.claude_home / "settings.json"


def build_demo_claude_home(
    target: str | os.PathLike[str], *, now_ms: float | None = None
) -> DemoClaudeHome:
    """A fake home with a project, its demo memory dir, and the settings in DEMO_HOME_SETTINGS."""
    import json

    from memdir_nb.paths import sanitize_path

    root = Path(os.path.abspath(os.fspath(target)))
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise DemoDirError(f"{root} is not an empty directory; choose a new or empty one")
    home, project = root / "home", root / "project"
    claude_home = home / ".claude"
    paths = {
        "user": claude_home / "settings.json",
        "project": project / ".claude" / "settings.json",
    }
    for layer, data in DEMO_HOME_SETTINGS.items():
        paths[layer].parent.mkdir(parents=True, exist_ok=True)
        paths[layer].write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    key = sanitize_path(os.path.realpath(project))
    memory_dir = build_demo_memory_dir(claude_home / "projects" / key / "memory", now_ms=now_ms)
    return DemoClaudeHome(home, claude_home, project, memory_dir, root / "managed-settings.json")


# ---------------------------------------------------------------------------- a demo fleet

DEMO_FLEET_PROJECTS: tuple[str, ...] = (
    "forecast-api",
    "billing-svc",
    "ingest-workers",
    "docs-site",
    "sdk-python",
    "ops-runbooks",
)


def build_demo_fleet(target: str | os.PathLike[str], *, now_ms: float | None = None) -> Path:
    """A Claude home whose projects/ holds one memory dir per DEMO_FLEET_PROJECTS entry.

    The first project gets the whole demo memory dir; the others get deterministic slices of
    it, older by 60 days per project, and the last one an index padded past the line cap.
    Returns the Claude home (target/home/.claude); the project folders live in target/src/.
    """
    from memdir_nb.index import format_index_entry
    from memdir_nb.paths import sanitize_path

    now = _clock(now_ms)
    root = Path(os.path.abspath(os.fspath(target)))
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise DemoDirError(f"{root} is not an empty directory; choose a new or empty one")
    claude_home = root / "home" / ".claude"
    memories = demo_memories(now)
    for n, name in enumerate(DEMO_FLEET_PROJECTS):
        project = root / "src" / name
        project.mkdir(parents=True)
        memory_dir = claude_home / "projects" / sanitize_path(os.fspath(project)) / "memory"
        if n == 0:
            build_demo_memory_dir(memory_dir, now_ms=now)
            continue
        chosen = [m for i, m in enumerate(memories) if (i + n) % (n + 1) == 0]
        shift = 60 * n
        index: dict[str, list[str]] = {"private": [], "team": []}
        for mem in chosen:
            _write(
                memory_dir / mem.path, _render_file(mem), mtime_for_age(mem.age_days + shift, now)
            )
            index[mem.scope].append(format_index_entry(mem.name, mem.filename, mem.description))
        if n == len(DEMO_FLEET_PROJECTS) - 1:
            index["private"] += [
                f"- note {i}: paste from a chat, never cleaned up" for i in range(230)
            ]
        for scope, lines in index.items():
            if lines:
                folder = memory_dir / TEAM_DIRNAME if scope == "team" else memory_dir
                _write(folder / ENTRYPOINT_NAME, "\n".join(lines) + "\n", mtime_for_age(shift, now))
    return claude_home
