// Ampere MMA of arrays (plgpu.mma: acc + a @ b, synchronously), in the
// shape of JAX's test_mma (tests/pallas/mosaic_gpu_test.py:4325) on sm_80:
// - @mma_f16: 64 x 64 x 64, f16 operands into an f32 accumulator that
//   starts from c (one warpgroup: each warp a slab of 16 rows);
// - @mma_bf16: 128 x 16 x 32, bf16 (each warp two 16-row tiles, two K
//   steps).
// The operands are small integers, so every backend's f32 sums are exact
// whatever their order, and the results are compared element for element
// with the host's.
// The emulator runs the mma.sync path (each warp's fragments exchanged as
// the hardware holds them); with --tensor-cores=0 each lane sums its own
// elements.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-run %s -e main --backend=emulate --tensor-cores=0 | FileCheck %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %ptxas -arch=sm_80 -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS0 --implicit-check-not=warning
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %ptxas -arch=sm_80 -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS1 --implicit-check-not=warning

// PTX-LABEL: .entry mma_f16_kernel(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: .entry mma_bf16_kernel(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTXAS0: Compiling entry function 'mma_f16_kernel' for 'sm_80'
// PTXAS0: 0 bytes spill stores, 0 bytes spill loads
// PTXAS1: Compiling entry function 'mma_bf16_kernel' for 'sm_80'
// PTXAS1: 0 bytes spill stores, 0 bytes spill loads

// CHECK: f16 mismatches: 0
// CHECK-NEXT: bf16 mismatches: 0

#one = #mgpu.mesh<grid = [1], grid_names = ["i"]>

