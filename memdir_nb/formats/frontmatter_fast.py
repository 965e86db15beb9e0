"""The headers read without YAML: the plain shapes real memory files use, where the answer is certain.

Most memory headers are a few `key: plain text` lines. Claude Code's newer files nest the type
and the session under `metadata:`, one level deep, two spaces in:

    name: deploy-checklist
    description: Steps the team follows before a production deploy
    metadata:
      node_type: memory
      type: project
      originSessionId: 3f2a9c1e-4b5d-4e6f-8a7b-9c0d1e2f3a4b

PyYAML reads such a header in about 90 µs and costs about 12 ms to import; this reader takes a
few µs and imports nothing. It answers only where it gives exactly the mapping YAML would
give, and returns None for anything else (a value YAML would type or cut, a deeper or uneven
indent, a blank or comment line near a nested block), which frontmatter.py then hands to YAML.
The one planned difference is the `modified:` time, kept as its ISO text where YAML builds a
datetime; spec.timestamps.modified_time_ms reads both the same. The tests compare this reader
with PyYAML on every shape it accepts.

More shapes are answered without YAML because the answer is just as certain:
- text that starts with a digit but holds a character no number or time can hold
  (`description: 2026-05-04 fix for the login bug`);
- a double-quoted value whose only escapes are \\" and \\\\;
- a date alone (`updated: 2026-06-22`), which YAML reads as that datetime.date;
- text that starts with '.' or '~' but is no float, infinity or null (`.claude/settings.json`,
  `~/notes/todo.md`);
- a flow list of plain words (`tags: [deploy, ci]`), which YAML reads as that list of strings;
- a plain value holding `: ` (`description: Steps: run the tests`), which YAML always refuses:
  the reader returns a PlainColon naming the line, and frontmatter.py recovers the fields line by
  line, as it does after any YAML error, with a message that says how to fix the header.
"""

from __future__ import annotations

import re

from memdir_nb.spec import datetime_types as _dt
from memdir_nb.spec.constants import MODIFIED_KEY
from memdir_nb.spec.lazy_regex import compiled_on_first_use
from memdir_nb.spec.records import Record

# Characters that make YAML read a plain value as something other than a simple string.
_PLAIN_BAD_START = set("-?:,[]{}#&*!|>'\"%@`=<+.0123456789~")
_YAML_SPECIAL_WORDS = frozenset(
    w
    for base in ("yes", "no", "true", "false", "on", "off", "null", "y", "n")
    for w in (base, base.capitalize(), base.upper())
)
# A session id as Claude Code writes it (`originSessionId:`). It may start with a digit, but
# it holds no '.', ':' or '_' and its first '-' comes after 8 characters, so none of YAML's
# int, float, sexagesimal or timestamp patterns matches it: YAML reads it as this same text.
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
# Every character YAML 1.1's int, float and timestamp patterns can hold (digits, signs, '_', '.',
# ':', the 0b/0x/hex letters, e/E, .inf/.nan, the T/t/Z of a time, and the space or tab before
# a time or zone), plus a few more for safety: a value with any other character is not a number.
_DIGITS = frozenset("0123456789")
_NUMBER_CHARS = frozenset("0123456789_+-.: \tabcdefABCDEFxXoOiInNtTzZ")
# A double-quoted value whose only escapes are \" and \\ (YAML reads them as " and \).
_QUOTE_ESCAPES_ONLY = compiled_on_first_use(r'(?:[^"\\]|\\["\\])*')
_QUOTE_ESCAPE = compiled_on_first_use(r'\\(["\\])')
# A date alone, as YAML's timestamp pattern reads it when the month and day have two digits.
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_ISO_TIME = compiled_on_first_use(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})")
# An item of a flow list that YAML reads as that same text: a letter or "_", then word characters,
# spaces, dots, slashes or dashes (no flow indicator, quote, ':' or '#'); fast_scalar still
# rules out the words YAML types (yes, null, ...).
_FLOW_ITEM = re.compile(r"[^\W\d][\w ./-]*")


class PlainColon(Record, frozen=True):
    """A header YAML refuses: a plain value holds ': ' (or ends in ':'), so YAML reads a second key
    where none may start. line is the header line's index (0 = the line after the opening fence).

    A record (spec.records), not a dataclass or a NamedTuple: this module is on every scan's
    import path, where `import dataclasses` brings `inspect`, and a NamedTuple's class compiles
    each of its string annotations (a `compile` call each, about 0.6 M instructions).
    """

    line: int
    key: str


def _digit_text(value: str) -> bool:
    """A plain value starting with a digit that YAML reads as text: it holds a character that
    none of YAML's int, float and timestamp patterns (the only ones tried on a leading digit)
    can hold, as in `2026-05-04 fix for the login bug` or `3d-printing`."""
    return value[0] in _DIGITS and not _NUMBER_CHARS.issuperset(value)


# What YAML 1.1 reads from a plain value that starts with '.': a float when the next character is
# a digit or '_' (`.5`, `.5e+3`), or one of these spellings of infinity and not-a-number.
_DOT_WORDS = frozenset(f".{w}" for w in ("inf", "Inf", "INF", "nan", "NaN", "NAN"))


def _dot_or_tilde_text(value: str) -> bool:
    """A plain value starting with '.' or '~' that YAML reads as text: `~` alone is null, and a
    leading '.' starts a float only as above; `.claude/settings.json` and `~/notes` are text."""
    if value[0] == "~":
        return len(value) > 1
    if value[0] == ".":
        return value not in _DOT_WORDS and (len(value) == 1 or value[1] not in "0123456789_")
    return False


