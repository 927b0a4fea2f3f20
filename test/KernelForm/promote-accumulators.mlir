// RUN: mgpu-opt %s --mgpu-promote-accumulators | FileCheck %s
// RUN: mgpu-opt %s --mgpu-promote-accumulators | mgpu-opt | FileCheck %s

// A block read, updated and written back at the same indices in every step
// of a loop becomes a vector carried by the loop; pairs whose memory another
// op of the loop may touch stay as they are.

#whole = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>>
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
#rows2 = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i, t) -> (i, 0)>>
#wgs = #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 2, thread_name = "wg">

!smem = memref<64x64xf32, #gpu.address_space<workgroup>>

// Two disjoint halves of the output block, each with its own pair: both are
// promoted, and the reads of the input block (another buffer) do not stop
// them. The row index is a constant of the loop body.
// CHECK-LABEL: func.func @two_halves
// CHECK: ^bb0(%[[X:.*]]: memref<64x64xf32, #gpu.address_space<workgroup>>, %[[O:.*]]: memref<64x64xf32, #gpu.address_space<workgroup>>):
// CHECK: %[[TOP:.*]] = vector.transfer_read %[[O]][%{{.*}}, %{{.*}}]
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[BOT:.*]] = vector.transfer_read %[[O]][%[[C32]], %{{.*}}]
// CHECK: %[[R:.*]]:2 = scf.for {{.*}} iter_args(%[[T:.*]] = %[[TOP]], %[[B:.*]] = %[[BOT]]) -> (vector<32x64xf32>, vector<32x64xf32>) {
// CHECK-NOT: vector.transfer_write
// CHECK: vector.transfer_read %[[X]]
// CHECK-NOT: vector.transfer_write
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-DAG: vector.transfer_write %[[R]]#1, %[[O]][%[[C32]], %{{.*}}]
// CHECK-DAG: vector.transfer_write %[[R]]#0, %[[O]]
func.func @two_halves(%x: memref<128x64xf32>, %o: memref<128x64xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<128x64xf32>) outs(%o : memref<128x64xf32>)
      in_specs [#rows] out_specs [#rows] {
  ^bb0(%xs: !smem, %os: !smem):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    scf.for %k = %c0 to %c4 step %c1 {
      %c32 = arith.constant 32 : index
      %top = vector.transfer_read %os[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<32x64xf32>
      %bot = vector.transfer_read %os[%c32, %c0], %pad {in_bounds = [true, true]} : !smem, vector<32x64xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<32x64xf32>
      %t2 = arith.addf %top, %v : vector<32x64xf32>
      %b2 = arith.mulf %bot, %v : vector<32x64xf32>
      vector.transfer_write %t2, %os[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, !smem
      vector.transfer_write %b2, %os[%c32, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, !smem
    }
  }
  return
}

// Another read of the block overlapping the pair (it sees the value of the
// previous step in memory): nothing is promoted.
// CHECK-LABEL: func.func @overlapping_read
// CHECK: scf.for
// CHECK-NEXT: vector.transfer_read
// CHECK: vector.transfer_write
// CHECK: }
func.func @overlapping_read(%x: memref<128x64xf32>, %o: memref<128x64xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<128x64xf32>) outs(%o : memref<128x64xf32>)
      in_specs [#rows] out_specs [#rows] {
  ^bb0(%xs: !smem, %os: !smem):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %pad = arith.constant 0.0 : f32
    scf.for %k = %c0 to %c4 step %c1 {
      %a = vector.transfer_read %os[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<32x64xf32>
      %peek = vector.transfer_read %os[%c16, %c0], %pad {in_bounds = [true, true]} : !smem, vector<32x64xf32>
      %s = arith.addf %a, %peek : vector<32x64xf32>
      vector.transfer_write %s, %os[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, !smem
    }
  }
  return
}

// The indices change with the step, and a view of the block escapes to an
// op the pass cannot see through: neither pair is promoted.
// CHECK-LABEL: func.func @not_invariant
// CHECK: scf.for
// CHECK: vector.transfer_read %{{.*}}[%[[K:[^,]*]], %{{.*}}]
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%[[K]], %{{.*}}]
// CHECK: scf.for
// CHECK: vector.transfer_read
// CHECK: memref.store
// CHECK: vector.transfer_write
func.func @not_invariant(%x: memref<128x64xf32>, %o: memref<128x64xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<128x64xf32>) outs(%o : memref<128x64xf32>)
      in_specs [#rows] out_specs [#rows] {
  ^bb0(%xs: !smem, %os: !smem):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    scf.for %k = %c0 to %c4 step %c1 {
      %a = vector.transfer_read %os[%k, %c0], %pad {in_bounds = [true, true]} : !smem, vector<8x64xf32>
      vector.transfer_write %a, %os[%k, %c0] {in_bounds = [true, true]} : vector<8x64xf32>, !smem
    }
    %view = memref.subview %os[32, 0] [32, 64] [1, 1] : !smem to memref<32x64xf32, strided<[64, 1], offset: 2048>, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c4 step %c1 {
      %a = vector.transfer_read %os[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<8x64xf32>
      memref.store %one, %view[%k, %c0] : memref<32x64xf32, strided<[64, 1], offset: 2048>, #gpu.address_space<workgroup>>
      vector.transfer_write %a, %os[%c0, %c0] {in_bounds = [true, true]} : vector<8x64xf32>, !smem
    }
  }
  return
}

// Two Pallas threads share the output block: another thread could read it
// between the steps, so the pair stays in memory.
// CHECK-LABEL: func.func @threads
// CHECK: scf.for
// CHECK-NEXT: vector.transfer_read
// CHECK-NEXT: arith.addf
// CHECK-NEXT: vector.transfer_write
func.func @threads(%x: memref<128x64xf32>, %o: memref<128x64xf32>) {
  mgpu.pallas_call grid [2, 2] ins(%x : memref<128x64xf32>) outs(%o : memref<128x64xf32>)
      in_specs [#rows2] out_specs [#rows2] mesh #wgs {
  ^bb0(%xs: !smem, %os: !smem):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    scf.for %k = %c0 to %c4 step %c1 {
      %a = vector.transfer_read %os[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<8x64xf32>
      %s = arith.addf %a, %a : vector<8x64xf32>
      vector.transfer_write %s, %os[%c0, %c0] {in_bounds = [true, true]} : vector<8x64xf32>, !smem
    }
  }
  return
}

// The compute threads' loop of a warp-specialized pipeline (marked
// mgpu.compute_steps) is promoted although the program has several Pallas
// threads. The block each thread picks (a select of two other buffers) is
// not the accumulator's.
#ws = #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 3, thread_name = "wg">
// CHECK-LABEL: func.func @compute_steps
// CHECK: %[[INIT:.*]] = vector.transfer_read %[[ACC:.*]][%c0, %c0]
// CHECK-NEXT: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %[[INIT]])
// CHECK-NEXT: arith.select
// CHECK-NEXT: vector.transfer_read
// CHECK-NEXT: arith.addf %[[A]]
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {mgpu.compute_steps}
// CHECK-NEXT: vector.transfer_write %[[SUM]], %[[ACC]][%c0, %c0]
func.func @compute_steps(%x: memref<128x64xf32>) {
  mgpu.mpmd_map meshes [#ws] ins(%x : memref<128x64xf32>) scratch [!smem, !smem, !smem] {
  ^bb0(%xg: memref<128x64xf32>, %os: !smem, %p: !smem, %q: !smem):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    %wg = mgpu.axis_index "wg"
    %first = arith.cmpi eq, %wg, %c0 : index
    scf.for %k = %c0 to %c4 step %c1 {
      %in = arith.select %first, %p, %q : !smem
      %a = vector.transfer_read %os[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<8x64xf32>
      %b = vector.transfer_read %in[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<8x64xf32>
      %s = arith.addf %a, %b : vector<8x64xf32>
      vector.transfer_write %s, %os[%c0, %c0] {in_bounds = [true, true]} : vector<8x64xf32>, !smem
    } {mgpu.compute_steps}
  }
  return
}

// A select that may pick the accumulator's buffer keeps the pair in memory;
// so does a loop without the mark in a program of several threads.
// CHECK-LABEL: func.func @compute_steps_may_alias
// CHECK: scf.for
// CHECK-NEXT: arith.select
// CHECK-NEXT: vector.transfer_read
// CHECK: scf.for
// CHECK-NEXT: vector.transfer_read
func.func @compute_steps_may_alias(%x: memref<128x64xf32>) {
  mgpu.mpmd_map meshes [#ws] ins(%x : memref<128x64xf32>) scratch [!smem, !smem] {
  ^bb0(%xg: memref<128x64xf32>, %os: !smem, %p: !smem):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    %wg = mgpu.axis_index "wg"
    %first = arith.cmpi eq, %wg, %c0 : index
    scf.for %k = %c0 to %c4 step %c1 {
      %in = arith.select %first, %p, %os : !smem
      %a = vector.transfer_read %os[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<8x64xf32>
      %b = vector.transfer_read %in[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<8x64xf32>
      %s = arith.addf %a, %b : vector<8x64xf32>
      vector.transfer_write %s, %os[%c0, %c0] {in_bounds = [true, true]} : vector<8x64xf32>, !smem
    } {mgpu.compute_steps}
    scf.for %k = %c0 to %c4 step %c1 {
      %a = vector.transfer_read %os[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<8x64xf32>
      %s = arith.addf %a, %a : vector<8x64xf32>
      vector.transfer_write %s, %os[%c0, %c0] {in_bounds = [true, true]} : vector<8x64xf32>, !smem
    }
  }
  return
}

// Pallas's `@pl.when(k == 0)` zeroing of a scratch accumulator at the
// loop's first step is the carried value's start: the constant is built
// before the loop, the block is not read, and nothing is stored in the loop.
// CHECK-LABEL: func.func @zeroed_at_first_step
// CHECK: ^bb0(%{{[a-z0-9]+}}: memref<64x64xf32, #gpu.address_space<workgroup>>, %[[ACC:[a-z0-9]+]]: memref
// CHECK-NOT: vector.transfer_read %[[ACC]]
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<64x64xf32>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[V:.*]] = %[[ZERO]]) -> (vector<64x64xf32>) {
// CHECK-NOT: scf.if
// CHECK-NOT: vector.transfer_write
// CHECK: arith.addf %[[V]]
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: vector.transfer_write %[[R]], %[[ACC]]
func.func @zeroed_at_first_step(%x: memref<128x64xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<128x64xf32>) in_specs [#rows] out_specs []
      scratch [!smem] {
  ^bb0(%xs: !smem, %acc: !smem):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    scf.for %k = %c0 to %c4 step %c1 {
      %first = arith.cmpi eq, %k, %c0 : index
      scf.if %first {
        %zero = arith.constant dense<0.0> : vector<64x64xf32>
        vector.transfer_write %zero, %acc[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !smem
      }
      %old = vector.transfer_read %acc[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<64x64xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<64x64xf32>
      %new = arith.addf %old, %v : vector<64x64xf32>
      vector.transfer_write %new, %acc[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !smem
    }
  }
  return
}

// An initialization under any other condition (here every other step)
// becomes a choice of the value the step starts with; the block is read
// once before the loop.
// CHECK-LABEL: func.func @reset_every_other_step
// CHECK: ^bb0(%{{[a-z0-9]+}}: memref<64x64xf32, #gpu.address_space<workgroup>>, %[[ACC:[a-z0-9]+]]: memref
// CHECK: %[[START:.*]] = vector.transfer_read %[[ACC]]
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[V:.*]] = %[[START]]) -> (vector<64x64xf32>) {
// CHECK: %[[CUR:.*]] = scf.if %{{.*}} -> (vector<64x64xf32>) {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1.000000e+00>
// CHECK-NEXT: scf.yield %[[ONE]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[V]]
// CHECK-NEXT: }
// CHECK-NOT: vector.transfer_write
// CHECK: arith.addf %[[CUR]]
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: vector.transfer_write %[[R]], %[[ACC]]
func.func @reset_every_other_step(%x: memref<128x64xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<128x64xf32>) in_specs [#rows] out_specs []
      scratch [!smem] {
  ^bb0(%xs: !smem, %acc: !smem):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    scf.for %k = %c0 to %c4 step %c1 {
      %r = arith.remui %k, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      scf.if %even {
        %one = arith.constant dense<1.0> : vector<64x64xf32>
        vector.transfer_write %one, %acc[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !smem
      }
      %old = vector.transfer_read %acc[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<64x64xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<64x64xf32>
      %new = arith.addf %old, %v : vector<64x64xf32>
      vector.transfer_write %new, %acc[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !smem
    }
  }
  return
}

// An initialization beside other effects: the write becomes the loop's
// start, the rest of the if stays.
// CHECK-LABEL: func.func @write_with_side_effect
// CHECK: scf.for {{.*}} iter_args
// CHECK: scf.if
// CHECK-NOT: vector.transfer_write
// CHECK: mgpu.commit_smem
// CHECK: scf.yield
func.func @write_with_side_effect(%x: memref<128x64xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<128x64xf32>) in_specs [#rows] out_specs []
      scratch [!smem] {
  ^bb0(%xs: !smem, %acc: !smem):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    scf.for %k = %c0 to %c4 step %c1 {
      %first = arith.cmpi eq, %k, %c0 : index
      scf.if %first {
        %zero = arith.constant dense<0.0> : vector<64x64xf32>
        vector.transfer_write %zero, %acc[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !smem
        mgpu.commit_smem
      }
      %old = vector.transfer_read %acc[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<64x64xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<64x64xf32>
      %new = arith.addf %old, %v : vector<64x64xf32>
      vector.transfer_write %new, %acc[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !smem
    }
  }
  return
}

// A conditional write of a value read from memory is not an
// initialization (it is not computed without side effects): nothing is
// promoted.
// CHECK-LABEL: func.func @initialized_from_memory
// CHECK: scf.for
// CHECK: scf.if
// CHECK: vector.transfer_write
// CHECK: vector.transfer_read
func.func @initialized_from_memory(%x: memref<128x64xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<128x64xf32>) in_specs [#rows] out_specs []
      scratch [!smem] {
  ^bb0(%xs: !smem, %acc: !smem):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    scf.for %k = %c0 to %c4 step %c1 {
      %first = arith.cmpi eq, %k, %c0 : index
      scf.if %first {
        %start = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<64x64xf32>
        vector.transfer_write %start, %acc[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !smem
      }
      %old = vector.transfer_read %acc[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<64x64xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]} : !smem, vector<64x64xf32>
      %new = arith.addf %old, %v : vector<64x64xf32>
      vector.transfer_write %new, %acc[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !smem
    }
  }
  return
}
