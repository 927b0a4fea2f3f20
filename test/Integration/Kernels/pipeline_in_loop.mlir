// Pipelines run several times by a loop, as a JAX kernel that calls
// plgpu.emit_pipeline (@scale_runs_one_thread) or
// plgpu.emit_pipeline_warp_specialized (@scale_runs) inside a fori_loop
// does: each of 2 runs scales its 192 columns of the program's 128 rows, 3
// steps through 2 slots, so a run fills slot 0 twice and slot 1 once, and
// the barriers' phases must carry on from one run into the next (with
// phases restarted at 0, the second run waits for a phase that has
// completed already, and reads a slot before its copy lands, or for one
// that never comes).
// y[r][c] = x[r][c] * ((c mod 192) / 64 + 2).
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa" -o /dev/null

#mesh = #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#cols = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(k) -> (0, k)>>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>
#ws = #mgpu.warp_specialization<memory_registers = 40>
#one = #mgpu.mesh<grid = [2], grid_names = ["i"]>
!block = memref<128x64xf32, #gpu.address_space<workgroup>>
!run = memref<128x192xf32, strided<[384, 1], offset: ?>>

module {
  func.func @scale_runs(%x: memref<256x384xf32>, %y: memref<256x384xf32>) {
    mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x384xf32>)
        outs(%y : memref<256x384xf32>) {
    ^bb0(%xa: memref<256x384xf32>, %ya: memref<256x384xf32>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c192 = arith.constant 192 : index
      %i = mgpu.program_id 0
      %row = arith.muli %i, %c128 : index
      %wg = mgpu.axis_index "wg"
      %mine = arith.muli %wg, %c64 : index
      scf.for %t = %c0 to %c2 step %c1 {
        %col = arith.muli %t, %c192 : index
        %xr = memref.subview %xa[%row, %col] [128, 192] [1, 1]
            : memref<256x384xf32> to !run
        %yr = memref.subview %ya[%row, %col] [128, 192] [1, 1]
            : memref<256x384xf32> to !run
        mgpu.emit_pipeline grid [3] ins(%xr : !run) outs(%yr : !run)
            in_specs [#cols] out_specs [#cols] params #two
            warp_specialization #ws {
        ^bb0(%k: index, %xs: !block, %ys: !block):
          %z = arith.constant 0 : index
          %pad = arith.constant 0.0 : f32
          %v = vector.transfer_read %xs[%mine, %z], %pad {in_bounds = [true, true]}
              : !block, vector<64x64xf32>
          %two = arith.constant 2 : index
          %k2 = arith.addi %k, %two : index
          %ki = arith.index_cast %k2 : index to i32
          %kf = arith.sitofp %ki : i32 to f32
          %f = vector.broadcast %kf : f32 to vector<64x64xf32>
          %r = arith.mulf %v, %f : vector<64x64xf32>
          vector.transfer_write %r, %ys[%mine, %z] {in_bounds = [true, true]}
              : vector<64x64xf32>, !block
        }
      }
    }
    return
  }

  func.func @scale_runs_one_thread(%x: memref<256x384xf32>, %y: memref<256x384xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%x : memref<256x384xf32>)
        outs(%y : memref<256x384xf32>) {
    ^bb0(%xa: memref<256x384xf32>, %ya: memref<256x384xf32>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c128 = arith.constant 128 : index
      %c192 = arith.constant 192 : index
      %i = mgpu.program_id 0
      %row = arith.muli %i, %c128 : index
      scf.for %t = %c0 to %c2 step %c1 {
        %col = arith.muli %t, %c192 : index
        %xr = memref.subview %xa[%row, %col] [128, 192] [1, 1]
            : memref<256x384xf32> to !run
        %yr = memref.subview %ya[%row, %col] [128, 192] [1, 1]
            : memref<256x384xf32> to !run
        mgpu.emit_pipeline grid [3] ins(%xr : !run) outs(%yr : !run)
            in_specs [#cols] out_specs [#cols] params #two {
        ^bb0(%k: index, %xs: !block, %ys: !block):
          %z = arith.constant 0 : index
          %pad = arith.constant 0.0 : f32
          %v = vector.transfer_read %xs[%z, %z], %pad {in_bounds = [true, true]}
              : !block, vector<128x64xf32>
          %two = arith.constant 2 : index
          %k2 = arith.addi %k, %two : index
          %ki = arith.index_cast %k2 : index to i32
          %kf = arith.sitofp %ki : i32 to f32
          %f = vector.broadcast %kf : f32 to vector<128x64xf32>
          %r = arith.mulf %v, %f : vector<128x64xf32>
          vector.transfer_write %r, %ys[%z, %z] {in_bounds = [true, true]}
              : vector<128x64xf32>, !block
        }
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c64 = arith.constant 64 : index
    %c192 = arith.constant 192 : index
    %rows = arith.constant 256 : index
    %cols = arith.constant 384 : index
    %x = memref.alloc() : memref<256x384xf32>
    %y = memref.alloc() : memref<256x384xf32>
    %y1 = memref.alloc() : memref<256x384xf32>
    // x[r][c] = (r + 3 c) mod 7 - 3.
    scf.for %r = %c0 to %rows step %c1 {
      scf.for %c = %c0 to %cols step %c1 {
        %t = arith.muli %c, %c3 : index
        %u = arith.addi %r, %t : index
        %m = arith.remui %u, %c7 : index
        %d = arith.subi %m, %c3 : index
        %di = arith.index_cast %d : index to i32
        %df = arith.sitofp %di : i32 to f32
        memref.store %df, %x[%r, %c] : memref<256x384xf32>
      }
    }
    func.call @scale_runs(%x, %y) : (memref<256x384xf32>, memref<256x384xf32>) -> ()
    func.call @scale_runs_one_thread(%x, %y1) : (memref<256x384xf32>, memref<256x384xf32>) -> ()
    %bad:2 = scf.for %r = %c0 to %rows step %c1 iter_args(%by = %c0, %by1 = %c0) -> (index, index) {
      %inner:2 = scf.for %c = %c0 to %cols step %c1 iter_args(%b = %by, %b1 = %by1) -> (index, index) {
        %v = memref.load %x[%r, %c] : memref<256x384xf32>
        %cc = arith.remui %c, %c192 : index
        %k = arith.divui %cc, %c64 : index
        %k2 = arith.addi %k, %c2 : index
        %ki = arith.index_cast %k2 : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        %want = arith.mulf %v, %kf : f32
        %got = memref.load %y[%r, %c] : memref<256x384xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %b2 = arith.addi %b, %inc : index
        %got1 = memref.load %y1[%r, %c] : memref<256x384xf32>
        %ne1 = arith.cmpf une, %got1, %want : f32
        %inc1 = arith.select %ne1, %c1, %c0 : index
        %b3 = arith.addi %b1, %inc1 : index
        scf.yield %b2, %b3 : index, index
      }
      scf.yield %inner#0, %inner#1 : index, index
    }
    vector.print str "warp-specialized mismatches: "
    vector.print %bad#0 : index
    vector.print str "one-thread mismatches: "
    vector.print %bad#1 : index
    return
  }
}
// CHECK: warp-specialized mismatches: 0
// CHECK-NEXT: one-thread mismatches: 0
