"""Which tokens are names, not keys, for lint's secret rule: one home for the two tests.

lint.secret_context masks CamelCase and snake_case names before the secret scan on lines
that speak of no credential (`looks_like_identifier`), and keeps a value with a key's known
prefix (`KEY_PREFIXES`) wherever it stands. The team guard scans the same text unmasked.
"""

from __future__ import annotations

import re

__all__ = ["KEY_PREFIXES", "looks_like_identifier"]

# Values that start like a key stay in the scan, whatever they look like.
KEY_PREFIXES = (
    "AIza",
    "sk-",
    "sk_",
    "ghp_",
    "gho_",
    "ghs_",
    "github_pat_",
    "xox",
    "AKIA",
    "glpat-",
)

_WORDLIKE_PART = re.compile(r"[A-Z]?[a-z]{2,}")


# A variant's name: snake_case parts of words, acronyms and numbers ("Level15GSF_NoDrop_K16",
# real45: a research project's model variants, read as a high-entropy token). Its runs (a
# capitalised word, an acronym, a lower-case word, a number) are long: at least
# _MIN_NAME_RUN characters on average, where a random token's average under two.
_NAME_RUN = re.compile(r"[A-Z][a-z]+|[A-Z]+(?![a-z])|[a-z]+|\d+")
_MIN_NAME_RUN = 2.5
_LOWER_BEFORE_BREAK = re.compile(r"[a-z][A-Z0-9_]")


def looks_like_identifier(token: str) -> bool:
    """A CamelCase or snake_case name made mostly of word-like parts (AlphaXmfRpt1270LowLiq),
    or a snake_case name of words, acronyms and numbers (Level15GSF_NoDrop_K16)."""
    if token.isalpha() and token[1:].islower():
        return False  # one capital at most, first: a single word-like part (a fast exit)
    parts = _WORDLIKE_PART.findall(token)
    if len(parts) >= 2 and sum(map(len, parts)) >= 0.6 * len(token):
        return True
    return "_" in token.strip("_") and _a_variants_name(token)


def _a_variants_name(token: str) -> bool:
    """Whether token's runs are long on average (see _NAME_RUN), one of them a capitalised
    word, and it holds a lower-case letter before a capital, a digit or '_' (as every name
    _mask_identifiers masks does); a key's known prefix (`sk_live_...`) never makes one."""
    if token.startswith(KEY_PREFIXES):
        return False
    letters = token.replace("_", "")
    runs = _NAME_RUN.findall(letters)
    return (
        len(letters) >= _MIN_NAME_RUN * max(len(runs), 1)
        and any(run[0].isupper() and run[-1].islower() for run in runs)
        and _LOWER_BEFORE_BREAK.search(token) is not None
    )
