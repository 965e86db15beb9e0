"""Why reworded questions fail, channel by channel, and what pseudo-relevance feedback or sentence vectors change.

Usage (tuning sets only; a holdout file is refused):
    python benchmarks/recall_reworded.py benchmarks/data/recall_cases.json benchmarks/data/recall_tune.json
        [--kind reworded] [--sentences] [--use] [--experiments] [--features F.pkl]

1. Every dir is written out as a real memory dir and every question scored by the shipped
   selector; what its channels saw is kept (vectors, BM25, each window's terms).
2. For the questions of `--kind` (not CJK), the right memory's rank in each channel: BM25,
   manifest, best window, their max, the pick probability; `--sentences` adds the best single
   sentence (encoded after the memory's title; about 22,000 more texts on tune), `--use` USE
   multilingual (encoder_compare.UseEncoder, package installed by hand). Then how often the
   gate is open, and the kind's F1 with the gate wide open (the ranking's ceiling).
3. `--experiments` refits the decision as fit_selector.py does, in-sample and
   leave-one-dir-out, with each variant's features added:
   * Rocchio feedback on the semantic channel: the query vector plus the mean of the top-m
     windows of this query (per query, no pool statistics), re-scored;
   * a lexical-to-semantic bridge: the query plus the top BM25 memory's best lexical window;
   * RM3-like expansion of the lexical query with the terms of the top semantic windows
     (weighted by similarity × IDF), BM25 re-run with them;
   * the best sentence's cosine (`--sentences`), USE's semantic score (`--use`).
The figures are in docs/selection.md, "Reworded questions: what was tried".
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pickle
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
for _p in (REPO_ROOT, BENCH):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import fit_selector as fs  # noqa: E402
from fit_data import BM25_SATURATION, Query, is_full_text, pairs  # noqa: E402
from recall_eval import build_memory_dir, score_answer  # noqa: E402

from memdir_nb.recall.decision import (  # noqa: E402
    FEATURES,
    GATE_FEATURES,
    DecisionModel,
    fit_logistic,
)
from memdir_nb.recall.fulltext import FullTextIndex  # noqa: E402
from memdir_nb.recall.lexical import remembered_filename_words, tokens  # noqa: E402
from memdir_nb.recall.passages import sentences  # noqa: E402
from memdir_nb.spec import scripts  # noqa: E402

KINDS = ("all", "direct", "reworded", "multi", "non-english", "tools", "none")
MAX_SENTENCES = 144  # per memory (3 × the window cap's sentences, about)


def collect(
    dirs: list[tuple[str, dict]], cache_dir: Path, *, with_sentences: bool, with_use: bool = False
) -> list[dict]:
    """Per dir: its files, vectors, terms; per question: the query's vector, BM25, explanations.

    With `with_use`, also USE multilingual's vectors of the same manifest and window texts and
    of each query (encoder_compare.UseEncoder; the package must be installed by hand).
    """
    import numpy as np

    from memdir_nb.recall.semantic import SemanticSelector
    from memdir_nb.storage.scan import scan_memory_files

    sel = SemanticSelector(cache_dir=cache_dir, progress=False)
    enc = sel.encoder()
    if enc is None:
        raise SystemExit(f"the model is not available: {sel.fallback_reason}")
    use: Any = None
    if with_use:
        from encoder_compare import UseEncoder

        use_encoder = UseEncoder()
        use = (
            use_encoder,
            SemanticSelector(cache_dir=cache_dir, progress=False, encoder=use_encoder),
        )
    out = []
    with tempfile.TemporaryDirectory(prefix="recall-reworded-") as tmp:
        for i, (group, cases) in enumerate(dirs):
            root = build_memory_dir(cases, Path(tmp) / f"d{i}", now_ms=time.time() * 1000)
            headers = sorted(scan_memory_files(root), key=lambda h: h.filename)
            index = sel.dir_index()
            docs = index.documents(headers)
            key = index.set_key(headers, docs)
            full = index.fulltext(key, docs)
            vec = index.vectors(key, headers, docs, lambda t: sel._embed(enc, t))
            wterms = index.window_terms(key, docs)
            d: dict[str, Any] = {
                "group": group,
                "files": [h.filename for h in headers],
                "manifests": vec.manifests.copy(),
                "windows": vec.windows.copy(),
                "offsets": vec.offsets,
                "doc_terms": [doc.terms for doc in docs],
                "window_terms": [doc.window_terms for doc in docs],
                "queries": [],
            }
            if with_sentences:
                texts, offs = [], [0]
                for h, doc in zip(headers, docs, strict=True):
                    title = h.name or remembered_filename_words(h.filename)
                    found = sentences(doc.body)[:MAX_SENTENCES]
                    texts += [f"{title}: {s}" for s in found]
                    offs.append(offs[-1] + len(found))
                d["sentences"] = sel._embed(enc, texts) if texts else np.zeros((0, 384))
                d["sentence_offsets"] = tuple(offs)
            if use is not None:
                d.update(_use_vectors(use, headers, [c["query"] for c in cases["queries"]]))
            for case in cases["queries"]:
                terms = list(dict.fromkeys(tokens(case["query"], sel.options)))
                tools = tuple(case.get("recent_tools", []))
                d["queries"].append(
                    {
                        "case": case,
                        "qvec": sel._query_vector(enc, case["query"]),
                        "qterms": terms,
                        "bm25": [h.score for h in full.search(terms)],
                        "covw": wterms.coverage(full, terms),
                        "cjk": scripts.mostly_cjk(case["query"]),
                        "expl": sel.score(case["query"], headers, recent_tools=tools),
                    }
                )
            out.append(d)
            print(f"collected {group} ({len(headers)} memories)", file=sys.stderr)
    return out


def _use_vectors(use: Any, headers: Sequence[Any], queries: Sequence[str]) -> dict[str, Any]:
    """USE's unit vectors of the manifests, the windows (same texts as MiniLM's) and the queries."""
    import numpy as np

    encoder, selector = use
    index = selector.dir_index()
    docs = index.documents(headers)
    key = index.set_key(headers, docs)
    vec = index.vectors(key, headers, docs, lambda t: selector._embed(encoder, t))

    def unit(m: Any) -> Any:
        return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)

    return {
        "use_manifests": unit(vec.manifests),
        "use_windows": unit(vec.windows),
        "use_queries": unit(encoder.encode(list(queries))) if queries else None,
    }


def segment_max(values: Any, offsets: Sequence[int], empty: float = 0.0) -> Any:
    """Per memory i, the largest of values[offsets[i]:offsets[i+1]] (`empty` without rows)."""
    import numpy as np

    out = np.full(len(offsets) - 1, float(empty))
    for i in range(len(offsets) - 1):
        if offsets[i + 1] > offsets[i]:
            out[i] = values[offsets[i] : offsets[i + 1]].max()
    return out


def rank_of(scores: Sequence[float], relevant: Sequence[int]) -> int:
    """1-based rank of the best-placed relevant memory (ties broken by position, as stable sort)."""
    import numpy as np

    order = np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable")
    position = {int(j): r for r, j in enumerate(order)}
    return min(position[r] for r in relevant) + 1


def channel_ranks(data: list[dict], kind: str) -> dict[str, list[int]]:
    """Per channel, the right memory's rank for each question of `kind` in a dir of 2 or more."""
    import numpy as np

    ranks: dict[str, list[int]] = defaultdict(list)
    for d in data:
        files = d["files"]
        for q in d["queries"]:
            case = q["case"]
            rel = [files.index(f) for f in case["relevant"] if f in files]
            if case["kind"] != kind or q["cjk"] or not rel or len(files) < 2:
                continue
            v = q["qvec"]
            manifest = d["manifests"] @ v
            window = segment_max(d["windows"] @ v, d["offsets"], -1.0)
            prob = {e.filename: e.probability for e in q["expl"]}
            channels = {
                "full-text BM25": q["bm25"],
                "manifest": manifest,
                "best window": window,
                "semantic (max)": np.maximum(manifest, window),
                "pick probability": [prob[f] for f in files],
            }
            if "sentences" in d:
                sent = segment_max(d["sentences"] @ v, d["sentence_offsets"], -1.0)
                channels["best sentence"] = sent
                channels["max(semantic, sentence)"] = np.maximum(channels["semantic (max)"], sent)
            if "use_manifests" in d:
                channels["USE semantic"] = use_feature(d, q)["use_semantic"]
                channels["MiniLM + USE"] = channels["semantic (max)"] + channels["USE semantic"]
            for name, scores in channels.items():
                ranks[name].append(rank_of(scores, rel))
    return ranks


