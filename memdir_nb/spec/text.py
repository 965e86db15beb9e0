"""Words of a text in any language: the one tokenizer recall and lint share.

Words are runs of Unicode letters and digits (so accents, Cyrillic, Greek and other
alphabets are kept), joined across an inner hyphen or apostrophe ("follow-up", "don't").
Chinese, Japanese and Korean are not written with spaces between words (Korean spaces
phrases, with particles glued on), so a run of those scripts is cut into overlapping
two-character pieces ("内存泄漏" -> "内存", "存泄", "泄漏"): a query and a memory written in
the same language then share pieces whenever they share words, with no dictionary to ship.
A lone CJK character stays a one-character word.

Text is NFC-normalised first, so a letter typed as base + combining accent matches the
same letter typed precomposed.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Sequence

from memdir_nb.spec.lazy_regex import compiled_on_first_use
from memdir_nb.spec.scripts import cjk_char_count, cjk_run, is_cjk

# Letters and digits of any script (underscore excluded), with inner ' or - joins.
_WORD_PATTERN = r"[^\W_]+(?:['\u2019\-][^\W_]+)*"
# The word pattern on lower-case ASCII text, where [^\W_] is [a-z0-9] (a plain class, found
# faster), with a line break as a token of its own.


_ASCII_WORD_OR_BREAK = compiled_on_first_use(r"[a-z0-9]+(?:['\-][a-z0-9]+)*|\n")
_ASCII_WORD_ANY_CASE = compiled_on_first_use(r"[A-Za-z0-9]+(?:['\-][A-Za-z0-9]+)*")
_ASCII_CHARS = frozenset(map(chr, range(128)))


# The word pattern, compiled on its first use (the CJK classes are spec.scripts', likewise).
_WORD = compiled_on_first_use(_WORD_PATTERN)


def word_pattern() -> re.Pattern[str]:
    """The word pattern words() finds in text with no CJK (after NFC and lower-casing)."""
    return _WORD()


# The characters outside ASCII that re.IGNORECASE matches to an ASCII letter: the dotted and
# dotless I, the long s and the Kelvin sign (tests derive them from re itself). On text without
# them, a case-insensitive pattern of ASCII letters matches where its lower-cased form matches
# the lower-cased text, so quick literal checks may run on that (has_ascii_fold).
FOLDS_TO_ASCII = "\u0130\u0131\u017f\u212a"


def has_ascii_fold(text: str) -> bool:
    """Whether text holds one of FOLDS_TO_ASCII (never true of ASCII text)."""
    return not text.isascii() and any(c in text for c in FOLDS_TO_ASCII)


# How many CJK characters count as one word when judging a text's length in words.
CJK_CHARS_PER_WORD = 2


def _bigrams(run: str) -> list[str]:
    if len(run) < 2:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def words(text: str) -> list[str]:
    """The lowercased words of text; CJK runs become two-character pieces."""
    if not text:
        return []
    return _words(text, _WORD())


@functools.cache
def _word_or_break() -> re.Pattern[str]:
    """The word pattern, or a line break as a token of its own (compiled on first use)."""
    return re.compile(_WORD_PATTERN + "|\n")


def words_and_breaks(text: str) -> list[str]:
    """words() of the whole text with each '\n' kept as a token of its own, in order, so the
    words of line i sit between the i-th breaks: the same as words() of each line.

    One normalisation and one regex pass instead of one per line. That is exact because no line
    break takes part in NFC (it neither composes nor reorders), in lower-casing or in a word.
    """
    plain = plain_words_and_breaks(text)
    if plain is not None:
        return plain
    return general_words_and_breaks(text)


def general_words_and_breaks(text: str) -> list[str]:
    """words_and_breaks(text) by the path for any text: what a caller that has already had None
    from plain_words_and_breaks calls, so the text is not checked twice."""
    return _words(text, _word_or_break())


def _words(text: str, word_re: re.Pattern[str]) -> list[str]:
    """words() with word_re as the word pattern (words() and words_and_breaks() differ there)."""
    text = unicodedata.normalize("NFC", text).lower().replace("\u2019", "'")
    if not is_cjk(text):  # no CJK anywhere: every word is kept as it is (one C-level pass)
        return word_re.findall(text)
    out: list[str] = []
    runs = cjk_run()
    for match in word_re.finditer(text):
        word = match.group(0)
        if word.isascii() or not is_cjk(word):  # isascii: a quick answer for most words
            out.append(word)
            continue
        pos = 0
        for run in runs.finditer(word):
            before = word[pos : run.start()].strip("'-")
            if before:
                out.append(before)
            out.extend(_bigrams(run.group(0)))
            pos = run.end()
        after = word[pos:].strip("'-")
        if after:
            out.append(after)
    return out


def plain_words_and_breaks(text: str) -> list[str] | None:
    """words_and_breaks(text) when no word of text can hold a character outside ASCII, found by
    one ASCII regex pass; None otherwise (a letter or digit of another script), for the
    general path.

    Besides ASCII text, this covers English written with dashes, arrows or curly quotes: after
    NFC, no character outside ASCII is one a word holds (a letter or digit: isalnum), so each
    ends a word as '?' does, and the ASCII pattern finds the same words with '?' in its place.
    """
    low = _plain_lower(text)
    return None if low is None else _ASCII_WORD_OR_BREAK().findall(low)


def _plain_lower(text: str) -> str | None:
    """The lower-cased ASCII text plain_words_and_breaks finds its words in, or None."""
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFC", text).replace("\u2019", "'")
    if any(ch.isalnum() for ch in set(text) if not ch.isascii()):
        return None
    return text.encode("ascii", "replace").decode("ascii").lower()


# Every byte but a lower-case letter, a digit, "'", '-' and '\n' becomes a space; then a "'" or
# '-' without a letter or digit on both sides (the second branch looks two characters back:
# the one before the separator is not a letter or digit).
@functools.cache
def _word_bytes() -> bytes:
    """The translation table above, built on first use (not by every process importing this)."""
    table = bytearray(b" " * 256)
    for b in b"abcdefghijklmnopqrstuvwxyz0123456789'-\n":
        table[b] = b
    return bytes(table)


_LONE_SEPARATOR = compiled_on_first_use(r"['\-](?:(?![a-z0-9])|(?<![a-z0-9].))")


def plain_words_by_line(text: str) -> list[list[str]] | None:
    """plain_words_and_breaks(text) as the words of each line (one list a line), or None.

    Found without a regex match per word: every character no word holds becomes a space (one
    translation), and so does each "'" or '-' that does not join two runs of letters and digits
    (one regex pass that stops only at those); the words are then what split() leaves. The
    pattern's words are exactly the runs of letters and digits joined by single separators that
    have a letter or digit on both sides, which are the runs this leaves (tests compare the two
    on random text).
    """
    low = _plain_lower(text)
    if low is None:
        return None
    kept = low.encode("ascii").translate(_word_bytes()).decode("ascii")
    if "'" in kept or "-" in kept:
        kept = _LONE_SEPARATOR().sub(" ", kept)
    return [line.split() for line in kept.split("\n")]


def word_count(text: str) -> int:
    """Length of text in words: spaced words, plus CJK characters counted CJK_CHARS_PER_WORD a word."""
    if not text:
        return 0
    if text.isascii():  # NFC already, no CJK: its words are the word pattern's matches
        return len(_ASCII_WORD_ANY_CASE().findall(text))
    text = unicodedata.normalize("NFC", text)
    cjk = cjk_char_count(text)
    spaced = [w for w in _WORD().findall(cjk_run().sub(" ", text)) if w]
    return len(spaced) + math.ceil(cjk / CJK_CHARS_PER_WORD)


def first_lines(text: str, max_lines: int) -> str:
    """The first max_lines lines of text, line ends kept: the one line cap of every route.

    A line ends at '\n' only, as the spec counts lines (MEMORY.md's caps, a memory's recall cap,
    the header read): not at the other characters str.splitlines also breaks at (\x0b, \x0c,
    \x1c-\x1e, \x85, U+2028, U+2029), which would cut a memory holding one of them elsewhere.
    Scans forward for the cut, so a long text is never split into a list.
    """
    if text.count("\n") < max_lines:
        return text
    end = -1
    for _ in range(max_lines):
        end = text.find("\n", end + 1)
        if end < 0:
            return text
    return text[: end + 1]


# A class holding a character past U+00FF compiles into a map of 65,536 characters: 1.5 M
# instructions and more, about 12 M for the four of this module, paid by every process that
# imports it. So each such pattern is compiled on first use, and ASCII text (most names, paths
# and descriptions) is matched by the pattern's ASCII members alone, a class that compiles
# cheaply: the same matches, since ASCII text holds no other character.
_LINE_BREAKS = compiled_on_first_use(r"[\r\n\x85\u2028\u2029]+")
_ASCII_LINE_BREAKS = re.compile(r"[\r\n]+")  # _LINE_BREAKS' ASCII members
# The line that opens or closes a fenced code block (``` or ~~~ after any indent): which lines of
# a memory body are code, for lint's rules, the description audit and the relative-date rewrite
# alike. Any indent, not CommonMark's three spaces: a fence nested in a list item sits deeper,
# and a deeper ``` outside a list opens an indented code block, code either way (onehome30: the
# date rewrite changed `yesterday` inside a list item's fenced block). A block closes as
# CommonMark closes it: a run of the opening character at least as long, nothing after it but
# spaces; a ~~~ line inside a ``` block is code (polish30b: lint and the dates closed on either).
_FENCE_RUN = compiled_on_first_use(r"[ \t]*(`{3,}|~{3,})(.*)")  # a scan reads no body


def fence_change(line: str, open_fence: str) -> str | None:
    """What a fence line does to the fenced code block open before it (open_fence: the run that
    opened it, "" when none is): the run that opens one, "" when it closes the open one, None
    when the line is no fence line here (prose, or code inside the open block)."""
    run = _FENCE_RUN().match(line)
    if run is None:
        return None
    mark, rest = run.group(1), run.group(2)
    if not open_fence:  # a ``` fence's info string holds no backtick (else it is a code span)
        return None if mark[0] == "`" and "`" in rest else mark
    closes = mark[0] == open_fence[0] and len(mark) >= len(open_fence) and not rest.strip()
    return "" if closes else None


def line_end_style(text: str) -> str:
    """The line end an edit of text gives back: CRLF when every break is CRLF (a file kept on
    Windows), a lone CR when the text has CRs and no LF at all (classic Mac OS), else LF. A
    mixed file is normalised to LF."""
    if "\n" not in text:
        return "\r" if "\r" in text else "\n"
    return "\r\n" if text.count("\r\n") == text.count("\n") else "\n"


def as_lf(text: str) -> str:
    """text with LF line ends for an edit to split at '\n': CRLF made LF, and in a text with no
    LF at all (line_end_style's lone CR) each CR made LF. A lone CR in a file that has LFs
    stays inside its line, as before."""
    text = text.replace("\r\n", "\n")
    return text if "\n" in text else text.replace("\r", "\n")


def in_style(edited: str, end: str) -> str:
    """An edit's LF text given back the line ends its source had (line_end_style's answer)."""
    return edited if end == "\n" else edited.replace("\n", end)


_CUT_WORD_MAX = 256  # longer than any credential's shape the secret scan knows
_SPACE = re.compile(r"\s")  # str.isspace's characters


def cap_text(text: str, limit: int) -> str:
    """text cut to limit characters and marked " [...]", for what a transcript reader keeps
    (a session's prompts, notes and results: formats.session_model and the modules beside it).

    A word the limit would cut goes whole: a credential cut there kept its first characters
    ("ghp_" and 26 of its 36) and no longer had the shape the masker redacts where the text is
    shown (attack44). A word of _CUT_WORD_MAX characters or more before the limit goes too,
    said by its own marker: a credential glued to a long run with no space (`…xxxxghp_…`,
    `key=…`) was cut inside and its head shown (lefts45). Nothing past text[limit] is read,
    and the search for the word's start stays inside the limit.
    """
    if len(text) <= limit:
        return text
    kept = text[:limit]
    if text[limit].isspace():
        return kept + " [...]"
    space = _SPACE.search(kept[::-1])  # the last blank before the cut, if any
    start = limit - 1 - space.start() if space is not None else -1
    cut = limit - 1 - start  # characters of the cut word the limit would keep
    kept = kept[: max(start, 0)].rstrip()
    mark = "[...]" if cut < _CUT_WORD_MAX else f"[... a word of over {cut:,} characters left out]"
    return f"{kept} {mark}" if kept else mark


def clip(text: str, limit: int = 80) -> str:
    """text cut to limit characters, an ellipsis the last, for messages and listings."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def one_line(text: str) -> str:
    """Collapse line breaks (and the space around them) into single spaces, then strip.

    Split at the breaks and strip each piece (linear; a regex with \\s* on both sides of the
    break backtracks quadratically over a long run of spaces).
    """
    breaks = _ASCII_LINE_BREAKS if text.isascii() else _LINE_BREAKS()
    pieces = (piece.strip() for piece in breaks.split(text))
    return " ".join(piece for piece in pieces if piece)


def without_format_chars(text: str) -> str:
    """text without Unicode format characters (category Cf: zero-width space and joiners, soft
    hyphen, bidi marks, BOM): invisible to a reader, so a match must not depend on them."""
    if text.isascii():  # no ASCII character is Cf
        return text
    # Each distinct character outside ASCII is looked up once (a text holds a few hundred at
    # most; the ASCII ones are dropped by one set difference), and the removal is one C-level
    # pass: the same result as testing every character in turn.
    hidden = {ord(ch): None for ch in set(text) - _ASCII_CHARS if unicodedata.category(ch) == "Cf"}
    return text.translate(hidden) if hidden else text


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 memory', '2 memories', '0 files': the count with the word in the right number."""
    if n == 1:
        return f"1 {word}"
    if many is None:
        many = (
            word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"
        )
    return f"{n:,} {many}"


def first_few(
    names: Sequence[str], limit: int, rest: str = "more", *, count: int | None = None
) -> str:
    """The first `limit` names joined by commas, and how many are left ("a, b and 4,990
    more"): one line that names enough to recognise a list, whatever its length (a listing
    that named a 5,000-file batch's every file printed one line of 205 KB, attack round 24).
    count: how many names the list holds, for a caller that made only the first ones."""
    left = (len(names) if count is None else count) - limit
    shown = ", ".join(names[:limit])
    return shown + (f" and {left:,} {rest}" if left > 0 else "")


# Characters no name and no printed line may carry raw: the C0 controls, DEL, the C1 controls,
# the line and paragraph separators U+2028 and U+2029 (a browser showing a notebook's output,
# and Python's str.splitlines, break a line at them: attack round 22), bidirectional controls
# (they can make text display as other text) and lone surrogates (what a name that is not
# UTF-8 decodes to). Newline and tab are matched only by unsafe_in_line.
UNSAFE_CLASS = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
)
unsafe_in_text = compiled_on_first_use(f"[{UNSAFE_CLASS}]")
unsafe_in_line = compiled_on_first_use(f"[\\n\\t{UNSAFE_CLASS}]")
_ASCII_UNSAFE_IN_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f]")  # unsafe_in_text's ASCII members
_ASCII_UNSAFE_IN_LINE = re.compile("[\x00-\x1f\x7f]")  # unsafe_in_line's: with \t and \n


