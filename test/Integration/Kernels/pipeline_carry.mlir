// emit_pipeline with `init_carry`, as JAX writes
// `plgpu.emit_pipeline(body, ..., init_carry=acc)(x_gmem)`: the body gets
// the previous step's carry and returns the next, and the pipeline returns
// the last. @row_sums carries a vector of partial sums over 4 steps of a
// 2-deep pipeline, then stores it; @matmul carries a wgmma accumulator
// through the K steps of a JAX-tiled bf16 pipeline (Hopper's matmul in
// registers, with no output block at all) and stores it after the
// pipeline.
// RUN: %run_on_backends %s --match-full-lines
// RUN: %run_on_backends %s --match-full-lines -- --tensor-cores=0
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir --object 0 -o %t.0.ptx
// RUN: %extract_ptx %t.mlir --object 1 -o %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=PTX < %t.1.ptx
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16

// CHECK: row sums mismatches: 0
// CHECK-NEXT: matmul mismatches: 0

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"]>
#one = #mgpu.mesh<grid = [2], grid_names = ["i"]>
#cols = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k) -> (0, k)>>
#a = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>,
                      transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#b = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (k, 0)>,
                      transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>
!smem_x = memref<16x64xf32, #gpu.address_space<workgroup>>
!smem_ab = memref<64x64xbf16, #gpu.address_space<workgroup>>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  func.func @row_sums(%x: memref<64x256xf32>, %o: memref<64xf32>) {
    mgpu.mpmd_map meshes [#mesh] ins(%x : memref<64x256xf32>) outs(%o : memref<64xf32>) {
    ^bb0(%xa: memref<64x256xf32>, %oa: memref<64xf32>):
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %i = mgpu.program_id 0
      %row = arith.muli %i, %c16 : index
      %rows = memref.subview %xa[%row, 0] [16, 256] [1, 1]
          : memref<64x256xf32> to memref<16x256xf32, strided<[256, 1], offset: ?>>
      %zero = arith.constant dense<0.0> : vector<16xf32>
      %sums = mgpu.emit_pipeline grid [4]
          ins(%rows : memref<16x256xf32, strided<[256, 1], offset: ?>>)
          init_carry(%zero : vector<16xf32>)
          in_specs [#cols] out_specs [] params #two -> vector<16xf32> {
      ^bb0(%k: index, %xs: !smem_x, %partial: vector<16xf32>):
        %pad = arith.constant 0.0 : f32
        %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
            : !smem_x, vector<16x64xf32>
        %sum = vector.multi_reduction <add>, %v, %partial [1]
            : vector<16x64xf32> to vector<16xf32>
        mgpu.yield %sum : vector<16xf32>
      }
      vector.store %sums, %oa[%row] : memref<64xf32>, vector<16xf32>
    }
    return
  }

  // c[64i:64i+64, :] = a[64i:64i+64, :] @ b over 4 K steps of 64.
  func.func @matmul(%a: memref<128x256xbf16>, %b: memref<256x64xbf16>,
                    %c: memref<128x64xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%a, %b : memref<128x256xbf16>, memref<256x64xbf16>)
        outs(%c : memref<128x64xf32>) {
    ^bb0(%ga: memref<128x256xbf16>, %gb: memref<256x64xbf16>, %gc: memref<128x64xf32>):
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %i = mgpu.program_id 0
      %row = arith.muli %i, %c64 : index
      %rows = memref.subview %ga[%row, 0] [64, 256] [1, 1]
          : memref<128x256xbf16> to memref<64x256xbf16, strided<[256, 1], offset: ?>>
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %acc = mgpu.emit_pipeline grid [4]
          ins(%rows, %gb : memref<64x256xbf16, strided<[256, 1], offset: ?>>, memref<256x64xbf16>)
          init_carry(%zero : vector<64x64xf32>)
          in_specs [#a, #b] out_specs [] params #two -> vector<64x64xf32> {
      ^bb0(%k: index, %as: !smem_ab, %bs: !smem_ab, %partial: vector<64x64xf32>):
        %d = mgpu.wgmma %partial, %as, %bs : vector<64x64xf32>, !smem_ab, !smem_ab
        mgpu.wgmma_wait 0
        mgpu.yield %d : vector<64x64xf32>
      }
      vector.store %acc, %gc[%row, %c0] : memref<128x64xf32>, vector<64x64xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %zeroi = arith.constant 0 : i32
    %onei = arith.constant 1 : i32

    // x[r][c] = (r + c) % 7 - 3.
    %x = memref.alloc() : memref<64x256xf32>
    scf.for %r = %c0 to %c64 step %c1 {
      scf.for %k = %c0 to %c256 step %c1 {
        %s = arith.addi %r, %k : index
        %m = arith.remui %s, %c7 : index
        %v = arith.subi %m, %c3 : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        memref.store %vf, %x[%r, %k] : memref<64x256xf32>
      }
    }
    %o = memref.alloc() : memref<64xf32>
    func.call @row_sums(%x, %o) : (memref<64x256xf32>, memref<64xf32>) -> ()
    %bad = scf.for %r = %c0 to %c64 step %c1 iter_args(%n = %zeroi) -> i32 {
      %want = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %zero) -> f32 {
        %v = memref.load %x[%r, %k] : memref<64x256xf32>
        %acc2 = arith.addf %acc, %v : f32
        scf.yield %acc2 : f32
      }
      %got = memref.load %o[%r] : memref<64xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.select %ne, %onei, %zeroi : i32
      %n2 = arith.addi %n, %inc : i32
      scf.yield %n2 : i32
    }
    vector.print str "row sums mismatches: "
    vector.print %bad : i32

    // a[i][k] = (i + k) % 5 - 2, b[k][j] = (3k + j) % 7 - 3.
    %a = memref.alloc() : memref<128x256xbf16>
    %b = memref.alloc() : memref<256x64xbf16>
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c256 step %c1 {
        %s = arith.addi %i, %k : index
        %m = arith.remui %s, %c5 : index
        %v = arith.subi %m, %c3 : index
        %v1 = arith.addi %v, %c1 : index
        %vi = arith.index_cast %v1 : index to i32
        %vf = arith.sitofp %vi : i32 to bf16
        memref.store %vf, %a[%i, %k] : memref<128x256xbf16>
      }
    }
    scf.for %k = %c0 to %c256 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %k3 = arith.muli %k, %c3 : index
        %s = arith.addi %k3, %j : index
        %m = arith.remui %s, %c7 : index
        %v = arith.subi %m, %c3 : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to bf16
        memref.store %vf, %b[%k, %j] : memref<256x64xbf16>
      }
    }
    %c = memref.alloc() : memref<128x64xf32>
    func.call @matmul(%a, %b, %c) : (memref<128x256xbf16>, memref<256x64xbf16>, memref<128x64xf32>) -> ()
    %bad2 = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %zeroi) -> i32 {
      %row = scf.for %j = %c0 to %c64 step %c1 iter_args(%m = %n) -> i32 {
        %ref = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %zero) -> f32 {
          %p = memref.load %a[%i, %k] : memref<128x256xbf16>
          %q = memref.load %b[%k, %j] : memref<256x64xbf16>
          %pf = arith.extf %p : bf16 to f32
          %qf = arith.extf %q : bf16 to f32
          %pq = arith.mulf %pf, %qf : f32
          %acc2 = arith.addf %acc, %pq : f32
          scf.yield %acc2 : f32
        }
        %got = memref.load %c[%i, %j] : memref<128x64xf32>
        %ne = arith.cmpf une, %got, %ref : f32
        %inc = arith.select %ne, %onei, %zeroi : i32
        %m2 = arith.addi %m, %inc : i32
        scf.yield %m2 : i32
      }
      scf.yield %row : i32
    }
    vector.print str "matmul mismatches: "
    vector.print %bad2 : i32
    return
  }
}
