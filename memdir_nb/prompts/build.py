"""The memory instructions given to the model: one directory, private + team, and the dispatch.

Three layers, as in the spec: `build_memory_lines` holds the behavioural rules,
`build_memory_prompt` adds the MEMORY.md index (truncated to its caps), and
`load_memory_prompt` picks the right variant from the feature flags. All text is the
project's own wording of the spec's rules; the sections themselves live in
memdir_nb.prompts.sections.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memdir_nb.formats import index
from memdir_nb.home import paths
from memdir_nb.prompts.daily_log import (
    build_assistant_daily_log_prompt as build_assistant_daily_log_prompt,
)
from memdir_nb.prompts.sections import (
    before_recommending_lines,
    combined_how_to_save,
    combined_intro,
    dir_text,
    explicit_request_lines,
    extra_lines,
    how_to_save_lines,
    intro_lines,
    persistence_lines,
    search_lines,
    secrets_lines,
    types_lines,
    what_not_to_save_lines,
    when_to_access_lines,
)
from memdir_nb.spec.text import terminal_safe
from memdir_nb.storage.containment import is_real_path_within
from memdir_nb.storage.index_files import load_entrypoint

if TYPE_CHECKING:
    from memdir_nb.home.config import MemdirConfig

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
    mem = dir_text(memory_dir)
    transcripts = _search_dir(search_past_context)
    lines = [
        *intro_lines(display_name, mem),
        *explicit_request_lines(skip_index),
        *types_lines(with_scope=False),
        *what_not_to_save_lines(),
        *how_to_save_lines(mem, skip_index),
        *when_to_access_lines("your"),
        *before_recommending_lines(),
        *persistence_lines(),
        *extra_lines(extra_guidelines),
    ]
    if transcripts is not None:
        lines += search_lines(mem, transcripts)
    return lines


def _index_block(scope_dir: str, label: str, memory_dir: str | None = None) -> list[str]:
    """The framed, truncated MEMORY.md of one scope, or a note that it is empty or refused."""
    path = os.path.join(scope_dir, index.ENTRYPOINT_NAME)
    loaded = load_entrypoint(scope_dir, memory_dir=memory_dir)
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
            dir_text(memory_dir), "user's auto-memory, persists across conversations"
        )
    return "\n".join(lines).rstrip("\n") + "\n"


def build_combined_memory_prompt(
    auto_dir: str | os.PathLike[str],
    team_dir: str | os.PathLike[str],
    *,
    skip_index: bool = False,
    search_past_context: SearchArg = None,
    extra_guidelines: Sequence[str] | None = None,
) -> str:
    """The private + team instructions, with each scope's MEMORY.md truncated on its own."""
    auto = dir_text(auto_dir)
    team = dir_text(team_dir)
    transcripts = _search_dir(search_past_context)
    lines = [
        *combined_intro(auto, team),
        *explicit_request_lines(skip_index),
        *types_lines(with_scope=True),
        *what_not_to_save_lines(),
        *combined_how_to_save(auto, team, skip_index),
        *secrets_lines(),
        *when_to_access_lines("personal or team"),
        *before_recommending_lines(),
        *persistence_lines(),
        *extra_lines(extra_guidelines),
    ]
    if transcripts is not None:
        lines += search_lines(auto, transcripts)
    if not skip_index:
        lines += _index_block(auto, "user's auto-memory, persists across conversations")
        lines.append("")
        inside = is_real_path_within(team, auto)
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
    mem = dir_text(agent_dir)
    lines = build_memory_lines(
        AGENT_MEMORY_DISPLAY_NAME, agent_dir, skip_index=skip, extra_guidelines=extra_guidelines
    )
    # The main intro speaks of the user and the project; the agent's own intro replaces it, so
    # the framing colours every shared rule that follows.
    cut = len(intro_lines(AGENT_MEMORY_DISPLAY_NAME, mem))
    # The type is named inside lines of the framing: a line break or a control in it is shown
    # escaped, so it cannot start a heading or a line of its own there
    shown = terminal_safe(str(agent_type), keep_newlines=False)
    lines[:cut] = _agent_framing_lines(shown, scope, mem)
    if not skip:
        lines += _index_block(mem, f"memory of the {shown} agent, {scope} scope")
    return "\n".join(lines).rstrip("\n") + "\n"
