"""Comparing memories: near-duplicate groups and contradiction pairs, blocked and batched.

The planner (plan.py) asks two questions of a whole dir: which memories say the same thing
(near-duplicates, merged) and which say opposite things (contradictions, flagged). Both are
answered without comparing every pair: each text is reduced to its word stems once
(spec.word_stems.StemCache, shared by both steps), candidate pairs come from
spec.similarity.candidate_pairs, and only those are scored with rapidfuzz at the exact
thresholds below. What is scored is prepared once per text: a head's tokens sorted, a
contradiction text's distinct tokens sorted. On ASCII text that preparation gives every pair
exactly the score the raw texts get (dream.scored_texts, and the tests that check it against
rapidfuzz). See docs/performance.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from itertools import chain, compress
from operator import not_
from typing import Any

from memdir_nb.dream.batch_scores import _partners, _ratio_may_reach, _scores
from memdir_nb.dream.kept import (
    BlockResults,
    DiskBlocks,
    DiskTypes,
    across_by_block,
    across_in_mems,
    in_child,
    kept_modified_ms,
    stored,
    unscored,
    with_kept,
)
from memdir_nb.dream.negation import NEGATION, has_negation, strip_negations
from memdir_nb.dream.scored_texts import prepared_texts, token_sort_text
from memdir_nb.formats.manifest import memory_time_ms
from memdir_nb.machine import (
    ThreadBeside,
    beside_this_process,
    fork_pays,
    numpy_module,
    usable_cpus,
)
from memdir_nb.spec.computed_once import computed_once
from memdir_nb.spec.constants import DREAM_COMPARE_MAX_CHARS
from memdir_nb.spec.similarity import (
    UnionFind,
    candidate_pair_columns,
    candidate_pairs,
)
from memdir_nb.spec.word_stems import StemCache

DUPLICATE_HEAD_THRESHOLD = 90.0  # rapidfuzz token_sort_ratio over name + description
DUPLICATE_BODY_THRESHOLD = 60.0  # and token_set_ratio over the bodies
CONTRADICTION_THRESHOLD = 75.0  # token_set_ratio of descriptions once negations are removed
# dream.negation's words and stripping, re-exported here where tests and the docs look for them
_NEGATION = NEGATION
_strip_negations = strip_negations
_has_negation = has_negation


@dataclass
class _Mem:
    rel: str  # relative to memory_dir
    scope_rel: str  # relative to its scope dir (the index link target)
    scope: str  # "" (private) or "team"
    text: str
    name: str
    description: str
    type: str
    body: str
    mtime_ms: float
    sha: str = ""  # SHA-256 of the file's bytes (dream.disk_kept's key); "" when not known

    @computed_once
    def head_lower(self) -> str:
        """Name and description, lower-cased: what near-duplicate heads are compared on."""
        return f"{self.name} {self.description}".lower()

    @computed_once
    def body_lower(self) -> str:
        """The body as compared, lower-cased (computed once, however many candidate pairs it
        is in): its first DREAM_COMPARE_MAX_CHARS, as a pair's score costs their product."""
        return self.body[:DREAM_COMPARE_MAX_CHARS].lower()

    @computed_once
    def memory_ms(self) -> float:
        """The memory's time (formats.manifest.memory_time_ms): its `modified:` when valid, else
        its file's mtime (in a cloned dir every file has the checkout's mtime)."""
        return memory_time_ms(self.mtime_ms, kept_modified_ms(self.sha, self.text))

    @computed_once
    def name_numbers(self) -> frozenset[str]:
        """The words of the name that hold a digit (`ps3`, `20260525`, `phase2b`), lower-cased."""
        return frozenset(w.lower() for w in _NAME_WORD.findall(self.name) if _DIGIT.search(w))


_NAME_WORD = re.compile(r"[^\W_]+")
_DIGIT = re.compile(r"\d")


