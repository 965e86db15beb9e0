"""Which Snowball stemmer a text gets: English unless its function words say another European language.

The full-text channel stems words so "deployed" meets "deploy". English Snowball mangles
French, German or Spanish words, and leaves their inflections apart ("réunions" / "réunion",
"Besprechungen" / "Besprechung"). A text whose common function words ("le", "der", "el" ...)
outnumber the English ones is stemmed with that language's stemmer, and those function words
are dropped like English stopwords. Russian is told by its alphabet instead: every Cyrillic word
is stemmed with the Russian stemmer in any text (stem_by_script). Chinese, Japanese and Korean
need no stemmer: they are cut into two-character pieces (memdir_nb.spec.text).

The lists are short on purpose: only words that are frequent in their language and rare as
English words, so an English text with one French quote stays English.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress
from typing import Any

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
# Russian is told by its alphabet, not by counting these: every Cyrillic word is stemmed with
# Snowball's Russian stemmer and these are dropped, whatever the rest of the text is, so a word
# gets one stem in every text (the question's and the memory's). Frequent words that carry no
# subject, as STOPWORDS are for English (words of one letter are dropped anyway).
RUSSIAN_FUNCTION_WORDS = frozenset(
    [
        "на",
        "не",
        "по",
        "от",
        "за",
        "до",
        "из",
        "же",
        "бы",
        "то",
        "мы",
        "вы",
        "он",
        "она",
        "оно",
        "они",
        "но",
        "да",
        "ли",
        "их",
        "её",
        "ее",
        "его",
        "ему",
        "ей",
        "им",
        "нам",
        "вам",
        "как",
        "что",
        "это",
        "эта",
        "этот",
        "эти",
        "тот",
        "та",
        "те",
        "для",
        "при",
        "или",
        "так",
        "уже",
        "ещё",
        "еще",
        "где",
        "когда",
        "какой",
        "какая",
        "какое",
        "какие",
        "каков",
        "сейчас",
        "тут",
        "там",
        "вот",
        "все",
        "всё",
        "весь",
        "меня",
        "мне",
        "мой",
        "моя",
        "моё",
        "мое",
        "мои",
        "нас",
        "наш",
        "наша",
        "наше",
        "наши",
        "ваш",
        "ваша",
        "ваше",
        "ваши",
        "себя",
        "свой",
        "своя",
        "своё",
        "свое",
        "свои",
        "был",
        "была",
        "было",
        "были",
        "будет",
        "есть",
        "нет",
        "чем",
        "чтобы",
        "если",
        "тоже",
        "также",
        "только",
        "очень",
        "можно",
        "нужно",
        "надо",
        "про",
        "над",
        "под",
        "без",
        "через",
        "после",
        "перед",
    ]
)
CYRILLIC_FIRST, CYRILLIC_LAST = "\u0400", "\u04ff"  # the Cyrillic block


def is_cyrillic_word(word: str) -> bool:
    """Whether word starts with a letter of the Cyrillic block (so is stemmed as Russian)."""
    return CYRILLIC_FIRST <= word[:1] <= CYRILLIC_LAST


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


@lru_cache(maxsize=8)
def stemmer(language: str = "english") -> Any:  # a PyStemmer object; building one is costly
    """Snowball's stemmer for language (a Snowball name), built once per process."""
    import Stemmer  # deferred: a scan or a save never stems

    return Stemmer.Stemmer(language)


def stem_by_script(words: list[str], stem: Callable[[list[str]], list[str]]) -> list[str]:
    """Cyrillic words by the Russian stemmer, the others by `stem` (the text's language's), in order."""
    cyrillic = list(map(is_cyrillic_word, words))
    if not any(cyrillic):
        return stem(words)
    russian = iter(stemmer("russian").stemWords(list(compress(words, cyrillic))))
    others = iter(stem([w for w in words if not is_cyrillic_word(w)]))
    return [next(russian) if c else next(others) for c in cyrillic]
