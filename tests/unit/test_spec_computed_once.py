"""computed_once: an attribute computed on an object's first read and kept in its __dict__."""

from __future__ import annotations

from dataclasses import dataclass

from memdir_nb.spec.computed_once import computed_once


def test_an_attribute_computed_once_is_computed_on_the_first_read_of_each_object_only() -> None:
    calls: list[int] = []

    @dataclass
    class Memory:
        text: str

        @computed_once
        def lower(self) -> str:
            """The text, lower-cased."""
            calls.append(id(self))
            return self.text.lower()

    a, b = Memory("Kiln"), Memory("GLAZE")
    assert [a.lower, a.lower, b.lower, a.lower, b.lower] == ["kiln"] * 2 + [
        "glaze",
        "kiln",
        "glaze",
    ]
    assert calls == [id(a), id(b)]  # once per object, later reads from its __dict__
    assert a.__dict__["lower"] == "kiln" and "lower" not in Memory("x").__dict__
    assert isinstance(Memory.__dict__["lower"], computed_once)
    assert Memory.lower.__doc__ == "The text, lower-cased."
    assert Memory("x") == Memory("x") and a != b  # the dataclass's fields are untouched
