"""quick_init: a frozen dataclass's __init__ that fills __dict__ in one update, same object."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from dataclasses import InitVar, dataclass, field

import pytest

from memdir_nb.formats.frontmatter import Frontmatter
from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.lint.description_audit import DescriptionAudit, UnseenSentence
from memdir_nb.lint.findings import Finding, MemoryText
from memdir_nb.spec.records import quick_init


@dataclass(frozen=True)
class Plain:
    key: str
    count: int = 0
    tags: dict[str, int] = field(default_factory=dict)
    note: str | None = None


@quick_init
@dataclass(frozen=True)
class Quick:
    key: str
    count: int = 0
    tags: dict[str, int] = field(default_factory=dict)
    note: str | None = None


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [(("k",), {}), (("k", 3), {"note": "n"}), ((), {"key": "k", "tags": {"a": 1}})],
)
def test_quick_init_fills_every_field_in_order_as_the_generated_init_does(
    args: tuple[object, ...], kwargs: dict[str, object]
) -> None:
    plain, quick = Plain(*args, **kwargs), Quick(*args, **kwargs)  # type: ignore[arg-type]
    assert list(vars(quick).items()) == list(vars(plain).items())
    assert repr(quick).removeprefix("Quick") == repr(plain).removeprefix("Plain")


def test_quick_init_gives_each_object_its_own_default_factory_value() -> None:
    first, second = Quick("a"), Quick("b")
    assert first.tags == {} and first.tags is not second.tags


def test_quick_init_keeps_the_signature_and_refuses_wrong_arguments() -> None:
    assert str(inspect.signature(Quick)) == str(inspect.signature(Plain))
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick("k", colour="red")  # type: ignore[call-arg]


def test_quick_init_keeps_the_class_frozen_hashable_picklable_and_replaceable() -> None:
    quick = Quick("k", 2, note="n")
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.count = 3  # type: ignore[misc]
    assert quick == Quick("k", 2, note="n")
    assert dataclasses.replace(quick, count=5) == Quick("k", 5, note="n")
    assert pickle.loads(pickle.dumps(quick)) == quick
    hashable = Quick("k", tags=None)  # type: ignore[arg-type]
    assert hash(hashable) == hash(Quick("k", tags=None))  # type: ignore[arg-type]


def _post_init() -> type:
    @dataclass(frozen=True)
    class WithPostInit:
        key: str

        def __post_init__(self) -> None:
            pass

    return WithPostInit


def _init_var() -> type:
    @dataclass(frozen=True)
    class WithInitVar:
        key: str
        seed: InitVar[int] = 0

    return WithInitVar


def _not_in_init() -> type:
    @dataclass(frozen=True)
    class WithHiddenField:
        key: str
        count: int = field(default=0, init=False)

    return WithHiddenField


def _slots() -> type:
    @dataclass(frozen=True, slots=True)
    class WithSlots:
        key: str

    return WithSlots


def _not_frozen() -> type:
    @dataclass
    class Mutable:
        key: str

    return Mutable


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (_post_init, "__post_init__"),
        (_init_var, "takes other than every field"),
        (_not_in_init, "takes other than every field"),
        (_slots, "__slots__"),
        (_not_frozen, "not a frozen dataclass"),
    ],
)
def test_quick_init_refuses_a_class_whose_init_does_more_than_set_fields(
    make: type, why: str
) -> None:
    with pytest.raises(TypeError, match=why):
        quick_init(make())


@pytest.mark.parametrize(
    "cls", [Frontmatter, MemoryHeader, MemoryText, Finding, UnseenSentence, DescriptionAudit]
)
def test_records_built_quickly_keep_the_signature_a_dataclass_gives_them(cls: type) -> None:
    fields = [(f.name, f.type, f) for f in dataclasses.fields(cls)]
    twin = dataclasses.make_dataclass(cls.__name__, fields, frozen=True)
    assert str(inspect.signature(cls)) == str(inspect.signature(twin))
