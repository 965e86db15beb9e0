"""Partial-overlap questions over the log-shaped dirs (twenty-first session).

The log dirs' own questions are direct (they reuse the entry's words) or reworded (they avoid
the memory's name and description). LoCoMo's questions sit in between: they share one or two
content words with the entry that answers them, often a name or a rare noun, and word the rest
differently. This module asks such questions from bank_overlap_<corpus>.py (one per fact of the
log banks, filled with the slots the entry was written with), from its own random stream, and
appends them after each log dir's questions with ids `<dir>-oNN` and `"shape": "overlap"` (a
field the harness ignores), so the questions and memories written before stay what they were.

A question keeping a word of the memory's name or description (the subject) gets the dir's
direct kind ("direct", or "non-english" in Russian), one sharing none "reworded"; a few join two
memories' questions ("multi").
"""

from __future__ import annotations

import random
from typing import Any

from generate import Built, content_terms, round_robin


def overlap_count(size: int, code: str) -> tuple[int, int]:
    """Single- and two-memory questions for a log dir: about a quarter of them Russian."""
    single = 4 + size // 4 if code == "en" else 2 + size // 6
    return single, 1 if size >= 20 else 0


def _question(bank: dict[str, Any], b: Built, k: int) -> str:
    """The overlap question of the k-th fact `b` holds, filled as its entry was."""
    index, slots, ent = b.fills[k]
    template: str = bank[b.kit][index]
    return slots.fill(template, ent)


def build_overlap_questions(
    rng: random.Random,
    bank: dict[str, Any],
    lang: dict[str, Any],
    info: dict[str, Any],
    built: list[Built],
    *,
    series: bool,
) -> list[dict[str, Any]]:
    """The partial-overlap questions of one log dir (`bank`: its language's questions)."""
    code = info["language"]
    single, multi = overlap_count(len(built), code)
    if series:
        multi = 0
    picks = [(b, k) for b in built if b.role == "topic" for k in range(len(b.fills))]
    rng.shuffle(picks)
    picks = round_robin(picks, lambda p: id(p[0]))
    out: list[dict[str, Any]] = []

    def add(kind: str, query: str, targets: list[Built], evidence: int | None) -> None:
        out.append(
            {
                "id": f"{info['id']}-o{len(out) + 1:02d}",
                "dir": info["id"],
                "query": query,
                "kind": kind,
                "language": code,
                "recent_tools": [],
                "expected": [t.memory["filename"] for t in targets],
                "evidence_offset": evidence,
                "shape": "overlap",
            }
        )

    direct_kind = "direct" if code == "en" else "non-english"
    for b, k in picks[:single]:
        query = _question(bank, b, k)
        label = content_terms(b.memory["name"] + " " + b.memory["description"])
        kind = direct_kind if content_terms(query) & label else "reworded"
        add(kind, query, [b], b.facts[k][2])
    rest = picks[single:]
    for _ in range(multi):
        first = rest.pop(0)
        second = next(p for p in rest if p[0] is not first[0])
        rest.remove(second)
        joiner = rng.choice(lang["joiners"])
        query = joiner.format(a=_question(bank, *first), b=_question(bank, *second))
        add("multi", query, [first[0], second[0]], None)
    return out
