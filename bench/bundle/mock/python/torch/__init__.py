"""A fake torch for `run.sh --mock`: the API peers.py uses, with torch 2.11's
signatures (a wrong argument raises TypeError as torch would), computing
in plain Python (_mock_array) on a fake "cuda" device."""

import math

from _mock_array import Array, DType, random_normal

float32 = DType("float32", "torch.")
float16 = DType("float16", "torch.")
bfloat16 = DType("bfloat16", "torch.")
float = float32  # noqa: A001 (torch.float)


class Tensor(Array):
    device = "cuda"

    def make(self, shape, data, dtype=None):
        dtype = dtype or self.dtype
        if not getattr(dtype, "prefix", ""):
            dtype = DType(dtype.name, "torch.")
        return Tensor(shape, data, dtype)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None,
                   copy=None):
        return self  # what the fake jax.dlpack.from_dlpack reads

    def __dlpack_device__(self):
        return (2, 0)  # kDLCUDA, device 0

    def detach(self):
        return self

    def cpu(self):
        return self

    def contiguous(self):
        return self

    def float(self):
        return self.astype(float32)

    def to(self, target):
        if isinstance(target, DType):
            return self.astype(target)
        if target not in ("cuda", "cpu"):
            raise TypeError("the mock knows devices cuda and cpu")
        return self

    def transpose(self, dim0, dim1):
        axes = list(range(self.ndim))
        axes[dim0], axes[dim1] = axes[dim1], axes[dim0]
        return self.permute_axes(axes)

    def numel(self):
        return self.size


def _check_device(device):
    if device not in (None, "cuda", "cpu"):
        raise TypeError("the mock knows devices cuda and cpu, not %r"
                        % (device,))


def _size(size):
    return tuple(size[0]) if len(size) == 1 and isinstance(
        size[0], (tuple, list)) else tuple(size)


class Generator:
    def __init__(self, device="cpu"):
        _check_device(device)
        self.seed = 0

    def manual_seed(self, seed):
        self.seed = int(seed)
        return self


def randn(*size, generator=None, out=None, dtype=None, layout=None,
          device=None, requires_grad=False, pin_memory=False):
    _check_device(device)
    shape = _size(size)
    return Tensor(shape, random_normal(shape, generator.seed if generator
                                       else 0), dtype or float32)


def empty(*size, out=None, dtype=None, layout=None, device=None,
          requires_grad=False, pin_memory=False, memory_format=None):
    # Not written yet: NaN, so that an output nobody writes fails its check.
    _check_device(device)
    shape = _size(size)
    return Tensor(shape, [math.nan] * math.prod(shape), dtype or float32)


def empty_like(input, *, dtype=None, layout=None, device=None,
               requires_grad=False, memory_format=None):
    return empty(input.shape, dtype=dtype or input.dtype)


def _into(out, value):
    if out is None:
        return value
    if out.shape != value.shape:
        raise RuntimeError("out has shape %s, the result %s"
                           % (out.shape, value.shape))
    out.data = list(value.astype(out.dtype).data)
    return out


def add(input, other, *, alpha=1, out=None):
    return _into(out, input + other * alpha)


def sum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    return _into(out, input.reduce(math.fsum, dim, keepdim))


def softmax(input, dim, dtype=None):
    from _mock_array import softmax_last
    if dim not in (-1, input.ndim - 1):
        raise NotImplementedError("the mock's softmax is over the last dim")
    return softmax_last(input)


def matmul(input, other, *, out=None):
    if input.ndim != 2 or other.ndim != 2:
        raise NotImplementedError("the mock multiplies 2-D tensors")
    if input.dtype != other.dtype:
        raise RuntimeError("expected both matmul operands to have the same "
                           "dtype, but got %s and %s" % (input.dtype,
                                                         other.dtype))
    return _into(out, input.matmul(other))


from . import cuda  # noqa: E402
from . import nn  # noqa: E402