def _series_siblings(a: _Mem, b: _Mem) -> bool:
    """Whether two memories are numbered members of one series (runs PS2 and PS3, the sessions
    of 2026-05-24 and 2026-05-25): both names carry numbers and the numbers differ. Such records
    share a template, so their text scores as a near-duplicate, but each is about its own run,
    day or version; merging one into the other would leave a file that names the first run with
    the second's id under it, and drop the second's index line."""
    return bool(a.name_numbers) and bool(b.name_numbers) and a.name_numbers != b.name_numbers


# Candidate pairs must share this fraction of the smaller text's word stems (see
# similarity.py); every candidate is then scored with the exact thresholds above.
DUPLICATE_MIN_SHARED = 0.7
CONTRADICTION_MIN_SHARED = 0.4


def _duplicate_groups(
    pool: list[_Mem], fuzz: Any, stems: StemCache, disk: DiskBlocks | None = None
) -> list[list[_Mem]]:
    """Groups of near-duplicate memories in one scope, ordered by their first member in pool
    (disk: where a block compared by an earlier process is found)."""

    blocks: dict[tuple[str, bool], list[int]] = {}
    for i, m in enumerate(pool):  # type and negation must agree: compare within blocks only
        blocks.setdefault((m.type, _has_negation(m.description)), []).append(i)
    uf = UnionFind(len(pool))
    for idx in blocks.values():
        block = [pool[i] for i in idx]
        # The pairs are scored as indexes into the block, and only those that pass go back to
        # pool indexes (most candidates fail the scores). The groups are the connected
        # components, whatever order the pairs are joined in. Series siblings are left out
        # once scored: a test of each pair's names, so the same pairs as leaving them out first.
        for a, b in _block_duplicate_pairs(block, fuzz, stems, disk):
            if not _series_siblings(block[a], block[b]):
                uf.union(idx[a], idx[b])
    return [[pool[i] for i in g] for g in uf.groups(range(len(pool)))]


# What each near-duplicate block's comparison found, by its members' names, descriptions and
# compared bodies (all it reads): a later plan compares again only the blocks that changed.
_DUPLICATE_BLOCKS: BlockResults[tuple[tuple[int, int], ...]] = BlockResults()


def _block_duplicate_pairs(
    block: list[_Mem], fuzz: Any, stems: StemCache, disk: DiskBlocks | None = None
) -> tuple[tuple[int, int], ...]:
    """The pairs of block (indexes into it) whose heads and bodies both reach the thresholds."""
    cap = DREAM_COMPARE_MAX_CHARS
    key = tuple(chain.from_iterable((m.name, m.description, m.body[:cap]) for m in block))
    found = _DUPLICATE_BLOCKS.get(key)
    if found is None:
        # on disk by what decides all it reads: each file's bytes, and its name (which may come
        # from its path)
        at = (
            disk.key("d", [f"{m.sha}\0{m.name}" for m in block])
            if disk and all_known(block)
            else ""
        )
        found = disk.pairs_at(at, len(block)) if disk and at else None
        if found is None:
            keys = stems.texts([f"{m.name} {m.description}" for m in block])
            pairs = candidate_pair_columns(keys, min_shared=DUPLICATE_MIN_SHARED)
            found = tuple(_near_duplicate_pairs(block, pairs, fuzz))
            if disk and at:
                disk.put_at(at, found)
        _DUPLICATE_BLOCKS.put(key, found)
    return found


def all_known(mems: list[_Mem]) -> bool:
    """Whether every memory's file hash is known (only then is a block kept on disk)."""
    return all(m.sha for m in mems)


