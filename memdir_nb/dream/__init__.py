"""autoDream: when to consolidate (three gates and a PID lock), and what to change (a plan).

The filesystem is the only clock. The lock file `<memory_dir>/.consolidate-lock` holds the
PID of the process consolidating, and its mtime is lastConsolidatedAt: taking the lock sets
it to now, and a failed or aborted dream rolls it back, so the time gate opens again.

Consolidation itself is a dry run first: `plan_consolidation` reads the directory and
returns a `ConsolidationPlan` (actions plus a unified diff); `apply_plan` changes only the
approved actions, moves every file it deletes or rewrites into `.trash/`, and `restore`
puts a dream's files back. `plan_consolidation_with_claude` makes the same kind of plan with
Claude: it runs the extractor's sandboxed tool loop, but its Write/Edit calls are captured
into the plan instead of reaching the disk.

One module per concern: `lock` (ConsolidationLock), `gates` (dream_gates), `actions` (the typed
operations, PlanAction, ConsolidationPlan), `plan` (the offline planner), `apply` (apply_plan,
restore, list_dreams) and `claude` (the Claude-driven planner). Every public name is re-exported here.
"""

from __future__ import annotations

from memdir_nb.dream.actions import (
    ConsolidationPlan,
    IndexAdd,
    IndexFit,
    IndexRemove,
    IndexUpsert,
    PlanAction,
    PlanError,
    PlanOp,
    PlanStaleError,
    Relink,
    ReplaceText,
    TrashFile,
    WriteFile,
)
from memdir_nb.dream.apply import (
    ApplyResult,
    RestoreError,
    apply_plan,
    list_dreams,
    restore,
)
from memdir_nb.dream.claude import (
    CLAUDE_MAX_TURNS,
    RETIRE_HINT,
    PlanRecorder,
    build_consolidation_prompt,
    plan_consolidation_with_claude,
)
from memdir_nb.dream.forgotten import forgotten_names
from memdir_nb.dream.gates import (
    MIN_HOURS,
    MIN_SESSIONS,
    SESSION_SCAN_INTERVAL_MS,
    GateResult,
    SessionScanThrottle,
    count_sessions_since,
    dream_gates,
)
from memdir_nb.dream.lock import (
    FUTURE_SKEW_MS,
    HOLDER_STALE_MS,
    LOCK_GUARD_SUFFIX,
    ConsolidationLock,
    LockFileCorruptError,
    LockState,
    is_process_running,
)
from memdir_nb.dream.plan import (
    CONTRADICTION_MIN_SHARED,
    CONTRADICTION_THRESHOLD,
    DUPLICATE_BODY_THRESHOLD,
    DUPLICATE_HEAD_THRESHOLD,
    DUPLICATE_MIN_SHARED,
    plan_consolidation,
)
from memdir_nb.spec.constants import CONSOLIDATION_LOCK_NAME as LOCK_NAME
from memdir_nb.spec.constants import STORE_LOCK_NAME  # plans apply under the store lock
from memdir_nb.spec.dates import convert_relative_dates  # dream converts relative dates with it

__all__ = [
    "CLAUDE_MAX_TURNS",
    "CONTRADICTION_MIN_SHARED",
    "CONTRADICTION_THRESHOLD",
    "DUPLICATE_BODY_THRESHOLD",
    "DUPLICATE_HEAD_THRESHOLD",
    "DUPLICATE_MIN_SHARED",
    "FUTURE_SKEW_MS",
    "HOLDER_STALE_MS",
    "LOCK_GUARD_SUFFIX",
    "LOCK_NAME",
    "MIN_HOURS",
    "MIN_SESSIONS",
    "RETIRE_HINT",
    "SESSION_SCAN_INTERVAL_MS",
    "STORE_LOCK_NAME",
    "ApplyResult",
    "ConsolidationLock",
    "ConsolidationPlan",
    "GateResult",
    "IndexAdd",
    "IndexFit",
    "IndexRemove",
    "IndexUpsert",
    "LockFileCorruptError",
    "LockState",
    "PlanAction",
    "PlanError",
    "PlanOp",
    "PlanRecorder",
    "PlanStaleError",
    "Relink",
    "ReplaceText",
    "RestoreError",
    "SessionScanThrottle",
    "TrashFile",
    "WriteFile",
    "apply_plan",
    "build_consolidation_prompt",
    "convert_relative_dates",
    "count_sessions_since",
    "dream_gates",
    "forgotten_names",
    "is_process_running",
    "list_dreams",
    "plan_consolidation",
    "plan_consolidation_with_claude",
    "restore",
]
