"""spec.byte_weight: what an object weighs in bytes (weight_of), the bounded caches' rule."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memdir_nb.spec import byte_weight
from memdir_nb.spec.byte_weight import weight_of
from memdir_nb.spec.records import Record


class _Text(str):
    """A str subclass: weighed as a string, though not of the exact type str."""


def _weight_one_by_one(obj: object) -> int:
    """weight_of's rule, one call per item (as it was written before its C-level passes)."""
    if isinstance(obj, (str, bytes)):
        return sys.getsizeof(obj)
    if isinstance(obj, (tuple, list, frozenset, set)):
        return 64 + 8 * len(obj) + sum(map(_weight_one_by_one, obj))
    if obj is None or isinstance(obj, (bool, int, float)):
        return 0
    if isinstance(obj, dict):
        return 64 + 16 * len(obj) + sum(map(_weight_one_by_one, obj.items()))
    return 64


_LEAVES = st.one_of(
    st.text(max_size=40),
    st.binary(max_size=40),
    st.text(max_size=10).map(_Text),
    st.integers(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
    st.just(object()),
)
_NESTED: Any = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.lists(inner, max_size=6).map(tuple),
        st.frozensets(st.one_of(st.text(max_size=8), st.integers()), max_size=6),
        st.dictionaries(st.text(max_size=8), inner, max_size=4),
    ),
    max_leaves=30,
)


@given(_NESTED)
def test_weight_is_the_same_whether_items_are_weighed_together_or_one_by_one(obj: Any) -> None:
    # Containers of only strings and bytes, or only numbers and None, are weighed in one pass.
    assert weight_of(obj) == _weight_one_by_one(obj)


_LONG = st.one_of(
    st.lists(st.text(max_size=12), min_size=9, max_size=40),  # strings only: one C-level pass
    st.lists(st.one_of(st.integers(), st.none(), st.booleans()), min_size=9, max_size=40),
    st.lists(st.one_of(_LEAVES, st.tuples(st.text(max_size=8))), min_size=9, max_size=40),
    st.lists(st.text(max_size=12), min_size=9, max_size=40).map(tuple),
    st.frozensets(st.one_of(st.text(max_size=8), st.integers()), min_size=9, max_size=40),
)


@given(st.one_of(_LONG, st.lists(_LONG, max_size=3).map(tuple)))
def test_a_long_container_weighs_the_same_as_one_item_at_a_time(obj: Any) -> None:
    # Past a few items a container is weighed in C-level passes, below it in one Python loop:
    # both branches give the one-by-one rule's weight.
    assert weight_of(obj) == _weight_one_by_one(obj)


def test_weight_counts_strings_inside_tuples_and_sets() -> None:
    text = "w" * 5000
    assert weight_of(text) > 5000
    assert weight_of((text, frozenset({text + "1"}))) > 10_000
    assert weight_of(None) == 0


def test_a_dataclass_or_a_dict_is_weighed_by_what_it_holds() -> None:
    # A key or value that is an object (recall's ToolKey, made from a tool name a transcript
    # names) was counted as 64 bytes whatever it held: a 100 KB name was kept as 64 bytes
    @dataclass(frozen=True)
    class Named:
        name: str
        words: frozenset[str]

    long = "n" * 100_000
    assert weight_of(Named(long, frozenset({long + "w"}))) > 200_000
    assert weight_of({"k": long}) > 100_000
    assert weight_of((Named("a", frozenset()),)) < 1_000  # a small one stays small


def test_a_record_is_weighed_by_what_it_holds_without_building_its_dataclass_fields() -> None:
    # spec.records classes (the scan's headers) are weighed by their fields, read from the
    # record itself: asking for __dataclass_fields__ would import dataclasses in a scan process
    class Held(Record, frozen=True):
        name: str
        words: frozenset[str] = frozenset()

    long = "n" * 100_000
    assert weight_of(Held(long, frozenset({long + "w"}))) > 200_000
    assert weight_of((Held("a"),)) < 1_000
    assert "__record_dataclass_fields__" not in Held.__dict__


_PAIR = st.tuples(st.integers(0, 3000), st.integers(0, 3000))
_WORDS = st.text(max_size=30)  # any code point: ASCII, Latin-1, BMP and astral strings
_CACHED_SHAPES = st.one_of(
    # a block's key and its pairs (dream.kept.BlockResults): many texts, many pairs of indexes
    st.tuples(st.lists(_WORDS, max_size=40).map(tuple), st.lists(_PAIR, max_size=40).map(tuple)),
    # a kept read (the stat key, the text, the hash) and a kept call's arguments and answer
    st.tuples(st.tuples(*[st.integers()] * 5), _WORDS, _WORDS),
    st.tuples(_WORDS, st.dates()),
    st.tuples(_WORDS, st.lists(_WORDS, max_size=3)),
    # long containers of tuples: of free values, of strings, of both, of a str subclass
    st.lists(
        st.lists(st.one_of(st.integers(), st.none(), st.booleans()), max_size=9).map(tuple),
        min_size=9,
        max_size=30,
    ).map(tuple),
    st.lists(st.lists(_WORDS, max_size=10).map(tuple), min_size=9, max_size=30).map(tuple),
    st.lists(
        st.lists(st.one_of(_WORDS, st.integers()), max_size=4).map(tuple), min_size=9, max_size=30
    ),
    st.lists(st.tuples(_WORDS.map(_Text), _WORDS), min_size=9, max_size=12).map(tuple),
    st.lists(st.one_of(_WORDS, st.binary(max_size=20)), min_size=9, max_size=30).map(tuple),
    st.lists(st.binary(max_size=20), min_size=9, max_size=30).map(frozenset),
)


@given(_CACHED_SHAPES)
def test_the_shapes_the_caches_hold_weigh_what_getsizeof_one_by_one_gives(obj: Any) -> None:
    # plan39b weighs exact strings by str.__sizeof__ and tuples of free values or of strings in
    # C-level passes: the byte counts (and so what a bounded cache drops) are the same.
    assert weight_of(obj) == _weight_one_by_one(obj)


def test_an_exact_string_is_weighed_without_getsizeofs_argument_parsing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refused(obj: object) -> int:
        raise AssertionError(f"getsizeof asked for {type(obj).__name__}")

    monkeypatch.setattr(byte_weight, "_getsizeof", refused)
    texts = ("a" * 5, "é" * 3, "\U0001f600")
    assert weight_of(texts[0]) == sys.getsizeof(texts[0])
    assert weight_of(texts) == 64 + 8 * 3 + sum(map(sys.getsizeof, texts))
    assert weight_of(texts * 4) == 64 + 8 * 12 + 4 * sum(map(sys.getsizeof, texts))
