// tests/pallas/mosaic_gpu_test.py, test_elementwise_add (jax-ml/jax
// cec06d1), written line for line at m = n = 256, num_compute_wgs = 1 and a
// static grid, for each of manual_ready_barriers and
// manual_consumed_barriers in {False, True}: a warp-specialized pipeline
// over a (4, 4) grid of 64 x 64 blocks of x and y into o = x + y. With
// manual ready barriers the body waits for each input's copy itself
// (plgpu.barrier_wait(x_ready_barrier)); with manual consumed barriers it
// arrives on each input's consumed barrier once done (plgpu.barrier_arrive).
// Changed: the in_tree_template pytrees (flat here) and the dynamic grid
// (static) are not repeated; inputs are small integers, so o is exact.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-run --backend=emulate --emulate-schedules 4 %s | FileCheck %s --match-full-lines
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa" -o /dev/null
// A body (both manual) that reads y before waiting on its ready barrier
// reads a slot the memory thread's copy may still be writing:
// RUN: sed -e 's/^ *mgpu.barrier_wait %y_ready.*both manual$//' -e 's/^ *%o = arith.addf.*both manual$/mgpu.barrier_wait %y_ready[%c0] : !ready\n&/' %s > %t.late.mlir
// RUN: not mgpu-run --backend=emulate %t.late.mlir 2>&1 | FileCheck %s --check-prefix=LATE
// LATE: error: reads shared memory that an async copy in (copy_gmem_to_smem at {{.*}}) is still writing: wait on its barrier first

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 2, thread_name = "wg">
#spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i, j) -> (i, j)>>
#two = #mgpu.compiler_params<max_concurrent_steps = 2, approx_math = true>
!blk = memref<64x64xf32, #gpu.address_space<workgroup>>
!ready = !mgpu.barrier<count = 1>
!cons = !mgpu.barrier<count = 1, arrivals = 1>

