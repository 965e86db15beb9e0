"""The description audit: what a manifest-only selector cannot see in a memory's body.

Claude Code's selector picks memories from the manifest alone: each file's name (as the
filename) and its one-line description. A memory whose body is about subjects the description
never mentions is invisible to it for those subjects. The audit splits the body into sentences
(lines and sentence ends), takes each sentence's salient terms (content words of four or more
letters, identifiers, CJK two-character pieces that are not kana-only), and calls a sentence
*seen* when the label (name, description and filename) shares enough of its terms, matched by
word stem or five-letter prefix so "retries" meets "retry" and "Migrationen" meets "migration".

Verdicts, by the share of the body's salient terms that sit in unseen sentences:
- "covered": under PARTLY_SHARE, or too little body to judge (fewer than MIN_SALIENT terms);
- "partly": at least PARTLY_SHARE;
- "misses-body": at least MISSES_SHARE, with at least MIN_UNSEEN_SENTENCES unseen sentences.
Only "misses-body" is a lint finding; the browser shows all three.
"""

from __future__ import annotations

import re

from memdir_nb.formats.frontmatter_cut import description_cut_at_hash
from memdir_nb.lint.findings import Collector, MemoryText, field_line
from memdir_nb.spec import scripts
from memdir_nb.spec import text as textseg
from memdir_nb.spec.records import Record
from memdir_nb.spec.text import fence_change

MAX_AUDIT_CHARS = 20_000  # the audit reads at most this much of a body
MIN_SALIENT = 20  # a body with fewer salient terms is too short to judge
PARTLY_SHARE = 0.45
MISSES_SHARE = 0.75
MIN_UNSEEN_SENTENCES = 3
MIN_SENTENCE_TERMS = 3  # a sentence needs this many salient terms to count as a subject
MAX_SHOWN = 5  # unseen sentences reported per memory
PREFIX = 5

VAGUE_FIX = "say what the memory is about and when it applies, in one specific line"


def vague_description_fix(mem: MemoryText, c: Collector) -> str:
    """The fix of a `vague-description` finding: when the description was cut at a ` #`
    (formats.frontmatter_cut), that the YAML comment marker cut it and to quote it whole."""
    cut = description_cut_at_hash(mem.header, mem.body)
    if cut is None:
        return VAGUE_FIX
    kept, whole = c.quote_pair(*cut)
    return (
        f"the description was cut at ' #', which YAML (and Claude Code before 2.1.214) reads as "
        f"the start of a comment: {kept!r} is kept of {whole!r}; write the whole description in "
        'quotes (description: "..."), or ' + VAGUE_FIX
    )


_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")
# Where _SENTENCE_END can split: a sentence end before a space, or a CJK sentence end. A line
# without one is a single sentence (a regex starting with a character class, found quickly).
_SENTENCE_BREAK = re.compile(r"[.!?。！？]\s|[。！？]")
_ASCII_SENTENCE_BREAK = re.compile(r"[.!?]\s")  # the same on ASCII text, three times faster
# a list, heading or quote mark and a bold label ("**Why:**", "**原因**：", with a full-width colon)
_LABEL = re.compile(
    r"^\s*(?:[-*+]\s+|\d+[.)]\s+|#+\s+|>\s*)?(?:\*\*[^*\n]{1,40}\*\*\s*[:\uff1a]?\s*)?"
)
_KANA_ONLY = re.compile(r"^[\u3040-\u309f\u30fc]+$")
_DIGITS = re.compile(r"^[\d.,:\-]+$")
_STOP_WORDS = """
    also been before being could does done each from have here into just like make many more
    most much must need next only other over same should some such than that their them then
    there these they this those very what when where which while will with would your about
    after again always never every still using used user users note notes today yesterday week
    weeks aber alle auch bitte dann dass diese dieser doch eine einem einen einer eines fuer
    für haben hier immer jetzt kann keine mehr nach nicht noch oder schon sein sind sollen
    soll über unter vom von wenn werden wird wurde zum zur nie avec avant cela cette comme
    dans donc elle elles encore être fait faut leur mais même nous pour plus sans sont tous
    tout toujours très vous jamais après ante cada como cuando desde donde ella ellos esta
    este esto hace hacer hasta para pero porque sobre siempre solo también tiene todo todos
    nunca
"""
_STOP = frozenset(_STOP_WORDS.split())


class UnseenSentence(Record, frozen=True):
    """A body sentence whose subject the name and description never mention."""

    line: int  # 1-based line within the body
    text: str
    terms: tuple[str, ...]  # its salient terms


