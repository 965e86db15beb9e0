"""Which scripts a text is written in: Chinese, Japanese and Korean, hiragana, other alphabets.

The tokenizer (spec/text.py) cuts CJK runs into two-character pieces by CJK_CLASS; recall asks
these predicates which route reads a query (recall/semantic.py) and which pieces of a Japanese
query are grammar, not terms (recall/lexical.py).
"""

from __future__ import annotations

import unicodedata

from memdir_nb.spec.lazy_regex import compiled_on_first_use

# Han (with extensions A and compatibility ideographs), kana, Hangul syllables and jamo.
CJK_CLASS = (
    "\u1100-\u11ff\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3130-\u318f"
    "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
)

# The CJK run and the CJK character, each compiled on its first use: the two classes take the
# regex compiler milliseconds each (about 3 and 6 ms), which every process importing the
# tokenizer (a `memdir-nb scan`, a save) would otherwise pay unused, and a caller that needs
# only the word pattern (the plan's stemmer, on ASCII tokens) does not pay them either.
cjk_run = compiled_on_first_use(f"[{CJK_CLASS}]+")
_CJK_CHAR = compiled_on_first_use(f"[{CJK_CLASS}]")
_HIRAGANA = compiled_on_first_use("[\u3040-\u309f]")


def is_cjk(text: str) -> bool:
    """Whether text holds at least one Chinese, Japanese or Korean character."""
    return _CJK_CHAR().search(text) is not None


def has_hiragana(text: str) -> bool:
    """Whether text holds a hiragana (Japanese particles and verb endings are written in it)."""
    return _HIRAGANA().search(text) is not None


def is_grammar_piece(word: str) -> bool:
    """Whether a word of spec.text.words() is a two-character piece holding a hiragana.

    Japanese writes its particles and verb endings in hiragana and its content words mostly in
    kanji and katakana, so "本番へ出せる" gives "本番", "番へ", "へ出", "出せ", "せる": only the
    first is a term. A ranking that counts the others weighs a question by its grammar.
    """
    return len(word) == 2 and has_hiragana(word)


def cjk_char_count(text: str) -> int:
    """How many Chinese, Japanese or Korean characters text holds."""
    return len(_CJK_CHAR().findall(text))


def mostly_cjk(text: str) -> bool:
    """Whether at least half of text's letters are Chinese, Japanese or Korean characters."""
    letters = sum(1 for ch in text if ch.isalpha())
    return letters > 0 and 2 * cjk_char_count(text) >= letters


def mostly_other_script(text: str) -> bool:
    """Whether at least half of text's letters are neither Latin nor Chinese, Japanese or Korean.

    Cyrillic, Greek, Arabic, Hebrew, Armenian, Georgian, the Indic scripts, Thai and the like:
    alphabets an English-trained encoder reads as little more than their characters.
    """
    letters = other = 0
    for ch in text:
        if not ch.isalpha():
            continue
        letters += 1
        if not ch.isascii() and "LATIN" not in unicodedata.name(ch, "LATIN"):
            other += 1
    return letters > 0 and 2 * (other - cjk_char_count(text)) >= letters
