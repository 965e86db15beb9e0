"""The forward pass's steps between products, run a block of rows at a time, give each row the
values the same steps give over the whole array, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from memdir_nb.recall.encoder_steps import (
    ROW_BLOCK,
    bias_gelu_rows,
    finish_rows,
    gelu_into,
    layer_norm,
    softmax_rows,
)

ROW_COUNTS = [1, 3, ROW_BLOCK - 1, ROW_BLOCK, ROW_BLOCK + 1, 3 * ROW_BLOCK + 5]


def _random(rows: int, cols: int, seed: int, scale: float = 3.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((rows, cols)) * scale).astype(np.float32)


@pytest.mark.parametrize("rows", ROW_COUNTS)
def test_bias_and_gelu_by_blocks_equal_the_whole_array_bit_for_bit(rows: int) -> None:
    h = _random(rows, 1536, rows)
    bias = _random(1, 1536, 99)[0]
    whole = h + bias
    with np.errstate(over="ignore"):
        gelu_into(whole, np.empty_like(whole))
        bias_gelu_rows(h, bias)
    assert np.array_equal(h, whole)


@pytest.mark.parametrize("rows", ROW_COUNTS)
def test_bias_residual_and_layer_norm_by_blocks_equal_the_whole_array_bit_for_bit(
    rows: int,
) -> None:
    y = _random(rows, 384, rows)
    residual = _random(rows, 384, rows + 1000)
    bias, weight, ln_bias = (_random(1, 384, s)[0] for s in (1, 2, 3))
    whole = y + bias
    whole += residual
    layer_norm(whole, weight, ln_bias, 1e-12)
    finish_rows(y, bias, residual, weight, ln_bias, 1e-12)
    assert np.array_equal(y, whole)


def test_the_residual_is_read_not_written() -> None:
    y = _random(2 * ROW_BLOCK + 3, 384, 5)
    residual = _random(2 * ROW_BLOCK + 3, 384, 6)
    kept = residual.copy()
    ones, zeros = np.ones(384, np.float32), np.zeros(384, np.float32)
    finish_rows(y, zeros, residual, ones, zeros, 1e-12)
    assert np.array_equal(residual, kept)


def test_softmax_of_one_sequence_equals_its_rows_in_a_whole_batch() -> None:
    # attention now runs one sequence's (heads, L, L) scores at a time
    batch = _random(5 * 12 * 9, 9, 11).reshape(5, 12, 9, 9)
    whole = batch.copy()
    softmax_rows(whole)
    for b in range(5):
        one = batch[b].copy()
        softmax_rows(one)
        assert np.array_equal(one, whole[b])
    assert np.allclose(whole.sum(axis=-1), 1.0, atol=1e-6)
