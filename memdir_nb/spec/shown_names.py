"""Names shown so that they read back: two different names never print alike.

The terminal sanitiser (`spec.text.terminal_safe`, `terminal_line`) shows each unsafe
character as a visible escape, ESC as ``\\x1b`` and a file name's byte 0xff (U+DCFF under
surrogateescape) as ``\\udcff``. It is idempotent, which the print boundary needs (every write
to stdout passes it again, after the callers' own calls), so it cannot also be lossless: a
name holding the six characters ``\\udcff`` is its own fixed point and shows as the byte does.
A folder named ``dir<0xff>`` and one named ``dir\\udcff`` were two lines reading
``dir\\udcff`` in `scan`, `lint` and the memory tool's ``view /memories`` (attack36).

So a name listed to a reader is shown once through :func:`terminal_name`: each run of
backslashes that stands right before a character the sanitiser escapes, or before text that
reads as one of its escapes (``x`` and two lower-case hex digits, ``u`` and four), is doubled
first. To read a name back: in such a run of n backslashes, an odd n is (n - 1) / 2
backslashes and then the escaped character, an even n is n / 2 backslashes and then the text
as written. Every other backslash is itself (``C:\\Users`` is shown as it is).
:func:`lone_surrogates_shown` is the same rule for `--json`, where JSON escapes the controls
itself and only lone surrogates need a form of their own.

Each is applied once, to the raw name, where it is formatted: its output holds no unsafe
character, so the print boundary's own pass leaves it as it is, but a second
:func:`terminal_name` would double the runs again.
"""

from __future__ import annotations

import re

from memdir_nb.spec.lazy_regex import compiled_on_first_use
from memdir_nb.spec.text import UNSAFE_CLASS, escape_of, terminal_line

# A run of backslashes (possessive, and starting a run: the look-behind) before a character
# terminal_line escapes, or before the text of one of its escapes.
_RUN_BEFORE_AN_ESCAPE = compiled_on_first_use(
    f"(?<!\\\\)(\\\\++)(?=[\\n\\t{UNSAFE_CLASS}]|x[0-9a-f]{{2}}|u[0-9a-f]{{4}})"
)


def _doubled(match: re.Match[str]) -> str:
    return match.group(1) * 2


def terminal_name(value: object) -> str:
    """A file or folder name, or a path, shown in one terminal line so that it reads back.

    terminal_line, after each backslash run before an escape it makes, or before text that
    reads as one, is doubled (the module's rule): ``dir<0xff>`` is ``dir\\udcff`` and a folder
    named ``dir\\udcff`` is ``dir\\\\udcff``; ESC is ``\\x1b`` and the text ``\\x1b`` is
    ``\\\\x1b``. A name with no backslash is shown exactly as terminal_line shows it.
    """
    text = str(value)
    if "\\" in text:
        text = _RUN_BEFORE_AN_ESCAPE().sub(_doubled, text)
    return terminal_line(text)


# A lone surrogate with the backslash run before it, or a run before the text `ud800`-`udfff`.
# Each run is possessive and starts a run (the look-behind), so a long one is passed once.
_SHOWN_SURROGATE = compiled_on_first_use(
    r"(?<!\\)(\\*+)([\ud800-\udfff])|(?<!\\)(\\++)(?=ud[89a-f][0-9a-f]{2})"
)


def _surrogate_shown(match: re.Match[str]) -> str:
    run = match.group(1)
    if run is None:  # backslashes before a written `udcff`: doubled, so it reads as written
        return match.group(3) * 2
    return run * 2 + escape_of(match.group(2))


def lone_surrogates_shown(text: str) -> str:
    """Text with each lone surrogate written as the escape terminal_safe shows (``\\udcff``),
    and each run of backslashes right before one, or before the text ``ud800``-``udfff``,
    doubled, so no two texts are written alike.

    For output that must hold only characters, read as the terminal does, and be read back:
    `--json` (formats.jsonio.dumps_output), where a non-UTF-8 file name's byte 0xff is U+DCFF.
    To read it back: in a run of n backslashes followed by ``ud`` and three lower-case hex
    digits from ``800`` to ``fff``, an odd n is (n - 1) / 2 backslashes and then the lone
    surrogate (byte 0xff of a name for ``\\udcff``), an even n is n / 2 backslashes and then
    that text as written. Every other backslash is itself (``C:\\Users`` is as it is).
    Before §43 a folder named ``bad<0xff>`` and one named ``bad\\udcff`` printed alike."""
    if text.isascii() and "\\" not in text:
        return text
    return _SHOWN_SURROGATE().sub(_surrogate_shown, text)
