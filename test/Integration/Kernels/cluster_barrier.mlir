// !mgpu.cluster_barrier: each CTA's arrival counts on the barrier of both
// CTAs of its cluster (arrivals = 2), so a wait on a CTA's own barrier
// waits for its peer too. Two rounds (phases 0 and 1) trade values through
// global memory as in cluster_sync.mlir: CTA b = 2i + c writes slot b, the
// second CTA of each cluster late, then after the barrier reads its peer's
// slot b' = 2i + 1 - c. out[b] = (b' + 1) + 100 * (b' + 1).
// RUN: %run_on_backends %s --match-full-lines

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
!cbar = !mgpu.cluster_barrier<axes = ["c"], count = 2, arrivals = 2>

module {
  func.func @trade(%ex_init: tensor<8xf32>, %init: tensor<8xf32>)
      -> (tensor<8xf32>, tensor<8xf32>) {
    %ex, %out = mgpu.pallas_call grid [4, 2]
        outs(%ex_init, %init : tensor<8xf32>, tensor<8xf32>)
        in_specs [] out_specs [#all, #all]
        scratch [!cbar] mesh #mesh {
    ^bb0(%slots: memref<8xf32>, %o: memref<8xf32>, %bar: !cbar):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %hundred = arith.constant 100.0 : f32
      %i = mgpu.axis_index "i"
      %c = mgpu.axis_index "c"
      %i2 = arith.muli %i, %c2 : index
      %b = arith.addi %i2, %c : index
      %oc = arith.subi %c1, %c : index
      %peer = arith.addi %i2, %oc : index
      %b1 = arith.addi %b, %c1 : index
      %b1i = arith.index_cast %b1 : index to i32
      %mine = arith.sitofp %b1i : i32 to f32
      // Round 1 (barrier 0): b + 1, written late by CTA c = 1 (64 stores
      // and reloads, each a step where other lanes run).
      %late = arith.muli %c, %c64 : index
      %kept = scf.for %k = %c0 to %late step %c1 iter_args(%v = %mine) -> f32 {
        memref.store %v, %o[%b] : memref<8xf32>
        %back = memref.load %o[%b] : memref<8xf32>
        scf.yield %back : f32
      }
      memref.store %kept, %slots[%b] : memref<8xf32>
      mgpu.barrier_arrive %bar[%c0] : !cbar
      mgpu.barrier_wait %bar[%c0] : !cbar
      %r1 = memref.load %slots[%peer] : memref<8xf32>
      // Both have read before either writes again (barrier 1).
      mgpu.barrier_arrive %bar[%c1] : !cbar
      mgpu.barrier_wait %bar[%c1] : !cbar
      // Round 2 (barrier 0 again, its phase 1): 100 * (b + 1).
      %mine100 = arith.mulf %mine, %hundred : f32
      memref.store %mine100, %slots[%b] : memref<8xf32>
      mgpu.barrier_arrive %bar[%c0] : !cbar
      mgpu.barrier_wait %bar[%c0] : !cbar
      %r2 = memref.load %slots[%peer] : memref<8xf32>
      %sum = arith.addf %r1, %r2 : f32
      memref.store %sum, %o[%b] : memref<8xf32>
    } -> tensor<8xf32>, tensor<8xf32>
    return %ex, %out : tensor<8xf32>, tensor<8xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 8 : index
    %f101 = arith.constant 101.0 : f32
    %e = tensor.empty() : tensor<8xf32>
    %init = tensor.empty() : tensor<8xf32>
    %ex, %ot = func.call @trade(%e, %init)
        : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    %o = bufferization.to_buffer %ot read_only : tensor<8xf32> to memref<8xf32>
    // The peer of CTA b: b xor 1.
    %zero = arith.constant 0 : i32
    %bad = scf.for %b = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %bi = arith.index_cast %b : index to i32
      %one = arith.constant 1 : i32
      %pi = arith.xori %bi, %one : i32
      %p1 = arith.addi %pi, %one : i32
      %pf = arith.sitofp %p1 : i32 to f32
      %want = arith.mulf %pf, %f101 : f32
      %got = memref.load %o[%b] : memref<8xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32
    // CTA 0 reads CTA 1: 2 * 101; CTA 5 reads CTA 4: 5 * 101.
    // CHECK-NEXT: 202
    // CHECK-NEXT: 505
    %c5 = arith.constant 5 : index
    %v0 = memref.load %o[%c0] : memref<8xf32>
    vector.print %v0 : f32
    %v1 = memref.load %o[%c5] : memref<8xf32>
    vector.print %v1 : f32
    return
  }
}
