"""Many edits to one MEMORY.md in time linear in its size: the planner's and simulator's index.

`index.upsert_index_entry` and `index.remove_index_entry` each re-read the whole text, so a
plan that adds a line for each of 10,000 unindexed files costs 10,000 passes over a growing
index. `IndexText` parses the lines once, keeps a map from link target to line positions,
and gives the same text those functions would give after the same edits in the same order.
`fit_index` is `dream`'s cap-fitting (collapse blank runs, shorten hooks, drop the oldest
pointers) with the line and byte counts kept as running totals.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Callable, Sequence

from memdir_nb.formats import index
from memdir_nb.formats.index_caps import (
    block_left_open,
    entry_flags_and_closer,
    entry_line_flags,
)
from memdir_nb.formats.index_citations import cites
from memdir_nb.formats.index_edits import in_place_of, split_keep_end
from memdir_nb.formats.index_lines import (
    ENTRY_DASH,
    entry_target,
    hook_after,
    in_style,
    line_end_style,
    norm_target,
    plain_entry_target,
    plain_link,
)
from memdir_nb.spec.bounded_cache import bounded_cache
from memdir_nb.spec.constants import CACHE_MAX_BYTES

__all__ = ["FIT_VERSION", "IndexText", "fit_index"]

# Bump when a change to fit_index (or what it calls) can give another text: the plan's disk
# cache (dream.disk_kept) keeps its answers under this version.
FIT_VERSION = 3  # 3: a cited line is neither shortened nor dropped (real44)


class IndexText:
    """An index's lines with their link targets, edited in place."""

    def __init__(self, text: str, targets: Sequence[str | None] | None = None) -> None:
        """targets: for a text with no CR, each line's plain_entry_target where the caller
        knows it (None: not known, read here); fit_index has it from _fitted_target."""
        lines, ends = split_keep_end(text)
        self.end = line_end_style(text)  # an index in CRLF or CR-only line ends keeps them
        self.lines: list[str | None] = list(lines)  # None: removed
        self.ends = ends
        self.alive = len(lines)
        self.empty = lines.count("")  # alive lines that are ''
        self.by_target: dict[str, list[int]] = defaultdict(list)
        # a line in a comment or code is no entry; open_block: closed before a line appended
        prose, self.open_block = _flags_and_closer(text, "\n".join(lines))
        known = targets if targets is not None and "\r" not in text else ()
        by_target = self.by_target
        for pos, line in enumerate(lines):
            if prose[pos]:
                target = known[pos] if pos < len(known) else None
                if target is None:  # a line format_index_entry wrote: read without the search
                    target = plain_entry_target(line)
                    if target is None:
                        target = entry_target(line)
                if target is not None:
                    by_target[target].append(pos)  # ascending, as _index's insort keeps them
        self.sections = _Sections(lines)  # kept up as lines go and come

    def _index(self, pos: int, line: str, target: str | bool | None = False) -> None:
        """Index line at pos under its entry's target (given, or False: parsed here)."""
        if target is False:  # a line format_index_entry wrote is read without the search
            target = plain_entry_target(line)
            if target is None:
                target = entry_target(line)
        if isinstance(target, str):
            bisect.insort(self.by_target[target], pos)

    def _kill(self, pos: int) -> None:
        if self.lines[pos] == "":
            self.empty -= 1
        elif self.lines[pos] is not None:
            self.sections.gone(pos)
        self.lines[pos] = None
        self.alive -= 1

    def _normalize(self) -> None:
        # The one-edit functions re-read the text each time, and reading is lossy in two
        # ways: a last empty line with no final newline reads back as a final newline, and a
        # text that is one empty line reads back as no lines at all.
        while True:
            if not self.ends and self.empty:
                last = max((i for i, ln in enumerate(self.lines) if ln is not None), default=-1)
                if last >= 0 and self.lines[last] == "":
                    self._kill(last)
                    self.ends = True
                    continue
            if self.alive == 1 and self.empty == 1:
                self._kill(self.lines.index(""))
                continue
            return

    def _reset_if_empty(self) -> None:
        # remove_index_entry returns '' when no line is left, which has no final newline.
        if self.alive == 0:
            self.lines, self.ends, self.by_target, self.empty = [], False, defaultdict(list), 0
            self.sections = _Sections([])
            self.end = "\n"  # so does its line-end style: the next line is added as LF

    def upsert(self, entry_line: str, target: str) -> None:
        """As `index.upsert_index_entry`: replace target's line (dropping duplicates) or append."""
        if "\n" in entry_line.strip("\n"):
            raise ValueError(
                "an index entry must be a single line; use format_index_entry to build it"
            )
        entry_line = entry_line.strip("\n")
        found = _upserted_target(entry_line)
        self._normalize()
        positions = self.by_target.pop(norm_target(target), [])
        if positions:
            first, rest = positions[0], positions[1:]
            for pos in rest:
                self._kill(pos)
            placed = in_place_of(self.lines[first] or "", entry_line)  # by_target: a live line
            self.lines[first] = placed
            self._index(first, placed, found)
        else:
            if self.open_block:  # as index.upsert_index_entry: a line after it is no entry
                self.lines.append(self.open_block)
                self.sections.add(self.open_block)
                self.alive += 1
                self.open_block = ""
            self.lines.append(entry_line)
            self.sections.add(entry_line)
            self.alive += 1
            self.ends = True
            self._index(len(self.lines) - 1, entry_line, found)

    def remove(self, target: str, *, drop_emptied: bool = False) -> None:
        """As `index.remove_index_entry`: drop every line for target.

        drop_emptied (dream's own removals): a `##` heading these lines were the last lines
        under goes too, with the blank line that would then double the one above it. A heading
        that had nothing under it before stays: only one this removal emptied goes."""
        self._remove_key(norm_target(target), drop_emptied=drop_emptied)

    def _remove_key(self, key: str, *, drop_emptied: bool = False) -> None:
        """remove() of a target norm_target has made key."""
        self._normalize()
        positions = self.by_target.pop(key, [])
        for pos in positions:
            self._kill(pos)
        if drop_emptied:
            for heading in self.sections.emptied_by(positions):
                if self.lines[heading] is not None:
                    self._kill(heading)
                    self._drop_doubled_blank(heading)
        self._reset_if_empty()

    def _drop_doubled_blank(self, pos: int) -> int:
        """After the line at pos went: the blank line next below it goes when the line above
        is blank too (or there is none), and a blank line above goes when nothing is below,
        so no blank run, nor a blank end, is left where a section was. The position of the
        blank line that went, or -1 (fit_index counts it off its totals)."""
        above = next((i for i in range(pos - 1, -1, -1) if self.lines[i] is not None), -1)
        below = next((i for i in range(pos + 1, len(self.lines)) if self.lines[i] is not None), -1)
        if below >= 0 and self.lines[below] == "" and (above < 0 or self.lines[above] == ""):
            self._kill(below)
            return below
        if below < 0 and above >= 0 and self.lines[above] == "":
            self._kill(above)
            return above
        return -1

    def tidy_after(self, positions: list[int], gone: Callable[[int], None]) -> None:
        """fit_index's rule after it removed the lines at positions: the blank line each leaves
        doubled or at an end goes (_drop_doubled_blank), then each heading the removal emptied
        and the blank line it leaves doubled; gone(pos) is told of each line as it goes.

        Without the blank lines the fit left a run where each section went, counted it as
        lines, and dropped pointers a collapse would have kept; the next plan collapsed the
        runs and added those pointers back (settle42, real42's ERP index)."""
        for pos in positions:
            if (blank := self._drop_doubled_blank(pos)) >= 0:
                gone(blank)
        for heading in self.sections.emptied_by(positions):
            if self.lines[heading] is not None:
                self.drop_line(heading)
                gone(heading)
                if self.alive and (blank := self._drop_doubled_blank(heading)) >= 0:
                    gone(blank)  # alive: drop_line empties lines with the last line

    def drop_line(self, pos: int) -> None:
        """Drop the line at pos, which is no entry (a heading left with nothing under it)."""
        self._normalize()
        if self.lines[pos] is not None:
            self._kill(pos)
        self._reset_if_empty()

    def text(self) -> str:
        """The index text after the edits."""
        kept = [line for line in self.lines if line is not None]
        if not kept:
            return ""
        return in_style("\n".join(kept) + ("\n" if self.ends else ""), self.end)


