"""jax.numpy of the fake JAX. Inside a Pallas kernel that the fake
pallas_call interprets for Mosaic GPU, reductions over some but not all
axes of an array raise, as Mosaic GPU's default layout supports only
reductions over all axes (jax/_src/pallas/mosaic_gpu/lowering.py:3210)."""

import builtins
import math

from _mock_array import DType

from . import JaxArray

float32 = DType("float32")
float16 = DType("float16")
bfloat16 = DType("bfloat16")

_kernel = {"mosaic_gpu": False}  # set by the fake pallas_call


def _array(x):
    if isinstance(x, JaxArray):
        return x
    return JaxArray((), [builtins.float(x)], float32)


def _reduce(function, a, axis, keepdims):
    a = _array(a)
    if _kernel["mosaic_gpu"] and axis is not None and a.ndim > 1:
        axes = {d % a.ndim for d in (axis if isinstance(axis, (tuple, list))
                                     else (axis,))}
        if axes != set(range(a.ndim)):
            raise NotImplementedError("No support for axes yet")
    return a.reduce(function, axis, keepdims)


def add(x, y, /):
    return _array(x) + y


def exp(x, /):
    return _array(x).map(math.exp)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
        where=None, promote_integers=True):
    return _reduce(math.fsum, a, axis, keepdims)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    return _reduce(builtins.max, a, axis, keepdims)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None,
         upcast_f16_for_computation=True):
    return _reduce(lambda v: math.fsum(v) / len(v), a, axis, keepdims)


def dot(a, b, *, precision=None, preferred_element_type=None,
        out_sharding=None):
    if a.dtype != b.dtype and preferred_element_type is None:
        raise TypeError("dot of %s and %s" % (a.dtype, b.dtype))
    return a.matmul(b, preferred_element_type or a.dtype)
