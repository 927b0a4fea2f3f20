// Block dimensions squeezed with JAX's `None` / `pl.Squeezed()` and indexed
// by element with `pl.Element(n)`, as `indexing` on #mgpu.block_spec.
// @batched_row_sums is JAX's usual batched spec, `BlockSpec((None, 32, 128),
// lambda b, i: (b, i, 0))`: the body sees a 32x128 block of one batch and
// writes a (None, 32) block of the sums. @sliding_sums reads overlapping
// windows, `BlockSpec((pl.Element(64),), lambda i: (16 * i,))`, the last ones
// past the array's end (TMA fills zeros), and writes one squeezed element per
// program: its body sees a rank-0 block. @pipelined_windows does the same
// in an emit_pipeline (JAX's pipeline reads element dimensions too), each
// program its own row, squeezed, through a 2-deep pipeline.
// RUN: %run_on_backends %s --match-full-lines
// The squeezed batch is a TMA coordinate of its own; ptxas assembles both.
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.0.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS0 --implicit-check-not=warning
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS1 --implicit-check-not=warning

!smem2 = memref<32x128xf32, #gpu.address_space<workgroup>>
!smem1 = memref<32xf32, #gpu.address_space<workgroup>>
#x_block = #mgpu.block_spec<shape = [1, 32, 128],
                            index_map = affine_map<(b, i) -> (b, i, 0)>,
                            indexing = [squeezed, blocked, blocked]>
#o_block = #mgpu.block_spec<shape = [1, 32],
                            index_map = affine_map<(b, i) -> (b, i)>,
                            indexing = [squeezed, blocked]>
#w_block = #mgpu.block_spec<shape = [64],
                            index_map = affine_map<(i) -> (i * 16)>,
                            indexing = [element]>
#s_block = #mgpu.block_spec<shape = [1], index_map = affine_map<(i) -> (i)>,
                            indexing = [squeezed]>
#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"]>
#row_window = #mgpu.block_spec<shape = [1, 64],
                               index_map = affine_map<(k) -> (0, k * 32)>,
                               indexing = [squeezed, element]>
#one_sum = #mgpu.block_spec<shape = [1, 1], index_map = affine_map<(k) -> (0, k)>,
                            indexing = [squeezed, squeezed]>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>

