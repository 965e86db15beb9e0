"""Read and parse the YAML frontmatter at the top of a memory file.

Reading is bounded: only the first FRONTMATTER_MAX_LINES lines and at most
FRONTMATTER_MAX_BYTES bytes are ever read, with one contained read
(memdir_nb.storage.access: regular files only, never outside the memory dir, non-blocking), so a
10 MB one-line file costs the same as a small one.

Parsing never raises on bad content. Memory files are written by models and by people, and
often hold things strict YAML rejects (``description: Release steps: tag, build``); when
YAML fails, name/description/type are recovered line by line and the header is flagged
``malformed`` with the reasons in ``problems`` so lint can report them.

Writing (render_memory_file, render_updated_memory_file) lives in
memdir_nb.formats.frontmatter_render; reading a file's head from disk in memdir_nb.storage.headers.
"""

from __future__ import annotations

import functools
import re
import sys

from memdir_nb.formats.frontmatter_fast import PlainColon, fast_parse, fast_scalar
from memdir_nb.formats.frontmatter_window import (
    _yaml_lines,
    header_span,
    header_window_problem,
)
from memdir_nb.formats.frontmatter_window import (
    normalise_newlines as normalise_newlines,  # re-exported: its importers look for it here
)
from memdir_nb.spec import datetime_types as _dt
from memdir_nb.spec.constants import (
    FRONTMATTER_MAX_LINES,
    METADATA_KEY,
    MODIFIED_KEY,
    PINNED_KEY,
)
from memdir_nb.spec.lazy_regex import compiled_on_first_use
from memdir_nb.spec.records import Record, field, replace
from memdir_nb.spec.taxonomy import MemoryType, parse_memory_type
from memdir_nb.spec.timestamps import modified_time_ms

TYPE_CHECKING = False  # typing stays unimported at run time; mypy reads the block below
if TYPE_CHECKING:
    from typing import Any

_CORE_KEYS = ("name", "description", "type")


@functools.cache
def yaml_loader() -> tuple[Any, Any]:
    """PyYAML and the loader class to parse with, imported once, on first use.

    Most headers are plain lines that frontmatter_fast.fast_parse reads without YAML, so a scan
    of such files never imports PyYAML (about a third of a cold start). libyaml's C loader
    is several times faster; the pure-Python one gives identical results.
    """
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader: Any = type("HeaderLoader", (base,), {})  # the base is chosen at run time
    loader.add_constructor("tag:yaml.org,2002:int", _printable_int)
    return yaml, loader


def _printable_int(loader: Any, node: Any) -> int:
    """YAML's int, refused when Python cannot show it in decimal (ValueError: the header is
    recovered line by line, the value kept as written). A hex, octal or base-60 literal is
    built past Python's limit on decimal digits, and every later str() raised: `to_dataframe`
    of such a dir ended in "Exceeds the limit (4300 digits)..." (thirty-second session)."""
    value: int = loader.construct_yaml_int(node)
    if value.bit_length() > 64:
        try:
            str(value)
        except ValueError:
            raise ValueError(
                f"the integer {node.value[:20]}… has more decimal digits than can be shown "
                f"({sys.get_int_max_str_digits()} at most)"
            ) from None
    return value


# What a YAML load raises past YAMLError on text PyYAML accepts: a value its constructors
# cannot build (a timestamp past datetime's years), and, with the pure-Python loader (PyYAML
# without libyaml), a "\U00110000" escape, where chr() raises ValueError and libyaml raises a
# ScannerError. The line-by-line recovery caught YAMLError only, so such a value in a header
# already being recovered raised out of parse_frontmatter (attack round 29).
_YAML_VALUE_ERRORS = (ValueError, TypeError, OverflowError, RecursionError)


