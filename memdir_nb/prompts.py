"""The memory instructions given to the model: one directory, private + team, and the dispatch.

Three layers, as in the spec: `build_memory_lines` holds the behavioural rules,
`build_memory_prompt` adds the MEMORY.md index (truncated to its caps), and
`load_memory_prompt` picks the right variant from the feature flags. All text is the
project's own wording of the spec's rules.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memdir_nb import index, paths
from memdir_nb.kairos import (  # re-exported: the daily-log prompt's one home is kairos
    build_assistant_daily_log_prompt as build_assistant_daily_log_prompt,
)
from memdir_nb.types import MEMORY_TYPES, TYPE_GUIDANCE, MemoryType

if TYPE_CHECKING:
    from memdir_nb.config import MemdirConfig

AUTO_MEM_DISPLAY_NAME = "auto memory"


@dataclass(frozen=True)
class SearchPastContext:
    """Where the searching-past-context section points: the folder holding session transcripts."""

    transcripts_dir: str


SearchArg = SearchPastContext | Mapping[str, object] | None


def _search_dir(search: SearchArg) -> str | None:
    """Pull the transcripts dir out of the dataclass or dict form; None when the section is off."""
    if search is None:
        return None
    if isinstance(search, SearchPastContext):
        return str(search.transcripts_dir)
    if isinstance(search, Mapping):
        value = search.get("transcripts_dir")
        if not value:
            raise ValueError(
                "search_past_context needs a 'transcripts_dir' entry (the project folder that "
                "holds the session .jsonl transcripts), e.g. {'transcripts_dir': '/path/to/project'}"
            )
        return str(value)
    raise TypeError(
        f"search_past_context must be a SearchPastContext, a dict with 'transcripts_dir', or None; "
        f"got {type(search).__name__}"
    )


def _dir_text(path: str | os.PathLike[str]) -> str:
    """Show a directory with exactly one trailing separator, as the paths module returns them."""
    return os.fspath(path).rstrip("/\\") + os.sep


# --- sections -----------------------------------------------------------------------------


def _intro_lines(display_name: str, memory_dir: str) -> list[str]:
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


def _explicit_request_lines(skip_index: bool) -> list[str]:
    where = "its file" if skip_index else "its file and its line in MEMORY.md"
    return [
        "## When the user asks you to remember or forget",
        "",
        "- Asked to remember something: save it now, as whichever of the four types fits.",
        f"- Asked to forget something: find the memory and remove {where}.",
        "",
    ]


def _type_block(t: MemoryType, *, with_scope: bool) -> list[str]:
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


def _types_lines(*, with_scope: bool) -> list[str]:
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
        lines += _type_block(t, with_scope=with_scope)
    lines.append("")
    return lines


def _what_not_to_save_lines() -> list[str]:
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


_FRONTMATTER_TEMPLATE = [
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


def _how_to_save_lines(memory_dir: str, skip_index: bool) -> list[str]:
    if skip_index:
        return [
            "## How to save a memory",
            "",
            f"Write each memory to its own file in `{memory_dir}` (one topic per file, named "
            "like `feedback_testing.md`), starting with this frontmatter:",
            "",
            *_FRONTMATTER_TEMPLATE,
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
        *_FRONTMATTER_TEMPLATE,
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


def _when_to_access_lines(whose: str) -> list[str]:
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


def _before_recommending_lines() -> list[str]:
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


def _persistence_lines() -> list[str]:
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


def _search_lines(memory_dir: str, transcripts_dir: str) -> list[str]:
    transcripts = _dir_text(transcripts_dir)
    return [
        "## Searching past context",
        "",
        "When you need something from earlier sessions that the index does not point to:",
        f'1. search the memory files: `grep -rn "<term>" {memory_dir} --include="*.md"`',
        "2. only if that finds nothing, search the raw session transcripts (large, so slow): "
        f'`grep -rn "<term>" {transcripts} --include="*.jsonl"`',
        "",
    ]


def _extra_lines(extra_guidelines: Sequence[str] | None) -> list[str]:
    if not extra_guidelines:
        return []
    return [*(str(g) for g in extra_guidelines), ""]


# --- public builders ----------------------------------------------------------------------


def build_memory_lines(
    display_name: str,
    memory_dir: str | os.PathLike[str],
    *,
    skip_index: bool = False,
    search_past_context: SearchArg = None,
    extra_guidelines: Sequence[str] | None = None,
) -> list[str]:
    """The behavioural instructions for a single memory dir, as a list of lines."""
    mem = _dir_text(memory_dir)
    transcripts = _search_dir(search_past_context)
    lines = [
        *_intro_lines(display_name, mem),
        *_explicit_request_lines(skip_index),
        *_types_lines(with_scope=False),
        *_what_not_to_save_lines(),
        *_how_to_save_lines(mem, skip_index),
        *_when_to_access_lines("your"),
        *_before_recommending_lines(),
        *_persistence_lines(),
        *_extra_lines(extra_guidelines),
    ]
    if transcripts is not None:
        lines += _search_lines(mem, transcripts)
    return lines


def _index_block(scope_dir: str, label: str, memory_dir: str | None = None) -> list[str]:
    """The framed, truncated MEMORY.md of one scope, or a note that it is empty or refused."""
    path = os.path.join(scope_dir, index.ENTRYPOINT_NAME)
    loaded = index.load_entrypoint(scope_dir, memory_dir=memory_dir)
    if loaded.problem:
        return [
            f"Contents of {path} ({label}):",
            "",
            f"(not loaded: {loaded.note()}. Tell the user; do not write through it. A new "
            f"{index.ENTRYPOINT_NAME} is created with the next saved memory.)",
        ]
    if not loaded.text.strip():
        return [
            f"Contents of {path} ({label}):",
            "",
            f"(empty: there is no {index.ENTRYPOINT_NAME} yet, or it has no entries. Create it "
            "with a pointer line when you save the first memory here.)",
        ]
    truncation = index.truncate_entrypoint_content(loaded.text)
    return [f"Contents of {path} ({label}):", "", truncation.content]


def build_memory_prompt(
    display_name: str,
    memory_dir: str | os.PathLike[str],
    *,
    skip_index: bool = False,
    search_past_context: SearchArg = None,
    extra_guidelines: Sequence[str] | None = None,
) -> str:
    """The instructions plus the truncated MEMORY.md (omitted in skip-index mode)."""
    lines = build_memory_lines(
        display_name,
        memory_dir,
        skip_index=skip_index,
        search_past_context=search_past_context,
        extra_guidelines=extra_guidelines,
    )
    if not skip_index:
        lines += _index_block(
            _dir_text(memory_dir), "user's auto-memory, persists across conversations"
        )
    return "\n".join(lines).rstrip("\n") + "\n"


def _combined_intro(auto: str, team: str) -> list[str]:
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


def _combined_how_to_save(auto: str, team: str, skip_index: bool) -> list[str]:
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
            *_FRONTMATTER_TEMPLATE,
            "",
            "That is the whole step: neither folder has an index file to keep up to date.",
            "",
        ]
    return [
        *head,
        "Step 1: write the memory to its own file in the chosen folder (one topic per file, "
        "named like `project_release_freeze.md`), starting with this frontmatter:",
        "",
        *_FRONTMATTER_TEMPLATE,
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


def _secrets_lines() -> list[str]:
    return [
        "## No secrets in team memory",
        "",
        "Team memory is read by other people's sessions. You MUST NOT put sensitive data in it: "
        "never an API key, token, password, private key or any other credential, and no personal "
        "data about the user. Keep such things out of private memory too wherever you can.",
        "",
    ]


def build_combined_memory_prompt(
    auto_dir: str | os.PathLike[str],
    team_dir: str | os.PathLike[str],
    *,
    skip_index: bool = False,
    search_past_context: SearchArg = None,
    extra_guidelines: Sequence[str] | None = None,
) -> str:
    """The private + team instructions, with each scope's MEMORY.md truncated on its own."""
    auto = _dir_text(auto_dir)
    team = _dir_text(team_dir)
    transcripts = _search_dir(search_past_context)
    lines = [
        *_combined_intro(auto, team),
        *_explicit_request_lines(skip_index),
        *_types_lines(with_scope=True),
        *_what_not_to_save_lines(),
        *_combined_how_to_save(auto, team, skip_index),
        *_secrets_lines(),
        *_when_to_access_lines("personal or team"),
        *_before_recommending_lines(),
        *_persistence_lines(),
        *_extra_lines(extra_guidelines),
    ]
    if transcripts is not None:
        lines += _search_lines(auto, transcripts)
    if not skip_index:
        lines += _index_block(auto, "user's auto-memory, persists across conversations")
        lines.append("")
        inside = team.startswith(auto.rstrip(os.sep) + os.sep)
        lines += _index_block(
            team, "team memory, shared with everyone on this project", auto if inside else None
        )
    return "\n".join(lines).rstrip("\n") + "\n"


