"""Every shared name and cap of a memory dir, defined once and imported everywhere else."""

from __future__ import annotations

# File and folder names inside a memory dir.
ENTRYPOINT_NAME = "MEMORY.md"  # the index, private and team
TEAM_DIRNAME = "team"  # team memory lives in <memory_dir>/team/
TRASH_DIRNAME = ".trash"  # forget, consolidation and restore move files here, never unlink
LOGS_DIRNAME = "logs"  # KAIROS daily logs: logs/YYYY/MM/YYYY-MM-DD.md
STORE_LOCK_NAME = ".memdir.lock"  # the store's one lock; dream applies under it too
DAILY_LOG_LOCK_NAME = ".daily-log.lock"  # appends to daily logs (inside logs/)
CONSOLIDATION_LOCK_NAME = ".consolidate-lock"  # the dream lock; its mtime is the last-run time

# The index caps: lines first, then UTF-8 bytes cut at the last newline.
MAX_ENTRYPOINT_LINES = 200
MAX_ENTRYPOINT_BYTES = 25_000

# Scanning: at most this many topic files, newest first; headers are read within these bounds.
MAX_MEMORY_FILES = 200
FRONTMATTER_MAX_LINES = 30
FRONTMATTER_MAX_BYTES = 8192

# Recall: at most five memories a turn; each attached memory and the session are capped.
MAX_RELEVANT_MEMORIES = 5
RECALL_MAX_LINES = 200
RECALL_MAX_BYTES = 4096
MAX_SESSION_BYTES = 60 * 1024

# The store's transaction (sec-write): its crash journal, lock wait and read bound.
STORE_JOURNAL_NAME = (
    ".memdir.journal"  # written before a step changes files, replayed after a crash
)
STORE_LOCK_TIMEOUT_S = 60.0  # how long a writer waits for the store lock before giving up
STORE_READ_MAX_BYTES = (
    1024 * 1024
)  # the most a write step reads of one file (and scans for secrets)
STORE_JOURNAL_MAX_BYTES = 16 * 1024 * 1024  # a longer journal is refused rather than read
