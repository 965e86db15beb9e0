"""LoCoMo as memory dirs: does the offline selector find the session that answers a question?

Usage:
    python benchmarks/locomo.py PATH/TO/locomo10.json [--conversations N] [--cache-dir D] [--json OUT]
        [--layout conversation|pooled] [--no-shortlist] [--dump OUT.jsonl]

Get `data/locomo10.json` by hand from the snap-research/LoCoMo repository. It is CC BY-NC 4.0:
never commit it. The file's SHA-256 is checked first; another file is refused.

Layout (after basic-memory's LoCoMo harness, per conversation): one memory dir per
conversation, one memory file per session. Its description is the first sentence of the
session's summary; its body is "Chat session at <date>" and the dialogue, one
"Speaker: text" line per turn. Sessions are written oldest first, so the newest session has the
newest mtime.

With `--layout pooled`, every session of every conversation goes into one dir (272 files,
named `<sample_id>_session_NN.md`, with the same text as above), and each question is asked
of that whole dir: basic-memory's own layout, in which its published figures were measured.
A pooled dir holds more than the 200 files the scan keeps, so it is read with no cap (the
retrieval is measured, not the newest-first cap), and it holds more than 40 memories, so
the selector's body shortlist is in play; `--no-shortlist` compares every body instead.

For each answerable question (categories 1-4: 1 multi-hop, 2 temporal, 3 open-domain,
4 single-hop; 1,540 in all) the gold set is the sessions its evidence ids name. Printed, in one
run, for five rankers:

* default: SemanticSelector's answer (its gate and expected-F set, at most five);
* ranking: the same selector's candidates ordered by its pick probability, top five (no gate);
* lexical: the full-text BM25 channel alone, top five;
* grep: basic-memory's grep baseline over bodies (substring counts, 1 + ln(count) per term,
  times the squared share of query terms found; recall_baselines.grep_rank, the same function
  the recall corpora use), top five;
* random: five sessions drawn with a fixed seed.

With `--beta B` (repeatable), one more row per B: the default's answer if its set rule used
F-B instead of the shipped F1, from the same scores (same gate, same probabilities). The
shipped model is not changed; the rows show what the choice of measure trades (see
docs/selection.md, "The set rule's measure").

Metrics per question, averaged: hit@5 (any gold session among the picks), recall@5 (share of
the gold sessions among them), MRR (1 / rank of the first gold session, 0 if none), and for
the default selector the share of questions answered with nothing ("empty").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))
BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from locomo_dump import question_row, write_rows  # noqa: E402  (--dump's per-question rows)
from recall_baselines import grep_rank  # noqa: E402  (the one grep baseline, both benchmarks)
from recall_eval import rank_figures  # noqa: E402  (hit@5, recall@5, MRR: one definition)

from memdir_nb.formats.manifest import MemoryHeader  # noqa: E402
from memdir_nb.recall.decision import decide  # noqa: E402
from memdir_nb.recall.explain_selection import MemoryExplanation  # noqa: E402
from memdir_nb.recall.semantic import SemanticSelector  # noqa: E402
from memdir_nb.storage.access import MissingFile, ReadRefused  # noqa: E402
from memdir_nb.storage.regular_file import read_regular_file  # noqa: E402
from memdir_nb.storage.scan import scan_memory_files  # noqa: E402

LOCOMO_SHA256 = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"
# The most of a public data file read before its hash is checked (LoCoMo's file is 2.8 MB,
# each of REALTALK's a few hundred KB): a name linked to a larger file is refused, never read whole.
FILE_MAX_BYTES = 64 * 1024 * 1024
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
RANKERS = ("default", "ranking", "lexical", "grep", "random")
K = 5
_EVIDENCE = re.compile(r"D(\d+):")
_SENTENCE = re.compile(r"(?<=[.!?])\s")


class LocomoFileError(SystemExit):
    """The given file is not the expected locomo10.json."""


def read_data_file(
    path: Path, sha256: str, *, missing: str, what: str, fix: str, error: type[SystemExit]
) -> bytes:
    """The bytes of one public data file, checked against its SHA-256: the one reader of
    LoCoMo's and REALTALK's files. It is read as a regular file (a FIFO or a device is refused
    unopened, without blocking) and at most FILE_MAX_BYTES of it, so memory never follows a
    file's size. `error` names the problem: `missing` when there is no file, else the file
    and `what` it should be, then `fix`."""
    try:
        read = read_regular_file(path, FILE_MAX_BYTES)
    except MissingFile:
        raise error(missing) from None
    except ReadRefused as exc:
        raise error(f"{exc}, so it is not {what}. {fix}") from None
    if read.truncated:
        raise error(f"{path} is larger than {FILE_MAX_BYTES:,} bytes, so it is not {what}. {fix}")
    digest = hashlib.sha256(read.data).hexdigest()
    if digest != sha256:
        raise error(
            f"{path} has SHA-256 {digest}, not the expected {sha256} of {what}; this "
            f"benchmark's figures are only for that exact file. {fix}"
        )
    return read.data


def check_file(path: Path) -> list[dict]:
    """The parsed samples, after checking the SHA-256; LocomoFileError names the problem."""
    raw = read_data_file(
        path,
        LOCOMO_SHA256,
        missing=f"{path} does not exist. Download data/locomo10.json from the "
        "snap-research/LoCoMo repository and pass its path.",
        what="LoCoMo's data/locomo10.json",
        fix="Download it again from the snap-research/LoCoMo repository.",
        error=LocomoFileError,
    )
    return json.loads(raw.decode("utf-8"))


def sessions_of(sample: dict) -> list[int]:
    """Session numbers that hold turns (some samples have dates for sessions without turns)."""
    conv = sample["conversation"]
    numbers = []
    for key, value in conv.items():
        m = re.fullmatch(r"session_(\d+)", key)
        if m and isinstance(value, list) and value:
            numbers.append(int(m.group(1)))
    return sorted(numbers)


def session_filename(n: int) -> str:
    return f"session_{n:02d}.md"


def first_sentence(text: str) -> str:
    return _SENTENCE.split(" ".join(text.split()), maxsplit=1)[0]


def write_dir(sample: dict, target: Path, prefix: str = "") -> dict[str, str]:
    """One memory file per session, named prefix + session_filename(n); returns
    filename -> body (for the grep baseline)."""
    target.mkdir(parents=True, exist_ok=True)
    conv = sample["conversation"]
    summaries = sample.get("session_summary", {})
    bodies = {}
    base = time.time() - 86_400 * 400
    for n in sessions_of(sample):
        date = conv.get(f"session_{n}_date_time", "")
        summary = summaries.get(f"session_{n}_summary", "") or f"Chat session {n}."
        lines = [f"# Chat session at {date}", ""]
        lines += [
            f"{t['speaker']}: {' '.join(str(t['text']).split())}" for t in conv[f"session_{n}"]
        ]
        body = "\n".join(lines) + "\n"
        description = json.dumps(first_sentence(summary), ensure_ascii=False)
        name = json.dumps(f"Session {n} ({date})", ensure_ascii=False)
        text = f"---\nname: {name}\ndescription: {description}\ntype: project\n---\n\n{body}"
        path = target / f"{prefix}{session_filename(n)}"
        path.write_text(text, encoding="utf-8")
        os.utime(path, (base + n * 86_400, base + n * 86_400))
        bodies[path.name] = body
    return bodies


def gold_of(qa: dict, known: set[str], prefix: str = "") -> set[str]:
    """Sessions named by the evidence ids, as prefix + session_filename(n) (malformed ids
    dropped, unknown sessions ignored)."""
    ids = _EVIDENCE.findall(" ".join(qa.get("evidence", [])))
    found = {f"{prefix}{session_filename(int(n))}" for n in ids}
    return found & known


def pooled_prefix(sample: dict) -> str:
    """The file-name prefix of a conversation's sessions in the pooled dir."""
    return f"{sample['sample_id']}_"


