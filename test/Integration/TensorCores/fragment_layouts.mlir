// JAX's other register layouts (plgpu.Layout.WGMMA_8BIT, WGMMA_UPCAST_2X,
// WGMMA_UPCAST_4X, WGMMA_TRANSPOSED) on every backend, in kernels shaped
// after JAX's tests:
// - @copy_layouts: test_copy_layout, a block loaded in each layout and
//   stored back (64 x 128 f32);
// - @upcast: test_inline_mgpu_layout_args, i8 loaded in the two upcast
//   layouts, converted and scaled by a per-row scale (a grid of two 64-row
//   blocks);
// - @transposed: test_transposed_load_store, a block loaded in the
//   transposed layout, cast to wgmma and stored, and transposed;
// - @registers_8bit: test_wgmma_registers_8bit, an f8 a in the 8-bit layout
//   given to wgmma from registers.
// On the GPU each layout's lanes hold JAX's elements and move them with
// V-wide accesses (the emulator runs that code); the host backends ignore
// layouts. Every output is compared element by element on the host.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt %s --mgpu-assign-layouts | FileCheck %s --check-prefix=LAYOUTS
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %extract_ptx --object 2 %t.mlir -o %t.2.ptx
// RUN: %extract_ptx --object 3 %t.mlir -o %t.3.ptx
// RUN: FileCheck %s --check-prefix=COPY < %t.0.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.2.ptx -o %t.2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.3.ptx -o %t.3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

// A block read in and written from each layout: V = 4 f32 per access (16
// of them per lane) in wgmma_8bit, wgmma_upcast_2x and wgmma_upcast_4x
// (two per 8-column piece); one at a time in wgmma_transposed, whose
// vectors run along the rows.
// COPY-COUNT-16: ld.shared.v4.b32
// COPY-COUNT-16: st.shared.v4.b32
// COPY-COUNT-16: ld.shared.v4.b32
// COPY-COUNT-16: st.shared.v4.b32
// COPY-COUNT-16: ld.shared.v4.b32
// COPY-COUNT-16: st.shared.v4.b32
// COPY-COUNT-64: ld.shared.b32
// COPY-COUNT-64: st.shared.b32

// The conversions keep the layout of their operand.
// LAYOUTS-LABEL: func.func @upcast
// LAYOUTS: arith.sitofp {{.*}}mgpu.out_layouts = [#mgpu.layout<wgmma_upcast_2x>]
// LAYOUTS: arith.sitofp {{.*}}mgpu.out_layouts = [#mgpu.layout<wgmma_upcast_4x>]

// CHECK: copy mismatches: 0
// CHECK-NEXT: upcast mismatches: 0
// CHECK-NEXT: transposed mismatches: 0
// CHECK-NEXT: registers_8bit mismatches: 0

#whole = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>>
#rows = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (i, 0)>>
#scale = #mgpu.block_spec<shape = [64], index_map = affine_map<(i) -> (i)>>
#square = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>>
#b_spec = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (0, 0)>>
#smem = #gpu.address_space<workgroup>

