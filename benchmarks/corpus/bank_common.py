"""Shared constructors for the phrase banks (no text lives here)."""

from __future__ import annotations

from typing import Any

Fact = tuple[str, str, str]  # (body sentence, direct question, reworded question)


def K(
    type_: str,
    file: str,
    name: str,
    desc: list[str],
    facts: list[Fact],
    why: str,
    how: list[str],
    upd: Fact | None = None,
    den: str | None = None,
    entities: list[tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """A kit: one topic a memory is written about (facts[0] is the lead statement)."""
    return {
        "type": type_,
        "file": file,
        "name": name,
        "desc": desc,
        "facts": facts,
        "why": why,
        "how": how,
        "upd": upd,
        "den": den,
        "entities": entities,
    }


def T(tool: str, usage: dict[str, Any], warn: dict[str, Any], queries: list[str]) -> dict[str, Any]:
    """A tool pair: usage docs (skip while the tool is in use) and a warning (keep)."""
    return {"tool": tool, "usage": usage, "warn": warn, "q": queries}


def LOG(file: str, name: str, desc: str, lead: str, why: str, how: str) -> dict[str, Any]:
    """A session-notes kit: bulk for large dirs, never the target of a question."""
    return K("project", file, name, [desc], [(lead, "", "")], why, [how])
