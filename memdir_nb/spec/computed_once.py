"""`computed_once`: an attribute computed from its object on the first read, kept after.

Its own module, apart from spec.records (where it was): it is generic (typing's Generic and
overload), and records are imported by every `memdir-nb scan`, which imports no typing
(docs/performance.md, forty-second session). The dream's comparison uses it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

__all__ = ["computed_once"]

V = TypeVar("V")


class computed_once(Generic[V]):  # lower case: a decorator, as cached_property is
    """`functools.cached_property` without its lock: an attribute computed from the object on
    its first read and kept in the object's `__dict__`, so later reads find it there and never
    call this descriptor again.

    Python 3.11's cached_property takes one lock per property (for every object of the class)
    on each first read; Python 3.12 dropped it. A dream plan makes 2,000 memory objects and
    reads several such attributes of each once (about 0.7 µs each saved; docs/performance.md,
    thirty-sixth session). Two threads reading one object's attribute first at once may both
    compute it: use it only for a pure function of fields that do not change, as the plan's are.
    """

    def __init__(self, compute: Callable[[Any], V]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> computed_once[V]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> V: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> V | computed_once[V]:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.compute(obj)
        return value
