"""memdir_nb.spec.scripts: which script a text is written in (CJK, hiragana, other alphabets)."""

from __future__ import annotations

import re

import pytest

from memdir_nb.spec.scripts import (
    CJK_CLASS,
    cjk_char_count,
    cjk_run,
    has_hiragana,
    is_cjk,
    is_grammar_piece,
    mostly_cjk,
    mostly_other_script,
)
from memdir_nb.spec.text import words


@pytest.mark.parametrize(
    ("text", "cjk", "other"),
    [
        ("как включить тёмную тему", False, True),
        ("Πότε είναι η μετάβαση;", False, True),
        ("מתי המעבר?", False, True),
        ("データベースの移行はいつ", True, False),
        ("when is the Snowflake cutover?", False, False),
        ("où est le café ? Überprüfung", False, False),
        ("ｆｕｌｌｗｉｄｔｈ latin", False, False),
        ("как включить dark mode в vscode", False, False),  # more Latin letters than Cyrillic
        ("123 ?!", False, False),
        ("", False, False),
    ],
)
def test_a_texts_main_script_is_where_at_least_half_its_letters_are(
    text: str, cjk: bool, other: bool
) -> None:
    assert mostly_cjk(text) is cjk
    assert mostly_other_script(text) is other


def test_a_text_is_cjk_when_it_holds_one_chinese_japanese_or_korean_character() -> None:
    assert is_cjk("回测") and is_cjk("see テスト") and is_cjk("메모리")
    assert not is_cjk("Правила") and not is_cjk("plain") and not is_cjk("")


def test_cjk_characters_are_counted_one_by_one_and_runs_end_at_other_letters() -> None:
    assert cjk_char_count("gsim 回测框架") == 4
    assert cjk_char_count("no cjk here") == 0
    assert cjk_run().findall("a数据b迁移c") == ["数据", "迁移"]
    assert cjk_run().pattern == f"[{CJK_CLASS}]+"


def test_hiragana_is_found_and_katakana_or_kanji_are_not_hiragana() -> None:
    assert has_hiragana("設定が空")
    assert not has_hiragana("キャッシュ 設定") and not has_hiragana("plain")
    assert re.fullmatch(f"[{CJK_CLASS}]", "の")  # hiragana is CJK too


def test_a_piece_holding_a_hiragana_is_grammar_and_kanji_or_katakana_pieces_are_terms() -> None:
    pieces = words("設定が空のとき")  # "when the setting is empty"
    assert [p for p in pieces if not is_grammar_piece(p)] == ["設定"]
    assert not any(is_grammar_piece(p) for p in words("キャッシュ 内存泄漏 메모리"))
    assert not is_grammar_piece("の")  # a lone character is not a two-character piece
