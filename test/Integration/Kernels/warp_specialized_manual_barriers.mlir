// JAX's manual_consumed_barriers and compute_context(pipeline_callback) on
// a warp-specialized pipeline (plgpu.emit_pipeline_warp_specialized): the
// body releases each input's slot itself, at different points of a step,
// and the compute threads' code runs before and after the steps
// (mgpu.eval_pipeline). On a mesh of 3 Pallas threads, threads 0 and 1
// each take their 32 rows of every 64-row block; 4 steps through 2 slots,
// so the memory thread refills each slot once both compute threads have
// arrived on its input's consumed barrier:
//   out[r, c] = b[r, c] + sum_i x[64 i + r, c] * w[64 i + r]
// The prologue reads b into the carry (a loop-carried accumulator in
// registers), the body releases w as soon as it has read it and x at the
// end, and the epilogue writes the last carry out.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-run --backend=emulate --emulate-schedules 4 %s | FileCheck %s --match-full-lines
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa" -o /dev/null
// A thread that arrives on x's barrier only at even steps deadlocks the
// memory thread; one that releases x before reading it lets the memory
// thread refill the slot under the read.
// RUN: sed -e 's/^ *mgpu.barrier_arrive %x_consumed.*$/scf.if %even { mgpu.barrier_arrive %x_consumed[%c0] : !cons }/' %s > %t.skip.mlir
// RUN: env MGPU_WAIT_TIMEOUT=1000 not mgpu-run --backend=emulate %t.skip.mlir 2>&1 | FileCheck %s --check-prefix=SKIP
// SKIP: error: mgpu.barrier_wait waits for a phase that can never complete
// RUN: sed -e 's/^ *mgpu.barrier_arrive %x_consumed.*$//' -e 's/^ *%xv = vector.transfer_read/mgpu.barrier_arrive %x_consumed[%c0] : !cons\n&/' %s > %t.early.mlir
// RUN: not mgpu-run --backend=emulate %t.early.mlir 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: error: {{.*}}copy_gmem_to_smem

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
#vec = #mgpu.block_spec<shape = [64], index_map = affine_map<(i) -> (i)>>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>
#manual = #mgpu.warp_specialization<memory_registers = 40, manual_consumed_barriers = true>
!xblk = memref<64x64xf32, #gpu.address_space<workgroup>>
!wblk = memref<64xf32, #gpu.address_space<workgroup>>
!cons = !mgpu.barrier<count = 1, arrivals = 2>

