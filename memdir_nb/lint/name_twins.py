"""Names that look the same: two memory files whose names differ only in Unicode normalisation.

macOS writes a name decomposed (NFD: `e` then U+0301), most other systems composed (NFC: U+00E9),
so a dir synced between them can hold `project_café.md` twice. On Linux the two are two files,
each read and indexed as itself (docs/security.md, "Unicode normalisation"), but every listing,
index line and finding shows them alike, and on macOS they are one file. Lint names each such
pair with its names escaped, so the difference can be seen.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable

from memdir_nb.formats.names import normal_form, spelled
from memdir_nb.lint.findings import SEVERITIES, Finding

RULE = "name-twins"


def name_twins(rels: Iterable[str]) -> list[Finding]:
    """One finding for each set of memory files (memory-dir relative paths) whose paths are one
    name after NFC normalisation, on the first of them in sorted order."""
    groups: dict[str, list[str]] = defaultdict(list)
    for rel in rels:
        groups[unicodedata.normalize("NFC", rel)].append(rel)
    out: list[Finding] = []
    for names in groups.values():
        if len(names) < 2:
            continue
        names = sorted(names)
        shown = "; ".join(f"{spelled(n)} ({normal_form(n)})" for n in names)
        out.append(
            Finding(
                names[0],
                RULE,
                SEVERITIES[RULE],
                f"{len(names)} files have names that display alike but are spelled differently: "
                f"{shown}; an index line or a listing shows them as one name, and on macOS they "
                "are one file",
                "keep one: merge what the others say into it and delete them, or rename one "
                "(on macOS only one of them can exist)",
            )
        )
    return out