module {
  func.func @copy_layouts(%x: memref<64x128xf32>, %o8: memref<64x128xf32>,
                          %o2: memref<64x128xf32>, %o4: memref<64x128xf32>,
                          %ot: memref<64x128xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<64x128xf32>)
        outs(%o8, %o2, %o4, %ot : memref<64x128xf32>, memref<64x128xf32>, memref<64x128xf32>, memref<64x128xf32>)
        in_specs [#whole] out_specs [#whole, #whole, #whole, #whole] {
    ^bb0(%xs: memref<64x128xf32, #smem>, %s8: memref<64x128xf32, #smem>,
         %s2: memref<64x128xf32, #smem>, %s4: memref<64x128xf32, #smem>,
         %st: memref<64x128xf32, #smem>):
      %c0 = arith.constant 0 : index
      %f0 = arith.constant 0.0 : f32
      %r8 = vector.transfer_read %xs[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<64x128xf32, #smem>, vector<64x128xf32>
      %v8 = mgpu.layout_cast %r8 : vector<64x128xf32> to #mgpu.layout<wgmma_8bit>
      vector.transfer_write %v8, %s8[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<64x128xf32, #smem>
      %r2 = vector.transfer_read %xs[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<64x128xf32, #smem>, vector<64x128xf32>
      %v2 = mgpu.layout_cast %r2 : vector<64x128xf32> to #mgpu.layout<wgmma_upcast_2x>
      vector.transfer_write %v2, %s2[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<64x128xf32, #smem>
      %r4 = vector.transfer_read %xs[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<64x128xf32, #smem>, vector<64x128xf32>
      %v4 = mgpu.layout_cast %r4 : vector<64x128xf32> to #mgpu.layout<wgmma_upcast_4x>
      vector.transfer_write %v4, %s4[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<64x128xf32, #smem>
      %rt = vector.transfer_read %xs[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<64x128xf32, #smem>, vector<64x128xf32>
      %vt = mgpu.layout_cast %rt : vector<64x128xf32> to #mgpu.layout<wgmma_transposed>
      vector.transfer_write %vt, %st[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<64x128xf32, #smem>
    }
    return
  }

  // o2 = o4 = f32(x) * s[row], x read straight into the upcast layouts.
  func.func @upcast(%x: memref<128x128xi8>, %s: memref<128xf32>,
                    %o2: memref<128x128xf32>, %o4: memref<128x128xf32>) {
    mgpu.pallas_call grid [2] ins(%x, %s : memref<128x128xi8>, memref<128xf32>)
        outs(%o2, %o4 : memref<128x128xf32>, memref<128x128xf32>)
        in_specs [#rows, #scale] out_specs [#rows, #rows] {
    ^bb0(%xs: memref<64x128xi8, #smem>, %ss: memref<64xf32, #smem>,
         %s2: memref<64x128xf32, #smem>, %s4: memref<64x128xf32, #smem>):
      %c0 = arith.constant 0 : index
      %i0 = arith.constant 0 : i8
      %f0 = arith.constant 0.0 : f32
      %x8 = vector.transfer_read %xs[%c0, %c0], %i0 {in_bounds = [true, true]}
          : memref<64x128xi8, #smem>, vector<64x128xi8>
      %row = vector.transfer_read %ss[%c0], %f0 {in_bounds = [true]}
          : memref<64xf32, #smem>, vector<64xf32>
      %col = vector.shape_cast %row : vector<64xf32> to vector<64x1xf32>
      %scales = vector.broadcast %col : vector<64x1xf32> to vector<64x128xf32>
      %x2 = mgpu.layout_cast %x8 : vector<64x128xi8> to #mgpu.layout<wgmma_upcast_2x>
      %f2 = arith.sitofp %x2 : vector<64x128xi8> to vector<64x128xf32>
      %y2 = arith.mulf %f2, %scales : vector<64x128xf32>
      vector.transfer_write %y2, %s2[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<64x128xf32, #smem>
      %x4 = mgpu.layout_cast %x8 : vector<64x128xi8> to #mgpu.layout<wgmma_upcast_4x>
      %f4 = arith.sitofp %x4 : vector<64x128xi8> to vector<64x128xf32>
      %y4 = arith.mulf %f4, %scales : vector<64x128xf32>
      vector.transfer_write %y4, %s4[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<64x128xf32, #smem>
    }
    return
  }

  // o = x (through wgmma_transposed and wgmma), t = x^T.
  func.func @transposed(%x: memref<64x64xf32>, %o: memref<64x64xf32>,
                        %t: memref<64x64xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<64x64xf32>)
        outs(%o, %t : memref<64x64xf32>, memref<64x64xf32>)
        in_specs [#square] out_specs [#square, #square] {
    ^bb0(%xs: memref<64x64xf32, #smem>, %os: memref<64x64xf32, #smem>,
         %ts: memref<64x64xf32, #smem>):
      %c0 = arith.constant 0 : index
      %f0 = arith.constant 0.0 : f32
      %v = vector.transfer_read %xs[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<64x64xf32, #smem>, vector<64x64xf32>
      %vt = mgpu.layout_cast %v : vector<64x64xf32> to #mgpu.layout<wgmma_transposed>
      %vw = mgpu.layout_cast %vt : vector<64x64xf32> to #mgpu.layout<wgmma>
      vector.transfer_write %vw, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #smem>
      %tr = vector.transpose %vt, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
      vector.transfer_write %tr, %ts[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #smem>
    }
    return
  }

  // c = f8(a) @ f8(b), a given to wgmma from registers in the 8-bit layout.
  func.func @registers_8bit(%a: memref<64x128xf32>, %b: memref<128x64xf8E4M3FN>,
                            %c: memref<64x64xf32>) {
    mgpu.pallas_call grid [1] ins(%a, %b : memref<64x128xf32>, memref<128x64xf8E4M3FN>)
        outs(%c : memref<64x64xf32>)
        in_specs [#whole, #b_spec] out_specs [#square] {
    ^bb0(%as: memref<64x128xf32, #smem>, %bs: memref<128x64xf8E4M3FN, #smem>,
         %cs: memref<64x64xf32, #smem>):
      %c0 = arith.constant 0 : index
      %f0 = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %a32 = vector.transfer_read %as[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<64x128xf32, #smem>, vector<64x128xf32>
      %a8 = arith.truncf %a32 : vector<64x128xf32> to vector<64x128xf8E4M3FN>
      %regs = mgpu.layout_cast %a8 : vector<64x128xf8E4M3FN> to #mgpu.layout<wgmma_8bit>
      %acc = mgpu.wgmma %zero, %regs, %bs : vector<64x64xf32>, vector<64x128xf8E4M3FN>, memref<128x64xf8E4M3FN, #smem>
      mgpu.wgmma_wait 0
      vector.transfer_write %acc, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #smem>
    }
    return
  }

  // (i * 37 + j * 11) mod 61 - 30: small integers, exact in f8 and f32.
  func.func @value(%i: index, %j: index) -> i32 {
    %c37 = arith.constant 37 : index
    %c11 = arith.constant 11 : index
    %c61 = arith.constant 61 : index
    %c30 = arith.constant 30 : index
    %a = arith.muli %i, %c37 : index
    %b = arith.muli %j, %c11 : index
    %s = arith.addi %a, %b : index
    %m = arith.remui %s, %c61 : index
    %d = arith.subi %m, %c30 : index
    %r = arith.index_cast %d : index to i32
    return %r : i32
  }
  func.func @fvalue(%i: index, %j: index) -> f32 {
    %v = func.call @value(%i, %j) : (index, index) -> i32
    %f = arith.sitofp %v : i32 to f32
    return %f : f32
  }
  // Mismatches of `got` against `want(i, j)` over rows x cols.
  func.func @count(%got: memref<?x?xf32>, %want: memref<?x?xf32>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = memref.dim %got, %c0 : memref<?x?xf32>
    %cols = memref.dim %got, %c1 : memref<?x?xf32>
    %bad = scf.for %i = %c0 to %rows step %c1 iter_args(%n = %c0) -> index {
      %r = scf.for %j = %c0 to %cols step %c1 iter_args(%m = %n) -> index {
        %g = memref.load %got[%i, %j] : memref<?x?xf32>
        %w = memref.load %want[%i, %j] : memref<?x?xf32>
        %ne = arith.cmpf une, %g, %w : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %m2 = arith.addi %m, %inc : index
        scf.yield %m2 : index
      }
      scf.yield %r : index
    }
    return %bad : index
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index

    // copy_layouts
    %x = memref.alloc() : memref<64x128xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c128 step %c1 {
        %v = func.call @fvalue(%i, %j) : (index, index) -> f32
        memref.store %v, %x[%i, %j] : memref<64x128xf32>
      }
    }
    %o8 = memref.alloc() : memref<64x128xf32>
    %o2 = memref.alloc() : memref<64x128xf32>
    %o4 = memref.alloc() : memref<64x128xf32>
    %ot = memref.alloc() : memref<64x128xf32>
    func.call @copy_layouts(%x, %o8, %o2, %o4, %ot) : (memref<64x128xf32>, memref<64x128xf32>, memref<64x128xf32>, memref<64x128xf32>, memref<64x128xf32>) -> ()
    %xd = memref.cast %x : memref<64x128xf32> to memref<?x?xf32>
    %o8d = memref.cast %o8 : memref<64x128xf32> to memref<?x?xf32>
    %o2d = memref.cast %o2 : memref<64x128xf32> to memref<?x?xf32>
    %o4d = memref.cast %o4 : memref<64x128xf32> to memref<?x?xf32>
    %otd = memref.cast %ot : memref<64x128xf32> to memref<?x?xf32>
    %n8 = func.call @count(%o8d, %xd) : (memref<?x?xf32>, memref<?x?xf32>) -> index
    %n2 = func.call @count(%o2d, %xd) : (memref<?x?xf32>, memref<?x?xf32>) -> index
    %n4 = func.call @count(%o4d, %xd) : (memref<?x?xf32>, memref<?x?xf32>) -> index
    %nt = func.call @count(%otd, %xd) : (memref<?x?xf32>, memref<?x?xf32>) -> index
    %na = arith.addi %n8, %n2 : index
    %nb = arith.addi %n4, %nt : index
    %ncopy = arith.addi %na, %nb : index
    vector.print str "copy mismatches: "
    vector.print %ncopy : index

    // upcast
    %xi = memref.alloc() : memref<128x128xi8>
    %sc = memref.alloc() : memref<128xf32>
    %want = memref.alloc() : memref<128x128xf32>
    scf.for %i = %c0 to %c128 step %c1 {
      %si = arith.index_cast %i : index to i32
      %s7 = arith.constant 7 : i32
      %sm = arith.remui %si, %s7 : i32
      %sf = arith.sitofp %sm : i32 to f32
      %quarter = arith.constant 0.25 : f32
      %sv = arith.subf %sf, %quarter : f32
      memref.store %sv, %sc[%i] : memref<128xf32>
      scf.for %j = %c0 to %c128 step %c1 {
        %v = func.call @value(%i, %j) : (index, index) -> i32
        %v8 = arith.trunci %v : i32 to i8
        memref.store %v8, %xi[%i, %j] : memref<128x128xi8>
        %vf = arith.sitofp %v : i32 to f32
        %w = arith.mulf %vf, %sv : f32
        memref.store %w, %want[%i, %j] : memref<128x128xf32>
      }
    }
    %u2 = memref.alloc() : memref<128x128xf32>
    %u4 = memref.alloc() : memref<128x128xf32>
    func.call @upcast(%xi, %sc, %u2, %u4) : (memref<128x128xi8>, memref<128xf32>, memref<128x128xf32>, memref<128x128xf32>) -> ()
    %wantd = memref.cast %want : memref<128x128xf32> to memref<?x?xf32>
    %u2d = memref.cast %u2 : memref<128x128xf32> to memref<?x?xf32>
    %u4d = memref.cast %u4 : memref<128x128xf32> to memref<?x?xf32>
    %m2 = func.call @count(%u2d, %wantd) : (memref<?x?xf32>, memref<?x?xf32>) -> index
    %m4 = func.call @count(%u4d, %wantd) : (memref<?x?xf32>, memref<?x?xf32>) -> index
    %nup = arith.addi %m2, %m4 : index
    vector.print str "upcast mismatches: "
    vector.print %nup : index

    // transposed
    %sq = memref.alloc() : memref<64x64xf32>
    %sqt = memref.alloc() : memref<64x64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %v = func.call @fvalue(%i, %j) : (index, index) -> f32
        memref.store %v, %sq[%i, %j] : memref<64x64xf32>
        memref.store %v, %sqt[%j, %i] : memref<64x64xf32>
      }
    }
    %to = memref.alloc() : memref<64x64xf32>
    %tt = memref.alloc() : memref<64x64xf32>
    func.call @transposed(%sq, %to, %tt) : (memref<64x64xf32>, memref<64x64xf32>, memref<64x64xf32>) -> ()
    %sqd = memref.cast %sq : memref<64x64xf32> to memref<?x?xf32>
    %sqtd = memref.cast %sqt : memref<64x64xf32> to memref<?x?xf32>
    %tod = memref.cast %to : memref<64x64xf32> to memref<?x?xf32>
    %ttd = memref.cast %tt : memref<64x64xf32> to memref<?x?xf32>
    %t1 = func.call @count(%tod, %sqd) : (memref<?x?xf32>, memref<?x?xf32>) -> index
    %t2 = func.call @count(%ttd, %sqtd) : (memref<?x?xf32>, memref<?x?xf32>) -> index
    %ntr = arith.addi %t1, %t2 : index
    vector.print str "transposed mismatches: "
    vector.print %ntr : index

    // registers_8bit: values in [-30, 30] are exact in e4m3 only up to 16
    // in magnitude with a step of 2 above; a is small (mod 5 - 2), b any.
    %a = memref.alloc() : memref<64x128xf32>
    %bq = memref.alloc() : memref<128x64xf8E4M3FN>
    %bf = memref.alloc() : memref<128x64xf32>
    %c5 = arith.constant 5 : index
    %c2 = arith.constant 2 : index
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %s = arith.addi %i, %k : index
        %r = arith.remui %s, %c5 : index
        %d = arith.subi %r, %c2 : index
        %di = arith.index_cast %d : index to i32
        %df = arith.sitofp %di : i32 to f32
        memref.store %df, %a[%i, %k] : memref<64x128xf32>
      }
    }
    scf.for %k = %c0 to %c128 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %v = func.call @value(%k, %j) : (index, index) -> i32
        %c8i = arith.constant 8 : i32
        %small = arith.remsi %v, %c8i : i32
        %vf = arith.sitofp %small : i32 to f32
        %v8 = arith.truncf %vf : f32 to f8E4M3FN
        memref.store %v8, %bq[%k, %j] : memref<128x64xf8E4M3FN>
        memref.store %vf, %bf[%k, %j] : memref<128x64xf32>
      }
    }
    %cw = memref.alloc() : memref<64x64xf32>
    %f0 = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %f0) -> f32 {
          %p = memref.load %a[%i, %k] : memref<64x128xf32>
          %q = memref.load %bf[%k, %j] : memref<128x64xf32>
          %pq = arith.mulf %p, %q : f32
          %n = arith.addf %acc, %pq : f32
          scf.yield %n : f32
        }
        memref.store %sum, %cw[%i, %j] : memref<64x64xf32>
      }
    }
    %cg = memref.alloc() : memref<64x64xf32>
    func.call @registers_8bit(%a, %bq, %cg) : (memref<64x128xf32>, memref<128x64xf8E4M3FN>, memref<64x64xf32>) -> ()
    %cgd = memref.cast %cg : memref<64x64xf32> to memref<?x?xf32>
    %cwd = memref.cast %cw : memref<64x64xf32> to memref<?x?xf32>
    %n8b = func.call @count(%cgd, %cwd) : (memref<?x?xf32>, memref<?x?xf32>) -> index
    vector.print str "registers_8bit mismatches: "
    vector.print %n8b : index
    return
  }
}
