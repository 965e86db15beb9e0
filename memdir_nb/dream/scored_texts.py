"""The texts the dream's comparisons score, each prepared once: sorted tokens, and the
contradiction texts' stems, polarity and scored form, kept by content across plans.

rapidfuzz's token_set_ratio depends only on each side's set of tokens, and token_sort_ratio is
fuzz.ratio of each side's tokens sorted: on ASCII text (where rapidfuzz splits where str.split
does) a text prepared here scores exactly what the raw text scores, and costs the scorer less.
dream.compare scores them; the tests check the equality against rapidfuzz.
"""

from __future__ import annotations

from itertools import islice

from memdir_nb.dream.negation import StrippedStems, strip_negations
from memdir_nb.spec.word_stems import StemCache

__all__ = ["ascii_tokens", "prepared_texts", "token_set_text", "token_sort_text"]


def ascii_tokens(text: str) -> set[str] | None:
    """The distinct whitespace-separated tokens of an ASCII text; None for other text."""
    return set(text.split()) if text.isascii() else None


def token_set_text(text: str, tokens: set[str] | None) -> str:
    """A text with the same token set as text for rapidfuzz's token_set_ratio, shorter and sorted.

    token_set_ratio depends only on the set of whitespace-separated tokens of each side. On
    ASCII, rapidfuzz splits at exactly the characters str.split() splits at (tested), so the
    distinct tokens (ascii_tokens) sorted and joined by single spaces score the same against
    anything, and the scorer's own split and sort have less to do. Other text is unchanged.
    """
    return text if tokens is None else " ".join(sorted(tokens))


def token_sort_text(text: str) -> str | None:
    """text's tokens sorted and joined by spaces (ASCII only; else None).

    rapidfuzz's token_sort_ratio is fuzz.ratio of exactly this string for each side (tested
    on ASCII, where its split is str.split()), so heads sorted once per plan are scored with
    ratio.
    """
    return " ".join(sorted(text.split())) if text.isascii() else None


# _PREPARED_MAX_CHARS characters of texts and scored texts (a text is at most
# DREAM_COMPARE_MAX_CHARS of body, so long bodies fill it sooner); emptied when found full.
_PREPARED: dict[str, tuple[tuple[str, ...], bool, str]] = {}
_PREPARED_MAX = 5_000
_PREPARED_MAX_CHARS = 8_000_000
_prepared_chars = [0]  # the characters _PREPARED holds, as counted when filled


def prepared_texts(
    all_text: list[str], stems: StemCache, texts: list[str]
) -> tuple[list[frozenset[str]], list[bool]]:
    """Each contradiction text's stems and polarity; texts gets each one's scored text."""
    kept = _PREPARED
    if len(kept) >= _PREPARED_MAX or _prepared_chars[0] >= _PREPARED_MAX_CHARS:
        kept.clear()
        _prepared_chars[0] = 0
    # Looked up once, here: a plan on another thread may empty the store meanwhile.
    known = {text: kept.get(text) for text in all_text}
    missing = [text for text, found in known.items() if found is None]
    # Each text's negations removed (token by token where that is the same; see
    # StrippedStems), whether there were any, and its stems. Its tokens give its scored form.
    new: dict[str, tuple[frozenset[str], bool, str]] = {}
    for text, got in zip(missing, StrippedStems.of(stems).many(missing), strict=True):
        if got is None:
            whole, neg = strip_negations(text)
            toks = ascii_tokens(whole)
            key = stems.text(whole) if toks is None else stems.tokens(toks)
        else:
            (toks, key, neg), whole = got, ""
        new[text] = (key, neg, token_set_text(whole, toks))
    room = max(0, _PREPARED_MAX - len(kept))
    for text, (key, neg, scored) in islice(new.items(), room):
        if _prepared_chars[0] >= _PREPARED_MAX_CHARS:
            break
        kept[text] = (tuple(key), neg, scored)
        _prepared_chars[0] += len(text) + len(scored)
    keys: list[frozenset[str]] = []
    negated: list[bool] = []
    for text in all_text:
        entry = known[text]
        if entry is None:
            key, neg, scored = new[text]
        else:
            key, neg, scored = frozenset(entry[0]), entry[1], entry[2]
        keys.append(key)
        negated.append(neg)
        texts.append(scored)
    return keys, negated