module {
  func.func @add_ready_0_consumed_0(%x: memref<256x256xf32>, %y: memref<256x256xf32>, %out: memref<256x256xf32>) {
    mgpu.mpmd_map meshes [#mesh] ins(%x, %y : memref<256x256xf32>, memref<256x256xf32>)
        outs(%out : memref<256x256xf32>) {
    ^bb0(%xa: memref<256x256xf32>, %ya: memref<256x256xf32>, %oa: memref<256x256xf32>):
      mgpu.emit_pipeline grid [4, 4] ins(%xa, %ya : memref<256x256xf32>, memref<256x256xf32>)
          outs(%oa : memref<256x256xf32>) in_specs [#spec, #spec] out_specs [#spec] params #two
          warp_specialization #mgpu.warp_specialization<memory_registers = 40> {
      ^bb0(%idx_i: index, %idx_j: index, %x_smem: !blk, %y_smem: !blk, %o_smem: !blk):
        %c0 = arith.constant 0 : index
        %pad = arith.constant 0.0 : f32
        %xv = vector.transfer_read %x_smem[%c0, %c0], %pad {in_bounds = [true, true]} : !blk, vector<64x64xf32>
        %yv = vector.transfer_read %y_smem[%c0, %c0], %pad {in_bounds = [true, true]} : !blk, vector<64x64xf32>
        %o = arith.addf %xv, %yv : vector<64x64xf32>
        vector.transfer_write %o, %o_smem[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !blk
      }
    }
    return
  }

  func.func @add_ready_1_consumed_0(%x: memref<256x256xf32>, %y: memref<256x256xf32>, %out: memref<256x256xf32>) {
    mgpu.mpmd_map meshes [#mesh] ins(%x, %y : memref<256x256xf32>, memref<256x256xf32>)
        outs(%out : memref<256x256xf32>) {
    ^bb0(%xa: memref<256x256xf32>, %ya: memref<256x256xf32>, %oa: memref<256x256xf32>):
      mgpu.emit_pipeline grid [4, 4] ins(%xa, %ya : memref<256x256xf32>, memref<256x256xf32>)
          outs(%oa : memref<256x256xf32>) in_specs [#spec, #spec] out_specs [#spec] params #two
          warp_specialization #mgpu.warp_specialization<memory_registers = 40, manual_ready_barriers = true> {
      ^bb0(%idx_i: index, %idx_j: index, %x_smem: !blk, %y_smem: !blk, %o_smem: !blk, %x_ready: !ready, %y_ready: !ready):
        %c0 = arith.constant 0 : index
        %pad = arith.constant 0.0 : f32
        mgpu.barrier_wait %x_ready[%c0] : !ready
        mgpu.barrier_wait %y_ready[%c0] : !ready
        %xv = vector.transfer_read %x_smem[%c0, %c0], %pad {in_bounds = [true, true]} : !blk, vector<64x64xf32>
        %yv = vector.transfer_read %y_smem[%c0, %c0], %pad {in_bounds = [true, true]} : !blk, vector<64x64xf32>
        %o = arith.addf %xv, %yv : vector<64x64xf32>
        vector.transfer_write %o, %o_smem[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !blk
      }
    }
    return
  }

  func.func @add_ready_0_consumed_1(%x: memref<256x256xf32>, %y: memref<256x256xf32>, %out: memref<256x256xf32>) {
    mgpu.mpmd_map meshes [#mesh] ins(%x, %y : memref<256x256xf32>, memref<256x256xf32>)
        outs(%out : memref<256x256xf32>) {
    ^bb0(%xa: memref<256x256xf32>, %ya: memref<256x256xf32>, %oa: memref<256x256xf32>):
      mgpu.emit_pipeline grid [4, 4] ins(%xa, %ya : memref<256x256xf32>, memref<256x256xf32>)
          outs(%oa : memref<256x256xf32>) in_specs [#spec, #spec] out_specs [#spec] params #two
          warp_specialization #mgpu.warp_specialization<memory_registers = 40, manual_consumed_barriers = true> {
      ^bb0(%idx_i: index, %idx_j: index, %x_smem: !blk, %y_smem: !blk, %o_smem: !blk, %x_consumed: !cons, %y_consumed: !cons):
        %c0 = arith.constant 0 : index
        %pad = arith.constant 0.0 : f32
        %xv = vector.transfer_read %x_smem[%c0, %c0], %pad {in_bounds = [true, true]} : !blk, vector<64x64xf32>
        %yv = vector.transfer_read %y_smem[%c0, %c0], %pad {in_bounds = [true, true]} : !blk, vector<64x64xf32>
        %o = arith.addf %xv, %yv : vector<64x64xf32>
        vector.transfer_write %o, %o_smem[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !blk
        mgpu.barrier_arrive %x_consumed[%c0] : !cons
        mgpu.barrier_arrive %y_consumed[%c0] : !cons
      }
    }
    return
  }

  func.func @add_ready_1_consumed_1(%x: memref<256x256xf32>, %y: memref<256x256xf32>, %out: memref<256x256xf32>) {
    mgpu.mpmd_map meshes [#mesh] ins(%x, %y : memref<256x256xf32>, memref<256x256xf32>)
        outs(%out : memref<256x256xf32>) {
    ^bb0(%xa: memref<256x256xf32>, %ya: memref<256x256xf32>, %oa: memref<256x256xf32>):
      mgpu.emit_pipeline grid [4, 4] ins(%xa, %ya : memref<256x256xf32>, memref<256x256xf32>)
          outs(%oa : memref<256x256xf32>) in_specs [#spec, #spec] out_specs [#spec] params #two
          warp_specialization #mgpu.warp_specialization<memory_registers = 40, manual_ready_barriers = true, manual_consumed_barriers = true> {
      ^bb0(%idx_i: index, %idx_j: index, %x_smem: !blk, %y_smem: !blk, %o_smem: !blk, %x_ready: !ready, %y_ready: !ready, %x_consumed: !cons, %y_consumed: !cons):
        %c0 = arith.constant 0 : index
        %pad = arith.constant 0.0 : f32
        mgpu.barrier_wait %x_ready[%c0] : !ready
        mgpu.barrier_wait %y_ready[%c0] : !ready  // both manual
        %xv = vector.transfer_read %x_smem[%c0, %c0], %pad {in_bounds = [true, true]} : !blk, vector<64x64xf32>
        %yv = vector.transfer_read %y_smem[%c0, %c0], %pad {in_bounds = [true, true]} : !blk, vector<64x64xf32>
        %o = arith.addf %xv, %yv : vector<64x64xf32>  // both manual
        vector.transfer_write %o, %o_smem[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !blk
        mgpu.barrier_arrive %x_consumed[%c0] : !cons
        mgpu.barrier_arrive %y_consumed[%c0] : !cons
      }
    }
    return
  }

  func.func @mismatches(%x: memref<256x256xf32>, %y: memref<256x256xf32>, %o: memref<256x256xf32>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 256 : index
    %bad = scf.for %r = %c0 to %n step %c1 iter_args(%b = %c0) -> (index) {
      %row = scf.for %c = %c0 to %n step %c1 iter_args(%b2 = %b) -> (index) {
        %xv = memref.load %x[%r, %c] : memref<256x256xf32>
        %yv = memref.load %y[%r, %c] : memref<256x256xf32>
        %want = arith.addf %xv, %yv : f32
        %got = memref.load %o[%r, %c] : memref<256x256xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %b3 = arith.addi %b2, %inc : index
        scf.yield %b3 : index
      }
      scf.yield %row : index
    }
    return %bad : index
  }

  func.func @clear(%o: memref<256x256xf32>) {
    %nan = arith.constant 0x7FC00000 : f32
    linalg.fill ins(%nan : f32) outs(%o : memref<256x256xf32>)
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %n = arith.constant 256 : index
    %x = memref.alloc() : memref<256x256xf32>
    %y = memref.alloc() : memref<256x256xf32>
    %o = memref.alloc() : memref<256x256xf32>
    // x[r][c] = (r + 3 c) mod 7, y[r][c] = (5 r + c) mod 3.
    scf.for %r = %c0 to %n step %c1 {
      scf.for %c = %c0 to %n step %c1 {
        %t = arith.muli %c, %c3 : index
        %u = arith.addi %r, %t : index
        %m = arith.remui %u, %c7 : index
        %mi = arith.index_cast %m : index to i32
        %mf = arith.sitofp %mi : i32 to f32
        memref.store %mf, %x[%r, %c] : memref<256x256xf32>
        %t2 = arith.muli %r, %c5 : index
        %u2 = arith.addi %t2, %c : index
        %m2 = arith.remui %u2, %c3 : index
        %m2i = arith.index_cast %m2 : index to i32
        %m2f = arith.sitofp %m2i : i32 to f32
        memref.store %m2f, %y[%r, %c] : memref<256x256xf32>
      }
    }
    func.call @clear(%o) : (memref<256x256xf32>) -> ()
    func.call @add_ready_0_consumed_0(%x, %y, %o) : (memref<256x256xf32>, memref<256x256xf32>, memref<256x256xf32>) -> ()
    %bad_add_ready_0_consumed_0 = func.call @mismatches(%x, %y, %o) : (memref<256x256xf32>, memref<256x256xf32>, memref<256x256xf32>) -> index
    vector.print str "add_ready_0_consumed_0 mismatches: "
    vector.print %bad_add_ready_0_consumed_0 : index
    func.call @clear(%o) : (memref<256x256xf32>) -> ()
    func.call @add_ready_1_consumed_0(%x, %y, %o) : (memref<256x256xf32>, memref<256x256xf32>, memref<256x256xf32>) -> ()
    %bad_add_ready_1_consumed_0 = func.call @mismatches(%x, %y, %o) : (memref<256x256xf32>, memref<256x256xf32>, memref<256x256xf32>) -> index
    vector.print str "add_ready_1_consumed_0 mismatches: "
    vector.print %bad_add_ready_1_consumed_0 : index
    func.call @clear(%o) : (memref<256x256xf32>) -> ()
    func.call @add_ready_0_consumed_1(%x, %y, %o) : (memref<256x256xf32>, memref<256x256xf32>, memref<256x256xf32>) -> ()
    %bad_add_ready_0_consumed_1 = func.call @mismatches(%x, %y, %o) : (memref<256x256xf32>, memref<256x256xf32>, memref<256x256xf32>) -> index
    vector.print str "add_ready_0_consumed_1 mismatches: "
    vector.print %bad_add_ready_0_consumed_1 : index
    func.call @clear(%o) : (memref<256x256xf32>) -> ()
    func.call @add_ready_1_consumed_1(%x, %y, %o) : (memref<256x256xf32>, memref<256x256xf32>, memref<256x256xf32>) -> ()
    %bad_add_ready_1_consumed_1 = func.call @mismatches(%x, %y, %o) : (memref<256x256xf32>, memref<256x256xf32>, memref<256x256xf32>) -> index
    vector.print str "add_ready_1_consumed_1 mismatches: "
    vector.print %bad_add_ready_1_consumed_1 : index
    func.call @clear(%o) : (memref<256x256xf32>) -> ()
    return
  }
}
// CHECK: add_ready_0_consumed_0 mismatches: 0
// CHECK-NEXT: add_ready_1_consumed_0 mismatches: 0
// CHECK-NEXT: add_ready_0_consumed_1 mismatches: 0
// CHECK-NEXT: add_ready_1_consumed_1 mismatches: 0
