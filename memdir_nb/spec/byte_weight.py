"""What a cached entry weighs: `weight_of`, about the bytes an object holds, and what one
entry costs beside its key and value (`ENTRY_OVERHEAD_BYTES`).

The weighing rule of spec.bounded_cache's caches, in a module of its own so the scan cache
(storage.scan), whose module every `memdir-nb scan` imports, weighs its entries without
importing the cache classes and typing with them (docs/performance.md, forty-second session).
"""

from __future__ import annotations

import sys
from itertools import chain

from memdir_nb.spec.records import field_names

TYPE_CHECKING = False  # typing stays unimported at run time; mypy reads the block below
if TYPE_CHECKING:
    from typing import Any

__all__ = ["ENTRY_OVERHEAD_BYTES", "weight_of"]

# What one entry costs beyond its key and value: its OrderedDict slot and link node, the
# (value, weight) pair and the weight's int (measured with tracemalloc on CPython 3.11).
ENTRY_OVERHEAD_BYTES = 200
_CONTAINER_BYTES = 64  # a tuple's, list's or set's own header
_OTHER_BYTES = 64  # an object weight_of does not look inside (shared ones are counted again)
# Exact types whose weight is their getsizeof, and those that weigh nothing: a container holding
# only the first (a plan's kept texts, a key of strings) or only the second (a stat identity) is
# weighed in one C-level pass over its items, with the same result as one call per item.
_SIZED_TYPES = frozenset({str, bytes})
_FREE_TYPES = frozenset({type(None), bool, int, float})
# Up to this many items a container is weighed in one Python loop over them (a kept read, a
# call's arguments: most of a plan's 5,600 stores), past it in the C-level passes.
_SMALL_CONTAINER = 8
_getsizeof = sys.getsizeof
# An exact str's or bytes' getsizeof is its own __sizeof__ (neither type is tracked by the
# collector, so getsizeof adds no header): the same number without getsizeof's argument parsing
# (a tuple and a keyword parse per call, about 100-300 ns against 30; plan39b). A subclass
# still goes through getsizeof (its instances may carry a __dict__ and a collector header).
_str_size = str.__sizeof__
_bytes_size = bytes.__sizeof__
_TUPLES = frozenset({tuple})
_SIZED_STR = frozenset({str})


def weight_of(obj: object) -> int:
    """About how many bytes obj holds: strings and bytes as allocated, containers, dicts and
    dataclasses with what they hold (each item again, even when shared: an over-count keeps
    the bound safe)."""
    kind = type(obj)
    if kind is str:
        return _str_size(obj)
    if isinstance(obj, (str, bytes)):
        return _bytes_size(obj) if kind is bytes else _getsizeof(obj)
    if isinstance(obj, (tuple, list, frozenset, set)):
        size = _CONTAINER_BYTES + 8 * len(obj)
        if len(obj) <= _SMALL_CONTAINER:
            # A few items (a kept read's (stat key, text, hash), a call's arguments): one loop,
            # each string weighed here and the free ones skipped, costs less than setting up
            # the C-level passes below; the same sum either way.
            for item in obj:
                kind = type(item)
                if kind is str:
                    size += _str_size(item)
                elif kind not in _FREE_TYPES:
                    size += weight_of(item)
            return size
        return size + _items_weight(obj)
    if obj is None or isinstance(obj, (bool, int, float)):
        return 0  # small, and mostly shared (None, True, small ints) or inside a tuple's slot
    if isinstance(obj, dict):
        return _CONTAINER_BYTES + 16 * len(obj) + sum(map(weight_of, obj.items()))
    # A dataclass or record (recall's ToolKey, made from a tool name a transcript names) holds
    # what its fields hold: counted as _OTHER_BYTES, a 100 KB name was kept as 64 bytes (attack
    # round 18)
    names = field_names(obj)
    if names is not None:
        return _OTHER_BYTES + sum(weight_of(getattr(obj, name, None)) for name in names)
    return _OTHER_BYTES


def _items_weight(obj: tuple[Any, ...] | list[Any] | frozenset[Any] | set[Any]) -> int:
    """What a container's items weigh (weight_of each), in C-level passes where the kinds of
    the items allow: strings (a block's texts), free values, tuples of free values (a block's
    pairs of indexes, each a tuple weighing its header and slots)."""
    kinds = set(map(type, obj))
    if kinds == _SIZED_STR:
        return sum(map(_str_size, obj))
    if kinds <= _SIZED_TYPES:
        return sum(map(_getsizeof, obj))
    if kinds <= _FREE_TYPES:
        return 0
    if kinds == _TUPLES:
        inner = set(map(type, chain.from_iterable(obj)))
        if inner <= _FREE_TYPES:
            return _CONTAINER_BYTES * len(obj) + 8 * sum(map(len, obj))
        if inner == _SIZED_STR:
            held = sum(map(_str_size, chain.from_iterable(obj)))
            return _CONTAINER_BYTES * len(obj) + 8 * sum(map(len, obj)) + held
    return sum(map(weight_of, obj))
