"""The recent-tools rule's class of each candidate, remembered between warm recalls.

`lexical.classify_for_tools` decides from a header's texts whether a memory is a usage doc or a
warning about a tool in use. A warm recall asks it for every candidate, so the answers are kept
by the header's texts (which decide them) per set of tools: the tools are hashed once a call,
not once a memory. Header texts hold descriptions of up to 8 KiB, so the kept answers are
bounded in bytes as well as in entries (spec.bounded_cache).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from memdir_nb.recall.lexical import ToolKey, classify_for_tools, header_text
from memdir_nb.spec.bounded_cache import ByteBoundedLRU, bounded_cache, weight_of
from memdir_nb.spec.constants import CACHE_MAX_BYTES

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.formats.manifest import MemoryHeader

__all__ = ["tool_classes"]

# Sets of tools whose classes are kept, and each set's bytes: header texts hold descriptions of
# up to 8 KiB, so a bound in entries alone let 64 sets of 65,536 texts hold gigabytes in a kernel
_TOOL_SETS_KEPT = 16
_TOOL_SET_MAX_BYTES = CACHE_MAX_BYTES // _TOOL_SETS_KEPT


def _set_weight(args: tuple[Hashable, ...], _: object) -> int:
    # the tools' own bytes (a replayed transcript names them: a crafted name may be a line
    # long, attack round 18) and the room its classes may take
    return weight_of(args) + _TOOL_SET_MAX_BYTES


@bounded_cache(max_entries=_TOOL_SETS_KEPT, max_bytes=2 * CACHE_MAX_BYTES, weigh=_set_weight)
def _classes_by_text(keys: tuple[ToolKey, ...]) -> ByteBoundedLRU[tuple[str, ...], str | None]:
    # header_text -> classify_for_tools under these keys, filled by tool_classes
    return ByteBoundedLRU(max_entries=65_536, max_bytes=_TOOL_SET_MAX_BYTES)


def tool_classes(headers: Sequence[MemoryHeader], keys: Sequence[ToolKey]) -> list[str | None]:
    """classify_for_tools of each header (all None without keys), remembered by the header's
    texts (which decide it) per set of keys: the keys are hashed once per call, not per memory."""
    if not keys:
        return [None] * len(headers)
    known = _classes_by_text(tuple(keys))
    out = []
    for header in headers:
        text = header_text(header)
        held = known.find(text)
        if held is None:
            verdict = classify_for_tools(header, keys)
            known.put(text, verdict)
        else:
            verdict = held[0]
        out.append(verdict)
    return out