def _flags_and_closer(text: str, joined: str) -> tuple[list[bool], str]:
    """(entry_line_flags(joined), block_left_open(text)) for joined, text's lines as
    split_keep_end gives them: from one strip of joined when text has no CR (then the two are
    the same lines, less a last line end that opens and closes nothing); plan40."""
    if "\r" in text:  # the file's own lines are not joined's: block_left_open reads text
        return entry_line_flags(joined), block_left_open(text)
    return entry_flags_and_closer(joined)


# The entry target of each line upsert was given: a planner upserts the same formatted lines
# plan after plan (one per unindexed memory), and entry_target is a function of the line.
@bounded_cache(max_entries=20_000, max_bytes=CACHE_MAX_BYTES)
def _upserted_target(line: str) -> str | None:
    """entry_target(line), kept for the next plan's same line; a line as format_index_entry
    writes it for a plain target (the planner's own) is not searched (plain_entry_target)."""
    found = plain_entry_target(line)
    return entry_target(line) if found is None else found


_SECTION_HEADING = re.compile(r"^\s{0,3}#{2,6}(?:\s|$)")  # `#` alone is the index's title


def _fits(n_lines: int, n_bytes: int) -> bool:
    return n_lines <= index.MAX_ENTRYPOINT_LINES and n_bytes <= index.MAX_ENTRYPOINT_BYTES