@dataclass
class Tally:
    """Per-question figures of one ranker, kept by category."""

    rows: list[tuple[int, float, float, float, bool]] = field(default_factory=list)

    def add(self, category: int, picks: Sequence[str], gold: set[str]) -> None:
        hit, recall, reciprocal = rank_figures(picks, gold, K)
        self.rows.append((category, hit, recall, reciprocal, not list(picks)[:K]))

    def summary(self, category: int | None = None) -> dict[str, float]:
        rows = [r for r in self.rows if category is None or r[0] == category]
        if not rows:
            return {"n": 0}
        return {
            "n": len(rows),
            "hit@5": statistics.fmean(r[1] for r in rows),
            "recall@5": statistics.fmean(r[2] for r in rows),
            "mrr": statistics.fmean(r[3] for r in rows),
            "empty": statistics.fmean(r[4] for r in rows),
        }


@dataclass
class Haystack:
    """One memory dir as the rankers see it: its headers and, for grep, its bodies."""

    headers: list[MemoryHeader]
    bodies: dict[str, str]


def conversation_dir(sample: dict, root: Path) -> Haystack:
    """The per-conversation layout: one dir of this conversation's sessions."""
    memory_dir = root / sample["sample_id"]
    bodies = write_dir(sample, memory_dir)
    return Haystack(scan_memory_files(memory_dir), bodies)