module {
  func.func @weighted_sum(%x: memref<256x64xf32>, %w: memref<256xf32>,
                          %b: memref<64x64xf32>, %out: memref<64x64xf32>) {
    mgpu.mpmd_map meshes [#mesh]
        ins(%x, %w, %b : memref<256x64xf32>, memref<256xf32>, memref<64x64xf32>)
        outs(%out : memref<64x64xf32>) {
    ^bb0(%xa: memref<256x64xf32>, %wa: memref<256xf32>, %ba: memref<64x64xf32>,
         %oa: memref<64x64xf32>):
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %wg = mgpu.axis_index "wg"
      %mine = arith.muli %wg, %c32 : index
      mgpu.emit_pipeline grid [4] ins(%xa, %wa : memref<256x64xf32>, memref<256xf32>)
          in_specs [#rows, #vec] out_specs [] params #two
          warp_specialization #manual {
      ^bb0(%i: index, %xs: !xblk, %ws: !wblk, %x_consumed: !cons, %w_consumed: !cons,
           %acc: vector<32x64xf32>):
        %pad = arith.constant 0.0 : f32
        %c2 = arith.constant 2 : index
        %parity = arith.remui %i, %c2 : index
        %even = arith.cmpi eq, %parity, %c0 : index
        %wv = vector.transfer_read %ws[%mine], %pad {in_bounds = [true]} : !wblk, vector<32xf32>
        mgpu.barrier_arrive %w_consumed[%c0] : !cons
        %xv = vector.transfer_read %xs[%mine, %c0], %pad {in_bounds = [true, true]} : !xblk, vector<32x64xf32>
        %wcol = vector.shape_cast %wv : vector<32xf32> to vector<32x1xf32>
        %wb = vector.broadcast %wcol : vector<32x1xf32> to vector<32x64xf32>
        %prod = arith.mulf %xv, %wb : vector<32x64xf32>
        %next = arith.addf %acc, %prod : vector<32x64xf32>
        mgpu.barrier_arrive %x_consumed[%c0] : !cons
        mgpu.yield %next : vector<32x64xf32>
      } compute_context {
        %pad = arith.constant 0.0 : f32
        %init = vector.transfer_read %ba[%mine, %c0], %pad {in_bounds = [true, true]} : memref<64x64xf32>, vector<32x64xf32>
        %last = mgpu.eval_pipeline(%init : vector<32x64xf32>)
        vector.transfer_write %last, %oa[%mine, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, memref<64x64xf32>
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %x = memref.alloc() : memref<256x64xf32>
    %w = memref.alloc() : memref<256xf32>
    %b = memref.alloc() : memref<64x64xf32>
    %out = memref.alloc() : memref<64x64xf32>
    // x[r][c] = (r + 3 c) mod 7 - 3, w[r] = r mod 5 - 2, b[r][c] = (r + c) mod 3.
    scf.for %r = %c0 to %c256 step %c1 {
      %wm = arith.remui %r, %c5 : index
      %wd = arith.subi %wm, %c2 : index
      %wi = arith.index_cast %wd : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      memref.store %wf, %w[%r] : memref<256xf32>
      scf.for %c = %c0 to %c64 step %c1 {
        %t = arith.muli %c, %c3 : index
        %u = arith.addi %r, %t : index
        %m = arith.remui %u, %c7 : index
        %d = arith.subi %m, %c3 : index
        %di = arith.index_cast %d : index to i32
        %df = arith.sitofp %di : i32 to f32
        memref.store %df, %x[%r, %c] : memref<256x64xf32>
      }
    }
    scf.for %r = %c0 to %c64 step %c1 {
      scf.for %c = %c0 to %c64 step %c1 {
        %u = arith.addi %r, %c : index
        %m = arith.remui %u, %c3 : index
        %mi = arith.index_cast %m : index to i32
        %mf = arith.sitofp %mi : i32 to f32
        memref.store %mf, %b[%r, %c] : memref<64x64xf32>
      }
    }
    func.call @weighted_sum(%x, %w, %b, %out)
        : (memref<256x64xf32>, memref<256xf32>, memref<64x64xf32>, memref<64x64xf32>) -> ()
    %bad = scf.for %r = %c0 to %c64 step %c1 iter_args(%n = %c0) -> (index) {
      %row = scf.for %c = %c0 to %c64 step %c1 iter_args(%m = %n) -> (index) {
        %b0 = memref.load %b[%r, %c] : memref<64x64xf32>
        %want = scf.for %i = %c0 to %c4 step %c1 iter_args(%s = %b0) -> (f32) {
          %base = arith.muli %i, %c64 : index
          %xr = arith.addi %base, %r : index
          %xv = memref.load %x[%xr, %c] : memref<256x64xf32>
          %wv = memref.load %w[%xr] : memref<256xf32>
          %p = arith.mulf %xv, %wv : f32
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }
        %got = memref.load %out[%r, %c] : memref<64x64xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %m2 = arith.addi %m, %inc : index
        scf.yield %m2 : index
      }
      scf.yield %row : index
    }
    vector.print str "weighted_sum mismatches: "
    vector.print %bad : index
    %c40 = arith.constant 40 : index
    %v = vector.load %out[%c40, %c0] : memref<64x64xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    return
  }
}
// CHECK: weighted_sum mismatches: 0
// CHECK-NEXT: ( {{.*}} )