# A plan fits the same over-cap index plan after plan (the planner's check of which added lines
# the fit keeps, real39, runs it on every plan): a few whole answers are kept, keyed by the text
# and the order, so a repeat plan of an unchanged dir does not fit again (about 20 ms of a repeat
# plan on the bench dir; fortieth session, lead). The bound in bytes holds it to a few indexes.
@bounded_cache(max_entries=8, max_bytes=CACHE_MAX_BYTES)
def fit_index(text: str, order: tuple[str, ...]) -> str:
    """Bring an index under both caps: collapse blank runs, shorten hooks, then drop the oldest
    entries (`order`, first dropped first).

    A section heading (`##` or deeper) whose entries are all dropped goes with its last one,
    and the lines it frees count towards the caps; a heading that had no entries to begin with
    stays, as does the index's `#` title.
    """
    lines = text.rstrip("\n").split("\n")
    collapsed: list[str] = []
    for line in lines:
        if not line.strip() and collapsed and not collapsed[-1].strip():
            continue
        collapsed.append(line)
    text = "\n".join(collapsed) + "\n"
    if _fits(len(text.rstrip("\n").split("\n")), index.cap_units(text)):
        return text
    # A line already in the fit's form (nearly every line of an index the planner fills) is
    # kept as it is without _hook_shortened's cache (a store per line of a first fit), and its
    # target, read on the way, is the one IndexText would read again (plan41).
    rows = text.rstrip("\n").split("\n")
    targets = [_fitted_target(line) for line in rows]
    out = [
        row if t is not None else _hook_shortened(row) for row, t in zip(rows, targets, strict=True)
    ]
    cited = _cited_rows(rows, out, targets)
    return _drop_until_fit(IndexText("\n".join(out) + "\n", targets), out, order, cited)


