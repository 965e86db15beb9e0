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
"""

from __future__ import annotations

import re

from memdir_nb.spec.constants import MODIFIED_KEY

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
_ISO_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})")


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
        if '"' in inner or "\\" in inner:
            return None
        return inner
    if first in _PLAIN_BAD_START and not _UUID.fullmatch(value):
        return None
    if value in _YAML_SPECIAL_WORDS:
        return None
    if ": " in value or " #" in value or value.endswith(":"):
        return None
    return value


def _is_simple_key(key: str) -> bool:
    """An ASCII identifier-like key (dashes allowed) that YAML reads as that same string."""
    return (
        key.isascii()
        and key[:1] not in ("", "-")
        and key.replace("-", "_").isidentifier()
        and key not in _YAML_SPECIAL_WORDS
    )


_UNSURE = object()  # a value this reader cannot be sure YAML reads as text


def _value(key: str, rest: str) -> object:
    """The value of `key:` + rest as YAML reads it (None for no value), or _UNSURE."""
    if rest and rest[0] != " ":
        return _UNSURE  # `key:value` is one scalar to YAML, not a pair
    value = rest.strip(" ")
    if not value:
        return None
    parsed = fast_scalar(value)
    if parsed is None and key == MODIFIED_KEY and _ISO_TIME.fullmatch(value):
        parsed = value  # a `modified:` time; read as a date by modified_time_ms
    return _UNSURE if parsed is None else parsed


def fast_parse(lines: list[str]) -> dict[str, object] | None:
    """The header's mapping, read without YAML, or None if unsure (see the module doc)."""
    out: dict[str, object] = {}
    open_key: str | None = None  # a top-level key with no value: children may follow
    nested: dict[str, object] | None = None  # that key's mapping, once a child is read
    indent = 0  # the children's indent, set by the first child
    for line in lines:
        key, colon, rest = line.partition(":")
        if not colon:
            if not line.strip(" ") or (line.startswith("#") and line.isprintable()):
                if open_key is not None:
                    return None  # YAML lets a nested block run on past these: let it decide
                continue  # blank line or comment
            return None
        if not _is_simple_key(key):
            if open_key is None or key[:1] != " ":
                return None  # a continued value, a stray indent, or a key YAML may read otherwise
            width = len(key) - len(key.lstrip(" "))
            if nested is None:
                indent = width
                nested = out[open_key] = {}
            elif width != indent:
                return None  # not the first child's indent
            key = key[width:]
            value = _value(key, rest) if _is_simple_key(key) else _UNSURE
            if value is _UNSURE:
                return None
            nested[key] = value
            continue
        value = _value(key, rest)
        if value is _UNSURE:
            return None
        out[key] = value
        open_key, nested = (key if value is None else None), None
    return out
