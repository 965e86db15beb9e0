"""The closed four-type memory taxonomy, with each type's scope rule and guidance."""

from __future__ import annotations

from enum import StrEnum

from memdir_nb.spec.constants import TEAM_DIRNAME
from memdir_nb.spec.records import Record

# typing stays unimported at run time (every `memdir-nb scan` imports this module; typing is
# about 12 M instructions of that process: docs/performance.md, forty-second session)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    Scope = Literal["private", "team"]
else:

    def __getattr__(name: str) -> object:
        """`Scope` for code that reads it at run time (`memdir_nb.Scope`, `typing.get_args`),
        made on first use: the package's own modules name it in annotations only."""
        if name != "Scope":
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from typing import Literal  # local: the one use of typing here, for the few who ask

        globals()["Scope"] = scope = Literal["private", "team"]
        return scope


SCOPES: tuple[Scope, ...] = ("private", "team")


class MemoryType(StrEnum):
    """One of the four memory types; the set is closed on purpose."""

    USER = "user"
    FEEDBACK = "feedback"
    PROJECT = "project"
    REFERENCE = "reference"

    def __str__(self) -> str:
        return self.value


MEMORY_TYPES: tuple[MemoryType, ...] = tuple(MemoryType)
TYPE_NAMES: tuple[str, ...] = tuple(t.value for t in MemoryType)


class InvalidMemoryTypeError(ValueError):
    """Raised when a memory type is not one of the four."""


class TypeGuidance(Record, frozen=True):
    """What a type is for, when to save it, how to use it, and where it lives."""

    type: MemoryType
    purpose: str
    when_to_save: str
    how_to_use: str
    examples: tuple[str, ...]
    default_scope: Scope
    scope_rule: str
    needs_why_and_how: bool


TYPE_GUIDANCE: dict[MemoryType, TypeGuidance] = {
    MemoryType.USER: TypeGuidance(
        type=MemoryType.USER,
        purpose="Who the user is: their role, goals, responsibilities and what they already know.",
        when_to_save="When you learn something about the user's background, preferences or duties.",
        how_to_use="Shape explanations and choices to fit this person's experience and aims.",
        examples=(
            "Data scientist digging into observability tooling",
            "Ten years of Go, first week with React",
        ),
        default_scope="private",
        scope_rule="always private: one person's profile is never pushed onto the team",
        needs_why_and_how=False,
    ),
    MemoryType.FEEDBACK: TypeGuidance(
        type=MemoryType.FEEDBACK,
        purpose="How the user wants the work done: what to stop doing and what to keep doing.",
        when_to_save=(
            'When the user corrects you ("don\'t do X") and also when they confirm an approach '
            '("yes, exactly like that"); saving only corrections makes you drift and over-hedge.'
        ),
        how_to_use="Follow the rule, and use its reason to judge the edge cases it does not spell out.",
        examples=(
            "Integration tests hit a real database, never mocks",
            "No recap paragraph after a diff",
        ),
        default_scope="private",
        scope_rule="private by default; team only when it is a convention for the whole project",
        needs_why_and_how=True,
    ),
    MemoryType.PROJECT: TypeGuidance(
        type=MemoryType.PROJECT,
        purpose=(
            "The state of the work that the code and git history do not show: goals, decisions, "
            "deadlines, incidents, who is doing what and why."
        ),
        when_to_save=(
            "When you learn who is doing what, why, or by when. Turn relative dates into absolute "
            'ones before saving ("Thursday" becomes "2026-03-05").'
        ),
        how_to_use="Let it shape suggestions: respect deadlines, freezes and the reasons behind decisions.",
        examples=(
            "Merge freeze from 2026-03-05 for the mobile release",
            "Auth rewrite is driven by a legal compliance deadline",
        ),
        default_scope="team",
        scope_rule="private or team, leaning team: milestones and decisions matter to everyone",
        needs_why_and_how=True,
    ),
    MemoryType.REFERENCE: TypeGuidance(
        type=MemoryType.REFERENCE,
        purpose="Where to look in outside systems for information that stays current there.",
        when_to_save="When you learn where bugs, dashboards, docs or feedback live outside the repo.",
        how_to_use="Point to the outside system whenever the user mentions it or the answer may live there.",
        examples=(
            "Pipeline bugs are tracked in the Linear project INGEST",
            "On-call watches the Grafana board api-latency",
        ),
        default_scope="team",
        scope_rule="usually team: where things live is shared knowledge",
        needs_why_and_how=False,
    ),
}


def parse_memory_type(raw: object) -> MemoryType | None:
    """Map a frontmatter value to a MemoryType, or None when it is missing or unknown."""
    if isinstance(raw, MemoryType):
        return raw
    if not isinstance(raw, str):
        return None
    # a dict lookup: what MemoryType(value) finds (StrEnum defines no _missing_), without
    # the enum call's cost, paid for every file a whole-dir pass parses
    return _BY_VALUE.get(raw.strip().lower())


_BY_VALUE: dict[str, MemoryType] = {t.value: t for t in MemoryType}


def require_memory_type(raw: object) -> MemoryType:
    """Like parse_memory_type, but raise an error that lists the four types."""
    parsed = parse_memory_type(raw)
    if parsed is None:
        raise InvalidMemoryTypeError(
            f"unknown memory type {raw!r}: the type must be one of "
            f"{', '.join(TYPE_NAMES)} (the taxonomy is closed)"
        )
    return parsed


def default_scope(memory_type: MemoryType | str) -> Scope:
    """The scope a memory of this type goes to when nobody says otherwise."""
    return TYPE_GUIDANCE[require_memory_type(memory_type)].default_scope


def scope_rule(memory_type: MemoryType | str) -> str:
    """The one-line scope rule for a type (used by prompts and widgets)."""
    return TYPE_GUIDANCE[require_memory_type(memory_type)].scope_rule


def allowed_in_team(memory_type: MemoryType | str) -> bool:
    """Whether a memory of this type may live in team scope at all (user memories may not)."""
    return require_memory_type(memory_type) is not MemoryType.USER


# The one statement of the rule; store, lint, dream and the editor all report it in these words.
USER_NEVER_TEAM = "a user memory describes one person and is always private"


def scope_violation(memory_type: MemoryType | str | None, scope: str) -> str | None:
    """Why a memory of this type may not live in this scope, or None when it may.

    The rule: a user memory never goes to team. An unknown or missing type breaks no scope rule
    here (the type check reports it).
    """
    mtype = parse_memory_type(memory_type)
    if scope == "team" and mtype is not None and not allowed_in_team(mtype):
        return USER_NEVER_TEAM
    return None


def scope_of_path(rel: str) -> Scope:
    """The scope of a file from its path relative to the memory dir: under team/ is team."""
    return "team" if rel.replace("\\", "/").startswith(TEAM_DIRNAME + "/") else "private"
