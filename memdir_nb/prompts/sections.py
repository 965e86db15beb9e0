"""The sections of the memory instructions, each a list of lines: intro, types, what not to save,
how to save, when to access, persistence, searching past context, and the combined-dir parts.

memdir_nb.prompts.build assembles them into the prompts; the wording is the project's own.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from memdir_nb.formats import index
from memdir_nb.spec.taxonomy import MEMORY_TYPES, TYPE_GUIDANCE, MemoryType


def dir_text(path: str | os.PathLike[str]) -> str:
    """Show a directory with exactly one trailing separator, as the paths module returns them."""
    return os.fspath(path).rstrip("/\\") + os.sep


def intro_lines(display_name: str, memory_dir: str) -> list[str]:
    return [
        f"# {display_name}",
        "",
        f"You have a persistent memory kept as plain files in `{memory_dir}`. What you write there "
        "survives this conversation, so use it to carry forward what you learn about the user, "
        "how they like to work, and the state of the project.",
        "",
        "That folder has been created for you before the session started. Save files into it "
        "straight away: no mkdir, and no ls or other check to see whether it is there.",
        "",
    ]


def explicit_request_lines(skip_index: bool) -> list[str]:
    where = "its file" if skip_index else "its file and its line in MEMORY.md"
    return [
        "## When the user asks you to remember or forget",
        "",
        "- Asked to remember something: save it now, as whichever of the four types fits.",
        f"- Asked to forget something: find the memory and remove {where}.",
        "",
    ]


def type_block(t: MemoryType, *, with_scope: bool) -> list[str]:
    g = TYPE_GUIDANCE[t]
    lines = ["<type>", f"<name>{t.value}</name>"]
    if with_scope:
        lines.append(f"<scope>{g.scope_rule}</scope>")
    lines += [
        f"<what>{g.purpose}</what>",
        f"<save_when>{g.when_to_save}</save_when>",
        f"<use>{g.how_to_use}</use>",
    ]
    if g.needs_why_and_how:
        lines.append(
            "<body>State the rule or fact first. Follow it with a line beginning **Why:** (the "
            "reason: often a past incident or a firm preference) and a line beginning **How to "
            "apply:** (when and where it matters). With the reason written down you can decide "
            "cases the rule never mentions.</body>"
        )
    if t is MemoryType.PROJECT:
        lines.append(
            '<dates>Never store a relative date. Turn "Thursday" or "next week" into an '
            "absolute date (YYYY-MM-DD) before saving, because the memory will be read weeks "
            "from now.</dates>"
        )
    lines.append("<examples>" + "; ".join(g.examples) + "</examples>")
    lines.append("</type>")
    return lines


def types_lines(*, with_scope: bool) -> list[str]:
    names = ", ".join(t.value for t in MEMORY_TYPES)
    lines = [
        "## Types of memory",
        "",
        f"Every memory has exactly one of four types ({names}); there are no others.",
    ]
    if with_scope:
        lines.append(
            "Each type says in its <scope> tag whether it belongs in the private folder, the "
            "team folder, or either."
        )
    lines.append("")
    for t in MEMORY_TYPES:
        lines += type_block(t, with_scope=with_scope)
    lines.append("")
    return lines


def what_not_to_save_lines() -> list[str]:
    return [
        "## What not to save",
        "",
        "Leave out anything that can be worked out again from the repository or that goes stale "
        "within the day. This holds even when the user asks you to save it:",
        "- code patterns, conventions, architecture, file paths or project structure (reading "
        "the current code gives you these);",
        "- git history: recent changes, who changed what and when (`git log` and `git blame` "
        "are the record);",
        "- how a bug was debugged or fixed (the fix is in the code, the reasoning in the commit "
        "message);",
        "- anything already written down in a CLAUDE.md file;",
        "- short-lived task state: work in progress, temporary status, details of this "
        "conversation.",
        "If the user asks you to keep something like this (a list of open PRs, say), ask what "
        "about it cannot be recovered later (a decision, a surprise, a deadline) and save that.",
        "",
    ]


FRONTMATTER_TEMPLATE = [
    "```markdown",
    "---",
    "name: <short title>",
    "description: <one line; it decides whether this memory is recalled later, so be specific>",
    "type: <user | feedback | project | reference>",
    "---",
    "",
    "<the memory; for feedback and project: the rule or fact, then **Why:** and **How to apply:**>",
    "```",
]


def how_to_save_lines(memory_dir: str, skip_index: bool) -> list[str]:
    if skip_index:
        return [
            "## How to save a memory",
            "",
            f"Write each memory to its own file in `{memory_dir}` (one topic per file, named "
            "like `feedback_testing.md`), starting with this frontmatter:",
            "",
            *FRONTMATTER_TEMPLATE,
            "",
            "That is the whole step: there is no index file to keep up to date. Memories are "
            "found by reading the frontmatter of every file, so the description carries the "
            "weight.",
            "- Organise by topic, not by date. Edit an existing memory instead of adding a near "
            "copy, and delete memories that turn out to be wrong.",
            "",
        ]
    return [
        "## How to save a memory",
        "",
        "Saving takes two steps.",
        "",
        f"Step 1: write the memory to its own file in `{memory_dir}` (one topic per file, named "
        "like `feedback_testing.md`), starting with this frontmatter:",
        "",
        *FRONTMATTER_TEMPLATE,
        "",
        "Step 2: add one pointer line for that file to `MEMORY.md` in the same folder, in the "
        "form `- [Title](file.md) — hook`, kept under about 150 characters.",
        "",
        "MEMORY.md is an index, not a container. It is loaded into every conversation, so it "
        "holds pointer lines only: no frontmatter and no memory text. Only the first "
        f"{index.MAX_ENTRYPOINT_LINES} lines (and at most {index.MAX_ENTRYPOINT_BYTES:,} bytes) "
        "are loaded.",
        "- Organise by topic, not by date. Edit an existing memory instead of adding a near copy, "
        "and delete memories that turn out to be wrong (and their index line).",
        "",
    ]


def when_to_access_lines(whose: str) -> list[str]:
    return [
        "## When to use memories",
        "",
        f"- Read {whose} memories when they look relevant to the task, or when the user refers to "
        "earlier work.",
        "- You MUST look in memory when the user explicitly asks you to check, recall or use it.",
        "- If the user says to ignore memory (or not to use it), carry on as if the memory "
        "folder were empty: do not apply, quote, correct or even mention what it says.",
        "- A memory records what was true when it was written. When what you observe now "
        "disagrees with it, go with what you observe, and fix or remove the outdated memory.",
        "",
    ]


def before_recommending_lines() -> list[str]:
    return [
        "## Before recommending from memory",
        "",
        "A memory that talks about code is a claim about the past. Before you act on it or "
        "suggest something because of it:",
        "- it names a file path: confirm that the file is still there;",
        "- it names a function, class or flag: grep for it;",
        '- "a memory mentions X" only shows that X existed once, not that X exists today.',
        "The older the memory, the more likely it is out of date, and the more you should check.",
        "",
    ]


def persistence_lines() -> list[str]:
    return [
        "## Memory versus plans and tasks",
        "",
        "Memory is for what a later conversation will need. Work in the current conversation has "
        "its own tools:",
        "- a plan is where you agree an approach with the user before a non-trivial change; when "
        "the approach changes, update the plan, not memory;",
        "- tasks break the current work into steps and track progress in this conversation;",
        "- memory keeps what will still matter next time.",
        "",
    ]


def search_lines(memory_dir: str, transcripts_dir: str) -> list[str]:
    transcripts = dir_text(transcripts_dir)
    return [
        "## Searching past context",
        "",
        "When you need something from earlier sessions that the index does not point to:",
        f'1. search the memory files: `grep -rn "<term>" {memory_dir} --include="*.md"`',
        "2. only if that finds nothing, search the raw session transcripts (large, so slow): "
        f'`grep -rn "<term>" {transcripts} --include="*.jsonl"`',
        "",
    ]


def extra_lines(extra_guidelines: Sequence[str] | None) -> list[str]:
    if not extra_guidelines:
        return []
    return [*(str(g) for g in extra_guidelines), ""]


def combined_intro(auto: str, team: str) -> list[str]:
    return [
        "# Memory",
        "",
        "You have a persistent memory kept as plain files in two folders. What you write there "
        "survives this conversation.",
        f"- private: `{auto}`, only for you and this user;",
        f"- team: `{team}`, shared with everyone who works on this project (their sessions "
        "read it too).",
        "",
        "Both folders have been created for you before the session started. Save files into "
        "them straight away: no mkdir, and no ls or other check to see whether they are there.",
        "",
        "## Memory scope",
        "",
        "- Private memories concern this user: who they are and how they personally like to work.",
        "- Team memories are things every teammate's session should know: project decisions, "
        "deadlines, shared conventions and where outside information lives.",
        "When unsure, follow the type's <scope> tag below.",
        "",
    ]


def combined_how_to_save(auto: str, team: str, skip_index: bool) -> list[str]:
    head = [
        "## How to save a memory",
        "",
        f"First pick the scope (private `{auto}` or team `{team}`) from the type's <scope> tag.",
        "",
    ]
    if skip_index:
        return [
            *head,
            "Write the memory to its own file in the chosen folder (one topic per file, named "
            "like `project_release_freeze.md`), starting with this frontmatter:",
            "",
            *FRONTMATTER_TEMPLATE,
            "",
            "That is the whole step: neither folder has an index file to keep up to date.",
            "",
        ]
    return [
        *head,
        "Step 1: write the memory to its own file in the chosen folder (one topic per file, "
        "named like `project_release_freeze.md`), starting with this frontmatter:",
        "",
        *FRONTMATTER_TEMPLATE,
        "",
        "Step 2: add one pointer line for it to the `MEMORY.md` of that same folder (the "
        "private and team folders each have their own), in the form "
        "`- [Title](file.md) — hook`, under about 150 characters; the link is relative to "
        "that folder.",
        "",
        "Each MEMORY.md is an index, not a container: pointer lines only, no frontmatter, no "
        f"memory text. Only the first {index.MAX_ENTRYPOINT_LINES} lines (at most "
        f"{index.MAX_ENTRYPOINT_BYTES:,} bytes) of each are loaded.",
        "",
    ]


def secrets_lines() -> list[str]:
    return [
        "## No secrets in team memory",
        "",
        "Team memory is read by other people's sessions. You MUST NOT put sensitive data in it: "
        "never an API key, token, password, private key or any other credential, and no personal "
        "data about the user. Keep such things out of private memory too wherever you can.",
        "",
    ]
