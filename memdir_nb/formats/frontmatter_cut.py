"""Where a header's description was cut at a ` #`, which YAML reads as the start of a comment.

YAML, and Claude Code before 2.1.214, end a plain value at ` #`: `description: Issue #184 fix`
reads "Issue". Real dirs hold such descriptions, and some were committed already cut (the
header says `description: Issue` over a body opening `Issue #184 …`), so the header alone no
longer shows it. lint's `vague-description` finding then says why the text is short.
"""

from __future__ import annotations

import re

from memdir_nb.formats.frontmatter import Frontmatter, top_level_pair

__all__ = ["description_cut_at_hash"]

_HASH = re.compile(r"[ \t]#")
_QUOTES = "'\""
_HEADING = re.compile(r"^#{1,6}[ \t]+")


def description_cut_at_hash(fm: Frontmatter, body: str) -> tuple[str, str] | None:
    """(the description a YAML reader keeps, the whole text it was cut from) when the
    description looks cut at a ` #`; None otherwise.

    Three shapes: a plain value holding ` #` (this reader keeps it whole, as current Claude
    Code does, and YAML tools cut it); a header line holding ` #` after a shorter parsed value
    (`description: "Issue" #184 fix`); and a description the body's first line starts with,
    followed by ` #` (committed already cut).
    """
    desc = " ".join((fm.description or "").split())
    if not desc:
        return None
    if "description" in fm.inline_hash:
        return fm.inline_hash["description"]
    for line in fm.header_lines:
        pair = top_level_pair(line)
        if pair is not None and pair[0] == "description":
            raw = pair[1]
            hash_at = _HASH.search(raw)
            if hash_at is not None and len(desc) < len(raw.replace("'", "").replace('"', "")):
                head = raw[: hash_at.start()].strip().strip(_QUOTES)
                return desc, f"{head}{raw[hash_at.start() :]}"
            break
    first = next((ln.strip() for ln in body.split("\n", 20)[:20] if ln.strip()), "")
    first = _HEADING.sub("", first)  # `# Issue #184 fix` as a title
    if first.startswith(desc) and _HASH.match(first, len(desc)):
        return desc, first
    return None