def queries_from(
    data: list[dict], extra: Callable[[dict, dict], dict] | None = None
) -> list[Query]:
    """fit_selector's Query objects, each candidate's features plus `extra`'s (not for CJK)."""
    out = []
    for d in data:
        files = d["files"]
        for q in d["queries"]:
            items = sorted(q["expl"], key=lambda e: files.index(e.filename))
            added = extra(d, q) if extra is not None and not q["cjk"] else {}
            new = [
                dataclasses.replace(
                    e, features={**e.features, **{k: float(v[i]) for k, v in added.items()}}
                )
                for i, e in enumerate(items)
            ]
            out.append(Query(d["group"], q["case"], new))
    return out


def fit(queries: Sequence[Query], features: Sequence[str], gate_features: Sequence[str]) -> Any:
    """fit_selector.fit_models and its gate rule, with these feature lists."""
    full_text = fs.fit_models(queries).full_text  # the CJK models, as fit_selector fits them
    c, i = fit_logistic(*pairs(queries, features), l2=fs.L2)
    gc, gi = fit_logistic(
        *pairs(queries, gate_features), l2=fs.L2, positive_weight=fs.GATE_POSITIVE_WEIGHT
    )
    model = DecisionModel(
        coefficients=tuple(c),
        intercept=i,
        beta=1.0,
        gate=0.5,
        bm25_saturation=BM25_SATURATION,
        gate_coefficients=tuple(gc),
        gate_intercept=gi,
        features=tuple(features),
        gate_features=tuple(gate_features),
        full_text=full_text,
    )
    gate, ft_gate = fs.choose_gates(fs.Precomputed(queries, model), 1.0)
    if full_text is not None:
        full_text = dataclasses.replace(full_text, gate=ft_gate)
    return dataclasses.replace(model, gate=gate, full_text=full_text)