def pooled_dir(samples: Sequence[dict], root: Path) -> Haystack:
    """The pooled layout: one dir of every conversation's sessions, read with no cap."""
    memory_dir = root / "pooled"
    bodies: dict[str, str] = {}
    for sample in samples:
        bodies |= write_dir(sample, memory_dir, prefix=pooled_prefix(sample))
    return Haystack(scan_memory_files(memory_dir, limit=None), bodies)


Ranker = Callable[[str, Haystack], Sequence[str]]
"""A ranker added by name to run_sample: the question and the haystack in, names best first."""


def beta_name(beta: float) -> str:
    """The row name of the default's answer under the set rule's F-beta."""
    return f"F{beta:g} set"


def answer_with_beta(
    explained: Sequence[MemoryExplanation], selector: SemanticSelector, beta: float
) -> list[str]:
    """The default's answer if its set rule used F-beta: the same decision.decide over the
    same features, with only the model's beta changed (so the order and the gate are one
    home's)."""
    verdicts = decide(
        [(e.filename, e.tool_class, e.features) for e in explained],
        replace(selector.decision, beta=beta),
        limit=selector.limit,
    )
    return [v.filename for v in verdicts if v.selected]


def run_sample(
    sample: dict,
    haystack: Haystack,
    selector: SemanticSelector,
    tallies: dict,
    rng: random.Random,
    prefix: str = "",
    betas: Sequence[float] = (),
    categories: Mapping[int, str] = CATEGORIES,
    extra: Mapping[str, Ranker] | None = None,
    dump: list[dict] | None = None,
) -> None:
    """Score every answerable question of one conversation, asked of haystack, with every
    ranker (and the default under each F-beta of `betas`); its gold sessions are named
    prefix + session_filename(n). Answerable means a category among `categories`; `extra`
    adds rankers by name (each called with the question and the haystack, as
    benchmarks/realtalk.py adds BM25). With `dump`, one locomo_dump.question_row a question
    is appended to it."""
    headers, bodies = haystack.headers, haystack.bodies
    known = set(bodies)
    for qa in sample["qa"]:
        category = qa.get("category")
        if category not in categories:
            continue
        gold = gold_of(qa, known, prefix)
        question = str(qa["question"])
        explained = selector.score(question, headers)
        default = [e.filename for e in explained if e.selected]
        ranking = [
            e.filename for e in sorted(explained, key=lambda e: (-(e.probability or 0), e.filename))
        ]
        lexical = [
            e.filename
            for e in sorted(explained, key=lambda e: (-e.lexical, e.filename))
            if e.lexical > 0
        ]
        grep = grep_rank(question, bodies)
        if dump is not None:
            dump.append(question_row(sample["sample_id"], qa, gold, explained, grep))
        picks = {
            "default": default,
            "ranking": ranking,
            "lexical": lexical,
            "grep": grep,
            "random": rng.sample(sorted(known), min(K, len(known))),
        }
        for name, ranker in (extra or {}).items():
            picks[name] = ranker(question, haystack)
        for beta in betas:
            picks[beta_name(beta)] = answer_with_beta(explained, selector, beta)
        for name, picked in picks.items():
            tallies[name].add(category, picked, gold)


LAYOUTS = {
    "conversation": "per-conversation dirs",
    "pooled": "one pooled dir of every session",
}