class Frontmatter(Record, frozen=True):
    """What could be read from a memory file's header; missing fields are None."""

    name: str | None = None
    description: str | None = None
    type: MemoryType | None = None
    raw_type: str | None = None
    fields: dict[str, object] = field(default_factory=dict)
    has_frontmatter: bool = False
    malformed: bool = False
    problems: tuple[str, ...] = ()
    problem_line: int | None = None  # the file line a malformed header's problem is on, if known
    type_nested: bool = False  # the type was read from the nested `metadata:` mapping
    header_lines: tuple[str, ...] = ()  # the raw lines between the fences, for in-place updates
    closed: bool = False  # the header ends with a closing '---' line
    # key -> (the value as YAML reads it, cut at an inline ' #'; the whole value, as Claude Code
    # 2.1.214+ reads it and as this field now holds it). Only plain, unquoted top-level values.
    inline_hash: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def metadata(self) -> dict[str, object]:
        """The nested `metadata:` mapping, or {} when the header has none."""
        nested = self.fields.get(METADATA_KEY)
        return dict(nested) if isinstance(nested, dict) else {}

    @property
    def typeless_by_design(self) -> bool:
        """No type written, in the shape Claude Code stamps when it writes none: a `pinned:`
        flag under `metadata:` (constants.PINNED_KEY). The one test lint and the memory tool
        use before asking for a type."""
        return not self.raw_type and PINNED_KEY in self.metadata

    @property
    def modified_ms(self) -> float | None:
        """The `modified:` time (top level, else under `metadata:`) in ms; None if absent/invalid."""
        for value in (self.fields.get(MODIFIED_KEY), self.metadata.get(MODIFIED_KEY)):
            ms = modified_time_ms(value) if value is not None else None
            if ms is not None:
                return ms
        return None

    @property
    def modified_raw(self) -> object:
        """The `modified:` value as written (top level, else nested), or None."""
        top = self.fields.get(MODIFIED_KEY)
        return top if top is not None else self.metadata.get(MODIFIED_KEY)

    def extra_fields(self) -> dict[str, object]:
        """Header keys other than name/description/type, nested `metadata:` keys flattened in.

        A top-level key wins over a nested key of the same name.
        """
        out: dict[str, object] = {
            str(k): v for k, v in self.metadata.items() if str(k) not in _CORE_KEYS
        }
        for k, v in self.fields.items():
            if k not in _CORE_KEYS and k != METADATA_KEY:
                out[k] = v
        return out


# ---------------------------------------------------------------------------- parsing


def parse_frontmatter(
    text: str, *, max_lines: int = FRONTMATTER_MAX_LINES
) -> tuple[Frontmatter, str]:
    """Split a memory file into (header, body); never raises on bad content."""
    text, lines, close = header_span(text, max_lines)
    if not lines:
        return Frontmatter(), text
    if close is None:
        # Closing fence missing or beyond the 30-line window: salvage what we can.
        fm = _recover(
            _yaml_lines(lines[1:max_lines]),
            f"no closing '---' within the first {max_lines} lines; "
            "fields were recovered line by line",
        )
        return fm, text

    header_lines = _yaml_lines(lines[1:close])
    body = "\n".join(lines[close + 1 :]).lstrip("\n")
    fm = _parse_header(header_lines, closed=True)
    if not fm.closed:
        fm = replace(fm, header_lines=tuple(header_lines), closed=True)
    return fm, body


# The key, the colon and the blanks after it; the value is the rest of the line. Its trailing
# blanks are cut by str.rstrip, not by the regex: a lazy value followed by `[ \t]*\Z` tried
# every blank of a run as the value's end, so one 250 KB header line of spaces made `lint` of a
# single file take 355 s (attack round 27).
_TOP_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:[ \t]+")


def top_level_pair(line: str) -> tuple[str, str] | None:
    """(key, value) of a top-level `key: value` header line, the value without its surrounding
    blanks ('' when only blanks follow the colon); None for any other line. Linear in the line:
    the one reader of such a line (the inline '#' rule and the YAML error diagnosis)."""
    m = _TOP_KEY.match(line)
    if m is None or "\n" in line:
        return None
    return m.group(1), line[m.end() :].rstrip(" \t")


_INLINE_HASH = re.compile(r"[ \t]#")


def inline_hash_values(lines: list[str] | tuple[str, ...]) -> dict[str, tuple[str, str]]:
    """Top-level plain values holding an inline ' #': key -> (YAML's cut value, the whole value).

    YAML (and Claude Code before 2.1.214) reads ` #` in a plain scalar as the start of a
    comment; current Claude Code keeps it as part of the value. Quoted, block and flow values
    are the same either way and are not listed.
    """
    out: dict[str, tuple[str, str]] = {}
    for line in lines:
        if line[:1] in (" ", "\t", "#"):
            continue
        pair = top_level_pair(line)
        if pair is None:
            continue
        key, raw = pair
        if not raw or raw[0] in "'\"|>[{&*!%@`#":
            continue
        cut = _INLINE_HASH.search(raw)
        if cut is not None:
            out[key] = (raw[: cut.start()].rstrip(), raw)
    return out


def _keep_inline_hash(data: dict[str, object], lines: list[str]) -> dict[str, tuple[str, str]]:
    """Put back the ' #...' YAML cut off plain text values; return the keys it changed."""
    kept: dict[str, tuple[str, str]] = {}
    for key, (cut, whole) in inline_hash_values(lines).items():
        if data.get(key) == cut:
            data[key] = whole
            kept[key] = (cut, whole)
    return kept


