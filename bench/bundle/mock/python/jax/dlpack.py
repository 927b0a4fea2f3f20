"""jax.dlpack of the fake JAX."""

from _mock_array import DType

from . import JaxArray


def from_dlpack(external_array, device=None, copy=None):
    # jax/_src/dlpack.py:200
    if not hasattr(external_array, "__dlpack__"):
        raise TypeError("from_dlpack takes an object with __dlpack__, got %s"
                        % type(external_array))
    source = external_array.__dlpack__()
    return JaxArray(source.shape, source.data, DType(source.dtype.name))
