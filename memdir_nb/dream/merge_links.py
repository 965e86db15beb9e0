"""The links a merge repoints: a merged-away memory's `[[name]]` links and Markdown links to its
file, pointed at the memory that absorbed it (split from dream/plan.py, thirty-fifth session)."""

from __future__ import annotations

import os
import posixpath

from memdir_nb.dream.actions import Relink
from memdir_nb.dream.compare import _Mem
from memdir_nb.formats.link_escapes import decoded_link_target
from memdir_nb.formats.wikilinks import (
    file_link_target,
    file_link_uses,
    file_relinked,
    link_key,
    linked_names,
    names_linking,
    names_to_link,
    relinked,
)


def _stem(rel: str) -> str:
    """A memory file's stem (`Path(rel).stem`, without building a Path for each of thousands)."""
    return os.path.splitext(os.path.basename(rel))[0]


def _linked_file(linker: str, written: str, merged_away: set[str]) -> str | None:
    """The file a Markdown link in linker points at: as written, else with its percent-escapes
    decoded (formats.link_escapes) when that names a merged-away file; None when it leaves the
    dir (file_link_target, the same containment for both)."""
    to = file_link_target(linker, written)
    if to in merged_away:
        return to
    decoded = decoded_link_target(written)
    if decoded is not None and (other := file_link_target(linker, decoded)) in merged_away:
        return other
    return to


class MergeLinks:
    """The `[[name]]` links of a dir's memories, for pointing a merged-away memory's at the
    memory that absorbed it (formats.wikilinks); header values count (`related:` lists of
    links), as the whole file is what the model reads. Markdown links to a merged-away file
    (`[text](old.md)`) are pointed at the absorbing file too, their text kept (keep35;
    docs/decisions.md says why they are rewritten, not only reported).

    A memory answers to its `name:`, its file's stem, that stem with hyphens and both without
    the type (formats.wikilinks.names_linking): a link by one is pointed at the absorbing memory's name
    of the same form. A name that a memory the plan keeps still answers to is left as it is
    (the link still finds that memory).
    """

    def __init__(self, mems: list[_Mem], merged_away: set[str]) -> None:
        # name -> the memories linking it, in the plan's order: each merge looks up only the
        # names it retires, not every linking file (a dir of thousands, many merges)
        # (case-folded, as a link finds its memory: formats.wikilinks.LinkTargets)
        self.linking: dict[str, list[_Mem]] = {}
        # merged-away file -> {(linking memory's rel, target as written)}: its Markdown links
        self.file_linking: dict[str, set[tuple[str, str]]] = {}
        for m in mems:  # most texts hold neither kind of link: no call for those
            if "[[" in m.text:
                for name in linked_names(m.text):  # by link_key, as a link finds its memory
                    self.linking.setdefault(link_key(name), []).append(m)
            if "](" in m.text:
                for _, written in file_link_uses(m.text):
                    to = _linked_file(m.rel, written, merged_away)
                    if to is not None and to in merged_away and to != m.rel:
                        self.file_linking.setdefault(to, set()).add((m.rel, written))
        self.by_rel = {m.rel: m for m in mems} if self.file_linking else {}
        # the names kept memories answer to; a dir where nothing links (most) needs none, and
        # naming 2,000 memories three ways was a few ms of every repeat plan
        self.kept_names: set[str] = set()
        if self.linking:
            for m in mems:
                if m.rel not in merged_away:
                    forms = names_linking(m.name, _stem(m.scope_rel))
                    self.kept_names.update(link_key(f) for f in forms)

    def relinks(self, keep: _Mem, dups: list[_Mem]) -> tuple[list[Relink], tuple[int, int]]:
        """A Relink for each memory (other than dups) that links a dup, and the `[[name]]` and
        Markdown links changed."""
        pairs, linkers = self._name_pairs(keep, dups)
        gone = {d.rel for d in dups}
        files: dict[str, dict[str, str]] = {}  # file -> its Markdown targets' new paths
        for d in dups:
            for rel, written in sorted(self.file_linking.get(d.rel, ())):
                if rel not in gone:
                    here = posixpath.dirname(rel) or "."
                    files.setdefault(rel, {})[written] = posixpath.relpath(keep.rel, here)
                    linkers[rel] = self.by_rel[rel]
        ops = [
            Relink(
                rel,
                tuple(sorted(pairs.get(rel, {}).items())),
                tuple(sorted(files.get(rel, {}).items())),
            )
            for rel in sorted(pairs.keys() | files.keys())
        ]
        names = sum(relinked(linkers[r.rel].text, dict(r.renames))[1] for r in ops)
        marked = sum(file_relinked(linkers[r.rel].text, dict(r.files))[1] for r in ops)
        return ops, (names, marked)

    def _name_pairs(
        self, keep: _Mem, dups: list[_Mem]
    ) -> tuple[dict[str, dict[str, str]], dict[str, _Mem]]:
        """The `[[name]]` renames of each memory (other than dups) linking a dup by a name no
        kept memory answers to, and those memories by rel."""
        if not self.linking:
            return {}, {}
        renames: dict[str, str] = {}
        for d in dups:
            for old, new in zip(
                names_linking(d.name, _stem(d.scope_rel)),
                names_to_link(keep.name, _stem(keep.scope_rel)),
                strict=True,
            ):
                if new is not None and link_key(old) not in self.kept_names and old != new:
                    renames.setdefault(old, new)
        gone = {d.rel for d in dups}
        pairs: dict[str, dict[str, str]] = {}  # file -> the renames of the names it links
        linkers: dict[str, _Mem] = {}
        for old, new in renames.items():
            for m in self.linking.get(link_key(old), ()):
                if m.rel not in gone:
                    pairs.setdefault(m.rel, {})[old] = new
                    linkers[m.rel] = m
        return pairs, linkers
