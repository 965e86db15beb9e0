"""Records: what a frozen (or slotted) dataclass gives, built without the dataclasses module."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import os
import pickle
import subprocess
import sys
from dataclasses import dataclass

import pytest

from memdir_nb.formats.frontmatter import Frontmatter
from memdir_nb.formats.frontmatter_fast import PlainColon
from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.lint.description_audit import DescriptionAudit, UnseenSentence
from memdir_nb.lint.findings import Finding, MemoryText
from memdir_nb.recall.decision import Verdict
from memdir_nb.recall.explain_selection import MemoryExplanation
from memdir_nb.recall.fulltext import LexicalHit
from memdir_nb.spec import records as records_module
from memdir_nb.spec.records import (
    FrozenRecordError,
    Record,
    field,
    field_names,
    replace,
)
from memdir_nb.spec.taxonomy import TypeGuidance
from memdir_nb.storage.access import ReadResult
from memdir_nb.storage.headers import HeadRead
from memdir_nb.storage.listing import FolderOfMemoryDirs, ListedFile, MemoryListing, SkippedFile
from memdir_nb.storage.scan import CachedHeader, ScanCacheStats, ScanReport


@dataclass(frozen=True)
class Twin:
    key: str
    count: int = 0
    tags: dict[str, int] = dataclasses.field(default_factory=dict)
    note: str | None = None
    hidden: str = dataclasses.field(default="h", repr=False, compare=False)


class Quick(Record, frozen=True):
    key: str
    count: int = 0
    tags: dict[str, int] = field(default_factory=dict)
    note: str | None = None
    hidden: str = field(default="h", repr=False, compare=False)


@dataclass(slots=True)
class SlotTwin:
    path: str
    size: int
    memo: str | None = dataclasses.field(default=None, repr=False, compare=False)


class Slotted(Record, slots=True):
    path: str
    size: int
    memo: str | None = field(default=None, repr=False, compare=False)


CALLS = [(("k",), {}), (("k", 3), {"note": "n"}), ((), {"key": "k", "tags": {"a": 1}})]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_a_frozen_record_holds_reprs_compares_and_hashes_as_its_dataclass_twin(
    args: tuple[object, ...], kwargs: dict[str, object]
) -> None:
    twin, quick = Twin(*args, **kwargs), Quick(*args, **kwargs)  # type: ignore[arg-type]
    assert list(vars(quick).items()) == list(vars(twin).items())
    assert repr(quick).removeprefix("Quick") == repr(twin).removeprefix("Twin")
    assert quick == Quick(*args, **kwargs)  # type: ignore[arg-type]
    assert quick != twin and twin != quick  # another class, as two dataclasses
    assert Quick.__match_args__ == Twin.__match_args__
    if not quick.tags:
        hashable = Quick(*args, **kwargs | {"tags": None})  # type: ignore[arg-type]
        twin_hashable = Twin(*args, **kwargs | {"tags": None})  # type: ignore[arg-type]
        assert hash(hashable) == hash(twin_hashable)
    else:
        with pytest.raises(TypeError, match="unhashable"):
            hash(quick)


def test_a_field_left_out_of_compare_and_repr_is_left_out_as_a_dataclass_does() -> None:
    assert Quick("k", hidden="a") == Quick("k", hidden="b")
    assert hash(Quick("k", tags=None, hidden="a")) == hash(Quick("k", tags=None, hidden="b"))  # type: ignore[arg-type]
    assert "hidden" not in repr(Quick("k"))
    assert Quick("k", 1) != Quick("k", 2)


def test_a_record_gives_each_object_its_own_default_factory_value() -> None:
    first, second = Quick("a"), Quick("b")
    assert first.tags == {} and first.tags is not second.tags
    assert Quick("a", tags={"x": 1}).tags == {"x": 1}


def test_a_record_has_its_twins_signature_and_refuses_wrong_arguments() -> None:
    assert str(inspect.signature(Quick)) == str(inspect.signature(Twin))
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick("k", colour="red")  # type: ignore[call-arg]


def test_a_frozen_record_refuses_assignment_and_deletion_as_an_attribute_error() -> None:
    quick = Quick("k", 2)
    with pytest.raises(FrozenRecordError, match="cannot assign to field 'count'"):
        quick.count = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        quick.other = 1  # type: ignore[attr-defined]
    with pytest.raises(FrozenRecordError, match="cannot delete field 'count'"):
        del quick.count
    assert quick.count == 2


def test_a_record_survives_pickling_and_copying() -> None:
    quick = Quick("k", 2, {"a": 1}, note="n", hidden="x")
    for again in (pickle.loads(pickle.dumps(quick)), copy.copy(quick), copy.deepcopy(quick)):
        assert again == quick and vars(again) == vars(quick)
    slotted = Slotted("p", 3, memo="m")
    back = pickle.loads(pickle.dumps(slotted))
    assert back == slotted and back.memo == "m"


def test_replace_and_dataclasses_own_functions_treat_a_record_as_its_twin() -> None:
    quick, twin = Quick("k", 2, note="n"), Twin("k", 2, note="n")
    assert replace(quick, count=5) == Quick("k", 5, note="n")
    assert dataclasses.replace(quick, count=5) == Quick("k", 5, note="n")
    assert dataclasses.is_dataclass(quick)
    assert dataclasses.asdict(quick) == dataclasses.asdict(twin)
    assert dataclasses.astuple(quick) == dataclasses.astuple(twin)
    shown = [
        (f.name, f.type, f.default, f.default_factory, f.repr, f.compare)
        for f in dataclasses.fields(quick)
    ]
    assert shown == [
        (f.name, f.type, f.default, f.default_factory, f.repr, f.compare)
        for f in dataclasses.fields(twin)
    ]
    with pytest.raises(TypeError):
        replace(quick, colour="red")
    assert field_names(quick) == field_names(twin) == ("key", "count", "tags", "note", "hidden")
    assert field_names("text") is None


def test_a_slotted_record_is_mutable_unhashable_and_has_no_dict_as_its_twin() -> None:
    slotted, twin = Slotted("p", 3), SlotTwin("p", 3)
    assert repr(slotted).removeprefix("Slotted") == repr(twin).removeprefix("SlotTwin")
    assert Slotted.__slots__ == SlotTwin.__slots__
    assert not hasattr(slotted, "__dict__")
    slotted.memo = "kept"
    assert slotted == Slotted("p", 3) and slotted.memo == "kept"
    with pytest.raises(AttributeError):
        slotted.other = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="unhashable"):
        hash(slotted)
    assert Slotted("p", 3) != Slotted("p", 4)


def test_a_record_repr_of_itself_inside_itself_shows_dots() -> None:
    inner: list[object] = []
    outer = Slotted("p", 1)
    outer.path = inner  # type: ignore[assignment]
    inner.append(outer)
    assert repr(outer) == "Slotted(path=[...], size=1)"


def _frozen_with_slots() -> type:
    class Both(Record, frozen=True, slots=True):
        key: str

    return Both


def _extends_a_record() -> type:
    class Longer(Quick, frozen=True):
        extra: int = 0

    return Longer


def _default_then_required() -> type:
    class Order(Record, frozen=True):
        key: str = ""
        count: int  # type: ignore[misc]  # the mistake under test

    return Order


def _own_name() -> type:
    class Clash(Record, frozen=True):
        __record_names__: str  # type: ignore[assignment,misc]  # the mistake under test

    return Clash


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (_frozen_with_slots, "frozen=True with slots=True"),
        (_extends_a_record, "cannot extend a record"),
        (_default_then_required, "without a default follows one with a default"),
        (_own_name, "is the record's own"),
    ],
)
def test_a_record_class_refuses_what_it_cannot_build_when_it_is_made(make: type, why: str) -> None:
    with pytest.raises(TypeError, match=why):
        make()


def test_a_field_takes_a_default_or_a_factory_not_both() -> None:
    with pytest.raises(ValueError, match="not both"):
        field(default=1, default_factory=list)


def test_a_mutable_default_is_refused_in_dataclasses_words() -> None:
    with pytest.raises(ValueError, match="mutable default <class 'list'> for field tags"):

        class Shared(Record, frozen=True):
            tags: list[str] = []  # noqa: RUF012  # the mistake under test


def test_a_field_may_be_named_self_or_like_the_generated_codes_names() -> None:
    class Odd(Record, frozen=True):
        self: int
        _d0: int = 1
        _f1: list[int] = field(default_factory=list)

    odd = Odd(5)
    assert (odd.self, odd._d0, odd._f1) == (5, 1, [])
    assert odd == Odd(self=5) and odd != Odd(6)
    assert replace(odd, _d0=2) == Odd(5, 2)


RECORDS = [
    Frontmatter,
    MemoryHeader,
    MemoryText,
    Finding,
    UnseenSentence,
    DescriptionAudit,
    TypeGuidance,
    ReadResult,
    SkippedFile,
    ListedFile,
    MemoryListing,
    ScanReport,
    ScanCacheStats,
    Verdict,
    LexicalHit,
    MemoryExplanation,
    PlainColon,
    HeadRead,
    FolderOfMemoryDirs,
    CachedHeader,
]


@pytest.mark.parametrize("cls", RECORDS)
def test_the_package_records_have_the_signature_a_dataclass_gives_them(cls: type) -> None:
    fields = [(f.name, f.type, f) for f in dataclasses.fields(cls)]
    twin = dataclasses.make_dataclass(cls.__name__, fields, frozen=True)
    assert str(inspect.signature(cls)) == str(inspect.signature(twin))


def test_making_and_using_records_imports_neither_dataclasses_nor_inspect() -> None:
    code = (
        "import sys\n"
        "from memdir_nb.spec.records import Record, field, replace\n"
        "class R(Record, frozen=True):\n"
        "    a: int\n"
        "    b: list[int] = field(default_factory=list)\n"
        "r = replace(R(1), a=2)\n"
        "print(r, r == R(2), {R(1, None)} == {R(1, None)},"
        " [m for m in ('dataclasses', 'inspect') if m in sys.modules])\n"
    )
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "R(a=2, b=[]) True True []"


def test_a_record_class_compiles_its_init_when_first_asked_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A scan process made 15 record classes and objects of 10: the compile, most of a class's
    # cost, waits for the first object or signature (docs/performance.md, forty-second session)
    compiled: list[str] = []

    def counted(source: str, space: dict[str, object]) -> None:
        compiled.append(source)
        exec(source, space)

    monkeypatch.setattr(records_module, "exec", counted, raising=False)

    class Lazy(Record, frozen=True):
        name: str
        count: int = 0

    class Asked(Record):
        name: str

    assert compiled == []
    assert Lazy("a") == Lazy("a", 0) and Lazy("b", 2).count == 2
    assert len(compiled) == 1  # one compile, at the first object; the class keeps its __init__
    assert str(inspect.signature(Asked)) == "(name: 'str') -> None"
    assert len(compiled) == 2 and Asked("x").name == "x" and len(compiled) == 2
    assert Lazy.__init__.__qualname__ == f"{Lazy.__qualname__}.__init__"