def _near_duplicate_pairs(
    pool: list[_Mem], columns: tuple[list[int], list[int]], fuzz: Any
) -> list[tuple[int, int]]:
    """The pairs (columns: their first indexes and their second ones) whose heads reach
    DUPLICATE_HEAD_THRESHOLD (token_sort_ratio) and whose bodies reach
    DUPLICATE_BODY_THRESHOLD (token_set_ratio), in no particular order."""
    cutoff = DUPLICATE_HEAD_THRESHOLD
    firsts, seconds = columns
    sorted_heads = {i: token_sort_text(pool[i].head_lower) for i in {*firsts, *seconds}}
    if len(firsts) >= _BATCH_MIN_PAIRS:  # below it, a small dir does not import numpy
        pairs = _ratio_may_reach(sorted_heads, columns, cutoff)
    else:
        pairs = list(zip(firsts, seconds, strict=True))

    def heads_alike(a: int, b: int) -> bool:
        sa, sb = sorted_heads[a], sorted_heads[b]
        if sa is not None and sb is not None:
            return bool(fuzz.ratio(sa, sb, score_cutoff=cutoff) >= cutoff)
        head_a, head_b = pool[a].head_lower, pool[b].head_lower
        return bool(fuzz.token_sort_ratio(head_a, head_b, score_cutoff=cutoff) >= cutoff)

    alike: list[tuple[int, int]] = []
    for a, bs in _partners(pairs).items():
        query = sorted_heads[a]
        batch = []  # pair by pair below _BATCH_MIN_PAIRS: a small dir does not import numpy
        if query is not None and len(pairs) >= _BATCH_MIN_PAIRS:
            batch = [(b, k) for b, k in bs if sorted_heads[b] is not None]
        in_batch = {k for _, k in batch}
        alike += [pairs[k] for b, k in bs if k not in in_batch and heads_alike(a, b)]
        if query is not None and batch:
            choices = [sorted_heads[b] for b, _ in batch]
            scores = _scores(query, choices, fuzz.ratio, cutoff)
            alike += [
                pairs[k] for (_, k), score in zip(batch, scores, strict=True) if score >= cutoff
            ]
    body_cutoff = DUPLICATE_BODY_THRESHOLD
    return [
        (a, b)
        for a, b in alike
        if fuzz.token_set_ratio(pool[a].body_lower, pool[b].body_lower, score_cutoff=body_cutoff)
        >= body_cutoff
    ]


# From this many memories on, the whole contradiction step runs in a forked child. Measured on
# two cores against the thread below (docs/performance.md): the child is 14% slower at 2,000
# memories and 15% faster at 5,000, 29% at 20,000, where finding the candidates (Python, so on
# this core when only the scores go to a thread) is most of the step.
BESIDE_MIN_MEMORIES = 3_000


