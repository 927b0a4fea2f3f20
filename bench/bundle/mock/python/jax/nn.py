"""jax.nn of the fake JAX."""

import math

from _mock_array import attention, softmax_last


def softmax(x, axis=-1, where=None):
    if axis not in (-1, x.ndim - 1):
        raise NotImplementedError("the mock's softmax is over the last axis")
    return softmax_last(x)


def dot_product_attention(query, key, value, bias=None, mask=None, *,
                          scale=None, is_causal=False, query_seq_lengths=None,
                          key_value_seq_lengths=None, local_window_size=None,
                          implementation=None, return_residual=False):
    # jax/_src/nn/functions.py: [batch, seq, heads, dim] operands
    if query.ndim != 4:
        raise ValueError("the mock attends [B, T, N, H] arrays")
    scale = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    return attention(query, key, value, scale, query.dtype)
