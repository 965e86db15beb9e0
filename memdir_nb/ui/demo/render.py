"""The demo's file texts: memory files, both MEMORY.md indexes and the daily log entries."""

from __future__ import annotations

import datetime as _dt

from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.formats.index import format_index_entry
from memdir_nb.spec.calendar_days import local_clock_ms
from memdir_nb.spec.constants import LOGS_DIRNAME
from memdir_nb.spec.dates import utc_date
from memdir_nb.ui.demo.model import (
    DANGLING_INDEX_AFTER,
    DANGLING_INDEX_TARGET,
    TEAM_NOTES_AGE_DAYS,
    DemoMemory,
    date_fn,
)


def render_file(mem: DemoMemory) -> str:
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


def private_index(memories: tuple[DemoMemory, ...]) -> str:
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


def team_index(memories: tuple[DemoMemory, ...], now_ms: float) -> str:
    """The team MEMORY.md: real entries first, then a whole planning call pasted in."""
    d = date_fn(now_ms)
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


LOG_ENTRIES = (
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
    """The date of the demo's daily log: the UTC day before now_ms's, as the demo's memories
    are dated (model.date_fn) and its notebooks read it (ui.nbdir.hold_demo_zone). By the
    local day, the log built in New Zealand was a day later than the committed outputs say
    (fresh38)."""
    return utc_date(now_ms) - _dt.timedelta(days=1)


def daily_log_relpath(now_ms: float) -> str:
    """Where the demo's daily log lives, relative to the memory dir."""
    day = daily_log_date(now_ms)
    return f"{LOGS_DIRNAME}/{day:%Y}/{day:%m}/{day.isoformat()}.md"


def entry_ms(day: _dt.date, hour: int, minute: int) -> float:
    """The timestamp (ms) of a local wall-clock time on a given day (in the day zone, which
    build.write_daily_log holds at UTC while it writes)."""
    return local_clock_ms(day, hour, minute)
