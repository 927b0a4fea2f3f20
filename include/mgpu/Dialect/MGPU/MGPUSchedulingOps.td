//===- MGPUSchedulingOps.td - Persistent kernels over tiles -*- tablegen -*-===//
//
// Persistent scheduling (SPEC section 8): a fixed number of programs walk a
// grid of tiles larger than the launch, JAX's `plgpu.nd_loop`, in an order
// that keeps neighbouring tiles together, JAX's `planar_snake`
// (jax/_src/pallas/mosaic_gpu/helpers.py). Both become plain loops and
// index arithmetic in --mgpu-expand-pipelines, before the backends split,
// so every backend runs them the same way.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUSCHEDULINGOPS_TD
#define MGPU_DIALECT_MGPU_MGPUSCHEDULINGOPS_TD

include "mgpu/Dialect/MGPU/MGPUTypes.td"

def MGPU_NdLoopOp : MGPU_Op<"nd_loop", [
    AttrSizedOperandSegments,
    SingleBlockImplicitTerminator<"YieldOp">,
    RecursiveMemoryEffects]> {
  let summary = "a loop over a grid of tiles spread over the programs";
  let description = [{
    JAX's `plgpu.nd_loop(grid, collective_axes=...)`: the points of `grid`
    (row-major, the last index innermost) are dealt to the programs along
    `collective_axes` (their linear index, the first axis outermost, as
    `lax.axis_index` of several axes) in turn: program `p` of `P` runs the
    body for the linear steps `p`, `p + P`, `p + 2P`, ... below the grid's
    size, so some programs run one step fewer when `P` does not divide it.
    The body's arguments are the point's indices, one per grid dimension,
    then the local step (0, 1, ... in this program: JAX's `local_index`),
    then the carried values: with `init_carry` (JAX's `init_carry`), the
    body receives the previous step's carry (the initial values at this
    program's first step), yields the next one (`mgpu.yield %c : T`), and
    the loop returns this program's last (the initial values where the
    program runs no step).

    With `tiling [t0, ..]` the grid is walked tile by tile: the linear
    step is unravelled over the grid of tiles then the tile, and the
    indices recombined (`tile index * t + index in the tile`), so
    consecutive steps stay inside a tile. Each `t` divides its grid size.

    The grid sizes are index values (static or not); the collective axes
    are axes of the kernel's mesh (grid, cluster or thread axes).
    --mgpu-expand-pipelines makes it an `scf.for` over the local steps.

    ```mlir
    mgpu.nd_loop [%m_tiles, %n_tiles] collective_axes ["sm"] {
    ^bb0(%i: index, %j: index, %step: index):
      ...
    }
    %steps = mgpu.nd_loop [%n] collective_axes ["sm"] init_carry(%c0 : i32)
        -> i32 {
    ^bb0(%i: index, %step: index, %count: i32):
      %next = arith.addi %count, %c1 : i32
      mgpu.yield %next : i32
    }
    ```
  }];
  let arguments = (ins Variadic<Index>:$grid, StrArrayAttr:$collective_axes,
                       OptionalAttr<DenseI64ArrayAttr>:$tiling,
                       Variadic<AnyType>:$init_carry);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    ` ` `[` $grid `]` `collective_axes` $collective_axes (`tiling` $tiling^)?
    (`init_carry` `(` $init_carry^ `:` type($init_carry) `)`)?
    (`->` type($results)^)?
    attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
}

def MGPU_PlanarSnakeOp : MGPU_Op<"planar_snake", [Pure]> {
  let summary = "a linear index to 2-d indices in planar snake order";
  let description = [{
    JAX's `planar_snake(lin_idx, shape, minor_dim, tile_width)`: the
    indices into `shape` (2-d) of the linear index `%index`, walking the
    minor dimension `minor_dim` in strips `tile_width` wide; the major
    dimension runs forward in even strips and backward in odd ones, so
    that going from one strip to the next stays near the same tiles. A
    last strip narrower than `tile_width` holds the rest. For shape
    (8, 8), minor_dim 0 and tile_width 2, rows 0-1 take indices 0..15
    column by column, rows 2-3 16..31 from the last column back.

    ```mlir
    %i, %j = mgpu.planar_snake %step in [%m, %n] minor_dim 0 tile_width 2
    ```
  }];
  let arguments = (ins Index:$index, Index:$major_or_0, Index:$size_1,
                       I64Attr:$minor_dim, I64Attr:$tile_width);
  let results = (outs Index:$first, Index:$second);
  let assemblyFormat = [{
    $index `in` ` ` `[` $major_or_0 `,` $size_1 `]` `minor_dim` $minor_dim
    `tile_width` $tile_width attr-dict
  }];
  let hasVerifier = 1;
}

def MGPU_DynamicSchedulingLoopOp : MGPU_Op<"dynamic_scheduling_loop", [
    AttrSizedOperandSegments,
    SingleBlockImplicitTerminator<"YieldOp">,
    RecursiveMemoryEffects]> {
  let summary = "a loop over a grid of tiles that programs take dynamically";
  let description = [{
    A persistent loop like `mgpu.nd_loop` whose programs take work as they
    become free instead of in a fixed order, JAX's
    `plgpu.dynamic_scheduling_loop` in the form sm_90 allows: program `p`
    of the `P` programs along `collective_axes` first runs linear step
    `p`, then takes step `P + n` where `n` is what an atomic add of 1 to
    the global counter `%counter[%i]` (an `i32` that starts at 0: a global
    scratch buffer) returned, until a step is beyond the grid. Every
    point of the grid is run exactly once, by whichever program got there
    first. The body's arguments are the point's indices (the linear step
    unravelled row-major) then the local step, then the carried values of
    `init_carry` (JAX's), as in `mgpu.nd_loop`: the loop returns the last
    ones this program yielded. The atomic add is a scalar
    side effect, so each Pallas thread takes its own steps: use it in
    kernels of one Pallas thread per CTA (JAX's version, with
    `thread_axis`, lets the threads of a CTA share a step).

    The counter is left at the grid's size plus `P`.
    --mgpu-expand-pipelines makes it an `scf.while` around the body and
    a `memref.atomic_rmw`. JAX uses cluster launch control on sm_100a
    (`clusterlaunchcontrol.try_cancel`), which mgpu does not lower.

    ```mlir
    mgpu.dynamic_scheduling_loop [%m, %n] collective_axes ["sm"]
        counter %count[%c0] : memref<1xi32> {
    ^bb0(%i: index, %j: index, %step: index):
      ...
    }
    ```
  }];
  let arguments = (ins Variadic<Index>:$grid, StrArrayAttr:$collective_axes,
                       MemRefOf<[I32]>:$counter, Index:$counter_index,
                       Variadic<AnyType>:$init_carry);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    ` ` `[` $grid `]` `collective_axes` $collective_axes `counter` $counter
    `[` $counter_index `]` `:` type($counter)
    (`init_carry` `(` $init_carry^ `:` type($init_carry) `)`)?
    (`->` type($results)^)?
    attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
}

#endif // MGPU_DIALECT_MGPU_MGPUSCHEDULINGOPS_TD
