"""The demo's private memories: the engineer's role, their feedback, projects and references."""

from __future__ import annotations

from memdir_nb.spec.taxonomy import MemoryType
from memdir_nb.ui.demo.model import DateFn, DemoMemory

# Short names keep the tables of memories readable.
U, F, P, R = MemoryType.USER, MemoryType.FEEDBACK, MemoryType.PROJECT, MemoryType.REFERENCE
m = DemoMemory


def private_memories_1(d: DateFn) -> tuple[DemoMemory, ...]:
    """One group of the demo's memories, in the order the demo lists them."""
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
    )


def private_memories_2(d: DateFn) -> tuple[DemoMemory, ...]:
    """One group of the demo's memories, in the order the demo lists them."""
    return (
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
    )


def private_memories_3(d: DateFn) -> tuple[DemoMemory, ...]:
    """One group of the demo's memories, in the order the demo lists them."""
    return (
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
    )


def private_memories_4(d: DateFn) -> tuple[DemoMemory, ...]:
    """One group of the demo's memories, in the order the demo lists them."""
    return (
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
    )


def private_memories_5(d: DateFn) -> tuple[DemoMemory, ...]:
    """One group of the demo's memories, in the order the demo lists them."""
    return (
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
    )