class DescriptionAudit(Record, frozen=True):
    """The audit of one memory: verdict, unseen share, and the sentences the manifest misses."""

    verdict: str  # "covered" | "partly" | "misses-body"
    unseen_share: float  # share of the body's salient terms in unseen sentences (0-1)
    salient_terms: int
    unseen: tuple[UnseenSentence, ...]  # the most salient unseen sentences, at most MAX_SHOWN
    unseen_count: int  # all unseen sentences

    @property
    def summary(self) -> str:
        """One line for a table cell or a lint message."""
        if self.verdict == "covered":
            return "covered"
        pct = round(self.unseen_share * 100)
        return f"{self.verdict}: {pct}% of the body unseen ({textseg.plural(self.unseen_count, 'sentence')})"


def _stem(word: str) -> str:
    """A crude multilingual stem: the word, cut to PREFIX letters when longer."""
    return word[:PREFIX] if len(word) > PREFIX else word


_NUMBER_CHARS = "0123456789.,:-"  # what _DIGITS allows, for ASCII words


def salient_terms(text: str) -> list[str]:
    """Content terms of a text: words of 4+ letters (no stop words, no bare numbers), CJK pieces."""
    return [w for w in textseg.words_and_breaks(text) if _is_salient(w)]  # '\n' is not salient


def _is_salient(word: str) -> bool:
    """salient_terms' test for one word of words()."""
    if word.isascii():  # no CJK; _DIGITS matches exactly the words made of _NUMBER_CHARS
        return len(word) >= 4 and word not in _STOP and bool(word.strip(_NUMBER_CHARS))
    if scripts.is_cjk(word):
        return len(word) == 2 and not _KANA_ONLY.match(word)
    return len(word) >= 4 and word not in _STOP and not _DIGITS.match(word)


# Each plain ASCII word seen, and its PREFIX-letter stem when salient_terms keeps it ("" when not):
# a body's words repeat, and across a dir most of them, so each word is tested once. Emptied
# when it reaches _MAX_KNOWN_WORDS words, so its memory is bounded whatever the dir holds.
_ASCII_STEMS: dict[str, str] = {}
_MAX_KNOWN_WORDS = 50_000
# A longer "word" (a pasted blob, a hash run together) is tested each time and not kept: a word
# is as long as its text, and 50,000 of them could hold gigabytes for the life of a kernel.
_MAX_KNOWN_WORD_CHARS = 64


def _ascii_stems() -> dict[str, str]:
    """_ASCII_STEMS, emptied first when it has reached its bound."""
    if len(_ASCII_STEMS) >= _MAX_KNOWN_WORDS:
        _ASCII_STEMS.clear()
    return _ASCII_STEMS


def _learn_stem(stems: dict[str, str], w: str) -> str:
    """w's entry in stems (_ASCII_STEMS), found and stored: salient_terms' ASCII test.

    A word starts with a letter or a digit, and every letter sorts after '9': only a word
    starting with a digit can be made of digits and separators alone.
    """
    stem = (
        w[:PREFIX]
        if len(w) >= 4 and w not in _STOP and (w[0] > "9" or w.strip(_NUMBER_CHARS))
        else ""
    )
    if len(w) <= _MAX_KNOWN_WORD_CHARS:
        stems[w] = stem
    return stem


def _label_stems(text: str) -> set[str]:
    """The PREFIX-letter stems of salient_terms(text) (the label the body is compared with)."""
    lines = textseg.plain_words_by_line(text)
    if lines is None:
        return {t[:PREFIX] for t in salient_terms(text)}
    stems = _ascii_stems()
    got = {
        stem if (stem := stems.get(w)) is not None else _learn_stem(stems, w)
        for words in lines
        for w in words
    }
    got.discard("")  # the words salient_terms leaves out
    return got


def _terms_by_line(text: str, label: set[str]) -> list[tuple[tuple[str, ...], int]]:
    """Per line of text: its distinct salient terms in order, and how many have a stem in label.

    The words of every line come from one pass over the whole text, and salient_terms' filter
    is applied word by word: the same terms as salient_terms(line) for each line.
    """
    if not text:
        return []
    lines = textseg.plain_words_by_line(text)
    if lines is None:
        return _terms_by_line_any(textseg.general_words_and_breaks(text), label)
    # Every word ASCII: each word's salient stem from _ASCII_STEMS (this loop runs over every
    # word of every body), found there for most words.
    stems = _ascii_stems()
    out: list[tuple[tuple[str, ...], int]] = []
    for words in lines:
        seen: dict[str, None] = {}
        known = 0
        for w in words:
            stem = stems.get(w)
            if stem is None:
                stem = _learn_stem(stems, w)
            if stem and w not in seen:
                seen[w] = None
                known += stem in label
        out.append((tuple(seen), known))
    return out