@contextmanager
def contradiction_pairs_beside(
    mems: list[_Mem], fuzz: Any, stems: StemCache, known: DiskTypes | None = None
) -> Iterator[Callable[[], list[tuple[int, int]]]]:
    """The pairs (i, j), i < j, of same-type memories with opposite polarity and similar
    subject, as indexes into mems, sorted; worked out while the with-block runs. Yields a
    function that waits for them. The same pairs whichever way it runs:

    - from BESIDE_MIN_MEMORIES memories on, where machine.fork_pays says forking is safe and
      known does not hold every type: in a forked child (machine.beside_this_process), which
      sends back the index pairs and what it read from and wrote to known's file;
    - else, with two usable CPUs and enough candidates for batched scoring: each type block's
      candidates are found here, then scored in chunks on a thread (machine.ThreadBeside) while
      the next block's are found and the with-block runs. rapidfuzz scores without the GIL, on
      its own threads; its one-thread path takes the GIL back for every pair, so it is not used
      there. Each chunk is one batched call: the pairs _similar_pairs keeps;
    - else here, before the block.

    known: the types an earlier process compared (dream.disk_kept), neither prepared nor
    scored; of the others' candidates, only the pairs it holds no score for are scored, and it
    keeps what is found (a forked child's reads and writes of it are replayed here).
    """
    texts: list[str] = []
    kept: list[tuple[int, int]] = []  # the pairs of blocks an earlier plan compared
    compared: list[tuple[tuple[str, ...], list[int], list[int]]] = []  # the blocks compared now

    def blocks() -> Iterator[list[tuple[int, int]]]:
        for key, negs, plain, keys in _type_blocks(mems, stems, texts, known):
            found = _CONTRADICTION_BLOCKS.get(key)
            if found is not None:
                kept.extend(across_in_mems(found, negs, plain))
            else:
                compared.append((key, negs, plain))
                candidates = _block_candidates(negs, plain, keys)
                yield unscored(candidates, known)

    def done(found: list[tuple[int, int]]) -> list[tuple[int, int]]:
        found = with_kept(found, known)
        for key, pairs in across_by_block(compared, found):
            _CONTRADICTION_BLOCKS.put(key, pairs)
        return stored(sorted([*found, *kept]), known)

    def whole() -> list[tuple[int, int]]:  # the step in one go: here, or in a forked child
        return done(_similar_pairs(list(chain.from_iterable(blocks())), texts, fuzz))

    if _forks(mems, known):
        work, take = in_child(whole, known)
        with beside_this_process(work) as answer:
            yield lambda: take(answer())
        return
    if usable_cpus() < 2:
        found = whole()
        yield lambda: found
        return
    score = partial(_similar_pairs_on_all_cores, texts=texts, fuzz=fuzz, cpus=usable_cpus())
    with ThreadBeside(score, _BATCH_MIN_PAIRS) as beside:
        few: list[tuple[int, int]] = []  # the pairs of blocks too small to batch alone
        for block in blocks():
            if len(block) < _BATCH_MIN_PAIRS:
                few += block
            else:
                beside.hand_over(block)
        if beside.started or len(few) >= _BATCH_MIN_PAIRS:
            beside.hand_over(few)
            yield lambda: done(beside.result())
        else:  # few in all: pair by pair, here, as _similar_pairs scores so few
            found = done(_similar_pairs(few, texts, fuzz))
            yield lambda: found


def _forks(mems: list[_Mem], known: DiskTypes | None) -> bool:
    """Whether the contradiction step runs in a forked child: not when known holds every type."""
    if not fork_pays(len(mems), BESIDE_MIN_MEMORIES):
        return False
    return known is None or not known.all_kept(_members_by_type(mems).values())


# What each type block's contradiction step found (its pairs as (place among the negated,
# place among the others)), by its members' texts: the negated ones, then the others.
_CONTRADICTION_BLOCKS: BlockResults[tuple[tuple[int, int], ...]] = BlockResults()


def _contradiction_candidates(
    mems: list[_Mem], stems: StemCache
) -> tuple[list[tuple[int, int]], list[str]]:
    """The candidate pairs (i, j), i < j, and each text as _similar_pairs scores it."""
    texts: list[str] = []
    blocks = [_block_candidates(n, p, keys) for _, n, p, keys in _type_blocks(mems, stems, texts)]
    return list(chain.from_iterable(blocks)), texts


# Each contradiction text (a memory's description and body) as the step uses it: its stems,
# whether it held a negation, and the text _similar_pairs scores; by the text, so a later plan
# in this process prepares only the texts that changed. The stems are kept as a tuple (a
# frozenset of 40 costs 2 KB): about 1.2 KB an entry. Filled up to _PREPARED_MAX texts or
def _contradiction_texts(mems: list[_Mem]) -> list[str]:
    """Each memory's text as the contradiction step reads it: its description and body."""
    return [f"{m.description} {m.body[:DREAM_COMPARE_MAX_CHARS]}" for m in mems]


