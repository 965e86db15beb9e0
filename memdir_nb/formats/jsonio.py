"""The one JSON reader for outside data: size and nesting are checked before parsing.

Settings files, transcript lines, the store's journal, trash manifests, model replies and
package data all arrive from places the user does not control. Python's json module recurses
once per nesting level, so a few thousand ``[`` crash it with RecursionError, and it holds
the whole text in memory. Every such parse goes through :func:`loads_bounded`, which refuses
text over a byte cap or nested deeper than a depth cap with :class:`JSONLimitError` (a
ValueError), before the parser runs. The depth check is linear in the text.

:func:`dumps_output` is the one writer of what a `--json` command prints.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate

from memdir_nb.spec.constants import JSON_BYTES_PER_VALUE, JSON_MAX_DEPTH
from memdir_nb.spec.shown_names import lone_surrogates_shown

TYPE_CHECKING = False  # typing stays unimported at run time (`memdir-nb scan --json`)
if TYPE_CHECKING:
    from typing import Any

# Once every escape pair is gone (see nesting_depth), a JSON string is a quote, anything but a
# quote, and a quote: one character class, which the regex engine runs in a tight loop with no
# state kept per character, whatever the string's length.
_BARE_STRING = re.compile(r'"[^"]*"')
_NOT_BRACKET_BYTES = bytes(range(256)).translate(None, b"[]{}")  # delete-table for bytes.translate
_VALUE_MARKS = (",", ":", "[", "{")  # what each value after the first follows (value_count)
_VALUE_MARK_BYTES = tuple(mark.encode() for mark in _VALUE_MARKS)
_VALUE_MARKS_TOGETHER = b"".join(_VALUE_MARK_BYTES)
_BRACKET_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


class JSONLimitError(ValueError):
    """JSON text over a size or nesting cap; nothing was parsed."""


def _js_number(digits: str) -> int | float:
    """A JSON integer as JavaScript's JSON.parse reads it when Python would refuse it.

    Python turns at most 4,300 digits into an int (sys.int_info.default_max_str_digits) and
    raises a plain ValueError past that, which no caller took for bad JSON: one such number in
    a repository's settings file ended `where`, `doctor`, `list` and `sessions` (attack round
    27). JavaScript reads every number as a double, so a longer one is that double here too
    (infinity past 1.8e308); a shorter one stays the int Python's own parser gives.
    """
    try:
        return int(digits)
    except ValueError:
        return float(digits)


# The parser used only after the default one refused a number: a Python call per integer,
# which the default parser's C fast path avoids for every ordinary text.
_JS_NUMBERS = json.JSONDecoder(parse_int=_js_number)


def raw_decode(text: str, pos: int = 0) -> tuple[Any, int]:
    """json.JSONDecoder().raw_decode, with integers past Python's digit limit read as
    JavaScript reads them (see _js_number): for records glued on one line."""
    try:
        return json.JSONDecoder().raw_decode(text, pos)
    except json.JSONDecodeError:
        raise
    except ValueError:  # the digit limit; any other error the second parse raises again
        return _JS_NUMBERS.raw_decode(text, pos)


def _without_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        return lone_surrogates_shown(value)
    if isinstance(value, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_without_surrogates(v) for v in value]
    return value


def dumps_output(value: Any, *, indent: int | None = 2) -> str:
    """value as the JSON text a `--json` command prints: valid JSON for every parser, and
    lossless: two different values print differently.

    A file name whose bytes are not UTF-8 reaches Python as a lone surrogate per such byte
    (surrogateescape: byte 0xff is U+DCFF), and a transcript's `"\\ud800"` decodes to one too.
    json.dumps wrote them as `\\udcff` escapes, which Python and JavaScript read back but a
    strict parser (serde_json, jq's UTF-8 check) refuses, and which decode to no character.
    Each one is written as the six characters `\\udcff` themselves (a backslash, then
    `udcff`): the escape the terminal shows for the same name (spec.text.terminal_safe), so a
    name reads the same in both outputs and the JSON holds only characters (§39). A name that
    really holds the text `\\udcff` gets its backslash doubled (spec.shown_names.lone_surrogates_shown,
    which gives the form to read a name back), so a folder
    named `bad<0xff>` and one named `bad\\udcff` print as two paths (§43; they printed alike).
    Everything else is as json.dumps writes it (ASCII, other characters as `\\u00e9`).
    """
    return json.dumps(_without_surrogates(value), indent=indent)


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON text (strings are skipped).

    Linear in the text, and the extra memory is a few copies of it at most, never a cost per
    character of a long string (a regex with an alternation inside a repeat keeps state for
    every character it passes: a 7.8 MB transcript line held 920 MB that way).

    In JSON a backslash always takes the next character with it, and only inside strings, so
    removing every escaped backslash and then every escaped quote (both left to right, as the
    parser reads them) leaves no quote inside a string. Each string is then a bare quoted run,
    removed by one character-class regex, and the brackets left are the structure's.
    """
    if text.count("[") + text.count("{") == 0:
        return 0
    brackets = _outside_strings(text).translate(None, _NOT_BRACKET_BYTES)
    return max(accumulate(map(_BRACKET_STEP.__getitem__, brackets), initial=0))


def _outside_strings(text: str) -> bytes:
    """text's bytes with every JSON string taken out (see nesting_depth): its structure."""
    bare = text.replace("\\\\", "").replace('\\"', "")
    outside = _BARE_STRING.sub("", bare) if '"' in bare else bare
    return outside.encode("utf-8", "surrogatepass")


def value_count(text: str) -> int:
    """The most values (keys counted) parsing JSON text can make: one, and one more for each
    comma, colon, `[` and `{` outside its strings. Linear, as nesting_depth is.

    What bounds the memory a parse takes: each value is a Python object of 24 to 72 bytes, so
    16 MB of `[],[],...` made 5.6 million lists, 441 MB (§43), where its bytes cap said 16 MB.
    """
    if sum(map(text.count, _VALUE_MARKS)) == 0:
        return 1
    structure = _outside_strings(text)
    return 1 + sum(map(structure.count, _VALUE_MARK_BYTES))


def value_count_over(text: str | bytes, limit: int) -> int | None:
    """value_count(text) when it is over limit, else None (bytes read as UTF-8); the exact
    count only when a cheap bound cannot rule it out.

    Every value but the first follows a comma, colon, `[` or `{` somewhere in the text, so one
    plus their count over the whole text, strings included, is never under value_count: a text
    within limit that way is within it, and its strings need not be taken out. Each mark is a
    character, so a text shorter than limit is within it without a count.
    """
    if len(text) < limit:
        return None
    if isinstance(text, str):
        marks = sum(map(text.count, _VALUE_MARKS))
    else:  # one pass that drops the marks, not four counts (a 456 KB file: 0.32 ms, not 0.50)
        marks = len(text) - len(text.translate(None, _VALUE_MARKS_TOGETHER))
    if 1 + marks <= limit:
        return None
    count = value_count(text if isinstance(text, str) else text.decode("utf-8", errors="replace"))
    return count if count > limit else None


def loads_bounded(
    data: str | bytes,
    *,
    max_bytes: int,
    max_depth: int = JSON_MAX_DEPTH,
    what: str = "JSON",
    max_values: int | None = None,
) -> Any:
    """Parse JSON text that is at most max_bytes long, nested at most max_depth deep and making
    at most max_values values (value_count: what bounds the memory the parse takes, beside the
    text's own bytes). Without max_values the cap is one value per JSON_BYTES_PER_VALUE bytes
    of max_bytes: a caller whose data is denser (or known smaller) passes its own.

    Raises JSONLimitError over any cap and ValueError (json.JSONDecodeError) for bad JSON;
    ``what`` names the text in the message ("settings file", "transcript line").
    """
    text = _checked_text(data, max_bytes, max_depth, what, max_values)
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError:  # the digit limit; any other error the second parse raises again
        return _JS_NUMBERS.decode(text)


def loads_glued(
    data: str | bytes,
    *,
    max_bytes: int,
    max_depth: int = JSON_MAX_DEPTH,
    what: str = "JSON",
    max_values: int | None = None,
) -> tuple[list[Any], json.JSONDecodeError | None]:
    """The JSON values written one after another in one text (``{...}{...}``), under the caps
    of :func:`loads_bounded`, and the parser's error where the text stopped being JSON (None
    when every value parsed). Spaces, tabs and carriage returns between values are passed over.

    For a line two writers glued together (a transcript's); raises JSONLimitError as
    loads_bounded does, before the parser runs.
    """
    text = _checked_text(data, max_bytes, max_depth, what, max_values)
    values: list[Any] = []
    pos, end = 0, len(text.rstrip())
    while pos < end:
        try:
            value, pos = raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            return values, exc
        values.append(value)
        while pos < end and text[pos] in " \t\r":
            pos += 1
    return values, None


def _checked_text(
    data: str | bytes, max_bytes: int, max_depth: int, what: str, max_values: int | None
) -> str:
    """data as text once it is within the caps; JSONLimitError naming the cap it passes."""
    size = len(data)
    if size > max_bytes:
        raise JSONLimitError(
            f"{what} is {size:,} bytes, over the {max_bytes:,}-byte limit; it was not read"
        )
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    if text.count("[") + text.count("{") > max_depth:  # only then can it be too deep
        depth = nesting_depth(text)
        if depth > max_depth:
            raise JSONLimitError(
                f"{what} nests {depth} levels deep, over the limit of {max_depth}; it was not read"
            )
    if max_values is None:
        max_values = max(1, max_bytes // JSON_BYTES_PER_VALUE)
    # A text of fewer bytes than the cap has values can be under it whatever it holds.
    if len(text) >= max_values and (count := value_count_over(text, max_values)) is not None:
        raise JSONLimitError(
            f"{what} holds up to {count:,} values, over the limit of {max_values:,}; it was not "
            "read"
        )
    return text


def _char_before(text: str, pos: int) -> str:
    """The last character before ``pos`` that is not white space ('' at the start)."""
    head = text[:pos].rstrip()
    return head[-1:] if head else ""


def json_error_cause(text: str, exc: json.JSONDecodeError) -> str | None:
    """What people usually did when strict JSON fails at ``exc``, in words; None if unclear.

    Hand-kept JSON files (settings.json in a dotfiles repository) most often fail on a
    ``//`` or ``/* */`` comment, or on a comma left after the last entry: JSON allows neither.
    """
    at = text[exc.pos : exc.pos + 2]
    if at.startswith("//") or at == "/*":
        return "a comment (JSON has no comments)"
    closing = text[exc.pos : exc.pos + 1] in ("}", "]")
    if closing and _char_before(text, exc.pos) == ",":
        return "a trailing comma before the closing bracket (JSON allows none)"
    return None


def looks_utf16(raw: bytes) -> bool:
    """Whether bytes that are not UTF-8 JSON are UTF-16 text: a UTF-16 byte-order mark, or NULs
    between the characters (every ASCII character of UTF-16 text has a zero byte beside it).

    Windows tools (Notepad, PowerShell's `>`) write JSON so; the one test for it, so a settings
    file and a transcript line are named alike.
    """
    return raw[:2] in (b"\xff\xfe", b"\xfe\xff") or raw.count(b"\x00") * 3 > len(raw)


def utf8_json_text(raw: bytes) -> str:
    """JSON file bytes as text (UTF-8, a BOM dropped); a ValueError naming what they are instead
    (UTF-16, or the first byte that is not UTF-8) and the fix, in words a person can act on."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if looks_utf16(raw):
            raise ValueError(
                "is UTF-16 text (as Windows editors save it), not UTF-8; save it as UTF-8 (for "
                "example `iconv -f UTF-16 -t UTF-8`)"
            ) from None
        raise ValueError(
            f"is not UTF-8 text (byte {exc.start}); save it as UTF-8 (in an editor)"
        ) from None