module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @mma_f16(%a: memref<64x64xf16>, %b: memref<64x64xf16>,
                     %c: memref<64x64xf32>, %o: memref<64x64xf32>) {
    mgpu.mpmd_map meshes [#one]
        ins(%a, %b, %c : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>)
        outs(%o : memref<64x64xf32>) {
    ^bb0(%ag: memref<64x64xf16>, %bg: memref<64x64xf16>, %cg: memref<64x64xf32>,
         %og: memref<64x64xf32>):
      %c0 = arith.constant 0 : index
      %av = vector.load %ag[%c0, %c0] : memref<64x64xf16>, vector<64x64xf16>
      %bv = vector.load %bg[%c0, %c0] : memref<64x64xf16>, vector<64x64xf16>
      %cv = vector.load %cg[%c0, %c0] : memref<64x64xf32>, vector<64x64xf32>
      %d = mgpu.mma %cv, %av, %bv
          : vector<64x64xf32>, vector<64x64xf16>, vector<64x64xf16>
      vector.store %d, %og[%c0, %c0] : memref<64x64xf32>, vector<64x64xf32>
    }
    return
  }

  func.func @mma_bf16(%a: memref<128x32xbf16>, %b: memref<32x16xbf16>,
                      %o: memref<128x16xf32>) {
    mgpu.mpmd_map meshes [#one]
        ins(%a, %b : memref<128x32xbf16>, memref<32x16xbf16>)
        outs(%o : memref<128x16xf32>) {
    ^bb0(%ag: memref<128x32xbf16>, %bg: memref<32x16xbf16>,
         %og: memref<128x16xf32>):
      %c0 = arith.constant 0 : index
      %av = vector.load %ag[%c0, %c0] : memref<128x32xbf16>, vector<128x32xbf16>
      %bv = vector.load %bg[%c0, %c0] : memref<32x16xbf16>, vector<32x16xbf16>
      %zero = arith.constant dense<0.0> : vector<128x16xf32>
      %d = mgpu.mma %zero, %av, %bv
          : vector<128x16xf32>, vector<128x32xbf16>, vector<32x16xbf16>
      vector.store %d, %og[%c0, %c0] : memref<128x16xf32>, vector<128x16xf32>
    }
    return
  }

  // x[i, j] = ((p i + q j) mod 7) - 3, exact in f16, bf16 and f32.
  func.func @fill_f16(%x: memref<?x?xf16>, %p: index, %q: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %rows = memref.dim %x, %c0 : memref<?x?xf16>
    %cols = memref.dim %x, %c1 : memref<?x?xf16>
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %pi = arith.muli %p, %i : index
        %qj = arith.muli %q, %j : index
        %s = arith.addi %pi, %qj : index
        %r = arith.remui %s, %c7 : index
        %v = arith.subi %r, %c3 : index
        %vi = arith.index_cast %v : index to i32
        %f = arith.sitofp %vi : i32 to f16
        memref.store %f, %x[%i, %j] : memref<?x?xf16>
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0 : i32
    %zf = arith.constant 0.0 : f32

    %a = memref.alloc() : memref<64x64xf16>
    %b = memref.alloc() : memref<64x64xf16>
    %c = memref.alloc() : memref<64x64xf32>
    %o = memref.alloc() : memref<64x64xf32>
    %ad = memref.cast %a : memref<64x64xf16> to memref<?x?xf16>
    %bd = memref.cast %b : memref<64x64xf16> to memref<?x?xf16>
    func.call @fill_f16(%ad, %c3, %c1) : (memref<?x?xf16>, index, index) -> ()
    func.call @fill_f16(%bd, %c1, %c2) : (memref<?x?xf16>, index, index) -> ()
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %s = arith.subi %i, %j : index
        %si = arith.index_cast %s : index to i32
        %f = arith.sitofp %si : i32 to f32
        memref.store %f, %c[%i, %j] : memref<64x64xf32>
      }
    }
    func.call @mma_f16(%a, %b, %c, %o)
        : (memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>, memref<64x64xf32>) -> ()
    %bad = scf.for %i = %c0 to %c64 step %c1 iter_args(%n = %zero) -> i32 {
      %row = scf.for %j = %c0 to %c64 step %c1 iter_args(%m = %n) -> i32 {
        %c_ij = memref.load %c[%i, %j] : memref<64x64xf32>
        %want = scf.for %k = %c0 to %c64 step %c1 iter_args(%s = %c_ij) -> f32 {
          %x = memref.load %a[%i, %k] : memref<64x64xf16>
          %y = memref.load %b[%k, %j] : memref<64x64xf16>
          %xf = arith.extf %x : f16 to f32
          %yf = arith.extf %y : f16 to f32
          %p = arith.mulf %xf, %yf : f32
          %t = arith.addf %s, %p : f32
          scf.yield %t : f32
        }
        %got = memref.load %o[%i, %j] : memref<64x64xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.extui %ne : i1 to i32
        %next = arith.addi %m, %inc : i32
        scf.yield %next : i32
      }
      scf.yield %row : i32
    }
    vector.print str "f16 mismatches: "
    vector.print %bad : i32

    %a16 = memref.alloc() : memref<128x32xf16>
    %b16 = memref.alloc() : memref<32x16xf16>
    %a16d = memref.cast %a16 : memref<128x32xf16> to memref<?x?xf16>
    %b16d = memref.cast %b16 : memref<32x16xf16> to memref<?x?xf16>
    func.call @fill_f16(%a16d, %c2, %c5) : (memref<?x?xf16>, index, index) -> ()
    func.call @fill_f16(%b16d, %c5, %c3) : (memref<?x?xf16>, index, index) -> ()
    %ab = memref.alloc() : memref<128x32xbf16>
    %bb = memref.alloc() : memref<32x16xbf16>
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c32 step %c1 {
        %x = memref.load %a16[%i, %k] : memref<128x32xf16>
        %xf = arith.extf %x : f16 to f32
        %xb = arith.truncf %xf : f32 to bf16
        memref.store %xb, %ab[%i, %k] : memref<128x32xbf16>
      }
    }
    scf.for %k = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %x = memref.load %b16[%k, %j] : memref<32x16xf16>
        %xf = arith.extf %x : f16 to f32
        %xb = arith.truncf %xf : f32 to bf16
        memref.store %xb, %bb[%k, %j] : memref<32x16xbf16>
      }
    }
    %ob = memref.alloc() : memref<128x16xf32>
    func.call @mma_bf16(%ab, %bb, %ob)
        : (memref<128x32xbf16>, memref<32x16xbf16>, memref<128x16xf32>) -> ()
    %badb = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %zero) -> i32 {
      %row = scf.for %j = %c0 to %c16 step %c1 iter_args(%m = %n) -> i32 {
        %want = scf.for %k = %c0 to %c32 step %c1 iter_args(%s = %zf) -> f32 {
          %x = memref.load %a16[%i, %k] : memref<128x32xf16>
          %y = memref.load %b16[%k, %j] : memref<32x16xf16>
          %xf = arith.extf %x : f16 to f32
          %yf = arith.extf %y : f16 to f32
          %p = arith.mulf %xf, %yf : f32
          %t = arith.addf %s, %p : f32
          scf.yield %t : f32
        }
        %got = memref.load %ob[%i, %j] : memref<128x16xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.extui %ne : i1 to i32
        %next = arith.addi %m, %inc : i32
        scf.yield %next : i32
      }
      scf.yield %row : i32
    }
    vector.print str "bf16 mismatches: "
    vector.print %badb : i32
    return
  }
}
