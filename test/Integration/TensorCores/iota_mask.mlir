// JAX's causal mask in Layout.WGMMA (attention_mgpu.py, lines 174-178):
// `plgpu.broadcasted_iota(jnp.int32, block.shape, d, layout=WGMMA)` for the
// rows (d = 0) and the columns (d = 1), compared, and `jnp.where(mask, qk,
// mask_value)`. Here one vector.step serves every iota: the rows through
// M x 1 (`@where`, q_ids offset by the block's first row as JAX adds
// q_seq_base) and through a transpose (`strict`, rows > cols). x is
// 128 x 64 f32 in two 64-row blocks; o = where(row >= col, x, -1),
// p = where(row > col, x, -2) with row, col in the whole array. `@stored`
// also keeps the i1 mask in a shared buffer (a mask leaves the fragments
// through the warpgroup scratch as bytes, i1 never packs into bits) and
// reads it back for q = where(mask, x, -3) = o.
// The iotas are made by each lane from the positions it holds and the
// mask stays in fragments: the only shared-memory accesses are the
// fragments' reads of x and writes of o and p, 16 of 8 bytes per lane
// each (an exchange through the warpgroup scratch would add more).
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.0.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTX-LABEL: .entry where
// PTX-COUNT-16: ld.shared.v2.b32
// PTX-NOT: {{ld|st}}.shared
// PTX-COUNT-16: st.shared.v2.b32
// PTX-NOT: {{ld|st}}.shared
// PTX-COUNT-16: st.shared.v2.b32
// PTX-NOT: {{ld|st}}.shared
// PTX: cp.async.bulk.tensor.2d.global.shared::cta
// CHECK: o mismatches: 0
// CHECK: p mismatches: 0
// CHECK: q mismatches: 0

#block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
#smem = #gpu.address_space<workgroup>
!blk = memref<64x64xf32, #smem>

