"""What a file's name makes it in a memory dir's walk, without opening it: a memory, a
top-level repository file (README.md, LICENSE-MIT.md), a name the gate refuses, or none of these.

The name gate itself is formats.names; this module applies it to a walk's entries, and holds
the one rule for which top-level names are a repository's own files.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memdir_nb.formats.names import is_memory_filename, name_problem
from memdir_nb.spec.constants import ENTRYPOINT_NAME, REPOSITORY_FILE_STEMS
from memdir_nb.spec.lazy_regex import compiled_on_first_use

NAME_REFUSAL = "not a memory file name"  # how a skip reason from the name gate starts


def gate_refusal(name: str) -> str | None:
    """Why a name that looks like a memory (a visible *.md, any case) is refused by the gate.

    None for a name the gate passes, for names that never look like memories (other
    extensions, hidden files, the store's temp files) and for the index itself, MEMORY.md.
    """
    if name == ENTRYPOINT_NAME or name.startswith(".") or not name.casefold().endswith(".md"):
        return None
    problem = name_problem(name)
    return f"{NAME_REFUSAL}: it {problem}" if problem else None


# The rest of a `readme-` name that makes it a translation of the README: a language tag
# (`zh`, `pt-BR`, `zh_Hans`), a language of two or three letters and optional subtags.
# Compiled on first use: only a `readme-` name needs it, and with IGNORECASE its compile was
# about 0.2 ms of every `memdir-nb scan` (docs/performance.md, forty-second session).
_README_LANGUAGE = compiled_on_first_use(r"[a-z]{2,3}(?:[-_][a-z0-9]{2,8})*", re.IGNORECASE)


def is_repository_file(name: str) -> bool:
    """Whether a top-level file name is a repository file (README.md, LICENSE-MIT.md...).

    A variant is the stem, a hyphen and more: written in capitals as repositories name them
    (`LICENSE-MIT.md`, `README-zh.md`, `LICENSE-NOTES.md`), or `readme-` and a language tag in
    any case (`readme-pt-br.md`). A lower-case `readme-style-system.md` or
    `license-audit-notes.md` is a memory's own name: a published dir holds a feedback memory
    named `readme-style-system` that every route had passed over (thirty-fourth session).
    """
    stem = name.rsplit(".", 1)[0]
    if stem.casefold() in REPOSITORY_FILE_STEMS:
        return True
    head, dash, rest = stem.partition("-")
    if not dash or head.casefold() not in ("license", "licence", "readme"):
        return False
    if head.isupper():
        return True
    return head.casefold() == "readme" and _README_LANGUAGE().fullmatch(rest) is not None


REFUSED, REPOSITORY, MEMORY, OTHER = "refused", "repository", "memory", "other"


@lru_cache(maxsize=16_384)
def file_name_kind(name: str, top_level: bool) -> tuple[str, str | None]:
    """What a file's name (not a folder's, not a symlink's) makes it in a walk, and the gate's
    refusal: refused by the gate, a top-level repository file, a memory file, or none of these.

    A name's kind never changes, and every scan of a dir asks it of every file again, so it is
    remembered (as the gate's own `name_problem` is).
    """
    refused = gate_refusal(name)
    if refused is not None:
        return REFUSED, refused
    if not is_memory_filename(name):
        return OTHER, None
    if top_level and is_repository_file(name):
        return REPOSITORY, None
    return MEMORY, None