def answers(queries: Sequence[Query], model: Any, gate: float | None = None) -> list[list[str]]:
    """decide()'s answers (through fit_selector.Precomputed); `gate` overrides the main gate."""
    pre = fs.Precomputed(queries, model)
    ft_gate = model.full_text.gate if model.full_text is not None else 0.5
    gates = (model.gate if gate is None else gate, ft_gate)
    return [pre.answer(i, gates, model.beta) for i in range(len(queries))]


def per_kind(queries: Sequence[Query], got: Sequence[list[str]]) -> dict[str, float]:
    """Mean F1 per kind (and 'all'), plus the share of 'none' questions answered empty."""
    f1: dict[str, list[float]] = defaultdict(list)
    empty = []
    for q, a in zip(queries, got, strict=True):
        s = score_answer(q.case, a)
        f1[q.case["kind"]].append(s.f1)
        f1["all"].append(s.f1)
        if s.recall is None:
            empty.append(float(not a))
    return {k: statistics.fmean(v) for k, v in f1.items()} | {
        "none empty": statistics.fmean(empty) if empty else 1.0
    }


def evaluate(
    queries: list[Query], features: Sequence[str], gate_features: Sequence[str]
) -> tuple[dict[str, float], dict[str, float], float, float]:
    """(in-sample per kind, leave-one-dir-out per kind pooled, LOO mean over dirs, gate)."""
    model = fit(queries, features, gate_features)
    inside = per_kind(queries, answers(queries, model))
    pooled_q: list[Query] = []
    pooled_a: list[list[str]] = []
    per_dir = []
    for group in sorted({q.group for q in queries}):
        train = [q for q in queries if q.group != group]
        test = [q for q in queries if q.group == group]
        got = answers(test, fit(train, features, gate_features))
        pooled_q += test
        pooled_a += got
        per_dir.append(
            statistics.fmean(score_answer(q.case, a).f1 for q, a in zip(test, got, strict=True))
        )
    return inside, per_kind(pooled_q, pooled_a), statistics.fmean(per_dir), model.gate


def _normed(v: Any) -> Any:
    import numpy as np

    return v / np.linalg.norm(v)


def _semantic_for(d: dict, vec: Any) -> Any:
    """The semantic feature (best of manifest and windows) for a query vector."""
    import numpy as np

    return np.maximum(d["manifests"] @ vec, segment_max(d["windows"] @ vec, d["offsets"]))


