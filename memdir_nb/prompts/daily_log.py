"""The daily-log (KAIROS) system prompt: where today's log goes and how to write it."""

from __future__ import annotations

import os

from memdir_nb.storage.containment import absolute_dir
from memdir_nb.storage.daily_log import daily_log_file, local_date


def build_assistant_daily_log_prompt(
    memory_dir: str | os.PathLike[str], *, now_ms: float | None = None
) -> str:
    """The memory instructions for KAIROS mode: append to today's log, never curate an index."""
    root = absolute_dir(memory_dir)
    today = local_date(now_ms)
    log_path = daily_log_file(root, now_ms=now_ms)
    return "\n".join(
        [
            "# Memory (daily log mode)",
            "",
            f"You keep a running log of what is worth remembering, under `{root}`.",
            f"Today's log file is `{log_path}` (local date {today.isoformat()}). Its folders may not",
            "exist yet; writing the file creates them, so do not check for them first.",
            "",
            "## How to log",
            "",
            "- Only ever append. Add each note at the end of today's file under a heading with the",
            "  local time, e.g. `## 14:05:00`, then the note. Never rewrite, reorder or delete lines",
            "  already in a log, today's or an earlier day's.",
            "- Keep each note short and self-contained: what happened or what you learned, and why",
            "  it matters for later sessions. Write dates as absolute dates, never 'tomorrow'.",
            "- Do not touch MEMORY.md and do not create or edit topic files for these notes. A later",
            "  consolidation pass (dream) reads the logs and folds them into topic memories and",
            "  the index; your job here is only to capture.",
            "- When the user asks you to remember something, log it now. When the user asks you to",
            "  forget something, log that request too, so the consolidation pass removes it.",
            "",
            "## What not to log",
            "",
            "The same exclusions as for memories apply, even when the user asks you to log it:",
            "- code patterns, conventions, architecture, file paths or project layout: reading the",
            "  code gives the current truth;",
            "- git history, recent changes or who changed what: git log and git blame have it;",
            "- how a bug was debugged or fixed: the fix lives in the code, the story in the commit;",
            "- anything already written in CLAUDE.md;",
            "- the passing state of the current task (work in progress, to-do steps);",
            "- secrets of any kind: API keys, tokens, passwords, private keys, credentials.",
            "If a request to log touches these, log only the part that cannot be derived, such as",
            "the decision, the surprise or the deadline behind it.",
        ]
    )
