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

from memdir_nb.lint.findings import SEVERITIES, Finding

RULE = "name-twins"


def spelled(name: str) -> str:
    """A name with every character outside ASCII as its escape (`caf\\xe9` against
    `cafe\\u0301`): two names that display alike are then told apart."""
    return name.encode("ascii", "backslashreplace").decode("ascii")


def _form(name: str) -> str:
    """Which normal form a name is written in, in words."""
    if unicodedata.is_normalized("NFC", name):
        return "composed, NFC"
    if unicodedata.is_normalized("NFD", name):
        return "decomposed, NFD, as macOS writes names"
    return "neither NFC nor NFD"


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
        shown = "; ".join(f"{spelled(n)} ({_form(n)})" for n in names)
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