def _cited_rows(rows: list[str], out: list[str], targets: list[str | None]) -> frozenset[int]:
    """The positions of the entry lines whose hook cites a source (IndexEntry.cited): a fit
    keeps them as written (_hook_shortened) and never drops them (real44). A line in the fit's
    own form (a target in targets) is read from its hook; a line the fit wrote again cites
    nothing; any other is parsed only when the whole line cites (the hook is part of it)."""
    cited = set()
    for pos, (row, target) in enumerate(zip(rows, targets, strict=True)):
        if target is not None:
            plain = plain_link(row)
            if plain is not None and cites(row[plain[2] :]):
                cited.add(pos)
        elif out[pos] == row and cites(row) and any(e.cited for e in index.parse_index(row)):
            cited.add(pos)
    return frozenset(cited)


_FIT_HOOK_CHARS = 80  # the hook a fit keeps
_DASH_SEP = f" {ENTRY_DASH} "  # between a link and its hook, as format_index_entry writes it


# Each line's shortened form, kept for the next fit: a plan fits the same over-cap index
# plan after plan (the planner's check of which added lines the fit keeps, real39, runs it
# on every plan), and the form is a function of the line alone (about 25 of a repeat plan's
# 37 ms of fitting on the bench dir; thirty-ninth session, lead).
@bounded_cache(max_entries=20_000, max_bytes=CACHE_MAX_BYTES)
def _hook_shortened(line: str) -> str:
    """The line as a fit writes it: a link entry with its hook shortened to 80 characters,
    any other line as it is. A line that names its file without a link (a table row, "Details:
    `memory/x.md`", a bare name under its folder's line) is not rewritten as a link: the link
    would point elsewhere (`hooks.md` listed under `refs/` became `[hooks](hooks.md)`), and make
    a line no tool drops one the next plan drops (real41)."""
    if _written_as_fitted(line):
        return line
    entry = index.parse_index(line)
    if not entry or not entry[0].linked or entry[0].cited:  # a citation is kept (real44)
        return line
    return index.format_index_entry(
        entry[0].title, entry[0].target, index.shorten_hook(entry[0].hook, _FIT_HOOK_CHARS)
    )


def _fitted_target(line: str) -> str | None:
    """The line's plain_entry_target when _written_as_fitted(line), else None."""
    plain = plain_link(line)
    return plain[1] if plain is not None and _fitted_as_read(line, plain) else None


def _written_as_fitted(line: str) -> bool:
    """Whether the fit writes line as it is, known without parsing and formatting it again
    (about 4 of the ~6 us a line of a first fit; plan40b): `- [title](target) — hook` as
    format_index_entry writes it, with a plain link (plain_link: a title with no bracket
    or backslash, a target with no blank or parenthesis, so written bare), a title that is
    printable ASCII with no blank at either end (one_line leaves it), and a hook of at most
    80 characters already in shorten_hook's form (single spaces, none at either end)."""
    plain = plain_link(line)
    return plain is not None and _fitted_as_read(line, plain)


def _fitted_as_read(line: str, plain: tuple[str, str, int]) -> bool:
    """_written_as_fitted(line) for the line's plain_link, plain."""
    title, _, end = plain
    if not (title and title.isascii() and title.isprintable()) or title.strip() != title:
        return False
    hook = line[end + 3 :]
    return (
        line.startswith(_DASH_SEP, end)
        and 0 < len(hook) <= _FIT_HOOK_CHARS
        and " ".join(hook.split()) == hook
        and hook_after(line, end) == hook
    )


