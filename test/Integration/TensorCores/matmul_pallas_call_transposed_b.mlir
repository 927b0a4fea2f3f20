// JAX's test_realistic_matmul with rhs_transpose: b is stored as N x K
// (JAX: `plgpu.transpose_ref(b_smem, (1, 0))`; here `jnp.dot(a, b.T)`, a
// contraction (m, k) x (n, k) -> (m, n)). --mgpu-contract-to-wgmma makes
// b a transposed view of its block, which the tensor cores read K-major
// through a descriptor of the 128-byte-swizzled (8, 64) tiles, with no
// copy. On every backend, both paths, against a scalar reference.
// RUN: %run_on_backends %s --match-full-lines
// RUN: %run_on_backends %s --match-full-lines -- --tensor-cores=0
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa" | %python %mgpu_src_root/utils/extract-ptx.py | FileCheck %s --check-prefix=PTX
// The b descriptor is K-major (the instruction's imm-trans-b is 0).
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 0;
// PTX-NOT: wgmma.mma_async

#a = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(m, n, k) -> (m, k)>,
                      transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#b = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(m, n, k) -> (n, k)>,
                      transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#o = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(m, n, k) -> (m, n)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, parallel, sequential],
                                max_concurrent_steps = 2>
#smem = #gpu.address_space<workgroup>

func.func @matmul_transposed_b(%a: memref<256x256xf16>, %b: memref<256x256xf16>,
                              %o: memref<256x256xf16>) {
  mgpu.pallas_call grid [2, 2, 4]
      ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>)
      outs(%o : memref<256x256xf16>) in_specs [#a, #b] out_specs [#o]
      scratch [memref<128x128xf32, #smem>] params #params {
  ^bb0(%a_ref: memref<128x64xf16, #smem>, %b_ref: memref<128x64xf16, #smem>,
       %o_ref: memref<128x128xf16, #smem>, %acc: memref<128x128xf32, #smem>):
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %k = mgpu.program_id 2
    // @pl.when(pl.program_id(2) == 0)
    %first = arith.cmpi eq, %k, %c0 : index
    scf.if %first {
      %zero = arith.constant dense<0.0> : vector<128x128xf32>
      vector.transfer_write %zero, %acc[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x128xf32>, memref<128x128xf32, #smem>
    }
    // acc_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)
    %fpad = arith.constant 0.0 : f32
    %hpad = arith.constant 0.0 : f16
    %accv = vector.transfer_read %acc[%c0, %c0], %fpad {in_bounds = [true, true]}
        : memref<128x128xf32, #smem>, vector<128x128xf32>
    %av = vector.transfer_read %a_ref[%c0, %c0], %hpad {in_bounds = [true, true]}
        : memref<128x64xf16, #smem>, vector<128x64xf16>
    %bv = vector.transfer_read %b_ref[%c0, %c0], %hpad {in_bounds = [true, true]}
        : memref<128x64xf16, #smem>, vector<128x64xf16>
    %sum = vector.contract {
        indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                         affine_map<(m, n, k) -> (m, n)>],
        iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %av, %bv, %accv : vector<128x64xf16>, vector<128x64xf16> into vector<128x128xf32>
    vector.transfer_write %sum, %acc[%c0, %c0] {in_bounds = [true, true]}
        : vector<128x128xf32>, memref<128x128xf32, #smem>
    // @pl.when(pl.program_id(2) == grid_k - 1)
    %last = arith.cmpi eq, %k, %c3 : index
    scf.if %last {
      %h = arith.truncf %sum : vector<128x128xf32> to vector<128x128xf16>
      vector.transfer_write %h, %o_ref[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x128xf16>, memref<128x128xf16, #smem>
    }
  }
  return
}

// (x * mul + y) mod 5 - 2.
func.func @small(%x: index, %y: index, %mul: index) -> f32 {
  %c5 = arith.constant 5 : index
  %c2 = arith.constant 2 : index
  %t = arith.muli %x, %mul : index
  %s = arith.addi %t, %y : index
  %m = arith.remui %s, %c5 : index
  %d = arith.subi %m, %c2 : index
  %i = arith.index_cast %d : index to i32
  %f = arith.sitofp %i : i32 to f32
  return %f : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = arith.constant 256 : index
  %f0 = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<256x256xf16>
  %b = memref.alloc() : memref<256x256xf16>
  %o = memref.alloc() : memref<256x256xf16>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %x = func.call @small(%i, %j, %c2) : (index, index, index) -> f32
      %y = func.call @small(%i, %j, %c3) : (index, index, index) -> f32
      %xh = arith.truncf %x : f32 to f16
      %yh = arith.truncf %y : f32 to f16
      memref.store %xh, %a[%i, %j] : memref<256x256xf16>
      memref.store %yh, %b[%i, %j] : memref<256x256xf16>
    }
  }
  func.call @matmul_transposed_b(%a, %b, %o) : (memref<256x256xf16>, memref<256x256xf16>, memref<256x256xf16>) -> ()
  %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> index {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%m = %count) -> index {
      %sum = scf.for %k = %c0 to %n step %c1 iter_args(%s = %f0) -> f32 {
        %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
        %y = func.call @small(%j, %k, %c3) : (index, index, index) -> f32
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      %goth = memref.load %o[%i, %j] : memref<256x256xf16>
      %got = arith.extf %goth : f16 to f32
      %ne = arith.cmpf une, %got, %sum : f32
      %inc = arith.select %ne, %c1, %c0 : index
      %m2 = arith.addi %m, %inc : index
      scf.yield %m2 : index
    }
    scf.yield %row : index
  }
  vector.print str "mismatches: "
  vector.print %bad : index
  %c200 = arith.constant 200 : index
  %v = vector.load %o[%c200, %c0] : memref<256x256xf16>, vector<4xf16>
  %vf = arith.extf %v : vector<4xf16> to vector<4xf32>
  vector.print %vf : vector<4xf32>
  return
}
// CHECK: mismatches: 0
// CHECK-NEXT: ( {{.*}} )
