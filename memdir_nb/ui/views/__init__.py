"""View-models: plain-Python data the widgets (and notebooks) show, one module per widget.

Nothing here decides policy: every rule comes from the core modules (scan, index, age, store,
team_paths, secret_scan, types, recall, dream). Each module arranges their answers for one
widget and is tested without a browser: browser (memory rows, filters, detail), editor (a save
form's checks and previews), inspector (index budgets), freshness (age histogram and timeline),
team (scope rules, promotion verdicts), security (a key's path checks step by step), recall (a
recall turn and the request the selector sent) and dream (the dream gates as rows).
"""

from memdir_nb.ui.views.browser import (
    MAX_PREVIEW_BYTES,
    MemoryDetail,
    MemoryRow,
    filter_rows,
    freshness_badge,
    index_problems,
    memory_detail,
    memory_rows,
    rows_summary,
)
from memdir_nb.ui.views.common import STALE_AFTER_DAYS, is_demo_dir
from memdir_nb.ui.views.dream import GateRow, gate_rows, would_run
from memdir_nb.ui.views.editor import FILE_NAME_TAKEN, DraftCheck, check_draft, compose_body
from memdir_nb.ui.views.freshness import AGE_BINS, UNTYPED, FreshnessData, freshness_data
from memdir_nb.ui.views.inspector import DroppedLine, IndexBudget, index_budget
from memdir_nb.ui.views.recall import RecallPreview, recall_preview, recorded_request, request_json
from memdir_nb.ui.views.security import (
    ATTACK_EXAMPLES,
    KEY_CHECKS,
    AttackExample,
    CheckStep,
    check_team_key,
    plant_example_symlink,
)
from memdir_nb.ui.views.team import PromotionVerdict, ScopeRule, promotion_verdict, scope_rules

__all__ = [
    "AGE_BINS",
    "ATTACK_EXAMPLES",
    "FILE_NAME_TAKEN",
    "KEY_CHECKS",
    "MAX_PREVIEW_BYTES",
    "STALE_AFTER_DAYS",
    "UNTYPED",
    "AttackExample",
    "CheckStep",
    "DraftCheck",
    "DroppedLine",
    "FreshnessData",
    "GateRow",
    "IndexBudget",
    "MemoryDetail",
    "MemoryRow",
    "PromotionVerdict",
    "RecallPreview",
    "ScopeRule",
    "check_draft",
    "check_team_key",
    "compose_body",
    "filter_rows",
    "freshness_badge",
    "freshness_data",
    "gate_rows",
    "index_budget",
    "index_problems",
    "is_demo_dir",
    "memory_detail",
    "memory_rows",
    "plant_example_symlink",
    "promotion_verdict",
    "recall_preview",
    "recorded_request",
    "request_json",
    "rows_summary",
    "scope_rules",
    "would_run",
]