module {
  func.func @where(%x: memref<128x64xf32>, %o: memref<128x64xf32>, %p: memref<128x64xf32>) {
    mgpu.pallas_call grid [2] ins(%x : memref<128x64xf32>)
        outs(%o, %p : memref<128x64xf32>, memref<128x64xf32>)
        in_specs [#block] out_specs [#block, #block] {
    ^bb0(%xs: !blk, %os: !blk, %ps: !blk):
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %f0 = arith.constant 0.0 : f32
      %r = vector.transfer_read %xs[%c0, %c0], %f0 {in_bounds = [true, true]}
          : !blk, vector<64x64xf32>
      %qk = mgpu.layout_cast %r : vector<64x64xf32> to #mgpu.layout<wgmma>
      %i = mgpu.program_id 0
      %base = arith.muli %i, %c64 : index
      %base32 = arith.index_cast %base : index to i32
      %off = vector.broadcast %base32 : i32 to vector<64x64xi32>
      %s = vector.step : vector<64xindex>
      %s32 = arith.index_cast %s : vector<64xindex> to vector<64xi32>
      // broadcasted_iota(int32, (64, 64), 0, layout=WGMMA) + q_seq_base
      %rows1 = vector.shape_cast %s32 : vector<64xi32> to vector<64x1xi32>
      %rb = vector.broadcast %rows1 : vector<64x1xi32> to vector<64x64xi32>
      %rw = mgpu.layout_cast %rb : vector<64x64xi32> to #mgpu.layout<wgmma>
      %rows = arith.addi %rw, %off : vector<64x64xi32>
      // The same rows through a transpose.
      %tb = vector.broadcast %s32 : vector<64xi32> to vector<64x64xi32>
      %rt = vector.transpose %tb, [1, 0] : vector<64x64xi32> to vector<64x64xi32>
      %rows_t = arith.addi %rt, %off : vector<64x64xi32>
      // broadcasted_iota(int32, (64, 64), 1, layout=WGMMA)
      %cb = vector.broadcast %s32 : vector<64xi32> to vector<64x64xi32>
      %cols = mgpu.layout_cast %cb : vector<64x64xi32> to #mgpu.layout<wgmma>
      %mask = arith.cmpi sge, %rows, %cols : vector<64x64xi32>
      %strict = arith.cmpi sgt, %rows_t, %cols : vector<64x64xi32>
      %m1 = arith.constant dense<-1.0> : vector<64x64xf32>
      %m2 = arith.constant dense<-2.0> : vector<64x64xf32>
      %y = arith.select %mask, %qk, %m1 : vector<64x64xi1>, vector<64x64xf32>
      %z = arith.select %strict, %qk, %m2 : vector<64x64xi1>, vector<64x64xf32>
      vector.transfer_write %y, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, !blk
      vector.transfer_write %z, %ps[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, !blk
    }
    return
  }

  func.func @stored(%x: memref<128x64xf32>, %q: memref<128x64xf32>) {
    mgpu.pallas_call grid [2] ins(%x : memref<128x64xf32>) outs(%q : memref<128x64xf32>)
        in_specs [#block] out_specs [#block] scratch [memref<64x64xi1, #smem>] {
    ^bb0(%xs: !blk, %qs: !blk, %ms: memref<64x64xi1, #smem>):
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %f0 = arith.constant 0.0 : f32
      %false = arith.constant false
      %r = vector.transfer_read %xs[%c0, %c0], %f0 {in_bounds = [true, true]}
          : !blk, vector<64x64xf32>
      %qk = mgpu.layout_cast %r : vector<64x64xf32> to #mgpu.layout<wgmma>
      %i = mgpu.program_id 0
      %base = arith.muli %i, %c64 : index
      %base32 = arith.index_cast %base : index to i32
      %off = vector.broadcast %base32 : i32 to vector<64x64xi32>
      %s = vector.step : vector<64xindex>
      %s32 = arith.index_cast %s : vector<64xindex> to vector<64xi32>
      %rows1 = vector.shape_cast %s32 : vector<64xi32> to vector<64x1xi32>
      %rb = vector.broadcast %rows1 : vector<64x1xi32> to vector<64x64xi32>
      %rw = mgpu.layout_cast %rb : vector<64x64xi32> to #mgpu.layout<wgmma>
      %rows = arith.addi %rw, %off : vector<64x64xi32>
      %cb = vector.broadcast %s32 : vector<64xi32> to vector<64x64xi32>
      %cols = mgpu.layout_cast %cb : vector<64x64xi32> to #mgpu.layout<wgmma>
      %mask = arith.cmpi sge, %rows, %cols : vector<64x64xi32>
      vector.transfer_write %mask, %ms[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xi1>, memref<64x64xi1, #smem>
      %back = vector.transfer_read %ms[%c0, %c0], %false {in_bounds = [true, true]}
          : memref<64x64xi1, #smem>, vector<64x64xi1>
      %m3 = arith.constant dense<-3.0> : vector<64x64xf32>
      %y = arith.select %back, %qk, %m3 : vector<64x64xi1>, vector<64x64xf32>
      vector.transfer_write %y, %qs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, !blk
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %x = memref.alloc() : memref<128x64xf32>
    %o = memref.alloc() : memref<128x64xf32>
    %p = memref.alloc() : memref<128x64xf32>
    // x = row * 64 + col + 1 (positive, exact in f32).
    scf.for %r = %c0 to %c128 step %c1 {
      scf.for %c = %c0 to %c64 step %c1 {
        %e = arith.muli %r, %c64 : index
        %f = arith.addi %e, %c : index
        %g = arith.addi %f, %c1 : index
        %n = arith.index_cast %g : index to i32
        %v = arith.sitofp %n : i32 to f32
        memref.store %v, %x[%r, %c] : memref<128x64xf32>
      }
    }
    func.call @where(%x, %o, %p) : (memref<128x64xf32>, memref<128x64xf32>, memref<128x64xf32>) -> ()
    %q = memref.alloc() : memref<128x64xf32>
    func.call @stored(%x, %q) : (memref<128x64xf32>, memref<128x64xf32>) -> ()
    %m1 = arith.constant -1.0 : f32
    %m2 = arith.constant -2.0 : f32
    %bad:3 = scf.for %r = %c0 to %c128 step %c1 iter_args(%a = %c0, %b = %c0, %d = %c0) -> (index, index, index) {
      %in:3 = scf.for %c = %c0 to %c64 step %c1 iter_args(%a1 = %a, %b1 = %b, %d1 = %d) -> (index, index, index) {
        %xv = memref.load %x[%r, %c] : memref<128x64xf32>
        %ge = arith.cmpi uge, %r, %c : index
        %gt = arith.cmpi ugt, %r, %c : index
        %wo = arith.select %ge, %xv, %m1 : f32
        %wp = arith.select %gt, %xv, %m2 : f32
        %go = memref.load %o[%r, %c] : memref<128x64xf32>
        %gp = memref.load %p[%r, %c] : memref<128x64xf32>
        %no = arith.cmpf une, %go, %wo : f32
        %np = arith.cmpf une, %gp, %wp : f32
        %io = arith.select %no, %c1, %c0 : index
        %ip = arith.select %np, %c1, %c0 : index
        %a2 = arith.addi %a1, %io : index
        %b2 = arith.addi %b1, %ip : index
        %m3 = arith.constant -3.0 : f32
        %wq = arith.select %ge, %xv, %m3 : f32
        %gq = memref.load %q[%r, %c] : memref<128x64xf32>
        %nq = arith.cmpf une, %gq, %wq : f32
        %iq = arith.select %nq, %c1, %c0 : index
        %d2 = arith.addi %d1, %iq : index
        scf.yield %a2, %b2, %d2 : index, index, index
      }
      scf.yield %in#0, %in#1, %in#2 : index, index, index
    }
    vector.print str "o mismatches: "
    vector.print %bad#0 : index
    vector.print str "p mismatches: "
    vector.print %bad#1 : index
    vector.print str "q mismatches: "
    vector.print %bad#2 : index
    memref.dealloc %q : memref<128x64xf32>
    memref.dealloc %x : memref<128x64xf32>
    memref.dealloc %o : memref<128x64xf32>
    memref.dealloc %p : memref<128x64xf32>
    return
  }
}
