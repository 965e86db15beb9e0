"""The prepared layer matrices kept beside the verification record (recall/model_files.py)."""

from __future__ import annotations

import json
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from memdir_nb.recall.embedding import MiniLMEncoder, load_encoder
from memdir_nb.recall.model_files import (
    ModelUnavailable,
    locate_model,
    map_prepared,
    map_safetensors,
    prepared_path,
    store_prepared,
    verified_record_path,
    verify_model_files,
)

TEXTS = ["water the tomatoes every other morning", "deploys go out on weekdays"]


def _encoder(record: Path | None) -> MiniLMEncoder:
    return MiniLMEncoder(locate_model(), verify=False, record=record)  # hashing tested elsewhere


def _matrices(encoder: MiniLMEncoder) -> list[np.ndarray]:
    return [
        m for layer in encoder.layers for m in (layer.qkv_w, layer.out_w, layer.up_w, layer.down_w)
    ]


def _floats(encoder: MiniLMEncoder) -> int:
    return sum(m.size for m in _matrices(encoder))


def _same_layers(encoder: MiniLMEncoder) -> bool:
    """The encoder's matrices equal, bit for bit, those of the process's shared encoder."""
    return all(
        np.array_equal(a, b)
        for a, b in zip(_matrices(load_encoder()), _matrices(encoder), strict=True)
    )


def test_the_next_encoder_maps_the_stored_layers_and_gives_the_same_vectors(
    tmp_path: Path,
) -> None:
    record = verified_record_path(tmp_path / "cache")
    first = _encoder(record)  # makes the matrices from the weights and stores them
    count = _floats(first)
    assert prepared_path(record).stat().st_size == count * 4
    mapped = map_prepared(record, count)
    assert mapped is not None
    assert first.layers[0].qkv_w.flags.writeable  # made in memory
    second = _encoder(record)
    assert not second.layers[0].qkv_w.flags.writeable  # mapped read-only from the file
    assert _same_layers(second)
    assert np.array_equal(load_encoder().encode(TEXTS), second.encode(TEXTS))


def test_a_rewritten_prepared_file_is_made_again_not_mapped(tmp_path: Path) -> None:
    record = verified_record_path(tmp_path / "cache")
    count = _floats(_encoder(record))
    path = prepared_path(record)
    path.write_bytes(bytes(count * 4))  # the same size, all zeros: its identity moved
    assert map_prepared(record, count) is None
    again = _encoder(record)
    assert again.layers[0].qkv_w.flags.writeable and _same_layers(again)
    assert map_prepared(record, count) is not None  # stored again, and vouched for


def test_a_fifo_or_a_wrong_size_is_not_mapped_and_does_not_block(tmp_path: Path) -> None:
    record = verified_record_path(tmp_path / "cache")
    count = _floats(_encoder(record))
    assert map_prepared(record, count + 1) is None  # the record vouches, the size does not fit
    path = prepared_path(record)
    path.unlink()
    os.mkfifo(path)
    entry = json.loads(record.read_text(encoding="utf-8"))
    entry[str(path)]["identity"] = [0, 0, 0, 0, 0]
    record.write_text(json.dumps(entry), encoding="utf-8")
    assert map_prepared(record, count) is None


def test_an_unwritable_cache_only_means_making_the_layers_again(tmp_path: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache folder should be", encoding="utf-8")
    record = verified_record_path(blocker)
    assert store_prepared(record, np.zeros(4, np.float32)) is False
    assert _same_layers(_encoder(record))


def test_a_dense_safetensors_header_is_refused_by_its_value_cap(tmp_path: Path) -> None:
    # §44: the header's cap is its own length, so a dense header made 28x it in lists
    header = ('{"a": [' + ",".join(["[]"] * 10_000) + "]}").encode()
    path = tmp_path / "model.safetensors"
    path.write_bytes(len(header).to_bytes(8, "little") + header)
    with pytest.raises(ModelUnavailable, match=r"unreadable header \(safetensors header holds up"):
        map_safetensors(path)
    assert map_safetensors(locate_model().directory / "model.safetensors")  # the real one parses


def test_a_verification_record_the_value_cap_refuses_is_named_with_why_once_then_rewritten(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # lefts36: a record under its 64 KiB cap but over its value cap was dropped quietly (every
    # load hashed the model's files again and wrote the record over it, with no word)
    record = verified_record_path(tmp_path / "cache")
    record.parent.mkdir()
    record.write_text('{"a": [' + "0," * 20_000 + "0]}", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="memdir_nb.recall.model_files"):
        assert verify_model_files(locate_model(), record) == 2
        record.write_text('{"a": [' + "0," * 20_000 + "0]}", encoding="utf-8")
        assert verify_model_files(locate_model(), record) == 2  # the same words: said once
    (said,) = [r.getMessage() for r in caplog.records]
    assert said.startswith(f"{record}: the model verification record was dropped (")
    assert "over the limit of 16,384" in said and "hashed again" in said
    assert verify_model_files(locate_model(), record) == 0  # written anew, and read
    caplog.clear()
    (tmp_path / "missing").mkdir()  # a record not made yet is no record dropped
    assert verify_model_files(locate_model(), verified_record_path(tmp_path / "missing")) == 2
    assert caplog.records == []


def test_two_threads_storing_the_prepared_floats_at_once_each_write_a_whole_file(
    tmp_path: Path,
) -> None:
    # Both threads used `.<name>.<pid>.tmp`: one removed the other's half-written temp file and
    # renamed its own over it, so a store failed (False) or left a file of neither array.
    record = verified_record_path(tmp_path)
    count = 1 << 20  # 4 MB of floats: long enough that the two writes overlap
    arrays = [np.full(count, float(n), dtype="<f4") for n in (1, 2)]

    def store(n: int) -> list[bool]:
        return [store_prepared(record, arrays[n]) for _ in range(12)]

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(store, (0, 1)))
    assert all(all(r) for r in results), results
    final = np.fromfile(prepared_path(record), dtype="<f4")
    assert final.shape == (count,) and float(final[0]) == float(final[-1]) in (1.0, 2.0)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == []
