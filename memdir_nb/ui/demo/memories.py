"""The demo's memory texts: every memory of the fictional Isobar Labs engineer, dated from now_ms."""

from __future__ import annotations

from memdir_nb.spec.taxonomy import MemoryType
from memdir_nb.ui.demo.model import DemoMemory, date_fn, demo_clock


def demo_memories(now_ms: float | None = None) -> tuple[DemoMemory, ...]:
    """Every memory in the demo, with its dates filled in relative to now_ms."""
    now = demo_clock(now_ms)
    d = date_fn(now)
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
