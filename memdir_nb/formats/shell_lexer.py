"""A shell command's words in linear time: the token stream of Python's `shlex` as the package
configures it, built without its per-character string growth.

`shlex.shlex(text, posix=True, punctuation_chars=P)` with `whitespace_split = True` and no
commenters adds each character of a word to the word with `+=` on an attribute, which CPython
cannot do in place: a 100,000-character word cost 0.27 s and a 300,000-character one 2 s (a run
of punctuation, or a quoted string, the same). `shell_words` yields the same tokens, and raises
the same `ValueError` at the same point of the stream, by scanning runs with a regex and joining
the pieces of a word once.

The rules, as `shlex` applies them in that configuration:

- whitespace separates words and is dropped; a character that is both whitespace and
  punctuation is whitespace;
- a run of punctuation characters is one token (`&&`, `;;`, `)|(`), ended by any other
  character;
- a word runs to whitespace or punctuation; quotes and backslashes inside it join it;
- `'...'` keeps everything as written; `"..."` keeps everything but `\\"` and `\\\\`, which lose
  their backslash (`\\n` in double quotes stays two characters); outside quotes a backslash keeps
  the next character, whatever it is (a line end included);
- a word made only of quotes (`''`, `""`) is an empty word;
- at the end of the text inside quotes: `ValueError("No closing quotation")`; after a lone
  backslash (in double quotes too): `ValueError("No escaped character")`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

# shlex's whitespace when none is set
DEFAULT_WHITESPACE = " \t\r\n"
_QUOTES_AND_ESCAPE = "'\"\\"
_DOUBLE_QUOTED_RUN = re.compile(r'[^"\\]*')


def _char_class(chars: str) -> str:
    return "".join(re.escape(ch) for ch in sorted(set(chars)))


@lru_cache(maxsize=8)
def _scanners(punctuation: str, whitespace: str) -> tuple[re.Pattern[str], ...]:
    """(whitespace run, punctuation run, plain run): the regexes of one configuration. A
    character that is whitespace is never punctuation (shlex checks whitespace first)."""
    for name, chars in (("punctuation", punctuation), ("whitespace", whitespace)):
        clash = sorted(set(chars) & set(_QUOTES_AND_ESCAPE))
        if clash:
            raise ValueError(
                f"shell_words: the {name} characters hold {''.join(clash)!r}, a quote or the "
                "escape, which shlex reads differently in each state; leave them out"
            )
    punct = "".join(ch for ch in punctuation if ch not in whitespace)
    empty = r"(?!)"  # matches nothing: no characters of that kind
    space_run = re.compile(f"[{_char_class(whitespace)}]+" if whitespace else empty)
    punct_run = re.compile(f"[{_char_class(punct)}]+" if punct else empty)
    plain_run = re.compile(f"[^{_char_class(whitespace + punct + _QUOTES_AND_ESCAPE)}]+")
    return space_run, punct_run, plain_run


def shell_words(text: str, punctuation: str, whitespace: str = DEFAULT_WHITESPACE) -> Iterator[str]:
    """The tokens `shlex.shlex(text, posix=True, punctuation_chars=punctuation)` yields with
    `whitespace_split = True`, `commenters = ""` and `whitespace` set as given, in time linear
    in the text's length. A generator: the tokens before a quoting error are yielded first, as
    shlex's iterator does; a `ValueError` naming a quote or the escape in `punctuation` or
    `whitespace` is a caller's mistake, raised before any token."""
    space_run, punct_run, plain_run = _scanners(punctuation, whitespace)
    at, end = 0, len(text)
    while True:
        space = space_run.match(text, at)
        if space is not None:
            at = space.end()
        if at == end:
            return
        run = punct_run.match(text, at)
        if run is not None:
            at = run.end()
            yield run.group()
            continue
        word, at = _word(text, at, plain_run)
        yield word


def _word(text: str, at: int, plain_run: re.Pattern[str]) -> tuple[str, int]:
    """The word starting at `at` (not whitespace, not punctuation) and where it ends."""
    pieces: list[str] = []
    end = len(text)
    while at < end:
        plain = plain_run.match(text, at)
        if plain is not None:
            pieces.append(plain.group())
            at = plain.end()
            continue
        ch = text[at]
        if ch == "\\":
            if at + 1 == end:
                raise ValueError("No escaped character")
            pieces.append(text[at + 1])
            at += 2
        elif ch == "'":
            close = text.find("'", at + 1)
            if close < 0:
                raise ValueError("No closing quotation")
            pieces.append(text[at + 1 : close])
            at = close + 1
        elif ch == '"':
            at = _double_quoted(text, at + 1, pieces)
        else:
            break  # whitespace or punctuation ends the word
    return "".join(pieces), at


def _double_quoted(text: str, at: int, pieces: list[str]) -> int:
    """Read a double-quoted string's body from `at` into `pieces`; where its closing quote ends."""
    end = len(text)
    while True:
        run = _DOUBLE_QUOTED_RUN.match(text, at)
        assert run is not None  # `*` always matches
        pieces.append(run.group())
        at = run.end()
        if at == end:
            raise ValueError("No closing quotation")
        if text[at] == '"':
            return at + 1
        if at + 1 == end:  # a backslash last, inside the quotes
            raise ValueError("No escaped character")
        escaped = text[at + 1]
        pieces.append(escaped if escaped in '"\\' else "\\" + escaped)
        at += 2