def _terms_by_line_any(tokens: list[str], label: set[str]) -> list[tuple[tuple[str, ...], int]]:
    """_terms_by_line over the tokens of a text whose words may be outside ASCII."""
    out: list[tuple[tuple[str, ...], int]] = []
    seen: dict[str, None] = {}
    known = 0
    for w in tokens:
        if w == "\n":
            out.append((tuple(seen), known))
            seen, known = {}, 0
        elif w in seen:
            continue
        elif w.isascii():  # most words: _is_salient's ASCII test inline
            if len(w) >= 4 and w not in _STOP and w.strip(_NUMBER_CHARS):
                seen[w] = None
                known += w[:PREFIX] in label
        elif _is_salient(w):
            seen[w] = None
            known += w[:PREFIX] in label
    out.append((tuple(seen), known))
    return out


def _sentences(body: str) -> list[tuple[int, str]]:
    """(line, sentence) pairs: every line split at sentence ends, list/heading/label marks removed."""
    out: list[tuple[int, str]] = []
    fence = ""  # the run that opened the fenced block the line is in
    for no, raw in enumerate(body.split("\n"), start=1):
        line = raw.strip()
        change = fence_change(line, fence)
        if change is not None:
            fence = change
            continue
        if fence or not line:
            continue
        if line[0] in "-*+#>" or line[0].isdigit():  # _LABEL can remove more than spaces
            line = _LABEL.sub("", raw, count=1).strip()
        ends = _ASCII_SENTENCE_BREAK if line.isascii() else _SENTENCE_BREAK
        if ends.search(line) is None:  # no sentence end inside: the line is one sentence
            if line:
                out.append((no, line))
            continue
        for part in _SENTENCE_END.split(line):
            if part.strip():
                out.append((no, part.strip()))
    return out


def audit_description(
    name: str | None, description: str | None, body: str, filename: str = ""
) -> DescriptionAudit:
    """Judge how much of body the manifest (filename, name, description) leaves unseen."""
    stem = filename.rsplit("/", 1)[-1].removesuffix(".md").replace("_", " ").replace("-", " ")
    label = _label_stems(f"{name or ''} {description or ''} {stem}")
    total = 0
    unseen: list[tuple[int, str, tuple[str, ...]]] = []  # (line, sentence, terms)
    unseen_terms = 0
    sentences = _sentences(body[:MAX_AUDIT_CHARS])
    # Every sentence's words in one pass (no sentence holds a line break), then its terms:
    # the same as salient_terms(sentence) for each.
    joined = "\n".join(sentence for _, sentence in sentences)
    for (line, sentence), (terms, known) in zip(
        sentences, _terms_by_line(joined, label), strict=True
    ):
        total += len(terms)
        if len(terms) < MIN_SENTENCE_TERMS:
            continue
        if known >= 2 or known / len(terms) >= 0.25:
            continue
        unseen.append((line, sentence, terms))
        unseen_terms += len(terms)
    share = unseen_terms / total if total else 0.0
    if total < MIN_SALIENT or share < PARTLY_SHARE:
        verdict = "covered"
    elif share >= MISSES_SHARE and len(unseen) >= MIN_UNSEEN_SENTENCES:
        verdict = "misses-body"
    else:
        verdict = "partly"
    # Only the shown sentences become objects (a stable sort, as before: most terms first).
    shown = sorted(unseen, key=lambda s: (-len(s[2]), s[0]))[:MAX_SHOWN]
    return DescriptionAudit(
        verdict=verdict,
        unseen_share=share,
        salient_terms=total,
        unseen=tuple(UnseenSentence(*s) for s in sorted(shown, key=lambda s: s[0])),
        unseen_count=len(unseen),
    )


def check_description_coverage(mem: MemoryText, c: Collector) -> DescriptionAudit | None:
    """The description-misses-body rule: report a memory whose body the manifest cannot see.

    Skipped when there is no description (missing-description covers it). The message names the
    share left unseen and quotes the first unseen sentences with their file lines, through
    `Collector.quote` (the credentials the secret rule found are masked).
    """
    description = mem.header.description
    if not description or not description.strip():
        return None
    audit = audit_description(mem.header.name, description, mem.body, mem.rel)
    if audit.verdict != "misses-body":
        return audit
    quoted = "; ".join(
        f"line {mem.body_line + s.line - 1}: '{c.quote(s.text, 70)}'" for s in audit.unseen[:2]
    )
    c.add(
        "description-misses-body",
        f"{round(audit.unseen_share * 100)}% of the body's content sits in {audit.unseen_count} "
        f"sentences the name and description never mention, so a manifest-only selector (Claude "
        f"Code's) cannot find the memory for them ({quoted})",
        "rewrite the description to name the body's subjects (or split the file by subject); "
        "`memdir-nb lint` lists the unseen lines",
        line=field_line(mem, "description"),
    )
    return audit
