"""The demo's team memories (team/): shared conventions, project state and references."""

from __future__ import annotations

from memdir_nb.ui.demo.memories_private import F, P, R, m
from memdir_nb.ui.demo.model import DateFn, DemoMemory


def team_memories_1(d: DateFn) -> tuple[DemoMemory, ...]:
    """One group of the demo's memories, in the order the demo lists them."""
    return (
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
    )


def team_memories_2(d: DateFn) -> tuple[DemoMemory, ...]:
    """One group of the demo's memories, in the order the demo lists them."""
    return (
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
    )


def team_memories_3(d: DateFn) -> tuple[DemoMemory, ...]:
    """One group of the demo's memories, in the order the demo lists them."""
    return (
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
    )


def team_memories_4(d: DateFn) -> tuple[DemoMemory, ...]:
    """One group of the demo's memories, in the order the demo lists them."""
    return (
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
    )


def team_memories_5(d: DateFn) -> tuple[DemoMemory, ...]:
    """One group of the demo's memories, in the order the demo lists them."""
    return (
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