def _parse_header(lines: list[str], *, closed: bool = False) -> Frontmatter:
    """Parse the lines between the fences: fast path, then YAML, then line-by-line recovery.

    closed: the lines end at a closing fence; the fast path then builds the header with its
    lines and closed set (the other paths leave that to parse_frontmatter).
    """
    refused = header_window_problem(lines)
    if refused is None:
        fast = fast_parse(lines)
        if isinstance(fast, PlainColon):
            return _recover(lines, plain_colon_problem(fast), line=fast.line + 2)
        if fast is not None:
            return _build(
                fast,
                lines,
                problems=[],
                malformed=False,
                header_lines=tuple(lines) if closed else (),
                closed=closed,
            )
    if refused is not None:
        return _recover(
            lines, f"{refused}; it was not parsed as YAML, fields were recovered line by line"
        )
    block = "\n".join(lines)
    yaml, loader = yaml_loader()
    try:
        if "*" in block and any(
            isinstance(ev, yaml.AliasEvent) for ev in yaml.parse(block, Loader=loader)
        ):
            return _recover(
                lines,
                "YAML aliases are not allowed in frontmatter; fields were recovered line by line",
            )
        data = yaml.load(block, Loader=loader)
    except yaml.YAMLError as exc:
        diagnosed = diagnose_value(lines)
        if diagnosed is not None:
            return _recover(lines, diagnosed[1], line=diagnosed[0])
        reason = _FILE_LINE_OF_MARK().sub(_file_line_of_mark, " ".join(str(exc).split()))
        # A MarkedYAMLError says where (0-based): where the construct that failed began (an
        # unclosed bracket or quote), else where it failed. Line 1 of the file is the fence.
        mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
        at = mark.line + 2 if mark is not None else None
        return _recover(lines, f"YAML error: {reason}; fields were recovered line by line", line=at)
    except _YAML_VALUE_ERRORS as exc:
        # e.g. a timestamp YAML recognises but datetime cannot hold
        return _recover(lines, f"YAML value error: {exc}; fields were recovered line by line")
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return _recover(
            lines,
            f"frontmatter is a YAML {type(data).__name__}, not a mapping of keys to values; "
            "fields were recovered line by line",
        )
    kept = _keep_inline_hash(data, lines)  # as Claude Code 2.1.214+ reads ' #' in a value
    fm = _build(data, lines, problems=[], malformed=False)
    return replace(fm, inline_hash=kept) if kept else fm


def plain_colon_problem(where: PlainColon) -> str:
    """The problem text for a header YAML refuses because a plain value holds ': '.

    The file's line is where.line + 2: the opening fence is line 1 of every memory file.
    """
    return (
        f"YAML error: the value of {where.key!r} (line {where.line + 2}) holds ': ' "
        "outside quotes, which YAML reads as the start of another key; put the value in quotes; "
        "fields were recovered line by line"
    )


# PyYAML's marks name the header as '"<unicode string>", line L, column C', L counted from the
# line after the opening fence: said as the file's line instead.
_FILE_LINE_OF_MARK = compiled_on_first_use(r'in "<unicode string>", line (\d+), column (\d+)')


def _file_line_of_mark(m: re.Match[str]) -> str:
    return f"at line {int(m.group(1)) + 1}, column {m.group(2)}"


_QUOTED_THEN_MORE = compiled_on_first_use(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"[ \t]*(?!#)\S')


def diagnose_value(lines: list[str]) -> tuple[int, str] | None:
    """(file line, problem) for the first top-level value YAML refuses for a reason people
    make often, said in words; None when no line shows one (the parser's own text is used).

    - a double-quoted value that goes on after its closing quote (an inner '"' left unescaped,
      or a quoted phrase at the start of a longer value);
    - a plain value starting with a character YAML reserves ('`', '@', '%');
    - a plain value holding ': ' (YAML reads a second key there).
    """
    for number, line in enumerate(lines):
        pair = top_level_pair(line)
        if pair is None or not pair[1]:
            continue
        key, value = pair
        where = f"the value of {key!r} (line {number + 2})"
        if value.startswith('"') and _QUOTED_THEN_MORE().match(value):
            why = (
                f"{where} starts in double quotes and goes on after the closing quote, which "
                'YAML does not allow: write any inner quote as \\" and quote the whole value, '
                "or use single quotes inside"
            )
        elif value[0] in "`@%":
            why = (
                f"{where} starts with {value[0]!r}, which YAML does not allow at the start of an "
                "unquoted value: put the value in quotes"
            )
        elif value[0] not in "'\"[{|>" and (": " in value or value.endswith(":")):
            return number + 2, plain_colon_problem(PlainColon(number, key))  # the fast reader's
        else:
            continue
        return number + 2, f"YAML error: {why}; fields were recovered line by line"
    return None


_RECOVER_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]+(.*))?\Z")
_REFUSED_START = set("&*[{|>!")


