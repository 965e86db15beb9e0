"""Which dirs each corpus holds: (size, language, domains); '*' lets the language choose."""

from __future__ import annotations

# dir sizes and languages per corpus: heavy-tailed like the survey (half the dirs 1-5 files)
PLAN_TUNE: list[tuple[int, str, str]] = [
    (1, "en", "assistant"),
    (1, "ja", "*"),
    (2, "es", "*"),
    (2, "en", "mobile"),
    (3, "de", "*"),
    (3, "ko", "*"),
    (3, "en", "research"),
    (5, "zh", "*"),
    (5, "fr", "*"),
    (8, "en", "data"),
    (8, "ja", "*"),
    (9, "en", "infra"),
    (12, "es", "*"),
    (20, "en", "web"),
    (20, "zh", "*"),
    (28, "de", "*"),
    (35, "ko", "*"),
    (60, "fr", "*"),
    (60, "en", "data+research"),
    (120, "en", "web+infra"),
    (200, "en", "web+infra+mobile+assistant"),
]
PLAN_HOLDOUT: list[tuple[int, str, str]] = [
    (1, "en", "research"),
    (1, "ko", "*"),
    (2, "fr", "*"),
    (2, "en", "infra"),
    (3, "zh", "*"),
    (3, "es", "*"),
    (3, "en", "assistant"),
    (5, "ja", "*"),
    (5, "de", "*"),
    (8, "en", "web"),
    (8, "fr", "*"),
    (9, "en", "mobile"),
    (12, "ko", "*"),
    (20, "en", "data"),
    (20, "es", "*"),
    (28, "ja", "*"),
    (35, "zh", "*"),
    (60, "de", "*"),
    (60, "en", "mobile+assistant"),
    (120, "en", "data+research"),
    (200, "en", "web+infra+data+research"),
]

# The short dirs (twentieth session), the same shapes in both corpora (their own banks):
# short memories and two-to-five-word questions, Russian dirs, one dir of 150 short memories.
PLAN_SHORT: list[tuple[int, str]] = [
    (2, "en"),
    (3, "en"),
    (6, "en"),
    (12, "en"),
    (150, "en"),
    (3, "ru"),
    (6, "ru"),
    (12, "ru"),
    (30, "ru"),
]

# The log-shaped dirs (twenty-first session), the same shapes in both corpora (their own banks):
# long running logs, session notes, call notes and status tables over several entities ("kits"),
# and LoCoMo's shape, weekly sessions of one call titled by their date alone ("series").
PLAN_LOGS: list[tuple[int, str, str]] = [
    (8, "en", "kits"),
    (20, "en", "kits"),
    (40, "en", "kits"),
    (12, "ru", "kits"),
    (20, "ru", "kits"),
    (24, "en", "series"),
    (12, "ru", "series"),
]
