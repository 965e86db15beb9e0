"""The settings keys that decide whether and where memory lives, and the shapes they are
written in that Claude Code does not read.

One home for both rules a settings file's memory keys are checked by: the type each key must
have (a wrongly typed value is ignored), and the key written inside the file's `env` block,
where it sets an environment variable nothing reads (a published setup guide tells its
readers to write `"env": {"autoMemoryEnabled": "true", "autoMemoryDirectory": "..."}`; Claude
Code reads both keys from the top level of a settings file only). Pure: the callers
(home.config, home.env_blocks) pass the parsed file in and log what comes back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memdir_nb.spec.quoted import shown_value

# Key -> the JSON type it must have; checked at load time so a UI can show a clear problem.
MEMORY_SETTINGS_TYPES: dict[str, type] = {
    "autoMemoryDirectory": str,
    "autoMemoryEnabled": bool,
    "autoDreamEnabled": bool,
}
MEMORY_SETTINGS_KEYS: tuple[str, ...] = tuple(MEMORY_SETTINGS_TYPES)
_BOOLEAN_WORDS = frozenset({"true", "false"})


def typed_key_problems(layer: str, path: object, data: Mapping[str, Any]) -> list[str]:
    """One problem per memory key of the wrong type in one settings file (null counts as unset)."""
    problems = []
    for key, expected in MEMORY_SETTINGS_TYPES.items():
        value = data.get(key)
        if value is None or type(value) is expected:
            continue
        want = "true or false" if expected is bool else "a string path"
        got = shown_value(value)
        if expected is bool and isinstance(value, str) and value.strip().lower() in _BOOLEAN_WORDS:
            # "false" in quotes is a string: it read as 'must be true or false, got false'
            word = value.strip().lower()
            got = f"the string {_in_quotes(value)}; write it without the quotes, as {word}"
        problems.append(
            f"{layer} settings {path}: {key} must be {want}, got {got}; this value is ignored."
        )
    return problems


def setting_in_env_block(layer: str, path: object, name: str, value: str) -> str | None:
    """The problem of a memory setting written inside a settings file's `env` block, or None.

    The block only sets environment variables, and no variable of a setting's name is read, so
    the value changes nothing; the problem says where it belongs and how to write it there.
    """
    if name not in MEMORY_SETTINGS_TYPES:
        return None
    word = value.strip().lower()
    if MEMORY_SETTINGS_TYPES[name] is bool:
        shown = f'"{name}": {word if word in _BOOLEAN_WORDS else "true or false"}'
    else:
        shown = f'"{name}": {_in_quotes(value)}'
        if not value.startswith(("/", "~/")):
            shown += " (an absolute path, or one starting with ~/)"
    also = ""
    if name == "autoMemoryEnabled" and word == "false":
        also = " (or, to keep it in env, set CLAUDE_CODE_DISABLE_AUTO_MEMORY to 1)"
    where = "to the top level of the file"
    if name == "autoMemoryDirectory" and layer == "project":  # never read from there either
        where = "to the top level of user or local settings (project settings cannot choose it)"
    return (
        f"{layer} settings {path}: {name} is inside the env block, which only sets environment "
        f"variables, and Claude Code reads no variable of that name, so it changes nothing. "
        f"It is a setting: move it out of env {where}, as {shown}{also}."
    )


def _in_quotes(text: str) -> str:
    """text between double quotes, cut as shown_value cuts it (a settings file may hold 1 MB)."""
    return '"' + shown_value(text)[1:-1] + '"'
