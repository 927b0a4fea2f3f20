// One barrier completing two phases in straight-line code: copy, wait,
// copy, wait on the same barrier, as JAX's test_tcgen05_mma loads a and
// then b (tests/pallas/mosaic_gpu_test.py). The emulator deadlocked: the
// first lane passed both phases before the other lanes of its warpgroup
// reached the first wait, which then waited for a parity the barrier had
// left behind twice. The warpgroup's lanes now reach a Pallas thread's
// wait together, as its warps do on the GPU; every backend gives the
// numbers, in seeded schedules too.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-run %s -e main --backend=emulate --emulate-schedules 3 | FileCheck %s --match-full-lines

// CHECK: 1
// CHECK-NEXT: 2

#g = #mgpu.block_spec<shape = [2, 128], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
!buf = memref<128xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
module {
  func.func @k(%x: memref<2x128xf32>, %o: memref<2x128xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<2x128xf32>) outs(%o : memref<2x128xf32>)
        in_specs [#g] out_specs [#g] scratch [!buf, !buf, !bar] {
    ^bb0(%xg: memref<2x128xf32>, %og: memref<2x128xf32>, %a: !buf, %b: !buf, %bar: !bar):
      %c0 = arith.constant 0 : index
      %r0 = memref.subview %xg[0, 0] [1, 128] [1, 1] : memref<2x128xf32> to memref<128xf32, strided<[1]>>
      %r1 = memref.subview %xg[1, 0] [1, 128] [1, 1] : memref<2x128xf32> to memref<128xf32, strided<[1], offset: 128>>
      mgpu.copy_gmem_to_smem %r0, %a, %bar[%c0] : memref<128xf32, strided<[1]>>, !buf, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      mgpu.copy_gmem_to_smem %r1, %b, %bar[%c0] : memref<128xf32, strided<[1], offset: 128>>, !buf, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      %va = vector.load %a[%c0] : !buf, vector<128xf32>
      %vb = vector.load %b[%c0] : !buf, vector<128xf32>
      %o0 = memref.subview %og[0, 0] [1, 128] [1, 1] : memref<2x128xf32> to memref<128xf32, strided<[1]>>
      %o1 = memref.subview %og[1, 0] [1, 128] [1, 1] : memref<2x128xf32> to memref<128xf32, strided<[1], offset: 128>>
      vector.store %va, %o0[%c0] : memref<128xf32, strided<[1]>>, vector<128xf32>
      vector.store %vb, %o1[%c0] : memref<128xf32, strided<[1], offset: 128>>, vector<128xf32>
    }
    return
  }
  func.func @main() {
    %x = memref.alloc() : memref<2x128xf32>
    %o = memref.alloc() : memref<2x128xf32>
    %one = arith.constant 1.0 : f32
    linalg.fill ins(%one : f32) outs(%x : memref<2x128xf32>)
    %x1 = memref.subview %x[1, 0] [1, 128] [1, 1] : memref<2x128xf32> to memref<128xf32, strided<[1], offset: 128>>
    %two = arith.constant 2.0 : f32
    linalg.fill ins(%two : f32) outs(%x1 : memref<128xf32, strided<[1], offset: 128>>)
    func.call @k(%x, %o) : (memref<2x128xf32>, memref<2x128xf32>) -> ()
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c0 = arith.constant 0 : index
    %u = memref.load %o[%c0, %c5] : memref<2x128xf32>
    vector.print %u : f32
    %v = memref.load %o[%c1, %c5] : memref<2x128xf32>
    vector.print %v : f32
    return
  }
}