def rocchio(weight: float, top: int) -> Callable[[dict, dict], dict]:
    """Semantic feedback: the query plus `weight` × the mean of its top windows, re-scored."""
    import numpy as np

    def extra(d: dict, q: dict) -> dict:
        sims = d["windows"] @ q["qvec"]
        best = np.argsort(-sims)[:top]
        vec = _normed(q["qvec"] + weight * d["windows"][best].mean(0)) if len(best) else q["qvec"]
        return {"prf_semantic": _semantic_for(d, vec)}

    return extra


def bridge(weight: float) -> Callable[[dict, dict], dict]:
    """Lexical to semantic: the query plus the top BM25 memory's window with most query terms."""
    import numpy as np

    def extra(d: dict, q: dict) -> dict:
        bm25 = np.asarray(q["bm25"])
        vec = q["qvec"]
        if bm25.max() > 0:
            top = int(np.argmax(bm25))
            wterms = d["window_terms"][top]
            if wterms:
                wanted = set(q["qterms"])
                j = max(range(len(wterms)), key=lambda k: len(wanted & wterms[k]))
                vec = _normed(vec + weight * d["windows"][d["offsets"][top] + j])
        return {"prf_semantic": _semantic_for(d, vec)}

    return extra


def rm3(windows: int, terms: int, weight: float) -> Callable[[dict, dict], dict]:
    """Semantic to lexical: BM25 plus `weight` × BM25 of the top windows' best new terms."""
    import numpy as np

    indexes: dict[str, FullTextIndex] = {}

    def extra(d: dict, q: dict) -> dict:
        index = indexes.setdefault(d["group"], FullTextIndex(d["doc_terms"]))
        offs = d["offsets"]
        owner = np.repeat(np.arange(len(offs) - 1), np.diff(offs))
        sims = d["windows"] @ q["qvec"]
        own = set(q["qterms"])
        mass: dict[str, float] = {}
        for row in np.argsort(-sims)[:windows]:
            i = int(owner[row])
            for t in d["window_terms"][i][row - offs[i]]:
                if t not in own and not t.startswith("syn_"):
                    mass[t] = mass.get(t, 0.0) + max(float(sims[row]), 0.0) * index.idf(t)
        chosen = [t for t, _ in sorted(mass.items(), key=lambda x: -x[1])[:terms]]
        more = np.array([h.score for h in index.search(chosen)]) if chosen else 0.0
        total = np.asarray(q["bm25"]) + weight * more
        top = total.max()
        return {
            "prf_bm25": total / (total + BM25_SATURATION),
            "prf_bm25_relative": total / top if top > 0 else total * 0,
        }

    return extra


def sentence_feature(d: dict, q: dict) -> dict:
    """The best single sentence's cosine (each encoded after the memory's title)."""
    return {"semantic_sentence": segment_max(d["sentences"] @ q["qvec"], d["sentence_offsets"])}


def use_feature(d: dict, q: dict) -> dict:
    """USE's semantic score (best of manifest and windows), next to MiniLM's."""
    import numpy as np

    v = d["use_queries"][[x["case"]["id"] for x in d["queries"]].index(q["case"]["id"])]
    best = np.maximum(d["use_manifests"] @ v, segment_max(d["use_windows"] @ v, d["offsets"]))
    return {"use_semantic": best}


def experiments(data: list[dict]) -> list[tuple[str, Any, list[str], list[str]]]:
    """(label, extra, pick features, gate features) for each variant."""
    f, g = list(FEATURES), list(GATE_FEATURES)
    p, lex, s, u = (
        ["prf_semantic"],
        ["prf_bm25", "prf_bm25_relative"],
        ["semantic_sentence"],
        ["use_semantic"],
    )
    out: list[tuple[str, Any, list[str], list[str]]] = [("shipped features", None, f, g)]
    for w, m in ((0.5, 3), (1.0, 3), (0.5, 10)):
        out.append((f"Rocchio {w}×top-{m} windows, pick", rocchio(w, m), f + p, g))
        out.append((f"Rocchio {w}×top-{m}, pick+gate", rocchio(w, m), f + p, g + p))
    for w in (0.3, 0.7):
        out.append((f"bridge {w}×lexical window", bridge(w), f + p, g + p))
    for k, n, w in ((3, 10, 0.5), (5, 20, 0.3)):
        out.append((f"RM3 top-{k} windows, {n} terms, {w}, pick", rm3(k, n, w), f + lex, g))
        out.append((f"RM3 top-{k}, {n}, {w}, pick+gate", rm3(k, n, w), f + lex, g + lex[:1]))
    if all("sentences" in d for d in data):
        out.append(("best sentence, pick", sentence_feature, f + s, g))
        out.append(("best sentence, pick+gate", sentence_feature, f + s, g + s))
    if all("use_manifests" in d for d in data):
        out.append(("USE multilingual's semantic score, pick", use_feature, f + u, g))
        out.append(("USE multilingual's semantic score, pick+gate", use_feature, f + u, g + u))
    return out