module {
  func.func @batched_row_sums(%x: memref<4x64x128xf32>, %o: memref<4x64xf32>) {
    mgpu.pallas_call grid [4, 2] ins(%x : memref<4x64x128xf32>)
        outs(%o : memref<4x64xf32>)
        in_specs [#x_block] out_specs [#o_block] {
    ^bb0(%xs: !smem2, %os: !smem1):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<32xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : !smem2, vector<32x128xf32>
      %sum = vector.multi_reduction <add>, %v, %zero [1]
          : vector<32x128xf32> to vector<32xf32>
      vector.transfer_write %sum, %os[%c0] {in_bounds = [true]}
          : vector<32xf32>, !smem1
    }
    return
  }

  func.func @sliding_sums(%x: memref<256xf32>, %o: memref<16xf32>) {
    mgpu.pallas_call grid [16] ins(%x : memref<256xf32>)
        outs(%o : memref<16xf32>)
        in_specs [#w_block] out_specs [#s_block] {
    ^bb0(%window: memref<64xf32, #gpu.address_space<workgroup>>,
         %out: memref<f32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %v = vector.transfer_read %window[%c0], %pad {in_bounds = [true]}
          : memref<64xf32, #gpu.address_space<workgroup>>, vector<64xf32>
      %sum = vector.reduction <add>, %v : vector<64xf32> into f32
      memref.store %sum, %out[] : memref<f32, #gpu.address_space<workgroup>>
    }
    return
  }

  func.func @pipelined_windows(%x: memref<4x256xf32>, %o: memref<4x8xf32>) {
    mgpu.mpmd_map meshes [#mesh] ins(%x : memref<4x256xf32>)
        outs(%o : memref<4x8xf32>) {
    ^bb0(%xa: memref<4x256xf32>, %oa: memref<4x8xf32>):
      %i = mgpu.program_id 0
      %row = memref.subview %xa[%i, 0] [1, 256] [1, 1]
          : memref<4x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>
      %sums = memref.subview %oa[%i, 0] [1, 8] [1, 1]
          : memref<4x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>
      mgpu.emit_pipeline grid [8]
          ins(%row : memref<1x256xf32, strided<[256, 1], offset: ?>>)
          outs(%sums : memref<1x8xf32, strided<[8, 1], offset: ?>>)
          in_specs [#row_window] out_specs [#one_sum] params #two {
      ^bb0(%k: index, %window: memref<64xf32, #gpu.address_space<workgroup>>,
           %out: memref<f32, #gpu.address_space<workgroup>>):
        %c0 = arith.constant 0 : index
        %pad = arith.constant 0.0 : f32
        %v = vector.transfer_read %window[%c0], %pad {in_bounds = [true]}
            : memref<64xf32, #gpu.address_space<workgroup>>, vector<64xf32>
        %sum = vector.reduction <add>, %v : vector<64xf32> into f32
        memref.store %sum, %out[] : memref<f32, #gpu.address_space<workgroup>>
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %fzero = arith.constant 0.0 : f32
    %izero = arith.constant 0 : i32
    %one = arith.constant 1 : i32

    // x[b][r][c] = b * 64 + r + c / 128: every partial sum exact in f32.
    %x = memref.alloc() : memref<4x64x128xf32>
    scf.for %b = %c0 to %c4 step %c1 {
      scf.for %r = %c0 to %c64 step %c1 {
        scf.for %c = %c0 to %c128 step %c1 {
          %bi = arith.index_cast %b : index to i32
          %ri = arith.index_cast %r : index to i32
          %ci = arith.index_cast %c : index to i32
          %k = arith.constant 64 : i32
          %bk = arith.muli %bi, %k : i32
          %br = arith.addi %bk, %ri : i32
          %bf = arith.sitofp %br : i32 to f32
          %cf = arith.sitofp %ci : i32 to f32
          %d = arith.constant 128.0 : f32
          %cs = arith.divf %cf, %d : f32
          %v = arith.addf %bf, %cs : f32
          memref.store %v, %x[%b, %r, %c] : memref<4x64x128xf32>
        }
      }
    }
    %o = memref.alloc() : memref<4x64xf32>
    call @batched_row_sums(%x, %o) : (memref<4x64x128xf32>, memref<4x64xf32>) -> ()
    %bad1 = scf.for %b = %c0 to %c4 step %c1 iter_args(%n0 = %izero) -> i32 {
      %nb = scf.for %r = %c0 to %c64 step %c1 iter_args(%n = %n0) -> i32 {
        %want = scf.for %c = %c0 to %c128 step %c1 iter_args(%s = %fzero) -> f32 {
          %v = memref.load %x[%b, %r, %c] : memref<4x64x128xf32>
          %s2 = arith.addf %s, %v : f32
          scf.yield %s2 : f32
        }
        %got = memref.load %o[%b, %r] : memref<4x64xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %one, %izero : i32
        %n2 = arith.addi %n, %inc : i32
        scf.yield %n2 : i32
      }
      scf.yield %nb : i32
    }
    vector.print str "batched row sums mismatches: "
    vector.print %bad1 : i32

    // y[i] = i, so window i sums 16 i .. 16 i + 63, clipped at 255.
    %y = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %y[%i] : memref<256xf32>
    }
    %s = memref.alloc() : memref<16xf32>
    call @sliding_sums(%y, %s) : (memref<256xf32>, memref<16xf32>) -> ()
    %bad2 = scf.for %i = %c0 to %c16 step %c1 iter_args(%n = %izero) -> i32 {
      %start = arith.muli %i, %c16 : index
      %end0 = arith.addi %start, %c64 : index
      %end = arith.minui %end0, %c256 : index
      %want = scf.for %j = %start to %end step %c1 iter_args(%acc = %fzero) -> f32 {
        %v = memref.load %y[%j] : memref<256xf32>
        %a2 = arith.addf %acc, %v : f32
        scf.yield %a2 : f32
      }
      %got = memref.load %s[%i] : memref<16xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.select %ne, %one, %izero : i32
      %n2 = arith.addi %n, %inc : i32
      scf.yield %n2 : i32
    }
    vector.print str "sliding sums mismatches: "
    vector.print %bad2 : i32

    // z[r][c] = r * 256 + c; out[r][k] sums z[r][32 k .. 32 k + 63], clipped.
    %z = memref.alloc() : memref<4x256xf32>
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %c = %c0 to %c256 step %c1 {
        %rc = arith.muli %r, %c256 : index
        %e = arith.addi %rc, %c : index
        %ei = arith.index_cast %e : index to i32
        %f = arith.sitofp %ei : i32 to f32
        memref.store %f, %z[%r, %c] : memref<4x256xf32>
      }
    }
    %p = memref.alloc() : memref<4x8xf32>
    call @pipelined_windows(%z, %p) : (memref<4x256xf32>, memref<4x8xf32>) -> ()
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %bad3 = scf.for %r = %c0 to %c4 step %c1 iter_args(%n0 = %izero) -> i32 {
      %nr = scf.for %k = %c0 to %c8 step %c1 iter_args(%n = %n0) -> i32 {
        %start = arith.muli %k, %c32 : index
        %end0 = arith.addi %start, %c64 : index
        %end = arith.minui %end0, %c256 : index
        %want = scf.for %j = %start to %end step %c1 iter_args(%acc = %fzero) -> f32 {
          %v = memref.load %z[%r, %j] : memref<4x256xf32>
          %a2 = arith.addf %acc, %v : f32
          scf.yield %a2 : f32
        }
        %got = memref.load %p[%r, %k] : memref<4x8xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %one, %izero : i32
        %n2 = arith.addi %n, %inc : i32
        scf.yield %n2 : i32
      }
      scf.yield %nr : i32
    }
    vector.print str "pipelined windows mismatches: "
    vector.print %bad3 : i32

    %last = memref.load %s[%c4] : memref<16xf32>
    vector.print str "window 4: "
    vector.print %last : f32
    return
  }
}
// CHECK: batched row sums mismatches: 0
// CHECK: sliding sums mismatches: 0
// CHECK: pipelined windows mismatches: 0
// CHECK: window 4: 6112
// PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTXAS0: Compiling entry function 'batched_row_sums_kernel' for 'sm_90a'
// PTXAS0: 0 bytes spill stores, 0 bytes spill loads
// PTXAS1: Compiling entry function 'sliding_sums_kernel' for 'sm_90a'
// PTXAS1: 0 bytes spill stores, 0 bytes spill loads