def load_memory_prompt(config: MemdirConfig) -> str | None:
    """Pick the memory prompt for this session from the config's flags; None when memory is off."""

    if not paths.is_auto_memory_enabled(config):
        return None
    auto_dir = paths.get_auto_mem_path(config)
    flags = config.flags
    if flags.kairos:
        paths.ensure_memory_dir_exists(auto_dir)

        return build_assistant_daily_log_prompt(auto_dir, now_ms=config.now_ms())
    search = (
        SearchPastContext(transcripts_dir=os.path.dirname(auto_dir.rstrip("/\\")))
        if flags.search_past_context
        else None
    )
    if paths.is_team_memory_enabled(config):
        team_dir = paths.get_team_mem_path(config)
        # creating the team dir creates the auto dir above it too
        paths.ensure_memory_dir_exists(team_dir)
        return build_combined_memory_prompt(
            auto_dir, team_dir, skip_index=flags.skip_index, search_past_context=search
        )
    paths.ensure_memory_dir_exists(auto_dir)
    return build_memory_prompt(
        AUTO_MEM_DISPLAY_NAME, auto_dir, skip_index=flags.skip_index, search_past_context=search
    )


# --- agent memory -------------------------------------------------------------------------

AGENT_MEMORY_DISPLAY_NAME = "Persistent agent memory"