def _type_blocks(
    mems: list[_Mem], stems: StemCache, texts: list[str], known: DiskTypes | None = None
) -> Iterator[tuple[tuple[str, ...], list[int], list[int], list[frozenset[str]]]]:
    """Each type holding both polarities: (its members' texts, the negated ones first; the
    negated members and the others, as indexes into mems; every memory's stems), one at a time,
    each type's texts prepared into texts (one per memory) in its turn: scored as it comes."""
    all_text = _contradiction_texts(mems)
    texts[:], keys = [""] * len(mems), [frozenset[str]()] * len(mems)
    for members in _members_by_type(mems).values():
        if known is not None and known(members):
            continue  # its pairs are known.pairs'
        scored: list[str] = []
        got, negated = prepared_texts(list(map(all_text.__getitem__, members)), stems, scored)
        for i, key, text in zip(members, got, scored, strict=True):
            keys[i], texts[i] = key, text
        negs = list(compress(members, negated))
        plain = list(compress(members, map(not_, negated)))
        if plain and negs:
            yield tuple(all_text[i] for i in chain(negs, plain)), negs, plain, keys


def _members_by_type(mems: list[_Mem]) -> dict[str, list[int]]:
    """Each type's memories, as indexes into mems in order: the contradiction step's types."""
    by_type: dict[str, list[int]] = {}
    for i, m in enumerate(mems):
        by_type.setdefault(m.type, []).append(i)
    return by_type


def _block_candidates(
    negs: list[int], plain: list[int], keys: list[frozenset[str]]
) -> list[tuple[int, int]]:
    """One type block's candidate pairs (i, j), i < j, indexes into mems."""
    return [
        (negs[a], plain[b]) if negs[a] < plain[b] else (plain[b], negs[a])
        for a, b in candidate_pairs(
            [keys[i] for i in negs],
            [keys[i] for i in plain],
            min_shared=CONTRADICTION_MIN_SHARED,
        )
    ]


# From this many candidate pairs on, each text is scored against all of its partners in one
# rapidfuzz call (its tokens prepared once); below it, pair by pair, without importing numpy.
_BATCH_MIN_PAIRS = 1_000


def _similar_pairs(
    pairs: list[tuple[int, int]], texts: list[str], fuzz: Any
) -> list[tuple[int, int]]:
    """The pairs (i, j) whose texts reach CONTRADICTION_THRESHOLD by token_set_ratio(i, j)."""
    cutoff = CONTRADICTION_THRESHOLD
    if len(pairs) < _BATCH_MIN_PAIRS:
        return [
            (i, j)
            for i, j in pairs
            if fuzz.token_set_ratio(texts[i], texts[j], score_cutoff=cutoff) >= cutoff
        ]
    cpus = usable_cpus()
    if cpus >= 2:
        return _similar_pairs_on_all_cores(pairs, texts, fuzz, cpus)
    found: list[tuple[int, int]] = []
    for i, js in _partners(pairs).items():
        scores = _scores(texts[i], [texts[j] for j, _ in js], fuzz.token_set_ratio, cutoff)
        found += [pairs[k] for (_, k), score in zip(js, scores, strict=True) if score >= cutoff]
    return found


def _similar_pairs_on_all_cores(
    pairs: list[tuple[int, int]], texts: list[str], fuzz: Any, cpus: int
) -> list[tuple[int, int]]:
    """_similar_pairs' batch in one rapidfuzz call whose own threads share the pairs out.

    rapidfuzz scores on `cpus` threads outside the GIL (no process is forked, so this is safe in
    a notebook kernel too). On one core the per-text calls above are faster, as each text's
    tokens are then prepared once; on two the single call halves the wall time
    (docs/performance.md). The same scorer and cutoff, so the same pairs (see _scores).
    """
    from rapidfuzz import process

    cutoff = CONTRADICTION_THRESHOLD
    numpy_module()  # cpdist loads numpy: the first load inside a plan, one OpenBLAS thread
    scores = process.cpdist(
        [texts[i] for i, _ in pairs],
        [texts[j] for _, j in pairs],
        scorer=fuzz.token_set_ratio,
        score_cutoff=cutoff,
        workers=cpus,
    ).tolist()
    return [pair for pair, score in zip(pairs, scores, strict=True) if score >= cutoff]
