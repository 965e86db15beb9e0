"""Frozen dataclasses built for about the cost of a plain object (`quick_init`).

A frozen dataclass's generated `__init__` sets each field with its own
`object.__setattr__(self, name, value)` call, since its own `__setattr__` refuses: about 0.35 µs
a field here, 4.8 µs for the 13 fields of a `Frontmatter`. Lint builds six such records per
memory file (the header, the text, the scan header, the audit and its unseen sentences, the
findings), about 11 per file in all, and cProfile does not show them (every generated
`__init__` is keyed `<string>:2`, so each overwrites the others in its table).

`quick_init` gives a frozen dataclass an `__init__` with the same parameters, defaults and
default factories that fills the instance's `__dict__` in one `update`, in field order: the
same object, field for field and in the same order, as the generated one makes. The class
stays frozen (assigning a field still raises FrozenInstanceError), and equality, hashing,
`repr`, pickling and `dataclasses.replace` are the dataclass's own. It refuses the cases
where the generated `__init__` does more than set fields: `__post_init__`, `InitVar`, fields
left out of `__init__` or keyword-only, and `__slots__` (no `__dict__` to fill).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["quick_init"]

T = TypeVar("T")


class _Factory:
    """The default of a field with a default factory, shown as dataclasses shows it."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _refusal(cls: type) -> str | None:
    """Why quick_init cannot stand in for cls's generated __init__, or None."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or not params.init:
        return "it is not a frozen dataclass with a generated __init__"
    if hasattr(cls, "__post_init__"):
        return "it has a __post_init__"
    if "__slots__" in cls.__dict__:
        return "it has __slots__"
    code = cls.__dict__["__init__"].__code__
    taken = code.co_varnames[1 : code.co_argcount]  # after self
    if code.co_kwonlyargcount or taken != tuple(f.name for f in dataclasses.fields(cls)):
        return "its __init__ takes other than every field in order (InitVar, init=False, kw_only)"
    return None


def quick_init(cls: type[T]) -> type[T]:
    """cls (a frozen dataclass) with an __init__ that fills its __dict__ in one update."""
    why = _refusal(cls)
    if why is not None:
        raise TypeError(f"quick_init cannot be used on {cls.__qualname__}: {why}")
    space: dict[str, Any] = {"_FACTORY": _FACTORY}
    params: list[str] = []
    items: list[str] = []
    record: Any = cls  # a dataclass: _refusal checked it
    for i, f in enumerate(dataclasses.fields(record)):
        value = f.name
        if f.default is not dataclasses.MISSING:
            space[f"_d{i}"] = f.default
            params.append(f"{f.name}=_d{i}")
        elif f.default_factory is not dataclasses.MISSING:
            space[f"_f{i}"] = f.default_factory
            params.append(f"{f.name}=_FACTORY")
            value = f"_f{i}() if {f.name} is _FACTORY else {f.name}"
        else:
            params.append(f.name)
        items.append(f"{f.name!r}: {value}")
    source = (
        f"def __init__(self, {', '.join(params)}):\n"
        f"    self.__dict__.update({{{', '.join(items)}}})\n"
    )
    exec(source, space)  # field names only: what dataclasses itself does
    init = space["__init__"]
    generated = cls.__dict__["__init__"]
    init.__qualname__ = generated.__qualname__
    init.__annotations__ = dict(generated.__annotations__)
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[method-assign]  # the generated one's signature, kept
    return cls