def _recover_value(raw: str | None) -> str | None:
    """A best-effort text value from one `key: value` line that YAML refused."""
    if raw is None:
        return None
    value = raw.strip()
    if not value or value[0] in _REFUSED_START:
        return None
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        inner = value[1:-1]
        if value[0] == "'":
            return inner.replace("''", "'")
        plain = fast_scalar(value)  # a double-quoted value without escapes needs no YAML
        if plain is not None:
            return plain
        yaml, loader = yaml_loader()
        try:
            loaded = yaml.load(value, Loader=loader)
            return loaded if isinstance(loaded, str) else inner
        except (yaml.YAMLError, *_YAML_VALUE_ERRORS):
            return inner
    return value or None  # an inline ' #' stays part of the value (Claude Code 2.1.214+)


def _recover_fields(lines: list[str]) -> dict[str, object]:
    """Every top-level `key: value` line read as text, last one winning.

    Indented `key: value` lines under a bare `metadata:` line are collected as its mapping.
    """
    out: dict[str, object] = {}
    nested: dict[str, object] | None = None
    for line in lines:
        stripped = line.rstrip()
        if nested is not None and stripped[:1] in (" ", "\t"):
            m = _RECOVER_LINE.match(stripped.lstrip())
            if m is not None:
                nested[m.group(1)] = _recover_value(m.group(2))
            continue
        nested = None
        m = _RECOVER_LINE.match(stripped)
        if m is not None:
            value = _recover_value(m.group(2))
            if m.group(1) == METADATA_KEY and value is None:
                nested = {}
                out[METADATA_KEY] = nested
            else:
                out[m.group(1)] = value
    return out


def _recover(lines: list[str], problem: str, *, line: int | None = None) -> Frontmatter:
    """Build a malformed header from line-by-line recovery; `line`: the file line of the problem."""
    fm = _build(_recover_fields(lines), lines, problems=[problem], malformed=True)
    kept = {k: v for k, v in inline_hash_values(lines).items() if fm.fields.get(k) == v[1]}
    if kept or line is not None:
        fm = replace(fm, inline_hash=kept, problem_line=line)
    return fm


def _text_field(
    key: str, data: dict[str, object], lines: list[str], problems: list[str]
) -> str | None:
    """A core field as stripped text; non-text YAML values fall back to the literal line."""
    if key not in data:
        return None
    value = data[key]
    if value is None:
        return None
    if not isinstance(value, str):
        if isinstance(value, (bool, int, float, _dt.date)):
            literal = _recover_fields(lines).get(key)
            value = literal if isinstance(literal, str) else str(value)
        else:
            problems.append(
                f"{key} is a YAML {type(value).__name__}, not plain text; it was ignored"
            )
            return None
    value = value.strip()
    return value or None


_STR = frozenset({str})


def only_str_keys(data: dict[Any, object]) -> bool:
    """Whether every key of data is exactly a str (one C-level pass over the key types)."""
    return _STR.issuperset(map(type, data))


CoreFields = tuple[str | None, str | None, str | None, bool, MemoryType | None]


def core_fields(fields: dict[str, object], lines: list[str], problems: list[str]) -> CoreFields:
    """(name, description, raw_type, type_nested, type) of a header's mapping, by the one rule
    (a core field that is not text adds to problems; an unknown type gives type None)."""
    name = _text_field("name", fields, lines, problems)
    description = _text_field("description", fields, lines, problems)
    raw_type = _text_field("type", fields, lines, problems)
    nested = fields.get(METADATA_KEY)
    type_nested = False
    if raw_type is None and isinstance(nested, dict) and "type" in nested:
        raw_type = _text_field("type", nested, [], problems)
        type_nested = raw_type is not None
    return name, description, raw_type, type_nested, parse_memory_type(raw_type or "")


def _build(
    data: dict[str, object],
    lines: list[str],
    *,
    problems: list[str],
    malformed: bool,
    header_lines: tuple[str, ...] = (),
    closed: bool = False,
) -> Frontmatter:
    """Turn a key/value mapping into a Frontmatter, checking the three core fields."""
    fields = data if only_str_keys(data) else {str(k): v for k, v in data.items()}
    before = len(problems)
    name, description, raw_type, type_nested, mtype = core_fields(fields, lines, problems)
    malformed = malformed or len(problems) > before  # a core field that is not text
    if raw_type is not None and mtype is None:
        problems.append(
            f"unknown type {raw_type!r}; expected one of user, feedback, project, reference"
        )
    return Frontmatter(
        name=name,
        description=description,
        type=mtype,
        raw_type=raw_type,
        fields=fields,
        has_frontmatter=True,
        malformed=malformed,
        problems=tuple(problems),
        type_nested=type_nested,
        header_lines=header_lines,
        closed=closed,
    )


def with_problem(fm: Frontmatter, problem: str) -> Frontmatter:
    """A copy of fm flagged malformed with one more problem."""
    return replace(fm, malformed=True, problems=(*fm.problems, problem))