class _Sections:
    """Which `##` heading each line sits under, and how many of its lines are still kept."""

    def __init__(self, lines: list[str]) -> None:
        self.heading_of: list[int] = []
        self.kept: dict[int, int] = {}  # heading position -> its non-blank lines still kept
        for line in lines:
            self.add(line)

    def add(self, line: str) -> None:
        """A line after the last one."""
        pos, current = len(self.heading_of), self.heading_of[-1] if self.heading_of else -1
        if _SECTION_HEADING.match(line):
            current = pos
            self.kept[pos] = 0
        elif line.strip() and current >= 0:
            self.kept[current] += 1
        self.heading_of.append(current)

    def gone(self, pos: int) -> None:
        """The non-blank line at pos was removed (a heading's own line counts in no section)."""
        heading = self.heading_of[pos]
        if heading >= 0 and heading != pos:
            self.kept[heading] -= 1

    def emptied_by(self, positions: list[int]) -> list[int]:
        """The headings the removed lines at positions sat under that now have no line kept,
        last first: each had one line at least (a removed one) before."""
        if len(positions) == 1:  # a fit's drop, nearly always: no sets (plan41)
            heading = self.heading_of[positions[0]]
            return [heading] if heading not in (-1, positions[0]) and not self.kept[heading] else []
        headings = {self.heading_of[p] for p in positions} - set(positions) - {-1}
        return sorted((h for h in headings if self.kept[h] == 0), reverse=True)


def _passes(cited: frozenset[int], sizes: list[int]) -> tuple[frozenset[int], ...]:
    """The lines each pass of _drop_until_fit keeps whatever their age. A pointer with a cited
    line keeps every line (real44) while the cited lines alone fit the caps, and goes after
    all others if the index still does not fit; cited lines over a cap on their own are no
    exception. A line that merely looked cited (a hook linking another memory, a URL, a
    "[1]") kept 400 lines of 200, and one cited line of 40 KB made the fit drop every other
    pointer and still be over the byte cap (attack44)."""
    if not cited:
        return (cited,)
    if not _fits(len(cited), sum(sizes[pos] + 1 for pos in cited)):
        return (frozenset(),)
    return (cited, frozenset())


def _drop_until_fit(
    doc: IndexText, out: list[str], order: tuple[str, ...], cited: frozenset[int]
) -> str:
    rows: list[str | None] = doc.lines
    # the byte cap's unit: UTF-16 code units, one a character in an ASCII line
    sizes = [len(line) if line.isascii() else index.cap_units(line) for line in out]
    n_bytes = sum(sizes) + len(out)  # every line ends with a newline
    # Lines are counted as `text.rstrip("\n").split("\n")` counts them: up to the last
    # non-empty line. Lines are only removed, so `last` only moves back; each line that goes is
    # told to gone() as it goes (a blank one after its neighbour: IndexText.tidy_after).
    last = next((i for i in range(len(out) - 1, -1, -1) if out[i] != ""), -1)
    n_lines = last + 1

    def gone(pos: int) -> None:
        nonlocal n_bytes, n_lines, last
        n_bytes -= sizes[pos] + 1
        n_lines -= pos <= last  # a blank line after the last line was counted off already
        if pos == last:
            last = pos - 1
            while last >= 0 and (rows[last] is None or rows[last] == ""):
                if rows[last] == "":
                    n_lines -= 1
                last -= 1

    # A pointer with no line changes nothing once the text is settled (normalised, nothing
    # removed since): its removal is skipped then. A planner's fit over the adds it keeps walks
    # past ~1,300 such pointers on the bench dir (plan42).
    for protected in _passes(cited, sizes):
        settled = False
        for target in order:  # oldest first: their files stay, only the pointer goes
            if _fits(max(n_lines, 1), n_bytes):
                return doc.text()
            key = norm_target(target)  # once: the removal takes the key (plan41)
            positions = doc.by_target.get(key, [])  # ascending: each kept with bisect.insort
            if settled and not positions:
                continue
            if protected and any(pos in protected for pos in positions):
                continue
            settled = not positions  # _remove_key normalises first; nothing else changes then
            for pos in reversed(positions):
                gone(pos)
            doc._remove_key(key)
            if doc.alive == 0:
                return ""
            doc.tidy_after(positions, gone)
            rows = doc.lines
    return doc.text()
