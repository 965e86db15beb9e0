"""Values quoted back in a problem's text: cut, and safe to print.

A refusal often quotes what it refuses: a settings value of the wrong type, a path or an
old_str a model sent, a tool name. Such a value can be 1 MB, and a refusal is read by a
person in a terminal or sent to a model again with every later turn, so it is quoted cut
(attack round 25 for settings values, attack38 for the tools' inputs).
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from itertools import islice

from memdir_nb.spec.text import terminal_safe

__all__ = [
    "PROBLEM_TEXT_MAX",
    "SHOWN_FIELDS_MAX",
    "SHOWN_TEXT_MAX",
    "shown_fields",
    "shown_input",
    "shown_problem",
    "shown_repr",
    "shown_text",
    "shown_value",
]

_SHOWN = reprlib.Repr()  # (keyword arguments need Python 3.12)
_SHOWN.maxstring = _SHOWN.maxother = _SHOWN.maxlong = 80
_SHOWN.maxlist = _SHOWN.maxdict = 6


def shown_value(value: object) -> str:
    """A value quoted in a problem's text, as repr shows it but cut: a string past 80
    characters keeps its ends around '...', a list or an object its first six entries. A
    settings value of the wrong type is quoted back, and the file may hold 1 MB of it (the
    warning was one line of 1 MB; attack round 25)."""
    return _SHOWN.repr(value)


# The most characters of a text a problem quotes back as written (shown_text): enough for any
# old_str, path or name a model sends in earnest, and no more (attack38).
SHOWN_TEXT_MAX = 500


def shown_text(text: str, limit: int = SHOWN_TEXT_MAX) -> str:
    """Text a problem quotes back as it was written (a model's old_str, a path it sent), made
    safe to print and cut: every control is a visible escape (newlines and tabs stay), and past
    limit characters its middle is replaced by how many characters were left out.

    The memory tool and the extraction tools echoed such values whole, so a 1 MB old_str or
    path came back as a 1 MB error, sent to the model again with every later turn (attack38).
    A text within limit and with no control is returned unchanged, so the reference backend's
    answers stay byte for byte on what a model sends in earnest."""
    return terminal_safe(_cut(text, limit))


def _cut(text: str, limit: int) -> str:
    """text, its middle replaced by how many characters were left out past limit characters."""
    if len(text) <= limit:
        return text
    half = max(limit // 2, 1)
    left = len(text) - 2 * half
    return f"{text[:half]}...[{left:,} characters left out]...{text[-half:]}"


def shown_repr(text: str, limit: int = SHOWN_TEXT_MAX) -> str:
    """text as repr quotes it (between quotes, every control escaped), cut as shown_text cuts.

    For a refusal that quotes a second path beside the one it is about (a path as sent beside
    where it resolves, a key beside what it decodes to): the path it is about is quoted whole
    once, the other one cut, so a legal path (4,095 bytes) quoted twice no longer passes
    PROBLEM_TEXT_MAX and loses its middle, where what is wrong was said (polish38). Within
    limit, repr(text) unchanged."""
    return repr(_cut(text, limit))


def shown_input(value: object, limit: int = SHOWN_TEXT_MAX) -> str:
    """A value a caller sent, quoted back in a problem's text: a string as written
    (shown_text), anything else as shown_value shows it (a list, an object, a number)."""
    if isinstance(value, str):
        return shown_text(value, limit)
    return terminal_safe(shown_value(value))


# The most fields of a caller's object (a tool call's input) shown_fields keeps, as shown_value
# shows at most six entries of a dict.
SHOWN_FIELDS_MAX = 6
_SHOWN_FIELD_NAME_MAX = 80  # a field's name, quoted by shown_text


def shown_fields(value: object) -> dict[str, str]:
    """A caller's object (a tool call's input) as it is kept to be shown later: its first
    SHOWN_FIELDS_MAX fields, each name and value quoted (shown_text, shown_input), and one
    entry '...' saying how many more were left out. Anything but a mapping is one field '...'
    holding shown_input of it. ToolRunner kept each refused call's input whole, so 10,000
    calls of 1 MB held 10 GB (polish38)."""
    if not isinstance(value, Mapping):
        return {"...": shown_input(value)}
    kept = {
        shown_text(str(name), _SHOWN_FIELD_NAME_MAX): shown_input(field)
        for name, field in islice(value.items(), SHOWN_FIELDS_MAX)
    }
    if len(value) > SHOWN_FIELDS_MAX:
        kept["..."] = f"{len(value) - SHOWN_FIELDS_MAX:,} more fields left out"
    return kept


# The most characters a problem's whole text runs to (shown_problem): a path at the system's
# limit (4,096 bytes) quoted once, with room for what is wrong and the fix.
PROBLEM_TEXT_MAX = 6_000


def shown_problem(message: str, limit: int = PROBLEM_TEXT_MAX) -> str:
    """A problem's whole text, its middle cut past limit characters: it starts with what is
    wrong and ends with the fix, so both stay. The one bound for the refusals that quote a
    path or key as they build it (storage.containment's PathTraversalError, the store's
    MemoryValidationError, the memory tool's MemoryCommandError, the extraction sandbox's
    denials): a 1 MB path was quoted two or three times, a 3 MB refusal (attack38)."""
    return _cut(message, limit)
