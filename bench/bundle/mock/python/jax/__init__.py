"""A fake JAX 0.11 for `run.sh --mock`: the API peers.py uses, with the
signatures of jax-v0.11.0's sources (a removed or misspelt argument raises
TypeError as JAX would), computing in plain Python (_mock_array).
jax.experimental.pallas interprets a Pallas kernel over its grid and
enforces the Mosaic GPU limits the issue names (shared memory, the axes of
a reduction, whole-array GMEM blocks); the ops modules mirror the
signatures and preconditions of JAX's Hopper kernels."""

import functools
import numbers

from _mock_array import Array, DType


class JaxArray(Array):
    def make(self, shape, data, dtype=None):
        dtype = dtype or self.dtype
        return JaxArray(shape, data, DType(dtype.name))

    def transpose(self, *axes):
        axes = list(axes[0] if len(axes) == 1 and isinstance(
            axes[0], (tuple, list)) else axes) or list(
                reversed(range(self.ndim)))
        return self.permute_axes(axes)

    def block_until_ready(self):
        return self


class ShapeDtypeStruct:
    # jax/_src/core.py:3884
    def __init__(self, shape, dtype, *, sharding=None, weak_type=False,
                 vma=None, is_ref=None):
        self.shape, self.dtype = tuple(shape), dtype


def _check_argument(value, where):
    if value is None or isinstance(value, (JaxArray, numbers.Number)):
        return
    if isinstance(value, (tuple, list)):
        for item in value:
            _check_argument(item, where)
        return
    raise TypeError("Argument '%s' of type %s is not a valid JAX type"
                    % (where, type(value)))


class _NotSpecified:
    pass


def jit(fun=_NotSpecified(), /, *, in_shardings=None, out_shardings=None,
        static_argnums=None, static_argnames=None, donate_argnums=None,
        donate_argnames=None, keep_unused=False, device=None, backend=None,
        inline=False, compiler_options=None):
    # jax/_src/api.py (the definition after the overloads)
    if isinstance(fun, _NotSpecified):
        return functools.partial(jit, static_argnums=static_argnums,
                                 static_argnames=static_argnames)
    static = set(static_argnames or ())

    @functools.wraps(fun)
    def jitted(*args, **kwargs):
        for i, value in enumerate(args):
            _check_argument(value, "args[%d]" % i)
        for name, value in kwargs.items():
            if name not in static:
                _check_argument(value, name)
        return fun(*args, **kwargs)
    return jitted


def block_until_ready(x):
    return x


def device_get(x):
    return x


def devices(backend=None):
    return ["mock gpu"]


from . import numpy  # noqa: E402,F401
from . import lax  # noqa: E402,F401
from . import nn  # noqa: E402,F401
from . import dlpack  # noqa: E402,F401