// Cluster ops in a kernel that also waits on a semaphore, which makes every
// CTA run at once (interpret mode: every Pallas thread of the grid on its
// own host thread; the emulator: the whole grid as one group of fibers), so
// the cluster's barrier words and peers are found among all the CTAs. Three
// clusters of two CTAs trade values through a cluster barrier (CTA
// b = 2i + c reads its peer's b' = b xor 1: out[b] = b' + 1), then meet at
// a cluster_sync; CTAs 1-5 signal a semaphore after writing out[b], and
// CTA 0 waits for all five and sums what they wrote into out[6].
// RUN: %run_on_backends %s --match-full-lines

#mesh = #mgpu.mesh<grid = [3], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
!cbar = !mgpu.cluster_barrier<axes = ["c"], count = 1, arrivals = 2>

module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %slots = memref.alloc() : memref<8xf32>
    %o = memref.alloc() : memref<8xf32>
    mgpu.pallas_call grid [3, 2] outs(%slots, %o : memref<8xf32>, memref<8xf32>)
        in_specs [] out_specs [#all, #all]
        scratch [memref<1xi32>, !cbar] mesh #mesh {
    ^bb0(%sl: memref<8xf32>, %os: memref<8xf32>, %sem: memref<1xi32>,
         %bar: !cbar):
      %z = arith.constant 0 : index
      %one = arith.constant 1 : index
      %two = arith.constant 2 : index
      %six = arith.constant 6 : index
      %five = arith.constant 5 : i32
      %signal = arith.constant 1 : i32
      %i = mgpu.axis_index "i"
      %c = mgpu.axis_index "c"
      %i2 = arith.muli %i, %two : index
      %b = arith.addi %i2, %c : index
      %oc = arith.subi %one, %c : index
      %peer = arith.addi %i2, %oc : index
      %b1 = arith.addi %b, %one : index
      %b1i = arith.index_cast %b1 : index to i32
      %mine = arith.sitofp %b1i : i32 to f32
      memref.store %mine, %sl[%b] : memref<8xf32>
      mgpu.barrier_arrive %bar[%z] : !cbar
      mgpu.barrier_wait %bar[%z] : !cbar
      %r = memref.load %sl[%peer] : memref<8xf32>
      mgpu.cluster_sync
      memref.store %r, %os[%b] : memref<8xf32>
      %first = arith.cmpi eq, %b, %z : index
      scf.if %first {
        mgpu.semaphore_wait %sem[%z], %five : memref<1xi32>
        %sum = scf.for %k = %one to %six step %one iter_args(%acc = %r) -> f32 {
          %v = memref.load %os[%k] : memref<8xf32>
          %next = arith.addf %acc, %v : f32
          scf.yield %next : f32
        }
        memref.store %sum, %os[%six] : memref<8xf32>
      } else {
        mgpu.semaphore_signal %sem[%z], %signal : memref<1xi32>
      }
    }
    // out[b] = (b xor 1) + 1; out[6] = 2 + 1 + 4 + 3 + 6 + 5 = 21.
    // CHECK: 2
    // CHECK-NEXT: 1
    // CHECK-NEXT: 4
    // CHECK-NEXT: 3
    // CHECK-NEXT: 6
    // CHECK-NEXT: 5
    // CHECK-NEXT: 21
    %c7 = arith.constant 7 : index
    scf.for %k = %c0 to %c7 step %c1 {
      %v = memref.load %o[%k] : memref<8xf32>
      vector.print %v : f32
    }
    memref.dealloc %slots : memref<8xf32>
    memref.dealloc %o : memref<8xf32>
    return
  }
}
