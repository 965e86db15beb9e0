"""Which Snowball stemmer a text gets: English unless its function words say another European language.

The full-text channel stems words so "deployed" meets "deploy". English Snowball mangles
French, German or Spanish words, and leaves their inflections apart ("réunions" / "réunion",
"Besprechungen" / "Besprechung"). A text whose common function words ("le", "der", "el" ...)
outnumber the English ones is stemmed with that language's stemmer, and those function words
are dropped like English stopwords. Chinese, Japanese and Korean need no stemmer: they are cut
into two-character pieces (memdir_nb.spec.text).

The lists are short on purpose: only words that are frequent in their language and rare as
English words, so an English text with one French quote stays English.
"""

from __future__ import annotations

from collections.abc import Sequence

FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "french": frozenset(
        [
            "le",
            "la",
            "les",
            "des",
            "du",
            "un",
            "une",
            "et",
            "est",
            "sont",
            "pour",
            "dans",
            "avec",
            "sur",
            "pas",
            "ne",
            "que",
            "qui",
            "au",
            "aux",
            "ce",
            "cette",
            "nous",
            "vous",
            "ils",
            "elle",
            "mais",
            "ou",
            "donc",
            "leur",
            "été",
            "être",
            "avons",
            "avez",
            "fait",
            "très",
        ]
    ),
    "german": frozenset(
        [
            "der",
            "die",
            "das",
            "den",
            "dem",
            "des",
            "und",
            "ist",
            "sind",
            "nicht",
            "mit",
            "für",
            "auf",
            "ein",
            "eine",
            "einen",
            "einem",
            "wir",
            "ihr",
            "sie",
            "es",
            "zu",
            "im",
            "vom",
            "zum",
            "zur",
            "auch",
            "wird",
            "werden",
            "wurde",
            "haben",
            "hat",
            "bei",
            "nach",
            "oder",
            "aber",
        ]
    ),
    "spanish": frozenset(
        [
            "el",
            "la",
            "los",
            "las",
            "del",
            "un",
            "una",
            "y",
            "es",
            "son",
            "para",
            "en",
            "con",
            "por",
            "no",
            "que",
            "se",
            "su",
            "sus",
            "al",
            "lo",
            "como",
            "más",
            "pero",
            "está",
            "están",
            "hay",
            "fue",
            "muy",
            "también",
            "nosotros",
        ]
    ),
    "portuguese": frozenset(
        [
            "o",
            "os",
            "as",
            "da",
            "do",
            "das",
            "dos",
            "um",
            "uma",
            "e",
            "é",
            "são",
            "para",
            "em",
            "com",
            "por",
            "não",
            "que",
            "se",
            "seu",
            "sua",
            "ao",
            "na",
            "no",
            "nas",
            "nos",
            "mais",
            "mas",
            "está",
            "estão",
            "foi",
            "muito",
            "também",
            "nós",
        ]
    ),
    "italian": frozenset(
        [
            "il",
            "lo",
            "gli",
            "la",
            "le",
            "dei",
            "degli",
            "delle",
            "un",
            "una",
            "e",
            "è",
            "sono",
            "per",
            "in",
            "con",
            "su",
            "non",
            "che",
            "si",
            "del",
            "della",
            "al",
            "alla",
            "più",
            "ma",
            "anche",
            "noi",
        ]
    ),
    "dutch": frozenset(
        [
            "de",
            "het",
            "een",
            "en",
            "is",
            "zijn",
            "van",
            "voor",
            "op",
            "niet",
            "met",
            "dat",
            "die",
            "wij",
            "we",
            "ze",
            "er",
            "te",
            "bij",
            "ook",
            "maar",
            "naar",
            "wordt",
            "worden",
        ]
    ),
}
ENGLISH_FUNCTION_WORDS = frozenset(
    [
        "the",
        "and",
        "of",
        "to",
        "is",
        "in",
        "that",
        "for",
        "with",
        "on",
        "it",
        "are",
        "this",
        "be",
        "as",
        "at",
        "was",
        "were",
        "have",
        "has",
        "not",
        "by",
        "from",
        "or",
        "but",
        "we",
        "you",
        "they",
    ]
)
MIN_HITS = 2  # at least this many function words before a text counts as non-English
SHORT_TEXT_WORDS = 12  # a shorter text (a query) needs only one, and no English one


def detect_language(words: Sequence[str]) -> str:
    """The Snowball name of the text's language ('english' unless another clearly leads)."""
    # map(set.__contains__) counts in C: this runs on every text a memory dir is indexed from
    english = sum(map(ENGLISH_FUNCTION_WORDS.__contains__, words))
    best, best_hits = "english", 0
    for language, vocabulary in FUNCTION_WORDS.items():
        hits = sum(map(vocabulary.__contains__, words))
        if hits > best_hits:
            best, best_hits = language, hits
    needed = 1 if len(words) < SHORT_TEXT_WORDS else MIN_HITS
    if best_hits >= needed and best_hits > english:
        return best
    return "english"


def function_words(language: str) -> frozenset[str]:
    """The function words dropped for a detected language (empty for English: STOPWORDS do it)."""
    return FUNCTION_WORDS.get(language, frozenset())
