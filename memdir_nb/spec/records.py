"""Record classes: what a frozen (or slotted) dataclass gives, without the dataclasses module.

`class MemoryHeader(Record, frozen=True)` with annotated fields gets what `@dataclass(frozen=
True)` would give it: an `__init__` taking the fields in order with their defaults (and
`field(default_factory=...)`), a `repr` of the same shape, equality between objects of the
same class, a hash of the compared fields, `__match_args__`, pickling and copying, and a
refusal to assign or delete an attribute (`FrozenRecordError`, an AttributeError as
dataclasses' FrozenInstanceError is). `slots=True` gives a mutable record with `__slots__` and
no hash, as `@dataclass(slots=True)` does. `replace(obj, **changes)` is `dataclasses.replace`.

Why not dataclasses: `import dataclasses` imports `inspect` (and with it `ast`, `dis`,
`tokenize`, `linecache`), and each class it builds runs several `exec`s; on the scan path that
was about a fifth of the `memdir-nb scan` process (docs/performance.md, thirty-first session).
A NamedTuple is no cheaper there: with string annotations its class compiles each of them.
A record class runs one `exec` (its `__init__`, with the generated signature), when its first
object is made or its `__init__` is first asked for; its key (the compared fields' tuple) comes
from operator.attrgetter, and it shares the other methods. `dataclasses.fields`, `replace`, `asdict` and `is_dataclass` still
work on a record: its `__dataclass_fields__`, read first by those functions, is built on first
use by dataclasses itself from a twin class with the same fields, so only a caller of those
functions imports the module. The package's own code uses `replace` and `field_names` here.

A record's `__init__` fills a frozen object's `__dict__` in one update (what the twentieth
session's `quick_init` did for dataclasses): a frozen dataclass's generated `__init__` makes one
`object.__setattr__` call per field. Not supported, and refused when the class is made:
`frozen=True` with `slots=True`, a field named like the record's own attributes
(`__record...`), a field without a default after one with a default, a mutable default, and
a record subclassing another one that has fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import attrgetter
from reprlib import recursive_repr

# typing stays unimported at run time: every `memdir-nb scan` imports this module, and typing
# is about 12 M instructions of that process (docs/performance.md, forty-second session)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, TypeVar, dataclass_transform

    R = TypeVar("R", bound="Record")
else:

    def dataclass_transform(**_options: object) -> Callable[[type], type]:
        """typing.dataclass_transform's place at run time: its mark is for type checkers,
        which read it from the source (mypy sees the import above); the class is unchanged."""
        return lambda cls: cls


__all__ = ["FrozenRecordError", "Record", "field", "field_names", "replace"]


class FrozenRecordError(AttributeError):
    """An attribute of a frozen record was assigned or deleted (dataclasses' FrozenInstanceError)."""


class _Missing:
    """No default given (shown as dataclasses shows its MISSING)."""

    def __repr__(self) -> str:
        return "<MISSING>"


_MISSING: Any = _Missing()


class _Factory:
    """The default shown in the signature of a field with a default factory, as dataclasses does."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


class _Field:
    """One field of a record: its name, default or default factory, and whether repr/eq see it."""

    __slots__ = ("compare", "default", "default_factory", "name", "repr")

    def __init__(
        self,
        default: Any = _MISSING,
        default_factory: Callable[[], Any] | None = None,
        repr: bool = True,  # dataclasses.field's own parameter names
        compare: bool = True,
    ) -> None:
        if default is not _MISSING and default_factory is not None:
            raise ValueError("a record field takes a default or a default_factory, not both")
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.repr = repr
        self.compare = compare


def field(
    *,
    default: Any = _MISSING,
    default_factory: Callable[[], Any] | None = None,
    repr: bool = True,  # dataclasses.field's own parameter names
    compare: bool = True,
) -> Any:
    """A record field's options, as `dataclasses.field` takes them (the subset records use)."""
    return _Field(default, default_factory, repr, compare)


def _is_class_var(annotation: object) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _own_fields(name: str, ns: dict[str, Any], slots: bool) -> list[_Field]:
    """The fields a class body declares, in order; class-level defaults taken out of ns where a
    slot or a factory needs them gone."""
    fields: list[_Field] = []
    for fname, annotation in ns.get("__annotations__", {}).items():
        if _is_class_var(annotation):
            continue
        if fname.startswith("__record"):
            raise TypeError(f"record {name}: the field name {fname!r} is the record's own")
        value = ns.get(fname, _MISSING)
        spec = value if isinstance(value, _Field) else _Field(default=value)
        spec.name = fname
        if spec.default is not _MISSING and type(spec.default).__hash__ is None:
            raise ValueError(  # dataclasses' own rule and words
                f"mutable default {type(spec.default)} for field {fname} is not allowed: "
                "use default_factory"
            )
        if slots or spec.default is _MISSING:
            ns.pop(fname, None)  # a slot cannot have a class-level value; a factory has none
        else:
            ns[fname] = spec.default
        fields.append(spec)
    seen_default = False
    for spec in fields:
        has_default = spec.default is not _MISSING or spec.default_factory is not None
        if seen_default and not has_default:
            raise TypeError(
                f"record {name}: field {spec.name!r} without a default follows one with a default"
            )
        seen_default = seen_default or has_default
    return fields


def _init_of(cls: type, fields: list[_Field], frozen: bool, annotations: dict[str, Any]) -> Any:
    """cls's `__init__`, with the fields' signature."""
    # Every name the generated code uses besides the fields starts with __record, a prefix
    # _own_fields refuses for a field (and `self` is renamed when a field takes that name).
    me = "__record_self" if any(spec.name == "self" for spec in fields) else "self"
    space: dict[str, Any] = {"__record_FACTORY": _FACTORY}
    params: list[str] = []
    values: list[str] = []
    for i, spec in enumerate(fields):
        value = spec.name
        if spec.default is not _MISSING:
            space[f"__record_d{i}"] = spec.default
            params.append(f"{spec.name}=__record_d{i}")
        elif spec.default_factory is not None:
            space[f"__record_f{i}"] = spec.default_factory
            params.append(f"{spec.name}=__record_FACTORY")
            value = f"__record_f{i}() if {spec.name} is __record_FACTORY else {spec.name}"
        else:
            params.append(spec.name)
        values.append(value)
    if frozen:
        items = ", ".join(f"{s.name!r}: {v}" for s, v in zip(fields, values, strict=True))
        body = f"    {me}.__dict__.update({{{items}}})\n"
    else:
        body = "".join(f"    {me}.{s.name} = {v}\n" for s, v in zip(fields, values, strict=True))
    source = f"def __init__({me}, {', '.join(params)}):\n{body or '    pass'}\n"
    exec(source, space)  # field names only (checked identifiers by the class statement)
    init = space["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = {s.name: annotations[s.name] for s in fields} | {"return": None}
    return init


class _InitOnFirstUse:
    """A record's `__init__` until it is first asked for (an object made, `inspect.signature`):
    then compiled (_init_of) and put in its own place on the class, for good.

    The compile is most of a record class's cost, and a process imports many record classes
    it never makes an object of: a `memdir-nb scan` made 15 classes and objects of 10
    (docs/performance.md, forty-second session)."""

    __slots__ = ("annotations", "fields", "frozen", "owner")

    def __init__(self, fields: list[_Field], frozen: bool, annotations: dict[str, Any]) -> None:
        self.fields, self.frozen, self.annotations = fields, frozen, annotations
        self.owner: type = object

    def __set_name__(self, owner: type, name: str) -> None:
        self.owner = owner

    def __get__(self, obj: object, cls: type | None = None) -> Any:
        init = _init_of(self.owner, self.fields, self.frozen, self.annotations)
        type.__setattr__(self.owner, "__init__", init)
        return init if obj is None else init.__get__(obj, cls)


def _key_of(names: Iterable[str]) -> Callable[[object], tuple[object, ...]]:
    """The method giving the named fields' values as a tuple, made without compiling any code
    (a compile of its own was about a fifth of a record class's cost: docs/performance.md,
    forty-second session)."""
    compared = tuple(names)
    if not compared:
        return _no_key
    values = attrgetter(*compared)
    if len(compared) > 1:

        def key(self: object) -> tuple[object, ...]:
            return values(self)  # attrgetter of several names gives their tuple

    else:

        def key(self: object) -> tuple[object, ...]:
            return (values(self),)

    return key


def _no_key(self: object) -> tuple[object, ...]:
    return ()


def _frozen_setattr(self: object, name: str, value: object) -> None:
    raise FrozenRecordError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: object, name: str) -> None:
    raise FrozenRecordError(f"cannot delete field {name!r}")


class _DataclassFields:
    """`__dataclass_fields__`, built by dataclasses from a twin class on first use (see above)."""

    def __get__(self, obj: object, cls: type) -> dict[str, Any]:
        built = cls.__dict__.get("__record_dataclass_fields__")
        if built is None:
            built = _dataclass_fields(cls)
            type.__setattr__(cls, "__record_dataclass_fields__", built)
        return built


def _dataclass_fields(cls: type) -> dict[str, Any]:
    """The fields dataclasses gives a class declared as this record is (its own Field objects)."""
    import dataclasses  # only for a caller of dataclasses' own functions: see the docstring

    record: Any = cls
    ns: dict[str, Any] = {"__annotations__": {}, "__doc__": cls.__doc__ or cls.__name__}
    for spec in record.__record_fields__:
        ns["__annotations__"][spec.name] = cls.__annotations__[spec.name]  # each field has one
        ns[spec.name] = dataclasses.field(
            default=spec.default if spec.default is not _MISSING else dataclasses.MISSING,
            default_factory=spec.default_factory or dataclasses.MISSING,
            repr=spec.repr,
            compare=spec.compare,
        )
    twin = type(cls.__name__, (), ns)
    twin.__module__, twin.__qualname__ = cls.__module__, cls.__qualname__
    frozen = record.__record_frozen__
    done: Any = dataclasses.dataclass(frozen=frozen, eq=True)(twin)
    return dict(done.__dataclass_fields__)


@dataclass_transform(eq_default=True, field_specifiers=(field,))
class _RecordMeta(type):
    """Makes each class declared with `Record` as its base a record (see the module docstring)."""

    def __new__(
        mcls,
        name: str,
        bases: tuple[type, ...],
        ns: dict[str, Any],
        *,
        frozen: bool = False,
        slots: bool = False,
    ) -> _RecordMeta:
        if not any(isinstance(base, _RecordMeta) for base in bases):
            return super().__new__(mcls, name, bases, ns)  # Record itself
        if frozen and slots:
            raise TypeError(f"record {name}: frozen=True with slots=True is not supported")
        if any(getattr(base, "__record_fields__", ()) for base in bases):
            raise TypeError(f"record {name}: a record cannot extend a record that has fields")
        fields = _own_fields(name, ns, slots)
        if slots:
            ns["__slots__"] = tuple(spec.name for spec in fields)
        names = tuple(spec.name for spec in fields)
        made = {
            "__init__": _InitOnFirstUse(fields, frozen, ns.get("__annotations__", {})),
            "__record_key__": _key_of(spec.name for spec in fields if spec.compare),
            "__record_fields__": tuple(fields),
            "__record_names__": names,
            "__record_repr__": tuple(spec.name for spec in fields if spec.repr),
            "__record_frozen__": frozen,
            "__match_args__": names,
            # mutable and compared by value: no hash, as a dataclass
            "__hash__": Record._record_hash if frozen else None,
        }
        if frozen:
            made |= {"__setattr__": _frozen_setattr, "__delattr__": _frozen_delattr}
        # in the namespace the class is made from: each type.__setattr__ on a made class
        # costs a clearing of the type's method cache
        return super().__new__(mcls, name, bases, ns | made)


class Record(metaclass=_RecordMeta):
    """The base of record classes: `class X(Record, frozen=True):` (see the module docstring)."""

    __slots__ = ()
    __record_fields__: ClassVar[tuple[_Field, ...]] = ()
    __record_names__: ClassVar[tuple[str, ...]] = ()
    __record_repr__: ClassVar[tuple[str, ...]] = ()
    __record_frozen__: ClassVar[bool] = False
    __dataclass_fields__: ClassVar[dict[str, Any]] = _DataclassFields()  # type: ignore[assignment]  # a descriptor giving the dict

    def __record_key__(self) -> tuple[object, ...]:
        """The compared fields' values, in order (generated per class)."""
        return ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self.__record_key__() == other.__record_key__()
        return NotImplemented

    def _record_hash(self) -> int:
        return hash(self.__record_key__())

    @recursive_repr()
    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in type(self).__record_repr__)
        return f"{type(self).__qualname__}({shown})"


def replace(obj: R, /, **changes: Any) -> R:
    """A copy of the record obj with the named fields changed (as `dataclasses.replace`)."""
    for name in type(obj).__record_names__:
        if name not in changes:
            changes[name] = getattr(obj, name)
    return type(obj)(**changes)


def field_names(obj: object) -> tuple[str, ...] | None:
    """The field names of a record or dataclass instance (None for other objects), in order,
    without importing dataclasses for a record."""
    cls = type(obj)
    if isinstance(obj, Record):
        return cls.__record_names__  # type: ignore[attr-defined,no-any-return]  # a record's
    fields = getattr(cls, "__dataclass_fields__", None)
    return tuple(fields) if fields is not None else None
