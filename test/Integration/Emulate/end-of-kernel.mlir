// What the hardware does with copies out at the end of a kernel, and what
// JAX's lowering waits for there: nothing (jax/experimental/mosaic/gpu/
// core.py emits no cp.async.bulk.wait_group at exit; neither does mgpu's
// GPU lowering). A bulk copy out whose reads of shared memory completed
// still writes global memory after the kernel ends; one that may still be
// reading shared memory as the kernel exits reads memory that is gone.
//
// The store loop of JAX's blackwell_matmul_mgpu.py: each 128 x 64 tile of
// the output is written to one of two shared slots, committed, copied out,
// and `wait_smem_to_gmem(1, wait_read_only=True)` frees the other slot; at
// the end `wait_smem_to_gmem(0, wait_read_only=True)` (JAX's hopper matmul
// ends so) waits for the last reads only. The emulator writes the last
// copies' global memory when the thread ends, after their reads: every
// backend gives the numbers. Without that last wait (JAX's Blackwell
// kernel ends with the loop's wait(1)), the last copy may still read its
// slot when the kernel exits: the checks report it at the copy; with the
// checks off the copy still lands (it used to be dropped).
// RUN: %run_on_backends %s --match-full-lines
// RUN: sed 's/^ *mgpu.wait_smem_to_gmem 0 read_only$//' %s > %t.mlir
// RUN: not mgpu-run %t.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=EXIT
// Caught under two seeded schedules too (the planted-bug catalogue,
// docs/Conformance.md).
// RUN: not mgpu-run %t.mlir -e main --backend=emulate --emulate-schedules 2 2>&1 | grep -c "schedule with seed [12] failed" | FileCheck %s --check-prefix=TWO
// TWO: 2
// RUN: mgpu-run %t.mlir -e main --backend=emulate --check=none | FileCheck %s --match-full-lines

// CHECK: mismatches: 0
// EXIT: end-of-kernel.mlir.tmp.mlir:{{[0-9]+}}:9: error: the kernel ends while this copy_smem_to_gmem may still read shared memory: no mgpu.wait_smem_to_gmem waits for it

#g = #mgpu.block_spec<shape = [128, 256], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
!slots = memref<2x128x64xf32, #gpu.address_space<workgroup>>
!slot = memref<128x64xf32, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>

module {
  func.func @store_tiles(%o: memref<128x256xf32>) {
    mgpu.pallas_call grid [1] outs(%o : memref<128x256xf32>)
        in_specs [] out_specs [#g] scratch [!slots] {
    ^bb0(%og: memref<128x256xf32>, %s: !slots):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      scf.for %ni = %c0 to %c4 step %c1 {
        %slot = arith.remui %ni, %c2 : index
        %buf = memref.subview %s[%slot, 0, 0] [1, 128, 64] [1, 1, 1] : !slots to !slot
        // Tile ni holds ni + 1.
        %nii = arith.index_cast %ni : index to i32
        %nf = arith.sitofp %nii : i32 to f32
        %v = vector.broadcast %nf : f32 to vector<128x64xf32>
        vector.transfer_write %v, %buf[%c0, %c0] {in_bounds = [true, true]} : vector<128x64xf32>, !slot
        mgpu.commit_smem
        %col = arith.muli %ni, %c64 : index
        mgpu.copy_smem_to_gmem %buf, %og[0, %col] : !slot, memref<128x256xf32>
        mgpu.wait_smem_to_gmem 1 read_only
      }
      mgpu.wait_smem_to_gmem 0 read_only
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %minus = arith.constant -1.0 : f32
    %o = memref.alloc() : memref<128x256xf32>
    linalg.fill ins(%minus : f32) outs(%o : memref<128x256xf32>)
    func.call @store_tiles(%o) : (memref<128x256xf32>) -> ()
    %n = scf.for %r = %c0 to %c128 step %c1 iter_args(%a = %c0) -> index {
      %m = scf.for %c = %c0 to %c256 step %c1 iter_args(%b = %a) -> index {
        %t = arith.divui %c, %c64 : index
        %ti = arith.index_cast %t : index to i32
        %want = arith.sitofp %ti : i32 to f32
        %got = memref.load %o[%r, %c] : memref<128x256xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %one = arith.select %ne, %c1, %c0 : index
        %b2 = arith.addi %b, %one : index
        scf.yield %b2 : index
      }
      scf.yield %m : index
    }
    vector.print str "mismatches: "
    vector.print %n : index
    memref.dealloc %o : memref<128x256xf32>
    return
  }
}
