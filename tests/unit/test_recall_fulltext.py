"""The full-text channel: BM25 over name, description and the whole body, with coverage."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from memdir_nb.recall import fulltext
from memdir_nb.recall.fulltext import (
    DIR_WIDE_MIN_DOCS,
    IDF_MIN_DOCS,
    FullTextIndex,
    best_lexical_window,
    document_terms,
    pack_terms,
    terms_digest,
    terms_fingerprint,
    unpack_terms,
)
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
    # one word of four is in the dir (counted with its concept token): under half the query
    assert 0 < hit.coverage < 0.5


def test_an_empty_index_answers_without_error() -> None:
    assert FullTextIndex([]).search(["x"]) == []


def test_the_window_with_most_query_terms_is_named() -> None:
    windows = ["nothing here", "the poller sleep interval", "poller only"]
    assert best_lexical_window(windows, tokens("poller sleep", OPTS), OPTS) == 1
    assert best_lexical_window(windows, tokens("banana", OPTS), OPTS) is None


def _padded(docs: list[list[str]], total: int) -> list[list[str]]:
    """`docs` plus unrelated documents of the same length, up to `total`."""
    width = len(docs[0])
    return docs + [[f"other{i}w{j}" for j in range(width)] for i in range(total - len(docs))]


def test_a_small_dir_weighs_words_as_if_it_held_idf_min_docs_memories() -> None:
    docs = [
        ["poller", "sleep", "ten", "minut", "rate", "limit"],
        ["site", "reliab", "engin", "role", "user", "team"],
    ]
    small = FullTextIndex(docs)
    padded = FullTextIndex(_padded(docs, IDF_MIN_DOCS))
    query = ["poller", "sleep", "minut"]
    assert small.idf("poller") == padded.idf("poller")
    got = [h.score for h in small.search(query)]
    want = [h.score for h in padded.search(query)[:2]]
    assert got == pytest.approx(want, rel=1e-5)
    assert got[0] > 3.0  # a word in one memory of two weighs like a rare word, not 0.7 a term


def _friends(n: int) -> list[list[str]]:
    """n chat sessions between Iris and Dmitri, each about one thing of its own."""
    return [["iris", "dmitri", "chat", f"topic{i}", f"detail{i}"] for i in range(n)]


def _lucene(n: int, df: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def test_a_word_every_memory_of_a_dir_holds_gets_the_dirs_own_idf() -> None:
    index = FullTextIndex(_friends(DIR_WIDE_MIN_DOCS))
    assert index.idf("iris") == _lucene(DIR_WIDE_MIN_DOCS, DIR_WIDE_MIN_DOCS) < 0.1
    assert index.idf("topic0") == _lucene(IDF_MIN_DOCS, 1)  # a word of one memory: the floor


def test_the_names_in_every_session_add_almost_nothing_to_a_memorys_score() -> None:
    index = FullTextIndex(_friends(16))
    names_only = index.search(["iris", "dmitri"])
    own_topic = index.search(["iris", "dmitri", "topic3"])
    assert max(h.score for h in names_only) < 0.2
    assert own_topic[3].score > 10 * max(h.score for h in names_only)


def test_a_word_in_all_but_one_memory_or_in_every_memory_of_a_tiny_dir_keeps_the_floor() -> None:
    docs = _friends(DIR_WIDE_MIN_DOCS)
    docs[0] = ["dmitri", "chat", "topic0", "detail0", "other"]
    assert FullTextIndex(docs).idf("iris") == _lucene(IDF_MIN_DOCS, DIR_WIDE_MIN_DOCS - 1)
    tiny = FullTextIndex(_friends(DIR_WIDE_MIN_DOCS - 1))
    assert tiny.idf("iris") == _lucene(IDF_MIN_DOCS, DIR_WIDE_MIN_DOCS - 1)


def test_a_dir_of_idf_min_docs_or_more_keeps_plain_bm25() -> None:
    n, df = IDF_MIN_DOCS + 10, 2
    index = FullTextIndex(_padded([["poller", "sleep", "ten"], ["poller", "role", "user"]], n))
    assert index.idf("poller") == math.log(1 + (n - df + 0.5) / (df + 0.5))
    assert index.search(["poller"])[0].score == float(index._retriever.get_scores(["poller"])[0])


def test_stored_terms_read_back_as_made() -> None:
    terms = ("deploy", "friday", "deploy", "syn_deploy")
    windows: tuple[frozenset[str], ...] = (
        frozenset({"deploy", "friday"}),
        frozenset(),
        frozenset({"syn_deploy"}),
    )
    packed = pack_terms("d1", terms, windows)
    assert packed is not None
    assert unpack_terms(packed, "d1", 3) == (terms, windows)


def test_stored_terms_of_another_digest_or_window_count_are_refused() -> None:
    packed = pack_terms("d1", ("a1",), (frozenset({"a1"}),))
    assert packed is not None
    assert unpack_terms(packed, "d2", 1) is None
    assert unpack_terms(packed, "d1", 2) is None


def test_a_term_holding_a_separator_or_empty_is_not_stored() -> None:
    assert pack_terms("d", ("a\x1fb",), ()) is None
    assert pack_terms("d", ("ok",), (frozenset({"a\nb"}),)) is None
    assert pack_terms("d", ("",), ()) is None


def test_terms_digest_changes_with_options_fields_and_windows() -> None:
    base = terms_digest(("name", "desc"), ("window one",), OPTS)
    assert terms_digest(("name", "desc"), ("window one",), OPTS) == base
    assert terms_digest(("name", "desc"), ("window one",), LexicalOptions(stemming=False)) != base
    assert terms_digest(("name", "other"), ("window one",), OPTS) != base
    assert terms_digest(("name", "desc"), ("window", "one"), OPTS) != base


def test_terms_fingerprint_changes_when_a_tokenizer_source_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "probe_tokenizer_part.py").write_text("STOP = {'the'}\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(
        fulltext, "_TERM_SOURCES", (*fulltext._TERM_SOURCES, "probe_tokenizer_part")
    )
    terms_fingerprint.cache_clear()
    before = terms_fingerprint()
    (tmp_path / "probe_tokenizer_part.py").write_text("STOP = {'the', 'a'}\n", encoding="utf-8")
    terms_fingerprint.cache_clear()
    try:
        assert terms_fingerprint() != before
    finally:
        terms_fingerprint.cache_clear()


def test_code_that_cannot_be_read_never_matches_stored_terms(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fulltext, "_TERM_SOURCES", (*fulltext._TERM_SOURCES, "sys"))  # built in
    terms_fingerprint.cache_clear()
    try:
        first = terms_fingerprint()
        terms_fingerprint.cache_clear()
        assert first.startswith("unverified-")
        assert terms_fingerprint() != first
    finally:
        terms_fingerprint.cache_clear()


def test_each_documents_matched_terms_and_coverage_are_its_own_in_query_order() -> None:
    docs = [
        _doc("Deploy", "release train", "we deploy on fridays after the freeze"),
        _doc("Weather", "forecast", "rain in lisbon on fridays"),
        _doc("Empty", "", ""),
        _doc("Freeze", "code freeze", "no deploy during the freeze; ask the release owner"),
    ]
    index = FullTextIndex(docs)
    query = tokens("freeze deploy fridays lisbon banana", OPTS)
    hits = index.search(query)
    terms = list(dict.fromkeys(query))
    known = [t for t in terms if t in index.df]
    mass = sum(index.idf(t) for t in terms if not t.startswith("syn_"))
    for doc, hit in zip(docs, hits, strict=True):
        matched = tuple(t for t in known if t in set(doc))  # the query's order, not the doc's
        assert hit.matched == matched
        assert hit.coverage == min(1.0, sum(index.idf(t) for t in matched) / mass)
    assert hits[2] == fulltext.LexicalHit(0.0, 0.0, ())
    assert index.df == {t: sum(t in set(d) for d in docs) for d in docs for t in d}
