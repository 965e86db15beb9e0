"""Stemming follows the text's language: English unless its function words say otherwise."""

from __future__ import annotations

from memdir_nb.recall.languages import detect_language
from memdir_nb.recall.lexical import LexicalOptions, tokens
from memdir_nb.spec.text import words

OPTS = LexicalOptions()


def test_english_text_stays_english_even_with_a_foreign_word() -> None:
    assert (
        detect_language(words("The release notes for the new version are in the wiki")) == "english"
    )
    assert detect_language(words("why did the process die")) == "english"


def test_french_german_and_spanish_texts_are_recognised() -> None:
    assert detect_language(words("Les réunions de l'équipe sont le mardi")) == "french"
    assert detect_language(words("Wann finden die Besprechungen statt?")) == "german"
    assert detect_language(words("¿Cuándo son las reuniones del equipo?")) == "spanish"


def test_a_german_query_meets_the_inflected_form_in_a_german_body() -> None:
    body = tokens(
        "Die Besprechungen finden jeden Dienstag im großen Raum statt, und wir haben eine Agenda.",
        OPTS,
    )
    query = tokens("Wann ist die Besprechung?", OPTS)
    assert set(query) & set(body) >= {"besprech"}


def test_function_words_of_the_detected_language_are_not_terms() -> None:
    assert "les" not in tokens("Les réunions de l'équipe sont le mardi", OPTS)
