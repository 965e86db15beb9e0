"""The memory dir at the start of each turn, kept as the first turn's dir and what changed.

A session's timeline (formats.memory_timeline) is asked for the dir as of every turn. Kept as
one dict per turn, it grew with the turns times the files: a crafted transcript of 4,000
turns, each writing one more memory, held 8 million entries (1.4 GB, 61 s to build). Kept as
changes, it grows with the changes; a turn's dir is made when asked for, from the nearest one
already made (the replay asks for them in order, so each is one step from the last).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Generic, TypeVar, overload

V = TypeVar("V")


class TurnStates(Sequence[dict[str, V]], Generic[V]):
    """One dict per turn (a new copy each time one is read), from the first turn's dict and,
    for each later turn, the entries that changed since the turn before (None: removed)."""

    def __init__(self, first: Mapping[str, V], changes: Sequence[Mapping[str, V | None]]):
        self._first = dict(first)
        self._changes = list(changes)
        self._length = len(self._changes) + 1
        self._at = 0
        self._state = dict(self._first)

    @classmethod
    def empty(cls) -> TurnStates[V]:
        """No turns at all."""
        states: TurnStates[V] = cls({}, [])
        states._length = 0
        return states

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> dict[str, V]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, V]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, V] | list[dict[str, V]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        turn = index + self._length if index < 0 else index
        if not 0 <= turn < self._length:
            raise IndexError(f"turn {index} of {self._length}")
        if turn < self._at:
            self._at, self._state = 0, dict(self._first)
        for changed in self._changes[self._at : turn]:
            for rel, value in changed.items():
                if value is None:
                    self._state.pop(rel, None)
                else:
                    self._state[rel] = value
        self._at = turn
        return dict(self._state)