def report(
    tallies: dict[str, Tally],
    seconds: float,
    layout: str = "conversation",
    title: str = "LoCoMo, answerable questions (categories 1-4)",
    categories: Mapping[int, str] = CATEGORIES,
) -> str:
    """The printed tables: overall, then per category, then the default's empty rate."""
    lines = [f"{title}, {LAYOUTS[layout]} ({seconds:.0f} s)"]
    lines.append(f"{'ranker':<10} {'n':>5} {'hit@5':>6} {'recall@5':>9} {'MRR':>6} {'empty':>6}")
    for name in tallies:
        s = tallies[name].summary()
        lines.append(
            f"{name:<10} {s['n']:>5} {s['hit@5']:>6.3f} {s['recall@5']:>9.3f} {s['mrr']:>6.3f} "
            f"{s['empty']:>6.3f}"
        )
    lines.append("")
    lines.append("per category, hit@5 / recall@5")
    lines.append(f"{'ranker':<10} " + " ".join(f"{f'{c} {categories[c]}':>18}" for c in categories))
    for name in tallies:
        cells = []
        for c in categories:
            s = tallies[name].summary(c)
            cells.append(
                f"{s['hit@5']:.3f} / {s['recall@5']:.3f}".rjust(18) if s["n"] else "-".rjust(18)
            )
        lines.append(f"{name:<10} " + " ".join(cells))
    counts = " ".join(f"{c}: {tallies['default'].summary(c)['n']}" for c in categories)
    lines.append(f"questions per category: {counts}")
    d = tallies["default"].summary()
    lines.append(f"default answered empty: {d['empty']:.3f} of questions")
    return "\n".join(lines)


def loaded_selector(
    script: str, cache_dir: Path, *, shortlist: bool = True
) -> SemanticSelector | None:
    """The default selector with its model loaded, or None after saying on stderr why not."""
    selector = SemanticSelector(
        cache_dir=cache_dir, progress=sys.stderr.isatty(), shortlist=shortlist
    )
    if selector.encoder() is None:
        print(f"{script}: the model is not available: {selector.fallback_reason}", file=sys.stderr)
        return None
    return selector


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="path to LoCoMo's data/locomo10.json")
    parser.add_argument("--conversations", type=int, default=0, help="only the first N (0 = all)")
    parser.add_argument("--cache-dir", help="vector cache (default: a fresh temp dir)")
    parser.add_argument("--json", dest="json_out", help="also write the figures as JSON here")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random baseline")
    parser.add_argument(
        "--layout", choices=sorted(LAYOUTS), default="conversation", help="see the module doc"
    )
    parser.add_argument(
        "--beta",
        type=float,
        action="append",
        default=[],
        help="also print the default's answer under this set rule's F-beta (repeatable)",
    )
    parser.add_argument(
        "--no-shortlist",
        action="store_true",
        help="compare every body with the query, in dirs of more than 40 memories too",
    )
    parser.add_argument(
        "--dump",
        help="also write one JSON line per question here: the default's picks, the ranking's "
        "top 10 with probabilities and features, grep's top 5 and the gold sessions",
    )
    args = parser.parse_args(argv)
    if any(not beta > 0 for beta in args.beta):
        parser.error("--beta must be a positive number, such as 2 (F2 weighs recall twice)")
    try:
        samples = check_file(Path(args.path))
    except LocomoFileError as err:
        print(f"locomo.py: {err}", file=sys.stderr)
        return 2
    if args.conversations:
        samples = samples[: args.conversations]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="locomo-") as tmp:
        cache_dir = Path(args.cache_dir) if args.cache_dir else Path(tmp) / "cache"
        selector = loaded_selector("locomo.py", cache_dir, shortlist=not args.no_shortlist)
        if selector is None:
            return 2
        tallies = {name: Tally() for name in (*RANKERS, *map(beta_name, args.beta))}
        rng = random.Random(args.seed)
        root = Path(tmp) / "dirs"
        dump: list[dict] | None = [] if args.dump else None
        if args.layout == "pooled":
            pooled = pooled_dir(samples, root)
            for sample in samples:
                prefix = pooled_prefix(sample)
                run_sample(sample, pooled, selector, tallies, rng, prefix, args.beta, dump=dump)
        else:
            for sample in samples:
                haystack = conversation_dir(sample, root)
                run_sample(sample, haystack, selector, tallies, rng, betas=args.beta, dump=dump)
    if args.dump and dump is not None:
        with Path(args.dump).open("w", encoding="utf-8") as handle:
            write_rows(dump, handle)
    text = report(tallies, time.perf_counter() - start, args.layout)
    print(text)
    if args.json_out:
        data: dict[str, object] = {
            name: {"all": t.summary(), **{CATEGORIES[c]: t.summary(c) for c in CATEGORIES}}
            for name, t in tallies.items()
        }
        data["run"] = {"layout": args.layout, "shortlist": not args.no_shortlist}
        Path(args.json_out).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