def escape_of(char: str) -> str:
    """The visible escape terminal_safe shows for one unsafe character (``\\x1b``, ``\\udcff``)."""
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def _escaped(match: re.Match[str]) -> str:
    return escape_of(match.group())


_LONE_SURROGATE = compiled_on_first_use("[\ud800-\udfff]")


def lone_surrogate_problem(text: str) -> str | None:
    """Why text cannot be written as UTF-8 (it holds a lone surrogate), else None.

    JSON's ``"\\ud800"`` escapes decode to lone surrogates, so a model's tool input or any JSON
    payload can carry one; they are not characters and no file can hold them as text. The one
    check for text about to be written: the store's drafts, its transaction, the daily log.
    """
    if text.isascii():
        return None
    found = _LONE_SURROGATE().search(text)
    if found is None:
        return None
    return (
        f"holds a lone surrogate (U+{ord(found.group()):04X}, character {found.start() + 1}), "
        "which is not a character and cannot be written as UTF-8; remove it (a JSON escape "
        "such as \\ud800 without its pair makes one)"
    )


def is_not_text(content: bytes | str) -> bool:
    """Whether a memory file's content (what was read of it, bytes or decoded) is binary, not
    text: it holds a NUL byte. The one rule of a file no reader can read as a memory: lint's
    `not-text` finding, and the files an index should not list (lint.index_should_list), so
    neither a rebuild of MEMORY.md nor the dream plan adds a line for one (index37)."""
    if isinstance(content, bytes):
        return b"\x00" in content
    return "\x00" in content


