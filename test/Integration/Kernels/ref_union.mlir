// plgpu.RefUnion: groups of shared-memory refs that reuse the same bytes.
// In mgpu a union is one byte buffer (a `memref<N x i8>` scratch entry or
// run_scoped allocation, as JAX's RefUnion is an (N,) int8 ref) and its
// refs are `memref.view`s of it at byte offsets (JAX's ExtractAliasedRef:
// a bitcast at an offset). Laid out as JAX lays out a group: one ref after
// another, each aligned to 1024 bytes. Shaped after JAX's
// test_smem_aliasing_works_basic (f32 written through one group, read by
// TMA through a ref of the other), ..._with_subbyte_dtypes (bytes written
// as int8, copied out as uint4 from the ref that aliases them) and
// ..._for_quantization (in run_scoped: uint4 loaded by TMA, widened,
// scaled and stored as bf16 over the same bytes).
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %extract_ptx --object 2 %t.mlir -o %t.2.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.2.ptx -o %t.2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

// CHECK: basic: 0 257 384
// CHECK-NEXT: subbyte mismatches: 0
// CHECK-NEXT: quantization mismatches: 0

#ws = #gpu.address_space<workgroup>
#in = #mgpu.block_spec<shape = [2, 256], index_map = affine_map<(i) -> (0, 0)>>
#out = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
#in8 = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (0)>>
#out4 = #mgpu.block_spec<shape = [256], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
#m = #mgpu.mesh<grid = [1], grid_names = ["g"]>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  // RefUnion(SMEM((2, 256), f32), [SMEM((256,), bf16), [SMEM((128,), f32)]]):
  // the first group is 2048 bytes at 0; the second a bf16 ref at 0 and an
  // f32 ref at 1024, which aliases x[1, 0:128] of the first.
  func.func @aliasing_basic(%x: memref<2x256xf32>, %o: memref<128xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<2x256xf32>) outs(%o : memref<128xf32>)
        in_specs [#in] out_specs [#out] scratch [memref<2048xi8, #ws>] {
    ^bb0(%xs: memref<2x256xf32, #ws>, %og: memref<128xf32>, %u: memref<2048xi8, #ws>):
      %c0 = arith.constant 0 : index
      %c1024 = arith.constant 1024 : index
      %ref256 = memref.view %u[%c0][] : memref<2048xi8, #ws> to memref<2x256xf32, #ws>
      %ref128 = memref.view %u[%c1024][] : memref<2048xi8, #ws> to memref<128xf32, #ws>
      %pad = arith.constant 0.0 : f32
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<2x256xf32, #ws>, vector<2x256xf32>
      %one = arith.constant dense<1.0> : vector<2x256xf32>
      %v1 = arith.addf %v, %one : vector<2x256xf32>
      vector.transfer_write %v1, %ref256[%c0, %c0] {in_bounds = [true, true]}
          : vector<2x256xf32>, memref<2x256xf32, #ws>
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %ref128, %og : memref<128xf32, #ws>, memref<128xf32>
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  // RefUnion([SMEM((128,), i8), SMEM((128,), i8)],
  //          [SMEM((2048,), uint4), SMEM((256,), uint4)]): the second i8 ref
  // (at 1024) and the second uint4 ref (at 1024: 2048 nibbles are 1024
  // bytes) are the same bytes.
  func.func @aliasing_subbyte(%x: memref<128xi8>, %o: memref<256xi4>) {
    mgpu.pallas_call grid [1] ins(%x : memref<128xi8>) outs(%o : memref<256xi4>)
        in_specs [#in8] out_specs [#out4] scratch [memref<1152xi8, #ws>] {
    ^bb0(%xs: memref<128xi8, #ws>, %og: memref<256xi4>, %u: memref<1152xi8, #ws>):
      %c0 = arith.constant 0 : index
      %c1024 = arith.constant 1024 : index
      %refi8 = memref.view %u[%c1024][] : memref<1152xi8, #ws> to memref<128xi8, #ws>
      %refi4 = memref.view %u[%c1024][] : memref<1152xi8, #ws> to memref<256xi4, #ws>
      %pad = arith.constant 0 : i8
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<128xi8, #ws>, vector<128xi8>
      vector.transfer_write %v, %refi8[%c0] {in_bounds = [true]} : vector<128xi8>, memref<128xi8, #ws>
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %refi4, %og : memref<256xi4, #ws>, memref<256xi4>
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  // In pl.run_scoped: RefUnion(SMEM((64, 256), bf16), SMEM((64, 256), uint4)),
  // 32 KiB, and a barrier. The uint4 block comes in by TMA, is widened and
  // scaled by 3, and goes out as bf16 from the same bytes.
  func.func @quantization(%x: memref<64x256xi4>, %o: memref<64x256xbf16>) {
    mgpu.mpmd_map meshes [#m] ins(%x : memref<64x256xi4>) outs(%o : memref<64x256xbf16>) {
    ^bb0(%xg: memref<64x256xi4>, %og: memref<64x256xbf16>):
      mgpu.run_scoped {
      ^bb0(%u: memref<32768xi8, #ws>, %bar: !mgpu.barrier<count = 1, arrivals = 1>):
        %c0 = arith.constant 0 : index
        %large = memref.view %u[%c0][] : memref<32768xi8, #ws> to memref<64x256xbf16, #ws>
        %small = memref.view %u[%c0][] : memref<32768xi8, #ws> to memref<64x256xi4, #ws>
        mgpu.copy_gmem_to_smem %xg, %small, %bar[%c0]
            : memref<64x256xi4>, memref<64x256xi4, #ws>, !mgpu.barrier<count = 1, arrivals = 1>
        mgpu.barrier_wait %bar[%c0] : !mgpu.barrier<count = 1, arrivals = 1>
        %pad = arith.constant 0 : i4
        %v = vector.transfer_read %small[%c0, %c0], %pad {in_bounds = [true, true]}
            : memref<64x256xi4, #ws>, vector<64x256xi4>
        %w = arith.uitofp %v : vector<64x256xi4> to vector<64x256xbf16>
        %three = arith.constant dense<3.0> : vector<64x256xbf16>
        %s = arith.mulf %w, %three : vector<64x256xbf16>
        vector.transfer_write %s, %large[%c0, %c0] {in_bounds = [true, true]}
            : vector<64x256xbf16>, memref<64x256xbf16, #ws>
        mgpu.commit_smem
        mgpu.copy_smem_to_gmem %large, %og : memref<64x256xbf16, #ws>, memref<64x256xbf16>
        mgpu.wait_smem_to_gmem 0 read_only
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c127 = arith.constant 127 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0 : index
    // Basic: x = arange(512) as 2x256; o = x[256:384] + 1.
    %x = memref.alloc() : memref<2x256xf32>
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c256 step %c1 {
        %flat = affine.apply affine_map<(i, j) -> (i * 256 + j)>(%i, %j)
        %fi = arith.index_cast %flat : index to i32
        %f = arith.sitofp %fi : i32 to f32
        memref.store %f, %x[%i, %j] : memref<2x256xf32>
      }
    }
    %o = memref.alloc() : memref<128xf32>
    func.call @aliasing_basic(%x, %o) : (memref<2x256xf32>, memref<128xf32>) -> ()
    %bad0 = scf.for %j = %c0 to %c128 step %c1 iter_args(%b = %zero) -> (index) {
      %want = affine.apply affine_map<(j) -> (j + 257)>(%j)
      %wi = arith.index_cast %want : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %g = memref.load %o[%j] : memref<128xf32>
      %ok = arith.cmpf oeq, %g, %wf : f32
      %n = arith.addi %b, %c1 : index
      %r = arith.select %ok, %b, %n : index
      scf.yield %r : index
    }
    %o0 = memref.load %o[%c0] : memref<128xf32>
    %o127 = memref.load %o[%c127] : memref<128xf32>
    %o0i = arith.fptosi %o0 : f32 to i32
    %o127i = arith.fptosi %o127 : f32 to i32
    vector.print str "basic: "
    vector.print %bad0 : index punctuation <no_punctuation>
    vector.print str " "
    vector.print %o0i : i32 punctuation <no_punctuation>
    vector.print str " "
    vector.print %o127i : i32

    // Subbyte: x = arange(128) as int8; o as uint4 is each byte's low
    // nibble, then its high one.
    %x8 = memref.alloc() : memref<128xi8>
    scf.for %j = %c0 to %c128 step %c1 {
      %ji = arith.index_cast %j : index to i8
      memref.store %ji, %x8[%j] : memref<128xi8>
    }
    %o4 = memref.alloc() : memref<256xi4>
    func.call @aliasing_subbyte(%x8, %o4) : (memref<128xi8>, memref<256xi4>) -> ()
    %bad1 = scf.for %j = %c0 to %c256 step %c1 iter_args(%b = %zero) -> (index) {
      %byte = arith.divui %j, %c2 : index
      %half = arith.remui %j, %c2 : index
      %shift = arith.muli %half, %c4 : index
      %byte32 = arith.index_cast %byte : index to i32
      %shift32 = arith.index_cast %shift : index to i32
      %sh = arith.shrui %byte32, %shift32 : i32
      %want = arith.trunci %sh : i32 to i4
      %g = memref.load %o4[%j] : memref<256xi4>
      %ok = arith.cmpi eq, %g, %want : i4
      %n = arith.addi %b, %c1 : index
      %r = arith.select %ok, %b, %n : index
      scf.yield %r : index
    }
    vector.print str "subbyte mismatches: "
    vector.print %bad1 : index

    // Quantization: x[i, j] = (i * 256 + j) mod 16 as uint4; o = 3 x.
    %xq = memref.alloc() : memref<64x256xi4>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c256 step %c1 {
        %flat = affine.apply affine_map<(i, j) -> ((i * 256 + j) * 5)>(%i, %j)
        %fi = arith.index_cast %flat : index to i32
        %n = arith.trunci %fi : i32 to i4
        memref.store %n, %xq[%i, %j] : memref<64x256xi4>
      }
    }
    %oq = memref.alloc() : memref<64x256xbf16>
    func.call @quantization(%xq, %oq) : (memref<64x256xi4>, memref<64x256xbf16>) -> ()
    %bad2 = scf.for %i = %c0 to %c64 step %c1 iter_args(%b = %zero) -> (index) {
      %row = scf.for %j = %c0 to %c256 step %c1 iter_args(%k = %b) -> (index) {
        %n = memref.load %xq[%i, %j] : memref<64x256xi4>
        %n32 = arith.extui %n : i4 to i32
        %three = arith.constant 3 : i32
        %t = arith.muli %n32, %three : i32
        %want = arith.sitofp %t : i32 to f32
        %g = memref.load %oq[%i, %j] : memref<64x256xbf16>
        %gf = arith.extf %g : bf16 to f32
        %ok = arith.cmpf oeq, %gf, %want : f32
        %kn = arith.addi %k, %c1 : index
        %r = arith.select %ok, %k, %kn : index
        scf.yield %r : index
      }
      scf.yield %row : index
    }
    vector.print str "quantization mismatches: "
    vector.print %bad2 : index
    memref.dealloc %x : memref<2x256xf32>
    memref.dealloc %o : memref<128xf32>
    memref.dealloc %x8 : memref<128xi8>
    memref.dealloc %o4 : memref<256xi4>
    memref.dealloc %xq : memref<64x256xi4>
    memref.dealloc %oq : memref<64x256xbf16>
    return
  }
}
