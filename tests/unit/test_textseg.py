"""memdir_nb.spec.text: words in every language, and what scan, recall and lint make of them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memdir_nb.lint import lint_memory_dir
from memdir_nb.recall import find_relevant_memories
from memdir_nb.spec.text import word_count, words
from memdir_nb.storage.scan import scan_memory_files
from tests.conftest import LANG_MEMORIES


def test_accented_cyrillic_and_greek_letters_are_kept() -> None:
    assert words("Überprüfung der Änderung") == ["überprüfung", "der", "änderung"]
    assert words("Правила ревью") == ["правила", "ревью"]
    assert words("Δοκιμή κώδικα") == ["δοκιμή", "κώδικα"]


def test_combining_accent_matches_the_precomposed_letter() -> None:
    assert words("cafe\u0301") == words("café") == ["café"]


def test_chinese_is_cut_into_overlapping_character_pairs() -> None:
    assert words("数据库迁移") == ["数据", "据库", "库迁", "迁移"]


def test_japanese_and_korean_are_cut_into_pairs_and_latin_stays_whole() -> None:
    assert words("テスト方針") == ["テス", "スト", "ト方", "方針"]
    assert words("운영 서버") == ["운영", "서버"]
    assert words("gsim 回测") == ["gsim", "回测"]


def test_a_lone_cjk_character_is_one_word() -> None:
    assert words("坑") == ["坑"]


def test_hyphen_apostrophe_and_underscore_rules_are_unchanged() -> None:
    assert words("follow-up don’t snake_case") == ["follow-up", "don't", "snake", "case"]


def test_word_count_counts_two_cjk_characters_as_one_word() -> None:
    assert word_count("用户偏好和习惯") == 4
    assert word_count("gsim 回测框架") == 3
    assert word_count("misc notes") == 2


@pytest.mark.parametrize("lang", sorted(LANG_MEMORIES))
def test_scan_reads_names_and_descriptions_in_every_language(
    real_dir: Callable[[str], Path], lang: str
) -> None:
    root = real_dir("multilingual")
    headers = {h.filename: h for h in scan_memory_files(root)}
    name, description, _ = LANG_MEMORIES[lang]
    assert (headers[f"rule_{lang}.md"].name, headers[f"rule_{lang}.md"].description) == (
        name,
        description,
    )


@pytest.mark.parametrize("lang", sorted(LANG_MEMORIES))
def test_a_query_in_the_same_language_recalls_the_memory(
    real_dir: Callable[[str], Path], lang: str
) -> None:
    root = real_dir("multilingual")
    query = LANG_MEMORIES[lang][2]
    found = [m.path.rsplit("/", 1)[-1] for m in find_relevant_memories(query, root)]
    assert found[:1] == [f"rule_{lang}.md"]


@pytest.mark.parametrize("lang", sorted(LANG_MEMORIES))
def test_precise_descriptions_in_every_language_are_not_vague(
    real_dir: Callable[[str], Path], lang: str
) -> None:
    root = real_dir("multilingual")
    rules = {(f.path, f.rule) for f in lint_memory_dir(root)}
    assert (f"rule_{lang}.md", "vague-description") not in rules
    assert (f"rule_{lang}.md", "not-in-index") not in rules


def test_a_two_character_chinese_description_is_still_vague(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("- [笔记](notes.md) — 笔记\n", encoding="utf-8")
    (tmp_path / "notes.md").write_text(
        "---\nname: 笔记\ndescription: 笔记\ntype: reference\n---\n\n内容\n", encoding="utf-8"
    )
    assert ("notes.md", "vague-description") in {
        (f.path, f.rule) for f in lint_memory_dir(tmp_path)
    }
