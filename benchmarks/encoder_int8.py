"""Experiment: the MiniLM encoder as an ONNX graph on ONNX Runtime, in float32 and in int8.

Usage (docs/performance.md, "Cold encode in int8", has the figures):
    python benchmarks/encoder_int8.py check [--texts 300]
    python benchmarks/encoder_int8.py speed [--corpus-dir tune-21-en-200] [--rounds 2] [--json]
    python benchmarks/encoder_int8.py quality [--corpus C.json] [--variant V ...]
    (all take --corpus, default benchmarks/data/recall_tune.json, and --workdir for the .onnx)

Not part of the package: onnx and onnxruntime are installed by hand in the venv that runs
this, never as dependencies. The graph is built node by node from the pinned safetensors
weights as memdir_nb/recall/embedding.py runs them (embeddings + layer norm, six layers of
fused-QKV attention with the padding mask, tanh GELU feed-forward, mean pooling over real
tokens, L2 norm); `quantize_dynamic` turns its weight products into int8 ones (VARIANTS).

* check: cosine of the ONNX float32 graph against the numpy encoder on N texts of the dir.
* speed: every text the semantic selector encodes for one real-length dir (manifests, windows
  with their manifest or title) encoded by each SPEED_RUNS row, rows alternated: wall and CPU
  seconds, and each variant's cosine to the numpy vectors (min, 1st percentile, median).
* quality: fit_selector's --report scoring (the shipped decision, not refitted) of a corpus
  with each variant's vectors, per kind.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memdir_nb.recall.embedding import MiniLMEncoder
from memdir_nb.recall.model_files import ModelFiles, locate_model, map_safetensors

# Run as a script, benchmarks/ is first on sys.path; imported by tests, pyproject puts it there.
REPO_ROOT = Path(__file__).resolve().parents[1]
OPSET = 20  # LayerNormalization is an ONNX op from 17 on, Gelu (with its tanh form) from 20
# The variants measured: (name, quantize_dynamic options or None for the float32 graph).
VARIANTS: dict[str, dict[str, Any]] = {
    "ort-fp32": {},
    # attention as onnxruntime's fused contrib op (com.microsoft.Attention)
    "ort-fp32-fused": {"fused": True},
    "int8": {"weight_type": "QInt8", "per_channel": False},
    "int8-per-channel": {"weight_type": "QInt8", "per_channel": True},
    "uint8": {"weight_type": "QUInt8", "per_channel": False},
    # per channel, the feed-forward down projections (input: GELU's wide range) left float32
    "int8-pc-fp32-down": {"weight_type": "QInt8", "per_channel": True, "exclude": ["down"]},
    "int8-pc-fused": {"weight_type": "QInt8", "per_channel": True, "fused": True},
}


class _Graph:
    """Nodes and initialisers of the graph being built, with the few helpers the layers use."""

    def __init__(self, tensors: dict[str, np.ndarray], eps: float, *, fused: bool) -> None:
        from onnx import helper, numpy_helper

        self.helper, self.numpy_helper = helper, numpy_helper
        self.tensors = tensors
        self.eps = eps
        self.fused = fused  # attention as onnxruntime's contrib op com.microsoft.Attention
        self.nodes: list[Any] = []
        self.inits: list[Any] = []

    def w(self, name: str) -> np.ndarray:
        """A weight of the safetensors file as float32."""
        return np.asarray(self.tensors[name], dtype=np.float32)

    def const(self, name: str, value: np.ndarray) -> str:
        self.inits.append(self.numpy_helper.from_array(np.array(value, order="C"), name))
        return name

    def f32(self, name: str, value: float) -> str:
        return self.const(name, np.array(value, dtype=np.float32))

    def i64(self, name: str, values: Sequence[int]) -> str:
        return self.const(name, np.array(values, dtype=np.int64))

    def node(self, op: str, inputs: Sequence[str], out: str, **attrs: Any) -> str:
        """One node whose single output (and node name) is `out`."""
        self.nodes.append(self.helper.make_node(op, list(inputs), [out], name=out, **attrs))
        return out

    def layer_norm(self, x: str, prefix: str, out: str) -> str:
        scale = self.const(out + ".gamma", self.w(prefix + ".weight"))
        bias = self.const(out + ".beta", self.w(prefix + ".bias"))
        return self.node("LayerNormalization", [x, scale, bias], out, axis=-1, epsilon=self.eps)

    def affine(self, x: str, weight: np.ndarray, bias: np.ndarray, out: str) -> str:
        """x @ weight.T + bias; the MatMul node is named out + ".mm" (what quantisation sees)."""
        prod = self.node("MatMul", [x, self.const(out + ".w", weight.T.copy())], out + ".mm")
        return self.node("Add", [prod, self.const(out + ".b", bias)], out)

    def embeddings(self) -> str:
        """word[ids] + position[:L] + token type 0, then layer norm."""
        word = self.const("word", self.w("embeddings.word_embeddings.weight"))
        x = self.node("Gather", [word, "input_ids"], "e.word")
        length = self.node(
            "Gather", [self.node("Shape", ["input_ids"], "e.shape"), self.i64("one", [1])], "e.len"
        )
        table = self.const("position", self.w("embeddings.position_embeddings.weight"))
        zero = self.i64("zero", [0])
        positions = self.node("Slice", [table, zero, length, zero], "e.pos")
        x = self.node("Add", [x, positions], "e.sum")
        token_type = self.const("token_type", self.w("embeddings.token_type_embeddings.weight")[0])
        x = self.node("Add", [x, token_type], "e.sum2")
        return self.layer_norm(x, "embeddings.LayerNorm", "e.ln")

    def mask_bias(self) -> str:
        """The padding mask as an additive bias on the scores: (1 - mask) * -1e9, B×1×1×L."""
        inverted = self.node("Sub", [self.f32("f1", 1.0), "attention_mask"], "m.inv")
        bias = self.node("Mul", [inverted, self.f32("big", -1e9)], "m.bias")
        return self.node("Unsqueeze", [bias, self.i64("axes12", [1, 2])], "m.bias4")

    def attention(self, x: str, p: str, n: str, heads: int, bias: str) -> str:
        """Fused-QKV self-attention of layer prefix p (node names n.*), before its residual."""
        hidden = self.w(p + "attention.output.dense.weight").shape[0]
        head_dim = hidden // heads
        names = ("query", "key", "value")
        qkv_w = np.concatenate([self.w(p + f"attention.self.{k}.weight") for k in names])
        qkv_b = np.concatenate([self.w(p + f"attention.self.{k}.bias") for k in names])
        if self.fused:  # projection, heads, mask, softmax and context in one kernel
            mask = self.node("Cast", ["attention_mask"], n + ".mask", to=6)  # int32 0/1
            ctx = self.node(
                "Attention",
                [
                    x,
                    self.const(n + ".qkv.w", qkv_w.T.copy()),
                    self.const(n + ".qkv.b", qkv_b),
                    mask,
                ],
                n + ".attn",
                domain="com.microsoft",
                num_heads=heads,
            )
            dense = p + "attention.output.dense"
            return self.affine(ctx, self.w(dense + ".weight"), self.w(dense + ".bias"), n + ".out")
        qkv = self.affine(x, qkv_w, qkv_b, n + ".qkv")
        split = self.i64(n + ".split_shape", [0, 0, 3, heads, head_dim])
        qkv = self.node("Reshape", [qkv, split], n + ".qkv5")
        qkv = self.node("Transpose", [qkv], n + ".qkvT", perm=[2, 0, 3, 1, 4])  # 3×B×h×L×d
        q, k, v = (  # a scalar index drops the leading axis: each B×h×L×d
            self.node("Gather", [qkv, self.const(f"{n}.i{j}", np.array(j, np.int64))], f"{n}.{c}")
            for j, c in enumerate("qkv")
        )
        kt = self.node("Transpose", [k], n + ".kT", perm=[0, 1, 3, 2])
        scores = self.node("MatMul", [q, kt], n + ".scores")
        scores = self.node(
            "Mul", [scores, self.f32(n + ".scale", 1.0 / float(np.sqrt(head_dim)))], n + ".scaled"
        )
        probs = self.node(
            "Softmax", [self.node("Add", [scores, bias], n + ".masked")], n + ".probs", axis=-1
        )
        ctx = self.node(
            "Transpose",
            [self.node("MatMul", [probs, v], n + ".ctx")],
            n + ".ctxT",
            perm=[0, 2, 1, 3],
        )
        ctx = self.node("Reshape", [ctx, self.i64(n + ".merge", [0, 0, hidden])], n + ".ctx3")
        dense = p + "attention.output.dense"
        return self.affine(ctx, self.w(dense + ".weight"), self.w(dense + ".bias"), n + ".out")

    def layer(self, x: str, i: int, heads: int, bias: str) -> str:
        """One encoder layer: attention, residual, layer norm, GELU feed-forward, residual, norm."""
        p, n = f"encoder.layer.{i}.", f"l{i}"
        y = self.node("Add", [self.attention(x, p, n, heads, bias), x], n + ".res1")
        x = self.layer_norm(y, p + "attention.output.LayerNorm", n + ".ln1")
        up = self.affine(
            x,
            self.w(p + "intermediate.dense.weight"),
            self.w(p + "intermediate.dense.bias"),
            n + ".up",
        )
        act = self.node("Gelu", [up], n + ".gelu", approximate="tanh")  # the numpy encoder's form
        y = self.affine(
            act, self.w(p + "output.dense.weight"), self.w(p + "output.dense.bias"), n + ".down"
        )
        y = self.node("Add", [y, x], n + ".res2")
        return self.layer_norm(y, p + "output.LayerNorm", n + ".ln2")

    def pooling(self, x: str) -> str:
        """Mean over real tokens, then L2 normalisation; the output is named "embeddings"."""
        mask3 = self.node("Unsqueeze", ["attention_mask", self.i64("axis2", [2])], "p.mask3")
        masked = self.node("Mul", [x, mask3], "p.masked")
        summed = self.node("ReduceSum", [masked, self.i64("axis1", [1])], "p.sum", keepdims=0)
        count = self.node(
            "ReduceSum", ["attention_mask", self.i64("axis1b", [1])], "p.count", keepdims=1
        )
        count = self.node("Max", [count, self.f32("tiny", 1e-9)], "p.count1")
        pooled = self.node("Div", [summed, count], "p.mean")
        norm = self.node("ReduceL2", [pooled, self.i64("axis_last", [-1])], "p.norm", keepdims=1)
        norm = self.node("Max", [norm, self.f32("tiny2", 1e-12)], "p.norm1")
        return self.node("Div", [pooled, norm], "embeddings")


def build_graph(files: ModelFiles, *, fused: bool = False) -> Any:
    """The forward pass as an onnx.ModelProto: inputs input_ids (int64 B×L) and
    attention_mask (float32 B×L, 1 for real tokens), output embeddings (float32 B×384, unit).

    fused=True writes each layer's attention as onnxruntime's com.microsoft.Attention node
    (the QKV product inside it), which only onnxruntime runs; otherwise only standard ops.
    """
    import onnx
    from onnx import TensorProto, helper

    config = json.loads((files.directory / "config.json").read_text(encoding="utf-8"))
    heads, hidden = int(config["num_attention_heads"]), int(config["hidden_size"])
    g = _Graph(map_safetensors(files.weights), float(config["layer_norm_eps"]), fused=fused)
    x = g.embeddings()
    bias = g.mask_bias()
    for i in range(int(config["num_hidden_layers"])):
        x = g.layer(x, i, heads, bias)
    g.pooling(x)
    graph = helper.make_graph(
        g.nodes,
        "all-MiniLM-L6-v2",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "length"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.FLOAT, ["batch", "length"]),
        ],
        [helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["batch", hidden])],
        g.inits,
    )
    opsets = [helper.make_opsetid("", OPSET)]
    if fused:
        opsets.append(helper.make_opsetid("com.microsoft", 1))
    model = helper.make_model(graph, opset_imports=opsets)
    model.ir_version = 8  # what onnxruntime releases of the last two years all read
    onnx.checker.check_model(model)
    return model


def build_variant(files: ModelFiles, variant: str, workdir: Path) -> Path:
    """Write the variant's graph as workdir/minilm-VARIANT.onnx (once); its path.

    An int8 variant is its float32 graph (fused or not) through quantize_dynamic: every
    MatMul with a weight operand (and each fused Attention's QKV product) in int8, with
    activations quantised per batch at run time; the attention products stay float32.
    """
    import onnx

    options = VARIANTS[variant]
    out = workdir / f"minilm-{variant}.onnx"
    if out.is_file():
        return out
    fused = bool(options.get("fused", False))
    if "weight_type" not in options:
        onnx.save(build_graph(files, fused=fused), str(out))
        return out
    from onnxruntime.quantization import QuantType, quantize_dynamic

    base = build_variant(files, "ort-fp32-fused" if fused else "ort-fp32", workdir)
    quantize_dynamic(
        base,
        out,
        op_types_to_quantize=["MatMul", "Attention"],
        nodes_to_exclude=[
            f"l{i}.{kind}.mm" for i in range(6) for kind in options.get("exclude", ())
        ],
        per_channel=bool(options["per_channel"]),
        weight_type=QuantType[str(options["weight_type"])],
        # shape inference does not type a contrib op's output; every tensor here is float32
        extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
    )
    return out


class OrtEncoder(MiniLMEncoder):
    """The numpy encoder's tokenizer, batching and workers, with each batch run by ONNX Runtime.

    Its `weights_sha256` names the variant, so vectors cached by the semantic selector never
    mix with the shipped encoder's.
    """

    def __init__(self, files: ModelFiles, model_path: Path, variant: str, threads: int = 1) -> None:
        import onnxruntime as ort

        super().__init__(files, verify=False)
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = ort.InferenceSession(
            str(model_path), options, providers=["CPUExecutionProvider"]
        )
        self.variant = variant
        self.weights_sha256 = f"{self.weights_sha256}:onnx-{variant}"

    def _forward(self, ids: list[list[int]]) -> np.ndarray:
        length = max(len(x) for x in ids)
        tok = np.zeros((len(ids), length), dtype=np.int64)
        mask = np.zeros((len(ids), length), dtype=np.float32)
        for row, seq in enumerate(ids):
            tok[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1.0
        (out,) = self.session.run(["embeddings"], {"input_ids": tok, "attention_mask": mask})
        return np.asarray(out, dtype=np.float32)


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cosine of two stacks of vectors."""
    num = np.einsum("ij,ij->i", a, b)
    den = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    out: np.ndarray = num / np.maximum(den, 1e-12)
    return out


def cosine_summary(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    """min, 1st percentile and median cosine of two stacks."""
    c = cosines(a, b)
    return {
        "min": round(float(c.min()), 6),
        "p1": round(float(np.percentile(c, 1)), 6),
        "median": round(float(np.median(c)), 6),
    }


def dir_texts(cases: dict) -> list[str]:
    """Every distinct text the semantic selector encodes for one dir, in its order."""
    from recall_eval import build_memory_dir

    from memdir_nb.recall.dir_index import manifest_text, window_texts
    from memdir_nb.recall.semantic import SemanticSelector
    from memdir_nb.storage.scan import scan_memory_files

    with tempfile.TemporaryDirectory(prefix="encoder-int8-") as tmp:
        memory_dir = build_memory_dir(cases, Path(tmp) / "memory", now_ms=time.time() * 1000)
        headers = scan_memory_files(memory_dir)
        docs = SemanticSelector(cache_dir=Path(tmp) / "cache").dir_index().documents(headers)
        texts = [manifest_text(h) for h in headers]
        for header, doc in zip(headers, docs, strict=True):
            texts.extend(window_texts(header, doc.windows))
    return list(dict.fromkeys(texts))


def load_variant(files: ModelFiles, variant: str, workdir: Path, threads: int = 1) -> MiniLMEncoder:
    """The shipped numpy encoder ("numpy-fp32") or an ORT variant built under workdir."""
    if variant == "numpy-fp32":
        return MiniLMEncoder(files, verify=False)
    if variant not in VARIANTS:
        raise SystemExit(f"unknown variant {variant!r}; one of: numpy-fp32, {', '.join(VARIANTS)}")
    return OrtEncoder(files, build_variant(files, variant, workdir), variant, threads)


def check(files: ModelFiles, texts: Sequence[str], workdir: Path) -> dict[str, float]:
    """Cosine of the ONNX float32 graph's vectors against the numpy encoder's."""
    reference = MiniLMEncoder(files, verify=False).encode(texts)
    ort = load_variant(files, "ort-fp32", workdir).encode(texts)
    return {"texts": len(texts), **cosine_summary(ort, reference)}


# (label, variant, encode workers, ORT intra-op threads) timed in every round
SPEED_RUNS = (
    ("numpy fp32 (shipped)", "numpy-fp32", 2, 1),
    ("ORT fp32", "ort-fp32", 2, 1),
    ("ORT fp32, fused attention", "ort-fp32-fused", 2, 1),
    ("ORT int8 per channel", "int8-per-channel", 2, 1),
    ("ORT int8 per channel", "int8-per-channel", 1, 2),
    ("ORT int8 per channel, fused attention", "int8-pc-fused", 2, 1),
    ("ORT int8 per channel, fused attention", "int8-pc-fused", 1, 2),
    ("ORT int8 per channel, fused attention", "int8-pc-fused", 1, 1),
    ("ORT int8 per tensor", "int8", 2, 1),
    ("ORT uint8 weights per tensor", "uint8", 2, 1),
    ("ORT int8 per channel, down proj. fp32", "int8-pc-fp32-down", 2, 1),
)


def speed(
    files: ModelFiles, texts: Sequence[str], workdir: Path, rounds: int
) -> list[dict[str, Any]]:
    """Every SPEED_RUNS row timed `rounds` times (rows alternated), cosines against numpy's."""
    built: dict[str, float] = {}
    sizes: dict[str, float] = {}
    for _, variant, _, _ in SPEED_RUNS:  # graph (and quantised copy) written before timing loads
        if variant != "numpy-fp32" and variant not in built:
            t0 = time.perf_counter()
            path = build_variant(files, variant, workdir)
            built[variant] = time.perf_counter() - t0
            sizes[variant] = round(path.stat().st_size / 1e6, 1)
    encoders: dict[tuple[str, int], tuple[MiniLMEncoder, float]] = {}
    for _, variant, _, threads in SPEED_RUNS:
        if (variant, threads) not in encoders:
            t0 = time.perf_counter()
            enc = load_variant(files, variant, workdir, threads)
            encoders[variant, threads] = (enc, time.perf_counter() - t0)
    pieces = sum(len(ids) for ids in encoders["numpy-fp32", 1][0].token_ids(texts))
    times: dict[int, list[tuple[float, float]]] = {i: [] for i in range(len(SPEED_RUNS))}
    vectors: dict[str, np.ndarray] = {}
    loads = [os.getloadavg()[0]]
    for _ in range(rounds):
        for i, (_, variant, workers, threads) in enumerate(SPEED_RUNS):
            t0, c0 = time.perf_counter(), time.process_time()
            vectors[variant] = encoders[variant, threads][0].encode(texts, workers=workers)
            times[i].append((time.perf_counter() - t0, time.process_time() - c0))
            loads.append(os.getloadavg()[0])
    rows = []
    for i, (label, variant, workers, threads) in enumerate(SPEED_RUNS):
        walls = [w for w, _ in times[i]]
        rows.append(
            {
                "label": label,
                "variant": variant,
                "workers": workers,
                "intra_op_threads": threads,
                "texts": len(texts),
                "pieces": pieces,
                "wall_s": [round(w, 2) for w in walls],
                "cpu_s": [round(c, 2) for _, c in times[i]],
                "pieces_per_s": round(pieces / statistics.median(walls)),
                "build_s": round(built.get(variant, 0.0), 2),
                "load_s": round(encoders[variant, threads][1], 2),
                "cosine_vs_numpy": cosine_summary(vectors[variant], vectors["numpy-fp32"]),
                "model_file_mb": sizes.get(variant),
                "load_average": f"{min(loads):.1f}-{max(loads):.1f}",
            }
        )
    return rows


def quality(files: ModelFiles, corpus: Path, variants: Sequence[str], workdir: Path) -> str:
    """fit_selector's --report of the shipped decision on `corpus`, once per encoder variant.

    Each variant writes its vectors to its own fresh cache, so every text is encoded by it.
    """
    import fit_selector

    from memdir_nb.recall.decision import DecisionModel

    model = DecisionModel.load()
    out = []
    for variant in variants:
        encoder = load_variant(files, variant, workdir)
        with tempfile.TemporaryDirectory(prefix=f"encoder-int8-{variant}-") as cache:
            text = fit_selector.report(corpus, model, encoder=encoder, cache_dir=Path(cache))
        out.append(f"[{variant}] {text}")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one of check / speed / quality and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("check", "speed", "quality"))
    parser.add_argument("--corpus", default=str(REPO_ROOT / "benchmarks/data/recall_tune.json"))
    parser.add_argument("--corpus-dir", default="tune-21-en-200", help="speed: which dir")
    parser.add_argument("--texts", type=int, default=300, help="check: how many texts")
    parser.add_argument("--rounds", type=int, default=2, help="speed: rounds of every row")
    parser.add_argument(
        "--variant", action="append", default=[], help="quality: encoder variant(s)"
    )
    parser.add_argument("--workdir", help="where the .onnx files are built (default: a temp dir)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if "holdout" in Path(args.corpus).name and args.command != "quality":
        parser.error("the holdout corpus is only for one final quality report")
    files = locate_model()
    with tempfile.TemporaryDirectory(prefix="encoder-int8-") as tmp:
        workdir = Path(args.workdir) if args.workdir else Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        if args.command == "quality":
            variants = args.variant or ["numpy-fp32", "int8-per-channel"]
            print(quality(files, Path(args.corpus), variants, workdir))
            return 0
        from recall_speed import real_length_dir

        texts = dir_texts(real_length_dir(Path(args.corpus), args.corpus_dir))
        if args.command == "check":
            step = max(1, len(texts) // max(1, args.texts))  # spread over manifests and windows
            result: Any = check(files, texts[::step][: args.texts], workdir)
        else:
            result = speed(files, texts, workdir, args.rounds)
    if args.json or args.command == "check":
        print(json.dumps(result, indent=1))
    else:
        for row in result:
            print(
                f"{row['label']:<40} workers {row['workers']} threads {row['intra_op_threads']}: "
                f"wall {row['wall_s']} s, CPU {row['cpu_s']} s, {row['pieces_per_s']} pieces/s, "
                f"cosine vs numpy {row['cosine_vs_numpy']}, build {row['build_s']} s, "
                f"load {row['load_s']} s, "
                f"file {row['model_file_mb']} MB, load avg {row['load_average']}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
