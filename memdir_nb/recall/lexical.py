"""LexicalSelector: the offline selector, a BM25 ranking (bm25s) over the memory manifest.

It sees what the model-backed selector sees -- name, description, type and filename -- and
answers with nothing when no memory covers enough of the query. Recently used tools get the
same rule the model is given: their usage docs are skipped, their warnings are kept.
"""

from __future__ import annotations

import math
import re
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from memdir_nb.machine import environment_set
from memdir_nb.recall.base import check_headers, selector_inputs
from memdir_nb.recall.languages import detect_language, function_words
from memdir_nb.spec import scripts
from memdir_nb.spec import text as textseg
from memdir_nb.spec.bounded_cache import ByteBoundedLRU, bounded_cache
from memdir_nb.spec.constants import CACHE_MAX_BYTES, MAX_RELEVANT_MEMORIES
from memdir_nb.spec.taxonomy import MemoryType

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.formats.manifest import MemoryHeader

from memdir_nb.recall.vocabulary import (
    STOPWORDS,
    STRONG_USAGE_CUES,
    STRONG_WARNING_CUES,
    SYNONYM_GROUPS,
    WEAK_USAGE_CUES,
    WEAK_WARNING_CUES,
)

_SPLIT_FILENAME = re.compile(r"[_\-/.\s]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def import_bm25s() -> Any:  # the bm25s package (untyped)
    """bm25s, imported without what only its progress bars need.

    Its package imports tqdm.auto (and with it asyncio) and asks importlib.metadata for tqdm's
    version, 25-40 ms of a process's first recall, unless DISABLE_TQDM is set while it is
    imported. Nothing here shows its bars (indexes are built with show_progress=False), so the
    variable is set for that one import and then put back as it was.
    """
    held = sys.modules.get("bm25s")
    if held is not None:
        return held
    with environment_set("DISABLE_TQDM", "1"):
        import bm25s
    return bm25s


@lru_cache(maxsize=8)
def _stemmer(language: str = "english") -> Any:  # a PyStemmer object; building one is costly
    import Stemmer

    return Stemmer.Stemmer(language)


def _synonym_table() -> tuple[dict[tuple[str, ...], str], int]:
    """Map each synonym (as a tuple of words) to its group's concept token; also the longest phrase."""
    table: dict[tuple[str, ...], str] = {}
    longest = 1
    for group in SYNONYM_GROUPS:
        tag = "syn_" + re.sub(r"\W+", "", group[0])
        for term in group:
            words = tuple(re.split(r"[\s\-]+", term.lower()))
            table[words] = tag
            table[("".join(words),)] = tag
            longest = max(longest, len(words))
    return table, longest


_SYNONYMS, _LONGEST_SYNONYM = _synonym_table()
# Every word a synonym phrase starts with: a position whose word (or that word less a plural
# "s") is not one of these starts no phrase, so synonym_tags skips it without building a tuple.
_PHRASE_STARTS = frozenset(phrase[0] for phrase in _SYNONYMS)


def synonym_tags(words: Sequence[str]) -> list[str]:
    """Concept tokens for every synonym phrase found in a word list (plurals included)."""
    found: list[str] = []
    n = len(words)
    starts = _PHRASE_STARTS
    distinct = set(words)
    leads = set(starts.intersection(distinct))
    leads.update(w for w in distinct if w.endswith("s") and w[:-1] in starts)
    if not leads:
        return found
    for i in [i for i, w in enumerate(words) if w in leads]:
        for length in range(1, _LONGEST_SYNONYM + 1):
            if i + length > n:
                break
            phrase = tuple(words[i : i + length])
            tag = _SYNONYMS.get(phrase)
            if tag is None and phrase[-1].endswith("s"):
                tag = _SYNONYMS.get((*phrase[:-1], phrase[-1][:-1]))
            if tag is not None and tag not in found:
                found.append(tag)
    return found


def filename_words(filename: str) -> str:
    """'team/project_release-freeze.md' -> 'team project release freeze'."""
    stem = filename[:-3] if filename.lower().endswith(".md") else filename
    return " ".join(part for part in _SPLIT_FILENAME.split(stem) if part)


def raw_words(text: str) -> list[str]:
    """Lowercase words in any script (memdir_nb.spec.text; CJK as two-character pieces).

    Hyphenated compounds give the joined form and each part.
    """
    split = textseg.words(_CAMEL.sub(" ", text) if text else "")
    if "-" not in text and "'" not in text and "\u2019" not in text:
        return split  # no word can hold a hyphen or an apostrophe (words() maps \u2019 to ')
    words: list[str] = []
    for word in split:
        if "-" in word or "'" in word:
            words.append(word.replace("-", "").replace("'", ""))
            words.extend(p for p in re.split(r"['\-]", word) if p)
        else:
            words.append(word)
    return words


@dataclass(frozen=True)
class LexicalOptions:
    """Switches for the variants the benchmark compares; the defaults are the shipped selector."""

    stemming: bool = True
    synonyms: bool = True
    threshold: bool = True
    tool_rule: bool = True
    min_coverage: float = 0.22  # share of the query's IDF mass a memory must cover
    relative_cut: float = 0.7  # and at least this share of the best memory's BM25 score
    name_weight: int = 2  # the name is repeated: it is the memory's own title


def tokens(text: str, options: LexicalOptions) -> list[str]:
    """Index terms of a text: words minus stopwords (and Japanese grammar pieces), stemmed, plus
    synonym concept tokens."""
    every_word = raw_words(text)
    language = detect_language(every_word)
    extra = function_words(language)
    words = [
        w
        for w in every_word
        if (w not in STOPWORDS and w not in extra and len(w) > 1) or w.isdigit()
    ]
    if scripts.has_hiragana(text):  # Japanese: the pieces holding a particle are no terms
        words = [w for w in words if not scripts.is_grammar_piece(w)]
    if options.stemming:
        words = _stemmer(language).stemWords(words)
    if options.synonyms:
        words.extend(synonym_tags(every_word))
    return words


# A file name is at most NAME_MAX_BYTES (255 bytes): 16,384 of the longest hold about 11 MB.
@lru_cache(maxsize=16_384)
def remembered_filename_words(filename: str) -> str:
    """filename_words, remembered: every warm recall asks it of every candidate."""
    return filename_words(filename)


# each type's text, and "" for none: a dict lookup, not the enum's `value` descriptor per call
_TYPE_TEXT: dict[MemoryType | None, str] = {None: "", **{t: t.value for t in MemoryType}}


def header_text(header: MemoryHeader) -> tuple[str, str, str, str]:
    """A memory's name, description, type and filename words (each "" when absent)."""
    return (
        header.name or "",
        header.description or "",
        _TYPE_TEXT[header.type],
        remembered_filename_words(header.filename),
    )


def document_tokens(header: MemoryHeader, options: LexicalOptions) -> list[str]:
    """The terms a memory is indexed under: name (weighted), description, type, filename."""
    name, description, type_text, file_words = header_text(header)
    name_tokens = tokens(name, options)
    return (
        name_tokens * max(1, options.name_weight)
        + tokens(description, options)
        + tokens(type_text, options)
        + tokens(file_words, options)
    )


# ---- the recent-tools rule -------------------------------------------------------------------


@dataclass(frozen=True)
class ToolKey:
    """How a tool name is recognised in memories: the words that must be mentioned."""

    tool: str
    subject: str  # "grep", "bash", or the MCP server name ("linear")
    extra: frozenset[str]  # MCP: "mcp" and the function's words ("search")
    is_mcp: bool
    alias: str = ""  # MCP: the function's name ("kubectl"), a name when followed by "tool"


# Words for "tool" in the languages the lexical channel stems, and "MCP": "<name> tool",
# "SSH-Werkzeug", "Outil Slurm", "la herramienta del emulador" all name a tool.
TOOL_WORDS = frozenset(
    (
        *("tool", "tools", "mcp", "werkzeug", "werkzeuge", "outil", "outils", "herramienta"),
        *("herramientas", "ferramenta", "strumento", "tooltje", "工具", "도구", "ツール"),
    )
)
_NAME_GLUE = frozenset(("de", "del", "du", "des", "da", "do", "di", "la", "le", "el", "van"))
# MCP server prefixes that name where a server came from, not what it is:
# mcp__claude_ai_Linear__..., mcp__plugin_playwright_playwright__...
_SERVER_PREFIX = re.compile(r"^(?:claude_ai_|plugin_[^_]+_)", re.IGNORECASE)


def _name_words(part: str) -> list[str]:
    """'chrome-devtools' -> ['chrome', 'devtools']; 'getDiagnostics' -> ['get', 'diagnostics']."""
    words = [w.lower() for w in re.split(r"[\s_\-.]+", _CAMEL.sub(" ", part)) if w]
    return [w for i, w in enumerate(words) if i == 0 or w != words[i - 1]]


def tool_key(tool: str) -> ToolKey:
    """'mcp__linear__search' -> subject 'linear' (+ 'mcp', 'search'); 'Grep' -> 'grep'.

    MCP names are `mcp__<server>__<function>`. The server's words are the subject once a
    provenance prefix is dropped (`claude_ai_Linear` -> "linear", `plugin_playwright_playwright`
    -> "playwright"); the function's name is an alias ("kubectl" in mcp__k8s__kubectl).
    """
    parts = [p for p in tool.split("__") if p]
    if len(parts) >= 2 and parts[0].lower() == "mcp":
        server = _SERVER_PREFIX.sub("", parts[1]) or parts[1]
        subject = " ".join(_name_words(server))
        extra = {"mcp"}
        for part in parts[2:]:
            extra.update(raw_words(part.replace("_", " ")))
        alias = " ".join(_name_words(" ".join(parts[2:])))
        return ToolKey(tool, subject, frozenset(extra), True, alias)
    return ToolKey(tool, " ".join(_name_words(tool)), frozenset(), False)


def _mentions(words: Sequence[str], phrase: str) -> bool:
    target = phrase.split()
    if not target:
        return False
    joined = "".join(target)
    if joined in words:
        return True
    n = len(target)
    return any(list(words[i : i + n]) == target for i in range(len(words) - n + 1))


def _named_as_tool(words: Sequence[str], phrase: str) -> bool:
    """Is `phrase` next to a word for "tool": "kubectl tool", "Outil Slurm", "herramienta del emulador"?"""
    target = phrase.split()
    n = len(target)
    if not n:
        return False
    for i in range(len(words) - n + 1):
        if list(words[i : i + n]) != target:
            continue
        after = words[i + n] if i + n < len(words) else ""
        before = [w for w in words[max(0, i - 3) : i] if w not in _NAME_GLUE][-1:]
        if after in TOOL_WORDS or (before and before[0] in TOOL_WORDS):
            return True
    return False


def is_about_tool(header: MemoryHeader, key: ToolKey) -> bool:
    """Is this memory about the tool itself, not merely about the same word or product?

    The tool must be named in the memory's title (name or filename), or in the description
    next to a word for "tool" ("<tool> tool", "<server> MCP", "Outil <tool>"); an MCP tool may
    also be named by its function next to such a word ("kubectl tool"). For an MCP server named
    after a product ("postgres", "linear"), the memory must also name the MCP tool: "mcp", its
    function ("search"), or a word for "tool".
    """
    name, description, _, file_words = header_text(header)
    return _about_tool(name, description, file_words, key)


@bounded_cache(max_entries=65_536, max_bytes=CACHE_MAX_BYTES)
def _about_tool(name: str, description: str, file_words: str, key: ToolKey) -> bool:
    """is_about_tool of a memory's texts, remembered: a warm recall with recent tools asks it
    of every candidate, and the texts of an unchanged memory do not change."""
    title_words = raw_words(name) + raw_words(file_words)
    desc_words = raw_words(description)
    every = title_words + desc_words
    named = _mentions(title_words, key.subject) or _named_as_tool(desc_words, key.subject)
    if not named and key.alias and _named_as_tool(every, key.alias):
        return True
    if not named:
        return False
    if not key.is_mcp:
        return True
    # An MCP server named after a product ("postgres") must be named as the tool itself:
    # "mcp", the function's words, or a word for "tool" ("Notebook tool kernels share ...").
    if any(word in key.extra for word in every):
        return True
    return _named_as_tool(every, key.subject)


def tool_memory_class(header: MemoryHeader) -> str | None:
    """'warning' for gotchas/known issues, 'usage' for how-to/reference docs, else None."""

    name, description, _, file_words = header_text(header)
    return _memory_class(name, description, file_words, header.type)


@bounded_cache(max_entries=65_536, max_bytes=CACHE_MAX_BYTES)
def _memory_class(
    name: str, description: str, file_words: str, memory_type: MemoryType | None
) -> str | None:
    """tool_memory_class of a memory's texts and type, remembered (as _about_tool)."""
    text = " ".join((name, description, file_words))
    if STRONG_WARNING_CUES.search(text):
        return "warning"
    if STRONG_USAGE_CUES.search(text):
        return "usage"
    if WEAK_WARNING_CUES.search(text):
        return "warning"
    if memory_type == MemoryType.REFERENCE:
        return "usage"
    if memory_type == MemoryType.FEEDBACK:
        # feedback is guidance about how (not) to work: about a tool in use, that is a gotcha,
        # in any language, never its reference documentation
        return "warning"
    if WEAK_USAGE_CUES.search(text):
        return "usage"
    return None


def classify_for_tools(header: MemoryHeader, keys: Sequence[ToolKey]) -> str | None:
    """'warning' / 'usage' for memories about a tool in use, None when no tool rule applies."""
    if not any(is_about_tool(header, key) for key in keys):
        return None
    return tool_memory_class(header)


# ---- the selector ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoredMemory:
    """One candidate's figures, kept so notebooks can show why a memory was (not) chosen."""

    filename: str
    score: float
    coverage: float
    matched: tuple[str, ...]
    tool_class: str | None
    selected: bool


class LexicalSelector:
    """Offline selector: BM25 (bm25s) with stemming, synonyms, a coverage threshold, tool rule."""

    name = "lexical"

    def __init__(
        self, options: LexicalOptions | None = None, *, limit: int = MAX_RELEVANT_MEMORIES
    ) -> None:
        self.options = options or LexicalOptions()
        self.limit = limit
        self.last_error: str | None = None
        self.last_scores: list[ScoredMemory] = []
        # the inputs the last select() ranked (the offline twin of AnthropicSelector.last_request)
        self.last_request: dict[str, object] | None = None
        self._doc_cache: ByteBoundedLRU[tuple[object, ...], list[str]] = ByteBoundedLRU(
            max_entries=4096, max_bytes=CACHE_MAX_BYTES
        )

    def _document_tokens(self, header: MemoryHeader) -> list[str]:
        """document_tokens, memoised per (filename, name, description, type) for repeat turns."""
        key = (header.filename, header.name, header.description, header.type)
        cached = self._doc_cache.get(key)
        if cached is None:
            cached = document_tokens(header, self.options)
            self._doc_cache.put(key, cached)
        return cached

    def select(
        self,
        query: str,
        headers: Sequence[MemoryHeader],
        *,
        recent_tools: Sequence[str] = (),
        cancel: threading.Event | None = None,
    ) -> list[str]:
        """Rank headers against the query and return up to `limit` filenames, best first."""
        self.last_error = None
        self.last_request = selector_inputs(self.name, query, headers, recent_tools)
        scored = self.score(query, headers, recent_tools=recent_tools)
        self.last_scores = scored
        return [s.filename for s in scored if s.selected]

    def score(
        self, query: str, headers: Sequence[MemoryHeader], *, recent_tools: Sequence[str] = ()
    ) -> list[ScoredMemory]:
        """Every candidate with its BM25 score, coverage and verdict, best first."""
        bm25s = import_bm25s()
        check_headers(headers, "LexicalSelector.score()")
        opts = self.options
        headers = sorted(headers, key=lambda h: h.filename)  # determinism: ties go by filename
        if not headers:
            return []
        docs = [self._document_tokens(h) for h in headers]
        query_terms = list(dict.fromkeys(tokens(query, opts)))
        keys = [tool_key(t) for t in recent_tools if t.strip()] if opts.tool_rule else []
        classes = [classify_for_tools(h, keys) if keys else None for h in headers]

        n_docs = len(docs)
        doc_sets = [set(d) for d in docs]
        df: dict[str, int] = {}
        for terms in doc_sets:
            for term in terms:
                df[term] = df.get(term, 0) + 1

        def idf(term: str) -> float:
            count = df.get(term, 0)
            return math.log(1 + (n_docs - count + 0.5) / (count + 0.5))

        # Concept tokens stand in for words already in the query, so they add to what a memory
        # covers but not to the query's own mass.
        query_mass = sum(idf(t) for t in query_terms if not t.startswith("syn_"))
        if query_terms and any(t in df for t in query_terms):
            retriever = bm25s.BM25()
            retriever.index([d if d else [""] for d in docs], show_progress=False)
            known = [t for t in query_terms if t in df]
            raw_scores = [float(s) for s in retriever.get_scores(known)]
        else:
            raw_scores = [0.0] * n_docs

        rows = []
        for header, terms, score, tool_class in zip(
            headers, doc_sets, raw_scores, classes, strict=False
        ):
            matched = tuple(t for t in query_terms if t in terms)
            coverage = min(1.0, sum(idf(t) for t in matched) / query_mass) if query_mass else 0.0
            rows.append((header, score, coverage, matched, tool_class))

        return _verdicts(rows, opts, self.limit)


def _passes(row: tuple[Any, ...], opts: LexicalOptions, top: float) -> bool:
    """The lexical selector's verdict on one (header, score, coverage, matched, tool_class) row."""
    _, score, coverage, matched, tool_class = row
    if tool_class == "usage":
        return False
    if tool_class == "warning":
        return True
    if score <= 0 or not matched:
        return False
    if not opts.threshold:
        return True
    return bool(coverage >= opts.min_coverage and score >= opts.relative_cut * top)


def _verdicts(
    rows: Sequence[tuple[Any, ...]], opts: LexicalOptions, limit: int
) -> list[ScoredMemory]:
    """Rows ordered (tool warnings first, then by score) with at most `limit` picked."""
    top = max((r[1] for r in rows if r[4] != "usage"), default=0.0)
    ordered = sorted(rows, key=lambda r: (r[4] != "warning", -round(r[1], 6), r[0].filename))
    result: list[ScoredMemory] = []
    picked = 0
    for row in ordered:
        ok = _passes(row, opts, top) and picked < limit
        picked += ok
        header, score, coverage, matched, tool_class = row
        result.append(ScoredMemory(header.filename, score, coverage, matched, tool_class, ok))
    return result


def plain_bm25_selector(limit: int = MAX_RELEVANT_MEMORIES) -> LexicalSelector:
    """Baseline: BM25 top-k, no stemming/synonyms/threshold/tool rule (anything that matched)."""
    return LexicalSelector(
        LexicalOptions(
            stemming=False, synonyms=False, threshold=False, tool_rule=False, name_weight=1
        ),
        limit=limit,
    )
