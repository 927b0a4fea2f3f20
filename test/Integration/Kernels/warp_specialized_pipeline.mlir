// Warp-specialized pipelines (plgpu.emit_pipeline_warp_specialized): on a
// mesh of 3 Pallas threads, thread 2 only copies blocks in and threads 0
// and 1 each work on their 64 rows of every block.
// - @scale: y = x * (k + 2) for column block k, 4 steps through 2 slots,
//   so the memory thread waits for released slots, and an output block
//   that leaves at every step (the compute threads meet before each copy
//   out);
// - @row_sums: s[r] = sum of row r, an output block revisited at every
//   step and written back once.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa" -o /dev/null

#mesh = #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#cols = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(k) -> (0, k)>>
#sums = #mgpu.block_spec<shape = [128], index_map = affine_map<(k) -> (0)>>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>
#ws = #mgpu.warp_specialization<memory_registers = 40>
!block = memref<128x64xf32, #gpu.address_space<workgroup>>
!rows = memref<128x256xf32, strided<[256, 1], offset: ?>>

module {
  func.func @scale(%x: memref<256x256xf32>, %y: memref<256x256xf32>) {
    mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x256xf32>)
        outs(%y : memref<256x256xf32>) {
    ^bb0(%xa: memref<256x256xf32>, %ya: memref<256x256xf32>):
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %i = mgpu.program_id 0
      %row = arith.muli %i, %c128 : index
      %wg = mgpu.axis_index "wg"
      %mine = arith.muli %wg, %c64 : index
      %xr = memref.subview %xa[%row, 0] [128, 256] [1, 1]
          : memref<256x256xf32> to !rows
      %yr = memref.subview %ya[%row, 0] [128, 256] [1, 1]
          : memref<256x256xf32> to !rows
      mgpu.emit_pipeline grid [4] ins(%xr : !rows) outs(%yr : !rows)
          in_specs [#cols] out_specs [#cols] params #two
          warp_specialization #ws {
      ^bb0(%k: index, %xs: !block, %ys: !block):
        %c0 = arith.constant 0 : index
        %pad = arith.constant 0.0 : f32
        %v = vector.transfer_read %xs[%mine, %c0], %pad {in_bounds = [true, true]}
            : !block, vector<64x64xf32>
        %c2 = arith.constant 2 : index
        %k2 = arith.addi %k, %c2 : index
        %ki = arith.index_cast %k2 : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        %f = vector.broadcast %kf : f32 to vector<64x64xf32>
        %r = arith.mulf %v, %f : vector<64x64xf32>
        vector.transfer_write %r, %ys[%mine, %c0] {in_bounds = [true, true]}
            : vector<64x64xf32>, !block
      }
    }
    return
  }

  func.func @row_sums(%x: memref<256x256xf32>, %s: memref<256xf32>) {
    mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x256xf32>)
        outs(%s : memref<256xf32>) {
    ^bb0(%xa: memref<256x256xf32>, %sa: memref<256xf32>):
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %i = mgpu.program_id 0
      %row = arith.muli %i, %c128 : index
      %wg = mgpu.axis_index "wg"
      %mine = arith.muli %wg, %c64 : index
      %xr = memref.subview %xa[%row, 0] [128, 256] [1, 1]
          : memref<256x256xf32> to !rows
      %sr = memref.subview %sa[%row] [128] [1]
          : memref<256xf32> to memref<128xf32, strided<[1], offset: ?>>
      mgpu.emit_pipeline grid [4] ins(%xr : !rows)
          outs(%sr : memref<128xf32, strided<[1], offset: ?>>)
          in_specs [#cols] out_specs [#sums] params #two
          warp_specialization #mgpu.warp_specialization<> {
      ^bb0(%k: index, %xs: !block,
           %acc: memref<128xf32, #gpu.address_space<workgroup>>):
        %c0 = arith.constant 0 : index
        %pad = arith.constant 0.0 : f32
        %first = arith.cmpi eq, %k, %c0 : index
        scf.if %first {
          %zero = arith.constant dense<0.0> : vector<64xf32>
          vector.transfer_write %zero, %acc[%mine] {in_bounds = [true]}
              : vector<64xf32>, memref<128xf32, #gpu.address_space<workgroup>>
        }
        %partial = vector.transfer_read %acc[%mine], %pad {in_bounds = [true]}
            : memref<128xf32, #gpu.address_space<workgroup>>, vector<64xf32>
        %v = vector.transfer_read %xs[%mine, %c0], %pad {in_bounds = [true, true]}
            : !block, vector<64x64xf32>
        %sum = vector.multi_reduction <add>, %v, %partial [1]
            : vector<64x64xf32> to vector<64xf32>
        vector.transfer_write %sum, %acc[%mine] {in_bounds = [true]}
            : vector<64xf32>, memref<128xf32, #gpu.address_space<workgroup>>
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %c64 = arith.constant 64 : index
    %n = arith.constant 256 : index
    %f0 = arith.constant 0.0 : f32
    %x = memref.alloc() : memref<256x256xf32>
    %y = memref.alloc() : memref<256x256xf32>
    %s = memref.alloc() : memref<256xf32>
    // x[r][c] = (r + 3 c) mod 7 - 3.
    scf.for %r = %c0 to %n step %c1 {
      scf.for %c = %c0 to %n step %c1 {
        %c3 = arith.constant 3 : index
        %t = arith.muli %c, %c3 : index
        %u = arith.addi %r, %t : index
        %m = arith.remui %u, %c7 : index
        %d = arith.subi %m, %c3 : index
        %di = arith.index_cast %d : index to i32
        %df = arith.sitofp %di : i32 to f32
        memref.store %df, %x[%r, %c] : memref<256x256xf32>
      }
    }
    func.call @scale(%x, %y) : (memref<256x256xf32>, memref<256x256xf32>) -> ()
    func.call @row_sums(%x, %s) : (memref<256x256xf32>, memref<256xf32>) -> ()
    %bad:2 = scf.for %r = %c0 to %n step %c1 iter_args(%by = %c0, %bs = %c0) -> (index, index) {
      %inner:2 = scf.for %c = %c0 to %n step %c1 iter_args(%b = %by, %acc = %f0) -> (index, f32) {
        %v = memref.load %x[%r, %c] : memref<256x256xf32>
        %k = arith.divui %c, %c64 : index
        %k2 = arith.addi %k, %c2 : index
        %ki = arith.index_cast %k2 : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        %want = arith.mulf %v, %kf : f32
        %got = memref.load %y[%r, %c] : memref<256x256xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %b2 = arith.addi %b, %inc : index
        %acc2 = arith.addf %acc, %v : f32
        scf.yield %b2, %acc2 : index, f32
      }
      %got = memref.load %s[%r] : memref<256xf32>
      %ne = arith.cmpf une, %got, %inner#1 : f32
      %inc = arith.select %ne, %c1, %c0 : index
      %bs2 = arith.addi %bs, %inc : index
      scf.yield %inner#0, %bs2 : index, index
    }
    vector.print str "scale mismatches: "
    vector.print %bad#0 : index
    vector.print str "row_sums mismatches: "
    vector.print %bad#1 : index
    %c200 = arith.constant 200 : index
    %v = vector.load %y[%c200, %c0] : memref<256x256xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    %w = vector.load %s[%c0] : memref<256xf32>, vector<4xf32>
    vector.print %w : vector<4xf32>
    return
  }
}
// CHECK: scale mismatches: 0
// CHECK-NEXT: row_sums mismatches: 0
// CHECK-NEXT: ( 2, -6, 0, 6 )
// CHECK-NEXT: ( -1, -4, 0, 4 )
