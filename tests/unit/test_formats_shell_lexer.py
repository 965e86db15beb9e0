"""formats.shell_lexer: a shell command's tokens exactly as shlex splits them (posix, punctuation
characters, whitespace_split, no comments), including where and how it fails."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memdir_nb.formats.shell_lexer import DEFAULT_WHITESPACE, shell_words

SANDBOX = ";&|<>()"  # extract.sandbox.parse_bash_command, shlex's own whitespace
SCRIPT = ";&|\n()"  # formats.shell_script.shell_commands: a line end is an operator ...
SCRIPT_SPACE = " \t\r"  # ... not whitespace


def _shlex(text: str, punctuation: str, whitespace: str) -> list[object]:
    """shlex's tokens, configured as the callers configured it, its error last if it raised."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=punctuation)
    lexer.whitespace, lexer.whitespace_split, lexer.commenters = whitespace, True, ""
    found: list[object] = []
    try:
        found.extend(lexer)
    except ValueError as exc:
        found.append(("ValueError", str(exc)))
    return found


def _ours(text: str, punctuation: str, whitespace: str) -> list[object]:
    found: list[object] = []
    try:
        found.extend(shell_words(text, punctuation, whitespace))
    except ValueError as exc:
        found.append(("ValueError", str(exc)))
    return found


# heavy in what changes the lexer's state: quotes, backslashes, punctuation, every whitespace,
# line ends, `#` (a word character here: comments are off), and characters shlex's word lists
# leave out (non-ASCII, NUL, U+2028); with pieces that pair them (an escaped quote or backslash,
# an empty quote, a backslash before a line end), which single characters rarely line up
_PIECES = [
    *"'\"\\;&|<>() \t\r\n#ab-~.=*$é",
    *["ß", "語", "\x00", "\u2028", "😀"],
    *["\\\\", '\\"', "\\'", "\\\n", '""', "''", '"a b"', "'a;b'", "&&", ";;", "\n\n"],
]
_QUOTED = st.tuples(
    st.sampled_from(["'", '"']), st.lists(st.sampled_from(_PIECES), max_size=6)
).map(
    lambda parts: parts[0] + "".join(parts[1]) + parts[0]
)  # a quote opened and closed around pieces, so most strings get read to their end
_TEXT = st.lists(st.sampled_from(_PIECES) | _QUOTED, max_size=16).map("".join)


@settings(max_examples=400)
@given(_TEXT)
def test_the_sandbox_s_tokens_and_errors_are_shlex_s(text: str) -> None:
    assert _ours(text, SANDBOX, DEFAULT_WHITESPACE) == _shlex(text, SANDBOX, DEFAULT_WHITESPACE)


@settings(max_examples=400)
@given(_TEXT)
def test_the_script_reader_s_tokens_and_errors_are_shlex_s(text: str) -> None:
    assert _ours(text, SCRIPT, SCRIPT_SPACE) == _shlex(text, SCRIPT, SCRIPT_SPACE)


@settings(max_examples=300)
@given(
    _TEXT,
    st.sets(st.sampled_from(list(";&|<>()\n#!a \t")), min_size=1).map("".join),
    st.sets(st.sampled_from(list(" \t\r\n#")), min_size=1).map("".join),
)
def test_any_punctuation_and_whitespace_without_quotes_split_as_shlex_splits(
    text: str, punctuation: str, whitespace: str
) -> None:
    """Overlapping sets included: a character that is both is whitespace, as in shlex."""
    assert _ours(text, punctuation, whitespace) == _shlex(text, punctuation, whitespace)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("cat a.md && ls", ["cat", "a.md", "&&", "ls"]),
        ("a;;&&||b", ["a", ";;&&||", "b"]),  # a run of punctuation is one token
        ("a)|(b", ["a", ")|(", "b"]),
        ("echo '' \"\" x", ["echo", "", "", "x"]),  # quotes alone make an empty word
        ("ab'c d'\"e\"f", ["abc def"]),  # quotes join the word around them
        ("'a;b' \"c|d\"", ["a;b", "c|d"]),  # punctuation in quotes is text
        ("'a\\b'", ["a\\b"]),  # no escape in single quotes
        ('"a\\"b\\\\c\\nd"', ['a"b\\c\\nd']),  # in double quotes only \" and \\ lose the \
        ("a\\ b\\;c", ["a b;c"]),  # outside quotes a backslash keeps the next character
        ("#x a#b", ["#x", "a#b"]),  # no comments: `#` is a word character
        ("  \t ", []),
        ("", []),
        ("é;語", ["é", ";", "語"]),
    ],
)
def test_named_rules_of_the_sandbox_configuration(text: str, tokens: list[str]) -> None:
    assert list(shell_words(text, SANDBOX)) == tokens == _shlex(text, SANDBOX, DEFAULT_WHITESPACE)


def test_a_line_end_is_an_operator_where_it_is_punctuation_and_not_whitespace() -> None:
    text = "cd x\nrm a\\\nb;\n( ls )"
    expected = ["cd", "x", "\n", "rm", "a\nb", ";\n(", "ls", ")"]
    assert list(shell_words(text, SCRIPT, SCRIPT_SPACE)) == expected
    assert _shlex(text, SCRIPT, SCRIPT_SPACE) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cat 'a.md", "No closing quotation"),
        ('cat "a.md', "No closing quotation"),
        ('cat "a\\"', "No closing quotation"),  # the escaped quote does not close it
        ("cat a\\", "No escaped character"),
        ('cat "a\\', "No escaped character"),  # a lone backslash in double quotes
    ],
)
def test_bad_quoting_raises_shlex_s_message(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}$"):
        list(shell_words(text, SANDBOX))
    assert _shlex(text, SANDBOX, DEFAULT_WHITESPACE)[-1] == ("ValueError", message)


def test_the_tokens_before_a_quoting_error_come_first_as_shlex_s_iterator_gives_them() -> None:
    tokens = shell_words("ls a | cat 'b", SANDBOX)
    assert [next(tokens) for _ in range(4)] == ["ls", "a", "|", "cat"]
    with pytest.raises(ValueError, match="No closing quotation"):
        next(tokens)


@pytest.mark.parametrize("setting", ["punctuation", "whitespace"])
@pytest.mark.parametrize("char", ["'", '"', "\\"])
def test_a_quote_or_the_escape_among_the_characters_set_is_refused_by_name(
    setting: str, char: str
) -> None:
    punctuation, whitespace = (
        (SANDBOX + char, " ") if setting == "punctuation" else (";", " " + char)
    )
    with pytest.raises(ValueError, match=f"the {setting} characters hold"):
        list(shell_words("a b", punctuation, whitespace))


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("a" * 1_000_000, ["a" * 1_000_000]),
        ("'" + "a b" * 300_000 + "'", ["a b" * 300_000]),
        ('"' + '\\"' * 300_000 + '"', ['"' * 300_000]),
        ("\\;" * 300_000, [";" * 300_000]),
        ("cat " + ";" * 1_000_000 + " x", ["cat", ";" * 1_000_000, "x"]),
        ("a;" * 200_000, ["a", ";"] * 200_000),
    ],
    ids=["word", "single-quoted", "escaped-quotes", "escapes", "punctuation-run", "many-tokens"],
)
def test_a_word_or_run_a_million_characters_long_is_one_token(text: str, tokens: list[str]) -> None:
    """The sizes shlex's character-at-a-time words made quadratic (300,000 characters: 2 s; a
    million: about 20 s) come out whole, character for character."""
    assert list(shell_words(text, SANDBOX)) == tokens