def without_lone_surrogates(text: str) -> str:
    """Text with each lone surrogate replaced by U+FFFD, as a JavaScript writer encodes it."""
    return text if text.isascii() else _LONE_SURROGATE().sub("\ufffd", text)


def _unsafe_only_in_ascii(text: str) -> bool:
    """Whether the ASCII patterns find all text's unsafe characters: it is ASCII, or printable
    but newlines and tabs, as no member of UNSAFE_CLASS past ASCII is (a test checks each): a
    '…' then compiles no whole class (0.3 ms of a scan, docs/performance.md, forty-second)."""
    return text.isascii() or text.replace("\n", " ").replace("\t", " ").isprintable()


def first_unsafe_char(text: str) -> str | None:
    """The first character of text that must not reach a name or a terminal raw, else None."""
    pattern = _ASCII_UNSAFE_IN_LINE if _unsafe_only_in_ascii(text) else unsafe_in_line()
    return found.group() if (found := pattern.search(text)) else None


def html_safe(value: object) -> str:
    """Any value as HTML text: ``&``, ``<``, ``>`` and both quotes become entities, and every
    character `terminal_safe` shows as an escape is shown so here too.

    The one HTML escaper: every string a widget puts into an HTML value (text between tags and
    attribute values alike, hence the quotes) passes it, as everything the CLI prints passes
    `terminal_safe`. Text only: a value that becomes a URL or a style must not come from data.
    A bidirectional override in a description made it display reversed on the page while the
    terminal showed ``\u202e`` (attack round 27): the page now shows the same escape. A CRLF
    line end is a line end on the page, so it is kept as one ('\n'), not shown as ``\x0d``.
    """
    import html  # here, not at the top: a process that writes no HTML skips its entity table

    text = str(value)
    if not text.isascii() or _ASCII_UNSAFE_IN_TEXT.search(text):
        text = terminal_safe(text.replace("\r\n", "\n"))
    return html.escape(text, quote=True)


def terminal_safe(text: str, *, keep_newlines: bool = True) -> str:
    """Text made safe to print to a terminal: every control shown as a visible escape.

    ESC (and so every ANSI, OSC and DCS sequence), the other C0 controls, DEL, the C1 controls,
    bidirectional controls and lone surrogates become ``\\x1b``-style escapes; newlines and tabs
    stay unless keep_newlines is False. This is the one sanitiser for everything the CLI prints
    from a memory dir, a home or a transcript.
    """
    if _unsafe_only_in_ascii(text):
        pattern = _ASCII_UNSAFE_IN_TEXT if keep_newlines else _ASCII_UNSAFE_IN_LINE
    else:
        pattern = unsafe_in_text() if keep_newlines else unsafe_in_line()
    return pattern.sub(_escaped, text)


def terminal_line(value: object) -> str:
    """A value shown inside one line of terminal text: terminal_safe, newlines escaped too.

    A path can hold a newline (a trusted setting or a file name may name one); printed raw, it
    would split the line and could forge the next one.
    """
    return terminal_safe(str(value), keep_newlines=False)
