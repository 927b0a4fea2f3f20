"""jax.experimental.pallas of the fake JAX: pallas_call with JAX 0.11's
signature (jax/_src/pallas/pallas_call.py:1130; no `backend` since 0.9.1),
run by interpreting the kernel over its grid, for the Mosaic GPU backend
only (compiler_params=plgpu.CompilerParams()), with its limits: blocks in
shared memory fit in 227 KiB (copied in and out whole), GMEM blocks are
whole arrays (jax/_src/pallas/mosaic_gpu/lowering.py:715-725), and
reductions in the kernel are over all axes (jax.numpy's fake)."""

import itertools
import math

from _mock_array import DType

from jax import JaxArray
from jax import numpy as _jnp

SMEM_BYTES = 227 * 1024  # an H100 / H200 CTA's shared memory
_program_ids = []


class BlockSpec:
    # jax/_src/pallas/core.py:559
    def __init__(self, block_shape=None, index_map=None, *,
                 memory_space=None, pipeline_mode=None):
        self.block_shape, self.index_map = block_shape, index_map
        self.memory_space, self.pipeline_mode = memory_space, pipeline_mode


class _NoBlockSpec:
    pass


no_block_spec = _NoBlockSpec()


def program_id(axis):
    return _program_ids[axis]


class _Ref:
    """A kernel's reference: reads copy, writes store."""

    def __init__(self, array):
        self.array = array
        self.shape, self.dtype = array.shape, array.dtype

    def __getitem__(self, index):
        return self.array[index]

    def __setitem__(self, index, value):
        self.array[index] = value


def _leaves(tree):
    return list(tree) if isinstance(tree, (list, tuple)) else [tree]


def _window(spec, shape, ids):
    """The index of a block of `shape` for program `ids`, and its shape."""
    if spec.block_shape is None:
        return (Ellipsis,), shape
    if len(spec.block_shape) != len(shape):
        raise ValueError("block shape %s for an array of shape %s"
                         % (spec.block_shape, shape))
    blocks = spec.index_map(*ids)
    index, block = [], []
    for b, size, dim in zip(blocks, spec.block_shape, shape):
        if size is None:  # squeezed
            index.append(b)
            continue
        if dim % size:
            raise NotImplementedError("a block of %d along a dimension of %d"
                                      % (size, dim))
        index.append(slice(b * size, (b + 1) * size))
        block.append(size)
    return tuple(index), tuple(block)


def pallas_call(kernel, out_shape, *, grid_spec=None, grid=(),
                in_specs=no_block_spec, out_specs=no_block_spec,
                scratch_shapes=(), input_output_aliases={}, debug=False,
                interpret=False, name=None, compiler_params=None,
                cost_estimate=None, metadata=None):
    from .mosaic_gpu import CompilerParams, GMEM
    if not isinstance(compiler_params, CompilerParams):
        raise NotImplementedError(
            "the mock models Pallas's Mosaic GPU backend only: pass "
            "compiler_params=plgpu.CompilerParams()")
    grid = (grid,) if isinstance(grid, int) else tuple(grid)
    outs = _leaves(out_shape)

    def call(*args):
        for arg in args:
            if not isinstance(arg, JaxArray):
                raise TypeError("pallas_call takes JAX arrays, got %s"
                                % type(arg))
        ins_specs = [BlockSpec()] * len(args) if in_specs is no_block_spec \
            else _leaves(in_specs)
        outs_specs = [BlockSpec()] * len(outs) if out_specs is no_block_spec \
            else _leaves(out_specs)
        if len(ins_specs) != len(args) or len(outs_specs) != len(outs):
            raise ValueError("in_specs/out_specs do not match the operands")
        results = [JaxArray(o.shape, [math.nan] * math.prod(o.shape),
                            DType(o.dtype.name)) for o in outs]
        arrays = list(args) + results
        specs = ins_specs + outs_specs
        smem = 0
        for spec, array in zip(specs, arrays):
            if spec.memory_space == GMEM:
                if spec.block_shape is not None or spec.index_map is not None:
                    raise NotImplementedError(
                        "Mosaic GPU lowering currently requires blocks in "
                        "GMEM memory space to have same block shape as the "
                        "array shape and a trivial index_map")
            else:
                _, block = _window(spec, array.shape, (0,) * len(grid))
                smem += math.prod(block) * array.dtype.itemsize
        if smem > SMEM_BYTES:
            raise ValueError("the kernel's blocks need %d bytes, which "
                             "exceeds available shared memory (%d)"
                             % (smem, SMEM_BYTES))
        for ids in itertools.product(*map(range, grid)):
            _program_ids[:] = ids
            refs, copies = [], []
            for spec, array in zip(specs, arrays):
                if spec.memory_space == GMEM:
                    refs.append(_Ref(array))
                    continue
                index, _ = _window(spec, array.shape, ids)
                block = array[index]
                refs.append(_Ref(block))
                copies.append((array, index, block))
            _jnp._kernel["mosaic_gpu"] = True
            try:
                kernel(*refs)
            finally:
                _jnp._kernel["mosaic_gpu"] = False
            for array, index, block in copies[len(args):]:
                array[index] = block
        return results[0] if not isinstance(out_shape, (list, tuple)) \
            else type(out_shape)(results)
    return call