def _line(label: str, figures: dict[str, float]) -> str:
    cells = " ".join(f"{figures.get(k, float('nan')):.3f}" for k in (*KINDS, "none empty"))
    return f"  {label:<58} {cells}"


def print_ranks(data: list[dict], kind: str) -> None:
    """The rank table, the gate's share, and the kind's F1 with the gate wide open."""
    import numpy as np

    ranks = channel_ranks(data, kind)
    n = len(next(iter(ranks.values()), []))
    print(f"{kind} questions (not CJK, dirs of 2+ memories): {n}; rank of the right memory")
    print(f"  {'channel':<26} top-1  top-3  top-5  median")
    for name, r in ranks.items():
        a = np.asarray(r)
        print(
            f"  {name:<26} {np.mean(a == 1):.2f}   {np.mean(a <= 3):.2f}   {np.mean(a <= 5):.2f}   {np.median(a):.1f}"
        )
    queries = queries_from(data)
    model = fit(queries, FEATURES, GATE_FEATURES)
    pre = fs.Precomputed(queries, model)
    chosen = [i for i, q in enumerate(queries) if q.case["kind"] == kind and not is_full_text(q)]
    opened = [pre.rows[i][0] >= model.gate for i in chosen if isinstance(pre.rows[i], tuple)]
    print(f"  gate open (best evidence >= {model.gate}): {statistics.fmean(opened):.2f}")
    for gate in (model.gate, 1e-9):
        figures = per_kind(queries, answers(queries, model, gate))
        print(
            f"  gate {gate:g}: {kind} F1 {figures[kind]:.3f}, mean F1 {figures['all']:.3f}, "
            f"'none' answered empty {figures['none empty']:.3f}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Collect (or reload with --features), then print the rank table and the experiments."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="+", help="tuning cases or corpus JSON files")
    parser.add_argument("--kind", default="reworded", help="the question kind to diagnose")
    parser.add_argument("--sentences", action="store_true", help="also encode every sentence")
    parser.add_argument("--experiments", action="store_true", help="refit with each variant")
    parser.add_argument(
        "--use", action="store_true", help="also USE multilingual's vectors (package by hand)"
    )
    parser.add_argument("--features", help="pickle of what was collected: written once, reused")
    args = parser.parse_args(argv)
    from fit_data import source_dirs

    from memdir_nb.home.config import MemdirConfig

    dirs: list[tuple[str, dict]] = []
    for raw in args.cases:
        path = Path(raw)
        if "holdout" in path.name:
            parser.error("refusing a holdout set: diagnose and choose on tuning sets only")
        dirs += source_dirs(json.loads(path.read_text(encoding="utf-8")), path.stem)
    cached = Path(args.features) if args.features else None
    if cached is not None and cached.is_file():
        data = pickle.loads(cached.read_bytes())  # our own file
    else:
        cache_root = MemdirConfig.from_environment().cache_root()
        data = collect(dirs, cache_root, with_sentences=args.sentences, with_use=args.use)
        if cached is not None:
            cached.write_bytes(pickle.dumps(data))
    print_ranks(data, args.kind)
    if args.experiments:
        print(f"\nmean F1 per kind: {' / '.join((*KINDS, 'none empty'))}")
        for label, extra, feats, gates in experiments(data):
            inside, loo, dir_mean, gate = evaluate(queries_from(data, extra), feats, gates)
            print(_line(f"{label} (in-sample, gate {gate})", inside))
            print(_line(f"  leave-one-dir-out (dir mean {dir_mean:.3f})", loo))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
