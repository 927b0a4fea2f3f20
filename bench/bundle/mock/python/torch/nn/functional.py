"""torch.nn.functional of the fake torch."""

import math

from _mock_array import attention


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    if tuple(normalized_shape) != input.shape[-1:]:
        raise NotImplementedError("the mock normalizes over the last dim")
    mean = input.reduce(math.fsum, -1, True) / input.shape[-1]
    d = input - mean
    var = (d * d).reduce(math.fsum, -1, True) / input.shape[-1]
    return d * (var + eps).map(lambda v: 1 / math.sqrt(v))


def scaled_dot_product_attention(query, key, value, attn_mask=None,
                                 dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    # [batch, heads, seq, dim], as torch's
    if query.ndim != 4:
        raise NotImplementedError("the mock attends 4-D tensors")
    scale = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    layout = [0, 2, 1, 3]
    out = attention(*(t.permute_axes(layout) for t in (query, key, value)),
                    scale, query.dtype)
    return out.permute_axes(layout)