def fast_scalar(value: str) -> str | None:
    """The string YAML would load for value, when that is certain without YAML; else None."""
    if not value:
        return None
    if not value.isprintable():  # stricter than YAML's printable set, and C-fast
        return None
    first = value[0]
    if first == "'" and len(value) >= 2 and value.endswith("'"):
        inner = value[1:-1]
        if "'" in inner.replace("''", ""):
            return None
        return inner.replace("''", "'")
    if first == '"' and len(value) >= 2 and value.endswith('"'):
        inner = value[1:-1]
        if "\\" not in inner:
            return None if '"' in inner else inner
        if not _QUOTE_ESCAPES_ONLY().fullmatch(inner):
            return None
        return _QUOTE_ESCAPE().sub(r"\1", inner)
    if (
        first in _PLAIN_BAD_START
        and not _UUID.fullmatch(value)
        and not _digit_text(value)
        and not _dot_or_tilde_text(value)
    ):
        return None
    if value in _YAML_SPECIAL_WORDS:
        return None
    if ": " in value or " #" in value or value.endswith(":"):
        return None
    return value


def _date(year: int, month: int, day: int) -> _dt.date | None:
    """The date YAML builds for `YYYY-MM-DD`, or None where it cannot (YAML then raises)."""
    try:
        return _dt.date(year, month, day)
    except ValueError:
        return None


def _flow_list(value: str) -> list[str] | None:
    """The list YAML loads for `[word, word]` on one line, when that is certain; else None."""
    if not (value.startswith("[") and value.endswith("]")):
        return None
    inner = value[1:-1].strip(" ")
    if not inner:
        return []
    items = [item.strip(" ") for item in inner.split(",")]
    if not all(_FLOW_ITEM.fullmatch(item) and fast_scalar(item) == item for item in items):
        return None
    return items


def yaml_refuses(value: str) -> bool:
    """True when value, read after `key: `, is a plain scalar that YAML must refuse.

    A plain value ends at ': ' (or a ':' ending the line) unless a ' #' comment starts first;
    YAML then reads a key where none may start on that line ("mapping values are not allowed").
    Only values that certainly start a plain scalar (fast_scalar's safe first characters) count.
    """
    if not value or value[0] in _PLAIN_BAD_START or not value.isprintable():
        return False
    colon = value.find(": ")
    comment = value.find(" #")
    if comment >= 0:
        return 0 <= colon < comment
    return colon >= 0 or value.endswith(":")


def _is_simple_key(key: str) -> bool:
    """An ASCII identifier-like key (dashes allowed) that YAML reads as that same string."""
    return (
        key.isascii()
        and key[:1] not in ("", "-")
        and key.replace("-", "_").isidentifier()
        and key not in _YAML_SPECIAL_WORDS
    )


_UNSURE = object()  # a value this reader cannot be sure YAML reads as text
_REFUSED = object()  # a value YAML certainly refuses (yaml_refuses)


def _value(key: str, rest: str) -> object:
    """The value of `key:` + rest as YAML reads it (None for no value), _UNSURE or _REFUSED."""
    if rest and rest[0] != " ":
        return _UNSURE  # `key:value` is one scalar to YAML, not a pair
    value = rest.strip(" ")
    if not value:
        return None
    parsed: object = fast_scalar(value)
    if parsed is None and key == MODIFIED_KEY and _ISO_TIME().fullmatch(value):
        parsed = value  # a `modified:` time; read as a date by modified_time_ms
    if parsed is None and value[0] == "[":
        parsed = _flow_list(value)
    if parsed is None and (date := _DATE.fullmatch(value)):
        parsed = _date(*map(int, date.groups()))  # `updated: 2026-06-22`: YAML builds a date
    if parsed is None:
        return _REFUSED if yaml_refuses(value) else _UNSURE
    return parsed


def _child_key(key: str, indent: int | None) -> tuple[str, int] | None:
    """(the child's key, its indent) for an indented `key` under a key with no value, when
    YAML certainly reads it as a child at that indent (the first child's, once set); else None."""
    width = len(key) - len(key.lstrip(" "))
    child = key[width:]
    if not width or (indent is not None and width != indent) or not _is_simple_key(child):
        return None  # not indented, not the first child's indent, or a key YAML may read otherwise
    return child, width


def fast_parse(lines: list[str]) -> dict[str, object] | PlainColon | None:
    """The header's mapping read without YAML, a PlainColon where YAML certainly refuses the
    header, or None if unsure (see the module doc).

    Lines are read in order and YAML stops at the first error, so a refused line counts only
    when every line before it was read with certainty.
    """
    out: dict[str, object] = {}
    open_key: str | None = None  # a top-level key with no value: children may follow
    nested: dict[str, object] | None = None  # that key's mapping, once a child is read
    indent = 0  # the children's indent, set by the first child
    for number, line in enumerate(lines):
        key, colon, rest = line.partition(":")
        if not colon:
            blank_or_comment = not line.strip(" ") or (line.startswith("#") and line.isprintable())
            if blank_or_comment and open_key is None:
                continue  # (near a nested block YAML lets the block run on past these: unsure)
            return None
        target = out
        if not _is_simple_key(key):
            if open_key is None:
                return None  # a continued value or a stray indent
            child = _child_key(key, None if nested is None else indent)
            if child is None:
                return None  # not the first child's indent, or a key YAML may read otherwise
            key, indent = child
            if nested is None:
                nested = out[open_key] = {}
            target = nested
        value = _value(key, rest)
        if value is _UNSURE:
            return None
        if value is _REFUSED:
            return PlainColon(number, key)
        target[key] = value
        if target is out:
            open_key, nested = (key if value is None else None), None
    return out
