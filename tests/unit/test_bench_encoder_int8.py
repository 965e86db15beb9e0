"""benchmarks/encoder_int8.py: the ONNX graph is the numpy encoder's forward pass, its int8 copy
quantises exactly the weight products, and the quality report runs on the variant's vectors.

onnx and onnxruntime are not dependencies of the project: without them these tests skip.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memdir_nb.recall.embedding import MiniLMEncoder
from memdir_nb.recall.model_files import ModelFiles, ModelUnavailable, locate_model
from tests.support.benchmarks import GARDEN_MEMORIES, GARDEN_WATER_QUERY

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

import encoder_int8  # noqa: E402  (after the skips: it is only usable with onnx installed)


def _files() -> ModelFiles:
    try:
        return locate_model()
    except ModelUnavailable as err:
        pytest.skip(f"the embedding model is not installed: {err}")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One build of the graphs for the whole file (each takes about a second)."""
    return tmp_path_factory.mktemp("onnx")


# Texts of very different lengths in one batch, so padding and the mask matter, and one
# longer than the model's 256 word pieces, so truncation matters too.
TEXTS = [
    "Deploys go out on Tuesdays.",
    "The tomato beds get two litres each at dawn; mulch went down in May and the slugs left.",
    "Releases are tagged vYEAR.MONTH.N by the release script, never by hand. " * 2,
    "Die Datenbank wird jede Nacht um zwei Uhr gesichert.",
    "word " * 400,
    "ok",
]


def _numpy(files: ModelFiles) -> np.ndarray:
    return MiniLMEncoder(files, verify=False).encode(TEXTS, batch_size=len(TEXTS), workers=1)


def _ops(path: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    for node in onnx.load(str(path)).graph.node:
        counts[node.op_type] = counts.get(node.op_type, 0) + 1
    return counts


@pytest.mark.parametrize("variant", ["ort-fp32", "ort-fp32-fused"])
def test_the_float32_graph_gives_the_numpy_encoders_vectors(workdir: Path, variant: str) -> None:
    files = _files()
    encoder = encoder_int8.load_variant(files, variant, workdir)
    got = encoder.encode(TEXTS, batch_size=len(TEXTS), workers=1)
    assert got.shape == (len(TEXTS), 384)
    cos = encoder_int8.cosines(got, _numpy(files))
    assert cos.min() >= 0.9999, cos
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_a_text_alone_and_in_a_padded_batch_get_the_same_vector(workdir: Path) -> None:
    encoder = encoder_int8.load_variant(_files(), "ort-fp32", workdir)
    alone = encoder.encode(TEXTS[:1])
    batched = encoder.encode(TEXTS, batch_size=len(TEXTS), workers=1)
    assert float(alone[0] @ batched[0]) >= 0.99999


def test_int8_quantises_the_24_weight_products_and_leaves_attention_in_float32(
    workdir: Path,
) -> None:
    files = _files()
    path = encoder_int8.build_variant(files, "int8-per-channel", workdir)
    ops = _ops(path)
    assert ops["MatMulInteger"] == 24  # QKV, output, up, down in each of 6 layers
    assert ops["MatMul"] == 12  # q @ k.T and probs @ v, left as they were
    kept = _ops(encoder_int8.build_variant(files, "int8-pc-fp32-down", workdir))
    assert kept["MatMulInteger"] == 18
    assert kept["MatMul"] == 18
    fused = _ops(encoder_int8.build_variant(files, "int8-pc-fused", workdir))
    assert fused["QAttention"] == 6  # the QKV product in int8 inside onnxruntime's attention
    assert fused["MatMulInteger"] == 18
    assert "MatMul" not in fused


def test_int8_vectors_stay_close_to_float32_but_are_not_the_same(workdir: Path) -> None:
    files = _files()
    encoder = encoder_int8.load_variant(files, "int8-per-channel", workdir)
    got = encoder.encode(TEXTS, batch_size=len(TEXTS), workers=1)
    cos = encoder_int8.cosines(got, _numpy(files))
    assert cos.min() >= 0.95, cos
    assert cos.max() < 0.99999, cos  # int8 really changes the vectors
    # the selector's vector cache keys on weights_sha256: a variant's vectors never mix in
    assert encoder.weights_sha256 != MiniLMEncoder(files, verify=False).weights_sha256


def test_an_unknown_variant_is_refused_by_name(workdir: Path) -> None:
    with pytest.raises(SystemExit, match="unknown variant 'int4'"):
        encoder_int8.load_variant(_files(), "int4", workdir)


# Two small dirs in our own words.
CASES: dict[str, Any] = {
    "dirs": [
        {
            "id": "garden",
            "memories": GARDEN_MEMORIES,
            "queries": [
                GARDEN_WATER_QUERY,
                {"id": "g2", "query": "Best pizza in Naples?", "relevant": [], "kind": "none"},
            ],
        }
    ]
}


def test_dir_texts_are_the_texts_the_selector_encodes(tmp_path: Path) -> None:
    from recall_eval import build_memory_dir

    from memdir_nb.recall.semantic import SemanticSelector
    from memdir_nb.storage.scan import scan_memory_files

    cases = CASES["dirs"][0]
    texts = encoder_int8.dir_texts(cases)
    assert "Tomato beds. How the tomato beds are watered" in texts
    assert any(t.endswith("Mulch went down in May.") for t in texts)
    memory_dir = build_memory_dir(cases, tmp_path / "memory", now_ms=time.time() * 1000)
    selector = SemanticSelector(cache_dir=tmp_path / "cache", progress=False)
    selector.select("warm up", scan_memory_files(memory_dir))
    assert selector.encoded_last_call == len(texts)


def test_the_quality_report_scores_each_variants_vectors(tmp_path: Path, workdir: Path) -> None:
    corpus = tmp_path / "tiny.json"
    corpus.write_text(json.dumps(CASES), encoding="utf-8")
    text = encoder_int8.quality(_files(), corpus, ["numpy-fp32", "int8-per-channel"], workdir)
    blocks = [line for line in text.splitlines() if line.startswith("[")]
    assert [b.split("]")[0] for b in blocks] == ["[numpy-fp32", "[int8-per-channel"]
    assert text.count("kind direct") == 2
    assert text.count("kind none") == 2


def test_speed_and_check_refuse_the_holdout_corpus(tmp_path: Path) -> None:
    holdout = tmp_path / "recall_holdout.json"
    holdout.write_text(json.dumps(CASES), encoding="utf-8")
    for command in ("speed", "check"):
        with pytest.raises(SystemExit):
            encoder_int8.main([command, "--corpus", str(holdout)])


def test_speed_times_every_row_and_compares_each_variant_with_numpy(workdir: Path) -> None:
    rows = encoder_int8.speed(_files(), TEXTS[:3], workdir, rounds=2)
    assert [(r["variant"], r["workers"]) for r in rows] == [
        (v, w) for _, v, w, _ in encoder_int8.SPEED_RUNS
    ]
    by_variant = {r["variant"]: r for r in rows}
    assert all(len(r["wall_s"]) == len(r["cpu_s"]) == 2 for r in rows)
    assert by_variant["numpy-fp32"]["cosine_vs_numpy"]["min"] == 1.0
    assert by_variant["ort-fp32"]["cosine_vs_numpy"]["min"] >= 0.9999
    assert by_variant["int8-per-channel"]["cosine_vs_numpy"]["min"] < 0.99999
    # int8 weights are a quarter of float32's; the float32 word-embedding table stays as it was
    assert by_variant["int8-per-channel"]["model_file_mb"] < by_variant["ort-fp32"]["model_file_mb"]
