"""Speed of the semantic selector: model load, cold encode of the demo dir, warm recall over 200.

Usage:
    python benchmarks/recall_speed.py [CASES.json] [--json]

Figures (medians, ms unless named _s):
* model_load_s: a new Python process imports memdir_nb and loads the model (hash check
  included), minus the same process's startup without the load; 3 runs.
* demo_cold_encode_s: the demo dir (memdir_nb.ui.demo) selected from with an empty vector cache:
  every manifest and body text encoded (model already loaded), 3 runs.
* demo_reopen_encoded: texts encoded when a new selector opens the unchanged demo dir with the
  same cache (must be 0).
* warm_recall_200_ms: find_relevant_memories over 200 memory files with warm vectors and a
  ScanCache (as a RecallSession runs every turn), a new query text each call (so query
  encoding is always included); warm_recall_200_no_scan_cache_ms: the same, rescanning headers.
* with --corpus (tune.json) the real_* figures: one dir of real-length bodies (tune-21-en-200
  by default): its first recall from cold (wall and CPU seconds, word pieces actually encoded,
  pieces per second), warm recall while query shortlists still meet unencoded bodies, the
  rest of the dir encoded by `prepare`, and warm recall after it, beside the floors of the
  same run (see real_length_figures).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
for extra in (REPO_ROOT, REPO_ROOT / "benchmarks"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from memdir_nb.recall import find_relevant_memories  # noqa: E402
from memdir_nb.recall.semantic import SemanticSelector  # noqa: E402
from memdir_nb.storage.scan import scan_memory_files  # noqa: E402

_LOAD = (
    "import time, memdir_nb.recall.semantic\n"
    "t = time.perf_counter()\n"
    "from memdir_nb.recall.embedding import load_encoder\n"
    "load_encoder()\n"
    "print(time.perf_counter() - t)\n"
)


def model_load_seconds(runs: int = 3) -> float:
    """Median seconds to load the model in a fresh process (imports of numpy etc. included)."""
    times = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", _LOAD], capture_output=True, text=True, check=True, cwd=REPO_ROOT
        )
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def demo_cold_encode(runs: int = 3) -> tuple[float, int, int]:
    """(median seconds, texts encoded cold, texts encoded on re-open) for the demo dir."""
    from memdir_nb.recall.embedding import load_encoder
    from memdir_nb.ui.demo import build_demo_memory_dir

    load_encoder()
    times = []
    encoded = reopened = -1
    with tempfile.TemporaryDirectory(prefix="recall-demo-") as tmp:
        demo = build_demo_memory_dir(Path(tmp) / "demo")
        headers = scan_memory_files(demo)
        for run in range(runs):
            cache = Path(tmp) / f"cache{run}"
            selector = SemanticSelector(cache_dir=cache, progress=True)
            t0 = time.perf_counter()
            selector.select("how do we deploy to production?", headers)
            times.append(time.perf_counter() - t0)
            encoded = selector.encoded_last_call
            again = SemanticSelector(cache_dir=cache, progress=False)
            again.select("how do we deploy to production?", headers)
            reopened = again.encoded_last_call
    return statistics.median(times), encoded, reopened


def warm_recall_ms(
    cases: dict,
    *,
    files: int = 200,
    repeats: int = 30,
    scan_cache: bool = True,
    prepared: bool = True,
) -> float:
    """Median ms of find_relevant_memories over `files` memories, warm vectors, new query each call.

    scan_cache=True passes one ScanCache across calls, as a RecallSession does every turn.
    prepared=True encodes every window first (`SemanticSelector.prepare`), so the calls find
    every vector cached; with False only the warm-up calls' shortlists are, and a new query's
    shortlist may still name bodies to encode (a large dir's early calls).
    """
    from recall_eval import build_memory_dir

    from memdir_nb.storage.scan import ScanCache

    memories = cases["memories"]
    grown: dict = {"memories": [], "queries": []}
    for i in range(files):
        base = dict(memories[i % len(memories)])
        if i >= len(memories):
            base["path"] = f"{base['path'][:-3]}_{i}.md"
            base["body"] = f"{base.get('body', '')} (copy {i})"
        grown["memories"].append(base)
    queries = cases["queries"]
    with tempfile.TemporaryDirectory(prefix="recall-speed-") as tmp:
        memory_dir = build_memory_dir(grown, Path(tmp) / "memory", now_ms=time.time() * 1000)
        selector = SemanticSelector(cache_dir=Path(tmp) / "cache", progress=False)
        cache = ScanCache() if scan_cache else None
        find_relevant_memories("warm up", memory_dir, selector=selector, scan_cache=cache)
        if prepared:
            selector.prepare(scan_memory_files(memory_dir))
        time.sleep(2.1)  # let the files age past the scan cache's racy window
        find_relevant_memories("warm up", memory_dir, selector=selector, scan_cache=cache)
        timings = []
        for r in range(repeats):
            q = queries[r % len(queries)]
            t0 = time.perf_counter()
            find_relevant_memories(
                f"{q['query']} ({r})",
                memory_dir,
                recent_tools=tuple(q.get("recent_tools", [])),
                selector=selector,
                scan_cache=cache,
            )
            timings.append((time.perf_counter() - t0) * 1000)
    return statistics.median(timings)


def real_length_dir(corpus_path: Path, dir_id: str) -> dict:
    """One dir of a tuning corpus (real-length bodies) as {"memories", "queries"}."""
    from fit_selector import source_dirs

    data = json.loads(corpus_path.read_text(encoding="utf-8"))
    for group, cases in source_dirs(data, corpus_path.stem):
        if group.endswith(":" + dir_id):
            return cases
    raise SystemExit(f"no dir {dir_id!r} in {corpus_path}")


def _warm_ms(
    memory_dir: Path, selector: object, queries: list[dict], repeats: int, tag: str = ""
) -> float:
    """Median ms of find_relevant_memories with a ScanCache, a new query text each call (`tag`
    keeps the texts apart from another loop's on the same selector, whose vectors it holds)."""
    from memdir_nb.storage.scan import ScanCache

    cache = ScanCache()
    find_relevant_memories("warm up", memory_dir, selector=selector, scan_cache=cache)
    timings = []
    for r in range(repeats):
        q = queries[r % len(queries)]
        t1 = time.perf_counter()
        find_relevant_memories(
            f"{q['query']} ({tag}{r})", memory_dir, selector=selector, scan_cache=cache
        )
        timings.append((time.perf_counter() - t1) * 1000)
    return statistics.median(timings)


def _query_encode_ms(encoder: object, queries: list[dict], repeats: int) -> float:
    """Median ms to encode one new query text (what every warm call with a new query pays)."""
    timings = []
    for r in range(repeats):
        text = f"{queries[r % len(queries)]['query']} [{r}]"
        t0 = time.perf_counter()
        encoder.encode([text])  # type: ignore[attr-defined]
        timings.append((time.perf_counter() - t0) * 1000)
    return statistics.median(timings)


def real_length_figures(cases: dict, repeats: int = 30) -> dict[str, float | int | str]:
    """The first recall from cold (tqdm bar on stderr), the rest of the dir encoded, and warm
    recall before and after that, over one dir with real-length bodies.

    The first recall encodes every manifest line and the body windows of its query's shortlist
    (memdir_nb.recall.shortlist); `prepare` then encodes every other window. Also: the word
    pieces of the texts the first recall encoded (manifests, and windows with their manifest
    or title), CPU seconds, pieces per second, the encode workers, the query's own encoding, and
    two floors measured in the same run: the semantic selector's full-text channel alone (no
    model) and the manifest-only lexical selector.
    """
    import os

    from recall_eval import build_memory_dir

    from memdir_nb.recall.dir_index import manifest_text, window_texts
    from memdir_nb.recall.embedding import encode_workers, load_encoder
    from memdir_nb.recall.lexical import LexicalSelector
    from memdir_nb.recall.semantic import NOT_SHORTLISTED

    encoder = load_encoder()
    bodies = sorted(len(m.get("body", "")) for m in cases["memories"])
    queries = cases["queries"]
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="recall-real-") as tmp:
        memory_dir = build_memory_dir(cases, Path(tmp) / "memory", now_ms=time.time() * 1000)
        selector = SemanticSelector(cache_dir=Path(tmp) / "cache", progress=sys.stderr.isatty())
        headers = scan_memory_files(memory_dir)
        t0, c0 = time.perf_counter(), time.process_time()
        selector.select("warm up", headers)
        cold, cold_cpu = time.perf_counter() - t0, time.process_time() - c0
        texts = selector.encoded_last_call
        outside = {e.filename for e in selector.last_explanation if NOT_SHORTLISTED in e.reason}
        docs = selector.dir_index().documents(headers)
        encoded = [manifest_text(h) for h in headers]
        every = list(encoded)
        for header, doc in zip(headers, docs, strict=True):
            windows = window_texts(header, doc.windows)
            every.extend(windows)
            if header.filename not in outside:
                encoded.extend(windows)
        pieces = sum(len(ids) for ids in encoder.token_ids(encoded))
        all_pieces = sum(len(ids) for ids in encoder.token_ids(every))
        time.sleep(2.1)  # let the files age past the scan cache's racy window
        early = _warm_ms(memory_dir, selector, queries, repeats)
        t1, c1 = time.perf_counter(), time.process_time()
        rest = selector.prepare(headers)
        rest_s, rest_cpu = time.perf_counter() - t1, time.process_time() - c1
        warm = _warm_ms(memory_dir, selector, queries, repeats, tag="prepared ")
        floor = SemanticSelector(cache_dir=Path(tmp) / "cache", progress=False)
        floor.fallback_reason = "benchmark: the full-text channel alone"
        fulltext_only = _warm_ms(memory_dir, floor, queries, repeats)
        lexical = _warm_ms(memory_dir, LexicalSelector(), queries, repeats)
        query_ms = _query_encode_ms(encoder, queries, repeats)
    return {
        "real_memories": len(cases["memories"]),
        "real_median_body_chars": bodies[len(bodies) // 2],
        "real_texts_in_dir": len(every),
        "real_word_pieces_in_dir": all_pieces,
        "real_encode_workers": encode_workers(),
        "real_first_recall_cold_s": round(cold, 2),
        "real_first_recall_cold_cpu_s": round(cold_cpu, 2),
        "real_first_recall_texts_encoded": texts,
        "real_first_recall_word_pieces": pieces,
        "real_pieces_per_s": round(pieces / cold),
        "real_early_warm_recall_ms": round(early, 2),
        "real_prepare_rest_s": round(rest_s, 2),
        "real_prepare_rest_cpu_s": round(rest_cpu, 2),
        "real_prepare_rest_texts": rest,
        "real_warm_recall_ms": round(warm, 2),
        "real_query_encode_ms": round(query_ms, 2),
        "real_fulltext_only_warm_ms": round(fulltext_only, 2),
        "real_lexical_selector_warm_ms": round(lexical, 2),
        "load_average_1min": f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} after",
    }


def measure_semantic_speed(cases: dict) -> dict[str, float | int]:
    """All the semantic selector's speed figures."""
    cold_s, encoded, reopened = demo_cold_encode()
    return {
        "model_load_s": model_load_seconds(),
        "demo_cold_encode_s": cold_s,
        "demo_texts_encoded": encoded,
        "demo_reopen_encoded": reopened,
        "warm_recall_200_ms": warm_recall_ms(cases),
        "warm_recall_200_no_scan_cache_ms": warm_recall_ms(cases, scan_cache=False),
    }


def main() -> int:
    """Print the figures (or JSON)."""
    from recall_eval import DEFAULT_CASES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="?", default=str(DEFAULT_CASES))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--corpus", help="a tuning corpus (tune.json): time one of its dirs too")
    parser.add_argument("--corpus-dir", default="tune-21-en-200", help="which dir of --corpus")
    parser.add_argument("--real-only", action="store_true", help="only the --corpus figures")
    args = parser.parse_args()
    cases = json.loads(Path(args.cases).read_text(encoding="utf-8"))
    figures = {} if args.real_only else measure_semantic_speed(cases)
    if args.corpus:
        figures.update(real_length_figures(real_length_dir(Path(args.corpus), args.corpus_dir)))
    print(
        json.dumps(figures, indent=2)
        if args.json
        else "\n".join(f"{k}: {v}" for k, v in figures.items())
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
