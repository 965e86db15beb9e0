"""The steps of the encoder's forward pass between its products: bias, GELU, residual, layer norm, softmax.

Each step works per element or per row, so it can run on a block of rows at a time and give
each row exactly the values it gets over the whole array. The feed-forward's and attention
output's steps run ROW_BLOCK rows at a time, on arrays that stay in a core's cache; over a
batch's whole (up to 1,024 x 1,536) array each step was a pass through L3 or memory. The products
themselves stay whole-batch (embedding.py): OpenBLAS packs a weight matrix once per call, so
one call over all rows costs least.
"""

from __future__ import annotations

import numpy as np

# Rows finished at a time: 64 rows of the feed-forward's 1,536 columns and GELU's scratch are
# 0.8 MB, inside a core's L2 cache. Measured on 220 of the tuning dir's texts, one thread: 32 to
# 256 rows cost the same, the whole array 5-10% more CPU (docs/performance.md, "Forty-first
# session (encode41)").
ROW_BLOCK = 64


def affine(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """x @ weight + bias with one new array (the bias added in place)."""
    out: np.ndarray = x @ weight
    out += bias
    return out


def gelu_into(x: np.ndarray, scratch: np.ndarray) -> None:
    """GELU in its tanh form, 0.5·x·(1 + tanh(z)) with z = sqrt(2/pi)·(x + 0.044715·x³), written
    over x; `scratch` (x's shape) is its one temporary.

    Computed as x / (1 + exp(-2z)), the same function (1 + tanh(z) = 2 / (1 + exp(-2z))), with
    two fewer array operations than the tanh form. Both forms are within 5e-7 of the float64
    value. Where exp(-2z) overflows (x below about -10), x / inf gives the form's limit, -0.0,
    as 0.5·x·(1 + tanh(z)) does; the pass runs with overflow warnings off.

    BERT defines GELU with erf; the tanh form differs by at most about 5e-4 per activation and
    runs several times faster in numpy (one vectorised exp instead of erf's polynomial and exp).
    The end-to-end embeddings still agree with sentence-transformers' to a cosine above 0.9999
    (tests/unit/test_recall_embedding.py).
    """
    y = scratch
    np.multiply(x, x, out=y)
    y *= np.float32(-2.0 * 0.7978845608028654 * 0.044715)  # -2 · sqrt(2 / pi) · 0.044715
    y += np.float32(-2.0 * 0.7978845608028654)
    y *= x  # -2z
    np.exp(y, out=y)
    y += np.float32(1.0)
    np.divide(x, y, out=x)


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    """Layer norm over the rows of a 2-D float32 array, in place (x is overwritten and returned)."""
    mean = np.add.reduce(x, axis=-1, keepdims=True)  # x.mean's sum and division, without
    mean /= np.float32(x.shape[-1])  # its Python wrapper (13 calls a pass)
    x -= mean
    var = np.einsum("ij,ij->i", x, x)
    var *= np.float32(1.0 / x.shape[-1])
    var += np.float32(eps)
    np.sqrt(var, out=var)
    np.reciprocal(var, out=var)
    x *= var[:, None]
    x *= weight
    x += bias
    return x


def softmax_rows(scores: np.ndarray) -> None:
    """Softmax over the last axis, in place (ndarray.max and .sum are these two reductions
    behind a Python wrapper)."""
    scores -= np.maximum.reduce(scores, axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= np.add.reduce(scores, axis=-1, keepdims=True)


def bias_gelu_rows(h: np.ndarray, bias: np.ndarray) -> None:
    """h += bias, then GELU, in place, ROW_BLOCK rows at a time (the feed-forward's middle)."""
    scratch = np.empty((min(ROW_BLOCK, h.shape[0]), h.shape[1]), dtype=h.dtype)
    for start in range(0, h.shape[0], ROW_BLOCK):
        block = h[start : start + ROW_BLOCK]
        block += bias
        gelu_into(block, scratch[: block.shape[0]])


def finish_rows(
    y: np.ndarray,
    bias: np.ndarray,
    residual: np.ndarray,
    weight: np.ndarray,
    ln_bias: np.ndarray,
    eps: float,
) -> None:
    """y += bias; y += residual; layer norm of y (weight, ln_bias), in place, ROW_BLOCK rows at a
    time: what follows the attention output's and the feed-forward's down product."""
    for start in range(0, y.shape[0], ROW_BLOCK):
        block = y[start : start + ROW_BLOCK]
        block += bias
        block += residual[start : start + ROW_BLOCK]
        layer_norm(block, weight, ln_bias, eps)
