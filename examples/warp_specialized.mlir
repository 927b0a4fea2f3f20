// Warp specialization with the kernel-level ops, as JAX's Hopper kernels do
// it: one mesh of 4 programs with 2 Pallas threads (warpgroups) each. Thread
// 1 is the producer: it streams 8 chunks of 128 elements of x into a ring of
// 2 shared-memory slots with async copies (TMA on the GPU), each counted on
// the slot's `full` barrier, and before refilling a slot waits on its
// `empty` barrier. Thread 0 is the consumer: it waits on `full`, computes
// 3 x + 0.5 into global memory, and arrives on `empty`. The waits carry no
// parity: their phases are tracked (--mgpu-track-barrier-phases). Run test:
// test/Integration/MPMD/warp-specialized.mlir.
//
// Summary: a producer and a consumer warpgroup around a ring of barriers
//   (kernel-level ops)

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], num_threads = 2, thread_name = "wg">

func.func @stream(%x: memref<4096xf32>, %o: memref<4096xf32>) {
  mgpu.mpmd_map meshes [#mesh]
      ins(%x : memref<4096xf32>) outs(%o : memref<4096xf32>)
      scratch [memref<1024xi8, #gpu.address_space<workgroup>>,
               !mgpu.barrier<count = 2>, !mgpu.barrier<count = 2>] {
  ^bb0(%xa: memref<4096xf32>, %oa: memref<4096xf32>,
       %ring: memref<1024xi8, #gpu.address_space<workgroup>>,
       %full: !mgpu.barrier<count = 2>, %empty: !mgpu.barrier<count = 2>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %c1024 = arith.constant 1024 : index
    %i = mgpu.program_id 0
    %base = arith.muli %i, %c1024 : index
    %wg = mgpu.axis_index "wg"
    %producer = arith.cmpi eq, %wg, %c1 : index
    scf.if %producer {
      scf.for %k = %c0 to %c8 step %c1 {
        %slot = arith.remui %k, %c2 : index
        %reuse = arith.cmpi uge, %k, %c2 : index
        scf.if %reuse {
          mgpu.barrier_wait %empty[%slot] : !mgpu.barrier<count = 2>
        }
        %shift = arith.muli %slot, %c512 : index
        %buf = memref.view %ring[%shift][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
        %chunk = arith.muli %k, %c128 : index
        %at = arith.addi %base, %chunk : index
        mgpu.copy_gmem_to_smem %xa[%at], %buf, %full[%slot]
            : memref<4096xf32>, memref<128xf32, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 2>
      }
    } else {
      %three = arith.constant dense<3.0> : vector<128xf32>
      %half = arith.constant dense<0.5> : vector<128xf32>
      scf.for %k = %c0 to %c8 step %c1 {
        %slot = arith.remui %k, %c2 : index
        mgpu.barrier_wait %full[%slot] : !mgpu.barrier<count = 2>
        %shift = arith.muli %slot, %c512 : index
        %buf = memref.view %ring[%shift][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
        %v = vector.load %buf[%c0] : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
        %t = arith.mulf %v, %three : vector<128xf32>
        %r = arith.addf %t, %half : vector<128xf32>
        %chunk = arith.muli %k, %c128 : index
        %at = arith.addi %base, %chunk : index
        vector.store %r, %oa[%at] : memref<4096xf32>, vector<128xf32>
        mgpu.barrier_arrive %empty[%slot] : !mgpu.barrier<count = 2>
      }
    }
  }
  return
}
