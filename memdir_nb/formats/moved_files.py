"""Where a dangling index line's file went: the one memory file of the scope with its name.

An entry whose file was moved into a sub-folder (or renamed only in its Unicode normal form)
is found by name, not by a walk per line: lint's hint, the rebuild and the dream's re-pointing
of a line, and an agent index's cleanup ask the same lookup.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from memdir_nb.formats.index_lines import link_path
from memdir_nb.formats.names import normal_twin

__all__ = ["MovedFiles"]


class MovedFiles:
    """Where a missing index target's file went: the one memory file of the scope that has its
    name (an entry whose file was moved into a sub-folder). Files are looked up by name, so an
    index of many dangling lines over a dir of many files costs one pass over each."""

    def __init__(self, scope_files: Iterable[str]) -> None:
        """scope_files: relative to the index's folder, as the answers are."""
        self._by_name: dict[str, list[str]] = {}
        for f in scope_files:
            self._by_name.setdefault(f.rsplit("/", 1)[-1], []).append(f)
        self._by_form: dict[str, list[str]] | None = None  # by NFC path, made on first twin()

    def twin(self, target: str) -> str | None:
        """The file whose path is target's in another Unicode normal form (`café` decomposed
        for a line's `café` composed: the same on screen, another name here), or None."""
        if self._by_form is None:
            self._by_form = {}
            for f in (f for files in self._by_name.values() for f in files):
                self._by_form.setdefault(unicodedata.normalize("NFC", f), []).append(f)
        target = link_path(target)
        return normal_twin(target, self._by_form.get(unicodedata.normalize("NFC", target), ()))

    def find(self, target: str) -> str | None:
        """The one file named like target (other than target itself), or None: none, or several.

        target as linked: `<x.md>`, `./x.md` and `x.md#setup` name x.md.
        """
        target = link_path(target)
        named = self._by_name.get(target.rsplit("/", 1)[-1], ())
        if len(named) > 2:  # at least two besides target: no one answer (and no pass over them)
            return None
        found = [f for f in named if f != target]
        return found[0] if len(found) == 1 else None
