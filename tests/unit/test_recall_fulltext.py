"""The full-text channel: BM25 over name, description and the whole body, with coverage."""

from __future__ import annotations

from memdir_nb.recall.fulltext import FullTextIndex, best_lexical_window, document_terms
from memdir_nb.recall.lexical import LexicalOptions, tokens

OPTS = LexicalOptions()


def _doc(name: str, description: str, body: str) -> list[str]:
    return document_terms(name, description, "project", "x", body, OPTS)


def test_a_word_deep_in_the_body_is_indexed() -> None:
    body = "filler sentence. " * 500 + "The poller sleeps ten minutes between runs."
    index = FullTextIndex([_doc("Ops", "notes", body), _doc("Role", "engineer", "")])
    hits = index.search(tokens("poller sleep", OPTS))
    assert hits[0].score > 0 and hits[1].score == 0
    assert hits[0].coverage == 1.0


def test_chinese_is_matched_through_two_character_pieces() -> None:
    index = FullTextIndex(
        [_doc("部署", "", "我们把服务器迁移到了新的机房。"), _doc("b", "", "天气很好")]
    )
    hits = index.search(tokens("服务器迁移", OPTS))
    assert hits[0].score > hits[1].score == 0


def test_a_query_about_nothing_in_the_dir_covers_little() -> None:
    index = FullTextIndex([_doc("Ops", "deploy notes", "we deploy on fridays")])
    hit = index.search(tokens("deploy the weather forecast for lisbon", OPTS))[0]
    assert 0 < hit.coverage < 0.3


def test_an_empty_index_answers_without_error() -> None:
    assert FullTextIndex([]).search(["x"]) == []


def test_the_window_with_most_query_terms_is_named() -> None:
    windows = ["nothing here", "the poller sleep interval", "poller only"]
    assert best_lexical_window(windows, tokens("poller sleep", OPTS), OPTS) == 1
    assert best_lexical_window(windows, tokens("banana", OPTS), OPTS) is None