_AGENT_SCOPE_NOTES = {
    "user": (
        "user scope: it lives in your home folder and follows you into every project, so keep "
        "only what holds for this kind of agent anywhere, never facts about one repository."
    ),
    "project": (
        "project scope: it lives inside this project under .claude/ and is normally checked "
        "into version control, so everyone who runs this agent on this project reads it. Keep "
        "what is specific to this project and safe to share: no secrets, nothing personal."
    ),
    "local": (
        "local scope: it lives inside this project under .claude/ but is kept out of version "
        "control, so it stays on this machine. Use it for what only holds here (local tools, "
        "paths, quirks of this checkout); nobody else will see it."
    ),
}


def _agent_framing_lines(agent_type: str, scope: str, memory_dir: str) -> list[str]:
    return [
        f"# {AGENT_MEMORY_DISPLAY_NAME}",
        "",
        f"You have a persistent memory kept as plain files in `{memory_dir}`. What you write there "
        f"survives this run and is read by the next `{agent_type}` agent that starts.",
        "",
        "That folder has been created for you before the run started. Save files into it "
        "straight away: no mkdir, and no ls or other check to see whether it is there.",
        "",
        f"## What this memory is for ({agent_type} agent)",
        "",
        f"This folder belongs to the `{agent_type}` agent type, not to the main assistant. It "
        "holds operational knowledge: how this kind of agent should do its job well. Think of "
        "navigation tricks an explorer learned, the test command a test runner must use, traps "
        "that cost you time before and how to avoid them.",
        "- It is not the place for the user's personal preferences or for project decisions; "
        "those belong to the main memory, which you do not write from here.",
        "- Write for the next run of the same agent type: it starts with no recollection of "
        "this one.",
        f"- Where it lives: {_AGENT_SCOPE_NOTES[scope]}",
        "",
    ]


def build_agent_memory_prompt(
    agent_type: str,
    scope: str,
    config: MemdirConfig,
    *,
    skip_index: bool | None = None,
    extra_guidelines: Sequence[str] | None = None,
) -> str:
    """The memory prompt for one agent type's memory dir, built like the main memory prompt."""

    if scope not in _AGENT_SCOPE_NOTES:
        raise ValueError(
            f"unknown agent memory scope {scope!r}; use one of {', '.join(paths.AGENT_MEMORY_SCOPES)}"
        )
    agent_dir = paths.get_agent_memory_dir(agent_type, scope, config)  # validates agent_type
    paths.ensure_memory_dir_exists(agent_dir)
    skip = config.flags.skip_index if skip_index is None else bool(skip_index)
    mem = _dir_text(agent_dir)
    lines = build_memory_lines(
        AGENT_MEMORY_DISPLAY_NAME, agent_dir, skip_index=skip, extra_guidelines=extra_guidelines
    )
    # The main intro speaks of the user and the project; the agent's own intro replaces it, so
    # the framing colours every shared rule that follows.
    cut = len(_intro_lines(AGENT_MEMORY_DISPLAY_NAME, mem))
    lines[:cut] = _agent_framing_lines(str(agent_type), scope, mem)
    if not skip:
        lines += _index_block(mem, f"memory of the {agent_type} agent, {scope} scope")
    return "\n".join(lines).rstrip("\n") + "\n"
