"""The path-security lab's view-model: a team key's checks step by step, and the attack examples.

Checking a key writes nothing. `plant_example_symlink` is the one writer: it creates a
demonstration symlink inside team/ when a user explicitly asks for it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.spec.quoted import PROBLEM_TEXT_MAX, shown_text
from memdir_nb.spec.text import terminal_line
from memdir_nb.storage.containment import (
    PathTraversalError,
    realpath_deepest_existing,
    sanitize_path_key,
    validate_team_mem_write_path,
)

__all__ = [
    "ATTACK_EXAMPLES",
    "KEY_CHECKS",
    "AttackExample",
    "CheckStep",
    "check_team_key",
    "plant_example_symlink",
    "shown_key",
]

# Checks in the order sanitize_path_key and validate_team_mem_key apply them; each pairs a
# step id with the PathTraversalError rules that mean that step failed.
KEY_CHECKS: tuple[tuple[str, str, frozenset[str]], ...] = (
    ("empty", "key is not empty", frozenset({"empty"})),
    ("null-byte", "no null byte", frozenset({"null-byte"})),
    ("invalid-unicode", "valid Unicode (no lone surrogates)", frozenset({"invalid-unicode"})),
    (
        "encoded",
        "no traversal hidden by percent-encoding or Unicode normalisation",
        frozenset({"url-encoded-traversal", "unicode-traversal", "mixed-encoding-traversal"}),
    ),
    ("backslash", "no backslash", frozenset({"backslash"})),
    ("absolute", "relative, not absolute", frozenset({"absolute"})),
    ("parent-segment", "no '..' segment", frozenset({"parent-segment"})),
    ("not-a-file", "names a file, not a folder", frozenset({"not-a-file"})),
    (
        "pass-1",
        "pass 1: resolved path stays inside team/ (string containment)",
        frozenset({"escapes-dir"}),
    ),
    (
        "pass-2",
        "pass 2: real path of the deepest existing ancestor stays inside team/",
        frozenset({"symlink-escape", "dangling-symlink", "symlink-loop", "cannot-verify"}),
    ),
    ("length", "file and path names within the filesystem's limits", frozenset({"too-long"})),
)
SANITIZER_STEPS = 8  # the first eight checks belong to sanitize_path_key


def shown_key(key: str) -> str:
    """The key as the lab shows it, on one line between quotes: spec.quoted's rule (cut in
    the middle past SHOWN_TEXT_MAX characters, every control a visible escape). It was shown
    whole, so a 1 MB key pasted in made 1 MB of widget text (polish38)."""
    return f"'{terminal_line(shown_text(key))}'"


def _shown_detail(text: str) -> str:
    """A step's detail (a refusal, or the path a key resolves to), quoted by the same rule: a
    path is built from the key, so it was the key's size again."""
    return shown_text(text, PROBLEM_TEXT_MAX)


@dataclass(frozen=True)
class CheckStep:
    """One check applied to a key: passed, failed (with the rule and message) or not reached."""

    step: str
    title: str
    status: str  # "pass" | "fail" | "not reached"
    rule: str = ""
    detail: str = ""


def _failing_step(exc: Exception, key: str, stage: str) -> str:
    """The step id a PathTraversalError (or ValueError) belongs to."""
    rule = getattr(exc, "rule", "")
    if rule == "null-byte" and stage == "sanitize" and "\0" not in key:
        return "encoded"  # a percent-encoded %00 is caught by the decoding step
    if rule == "null-byte":
        return "null-byte"
    for step, _, rules in KEY_CHECKS:
        if rule in rules:
            return step
    return "pass-2" if stage == "contain" else "encoded"


def _mark(
    steps: list[CheckStep],
    ids: Sequence[str],
    failed: str | None,
    exc: Exception | None,
    extra: Mapping[str, str],
) -> None:
    reached = True
    for step_id in ids:
        title = next(t for s, t, _ in KEY_CHECKS if s == step_id)
        if not reached:
            steps.append(CheckStep(step_id, title, "not reached"))
        elif step_id == failed:
            rule = getattr(exc, "rule", "error")
            steps.append(CheckStep(step_id, title, "fail", rule, _shown_detail(str(exc))))
            reached = False
        else:
            steps.append(CheckStep(step_id, title, "pass", "", extra.get(step_id, "")))


