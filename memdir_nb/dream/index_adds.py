"""The missing index lines a fit would drop first, known without writing them (plan42).

A plan adds a line for each memory its index does not list, then fits the index to its caps and
proposes only the adds the fit keeps (real39). On the bench dir's first plan that was ~1,350
lines written, simulated and fitted for ~50 kept. The planner now holds back the adds of the
memories the fit drops pointers for first (held_back), fits the index with the others, and
takes that fit's answer as the whole one's when the fit dropped a line after every held one
(fit_shows_held_dropped): then the fit over every add is the same text.

Why. The fit drops pointers in `order` until the index fits, and every held add's line is keyed
by its own file (keyed_by_target), new in the index (not listed before the adds) and inserted
with the other new lines, in prose, where it changes no other line's reading. Up to each step
of the drop loop, the index with every add holds the same lines as the one without the held
ones, plus the held lines not yet dropped: as many lines and bytes or more, so it fits no
earlier; a section heading goes at the same step in both (the last line of the adds' section
to go is not a held one: the witness goes after every held line). When a line the fit drops is
placed after every held one in `order`, every held line is gone by the step the smaller index
fits, and from there the two are the same lines: the same text. An index with a CR, or one that
may open with frontmatter (a first line of `---`, which a line holding `---` could close), is
fitted whole, as before.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from memdir_nb.dream.compare import _Mem
from memdir_nb.formats.index_lines import entry_target, keyed_by_target
from memdir_nb.spec.constants import MAX_ENTRYPOINT_LINES

__all__ = ["fit_shows_held_dropped", "held_back"]


def held_back(
    missing: Sequence[tuple[str, _Mem]], listed: Collection[str], order: Sequence[str]
) -> tuple[frozenset[str], int]:
    """(the missing files, index-relative, whose adds the first fit leaves out; the place in
    order before which they all stand): those before the last add that more than
    MAX_ENTRYPOINT_LINES listed (listed: the files whose line stays till the fit) or missing
    files follow in order (a fit keeps no more lines, so it drops that add: most often; when
    not, fit_shows_held_dropped says so), and whose line is keyed by its file. Nothing when no
    add is so placed."""
    unlisted = {rel for rel, _ in missing}
    after = 0  # the files with a line (listed before, or added) after this place in order
    for place in range(len(order) - 1, -1, -1):
        rel = order[place]
        if rel in unlisted:
            if after > MAX_ENTRYPOINT_LINES:
                at = {r: i for i, r in enumerate(order)}
                held = frozenset(
                    r for r, m in missing if at[r] < place and keyed_by_target(m.name, r)
                )
                return held, place
            after += 1
        elif rel in listed:
            after += 1
    return frozenset(), 0


def fit_shows_held_dropped(
    before: str,
    fitted: str,
    held: Iterable[str],
    added: Iterable[tuple[str, _Mem]],
    order: Sequence[str],
    place: int,
) -> bool:
    """Whether the fit of the index with the adds added (held ones left out) is the fit of the
    index with every add. before: the index as the other actions leave it (no add); fitted:
    the fit's text; held and place: held_back's. True when no held file is listed before (its
    add is a new line), one add keyed by its file, new and placed in order at place or after,
    has no line in fitted (the fit dropped it, so every held line before it went too), and the
    index has no CR and cannot open with frontmatter."""
    if "\r" in before or "\r" in fitted or before.removeprefix("\ufeff").startswith("---"):
        return False
    # each line's entry target: those parse_index lists (the adds' simulation reads these to tell
    # a new line from one in place of a listed one) and perhaps more, which only says no more often
    listed = {entry_target(line) for line in before.split("\n")}
    if any(rel in listed for rel in held):
        return False
    at = {r: i for i, r in enumerate(order)}
    left = {entry_target(line) for line in fitted.split("\n")}
    return any(
        at[rel] >= place and rel not in listed and rel not in left and keyed_by_target(m.name, rel)
        for rel, m in added
    )
