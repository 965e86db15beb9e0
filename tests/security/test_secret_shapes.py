"""Keyword assignments found by trying only the starts a keyword allows: the same as a search."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memdir_nb.security import secret_shapes
from memdir_nb.security.secret_shapes import (
    DETECTOR_NEEDLES,
    KEYWORD_LEAD,
    KEYWORD_PATTERNS,
    keyword_patterns_found,
)


def _keywords() -> list[str]:
    """Every keyword _KW accepts, lower-case, with each optional '_' taken and left out."""
    body = secret_shapes._KW.removeprefix("(?P<kw>").removesuffix(")")
    out: list[str] = []
    for alternative in re.sub(r"\(\?<?[!=][^)]*\)", "", body).split("|"):  # lookarounds out
        if "_?" in alternative:
            out += [alternative.replace("_?", "_"), alternative.replace("_?", "")]
        else:
            out.append(alternative)
    return out


def test_every_keyword_holds_a_needle_within_the_lead() -> None:
    offsets = []
    for keyword in _keywords():
        found = [keyword.find(n) for n in DETECTOR_NEEDLES["keyword"] if n in keyword]
        assert found, keyword
        offsets.append(min(found))
    assert max(offsets) == KEYWORD_LEAD


_PIECES = [
    "password", "PassWord", "api_key", "API-KEY", "apikey", "database_pass", "db_key",
    "private_key", "contraseña", "Secret", "pwd", "keyboard", "monkey", "passport", "key_pass",
    "pa\u017fsword", "\u212aey", "db_\u212aey", "prıvate_key", "İ", "=", "==", "!=", ":", ": ",
    " = ", ";", "'", '"', "`", "hunter2", "s3cr3t-v4lue", "${TOKEN}", "x", " ", "\n", "é",
    "—", "the", "\t", "]", "value_1234567890", "pw", "PW", " is ", "Tq7rLm2Zx9", "upw",
]  # fmt: skip


_PROSE = "plain words about the weather " * 80  # no needle; far more text than 30 pieces


@settings(max_examples=400)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_the_keyword_starts_find_what_a_search_finds(pieces: list[str]) -> None:
    # Unpadded, a short text is often dense with needles and searched whole; padded with
    # plain prose, the keyword starts are what decide.
    for text in ("".join(pieces), _PROSE + "".join(pieces) + _PROSE):
        searched = [pattern.search(text) is not None for pattern in KEYWORD_PATTERNS]
        assert keyword_patterns_found(text) == searched, text


def test_a_keyword_hidden_behind_a_fold_is_still_found() -> None:
    # 'ſ' matches 's' without case, so "paſsword: x9" is an assignment although no needle
    # is in its lower-case form; another needle elsewhere must not narrow the search.
    text = "the keyboard layout\npa\u017fsword: hunter2x9\n"
    assert KEYWORD_PATTERNS[0].search(text) is not None
    assert keyword_patterns_found(text)[0]


def test_a_text_dense_with_keywords_gets_the_searchs_answer() -> None:
    for text in ("key" * 5000, "password= x9y8z7w6 " * 500, "é" + "keys and passes " * 400):
        assert keyword_patterns_found(text) == [
            p.search(text) is not None for p in KEYWORD_PATTERNS
        ]