def check_team_key(
    key: str, team_dir: str | os.PathLike[str], *, run_all: bool = False
) -> list[CheckStep]:
    """Each check a team key goes through, in order, with pass/fail; writes nothing.

    run_all=True still runs the containment passes after the sanitizer rejects the key, to
    show what the second layer alone would have caught.
    """

    ids = [s for s, _, _ in KEY_CHECKS]
    steps: list[CheckStep] = []
    failed: str | None = None
    exc: Exception | None = None
    try:
        sanitize_path_key(key)
    except (PathTraversalError, TypeError) as err:
        failed, exc = _failing_step(err, key, "sanitize"), err
    _mark(steps, ids[:SANITIZER_STEPS], failed, exc, {})
    if failed is not None and not run_all:
        steps.extend(CheckStep(s, t, "not reached") for s, t, _ in KEY_CHECKS[SANITIZER_STEPS:])
        return steps

    base = os.path.abspath(os.fspath(team_dir))
    candidate = os.path.join(base, key)
    extra: dict[str, str] = {}
    c_failed: str | None = None
    c_exc: Exception | None = None
    try:
        resolved = validate_team_mem_write_path(candidate, base)
        extra["pass-1"] = f"resolves to {shown_text(resolved)}"
        extra["pass-2"] = f"really points to {shown_text(realpath_deepest_existing(resolved))}"
    except (PathTraversalError, ValueError) as err:
        c_failed, c_exc = _failing_step(err, key, "contain"), err
        if c_failed != "pass-1" and "\0" not in candidate:
            extra["pass-1"] = f"resolves to {shown_text(os.path.abspath(candidate))}"
    _mark(steps, ids[SANITIZER_STEPS:], c_failed, c_exc, extra)
    return steps


@dataclass(frozen=True)
class AttackExample:
    """A key from the attack menu; `symlink` names a link it needs planted in team/ first."""

    label: str
    key: str
    expected_rule: str | None  # None for a key that must be accepted
    symlink: tuple[str, str] | None = None  # (link name in team/, target kind)


ATTACK_EXAMPLES: tuple[AttackExample, ...] = (
    AttackExample("ordinary key (accepted)", "notes/deploy.md", None),
    AttackExample("parent traversal", "../../.ssh/authorized_keys", "parent-segment"),
    AttackExample("null byte", "notes.md\0.png", "null-byte"),
    AttackExample(
        "percent-encoded traversal %2e%2e%2f",
        "%2e%2e%2f%2e%2e%2fetc/passwd",
        "url-encoded-traversal",
    ),
    AttackExample("double percent-encoding", "%252e%252e%252fsecrets.md", "url-encoded-traversal"),
    AttackExample(
        "fullwidth dots and slash \uff0e\uff0e\uff0f",
        "\uff0e\uff0e\uff0fsecrets.md",
        "unicode-traversal",
    ),
    AttackExample("backslash", "..\\..\\secrets.md", "backslash"),
    AttackExample("absolute path", "/etc/passwd", "absolute"),
    AttackExample(
        "planted symlink to outside the memory dir",
        "leak/stolen.md",
        "symlink-escape",
        ("leak", "outside"),
    ),
    AttackExample(
        "dangling symlink", "dangling/new.md", "dangling-symlink", ("dangling", "missing")
    ),
    AttackExample("symlink loop", "loop/x.md", "symlink-loop", ("loop", "loop")),
)


def plant_example_symlink(team_dir: str | os.PathLike[str], example: AttackExample) -> Path:
    """Create the symlink an attack example needs inside team/ (only on explicit request); returns it.

    'outside' points at the memory dir's parent folder, 'missing' at a path that does not
    exist, 'loop' at itself. An existing link with the same target is left as it is.
    """
    if example.symlink is None:
        raise ValueError(f"the example {example.label!r} needs no symlink; nothing to plant")
    name, kind = example.symlink
    team = Path(os.path.abspath(os.fspath(team_dir)))
    link = team / name
    if kind == "outside":
        target = str(team.parent.parent)
    elif kind == "missing":
        target = str(team.parent.parent / "memdir-nb-lab-missing-target")
    elif kind == "loop":
        target = str(link)
    else:
        raise ValueError(f"unknown symlink kind {kind!r}: use outside, missing or loop")
    if os.path.lexists(link):
        if link.is_symlink() and os.readlink(link) == target:
            return link
        raise FileExistsError(
            f"{link} already exists and is not the lab's example link; remove it by hand if you "
            "want the lab to plant its example there"
        )
    team.mkdir(parents=True, exist_ok=True)
    os.symlink(target, link)
    return link
