// RUN: mgpu-opt %s --allow-unregistered-dialect --mgpu-contract-to-wgmma -split-input-file | FileCheck %s

// A jnp.dot of two staged blocks (vector.contract of whole-block reads of
// shared memory) becomes mgpu.wgmma of views of the blocks; an accumulator
// block read and written back whole is updated 64 rows at a time. What the
// tensor cores cannot take stays a contraction.

#s = #gpu.address_space<workgroup>
#mm = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                        affine_map<(m, n, k) -> (m, n)>],
       iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}

// CHECK-LABEL: func.func @halves
// CHECK: %[[ACC0:.*]] = vector.transfer_read %[[C:.*]][%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true, true]} : memref<128x128xf32, #gpu.address_space<workgroup>>, vector<64x128xf32>
// CHECK: %[[ACC1:.*]] = vector.transfer_read %[[C]][%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true, true]} : memref<128x128xf32, #gpu.address_space<workgroup>>, vector<64x128xf32>
// CHECK: %[[B:.*]] = memref.subview %{{.*}}[0, 0] [64, 128] [1, 1]
// CHECK: %[[TOP:.*]] = memref.subview %[[A:.*]][0, 0] [64, 64] [1, 1]
// CHECK: %[[R0:.*]] = mgpu.wgmma %[[ACC0]], %[[TOP]], %[[B]] : vector<64x128xf32>
// CHECK: %[[BOT:.*]] = memref.subview %[[A]][64, 0] [64, 64] [1, 1] {{.*}} to memref<64x64xbf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
// CHECK: %[[R1:.*]] = mgpu.wgmma %[[ACC1]], %[[BOT]], %[[B]] : vector<64x128xf32>
// CHECK: vector.transfer_write %[[R0]], %[[C]]
// CHECK: vector.transfer_write %[[R1]], %[[C]]
// CHECK-NOT: vector.contract
// CHECK-NOT: vector<128x64xbf16>
func.func @halves() {
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [memref<128x64xbf16, #s>, memref<64x128xbf16, #s>, memref<128x128xf32, #s>] {
  ^bb0(%as: memref<128x64xbf16, #s>, %bs: memref<64x128xbf16, #s>, %cs: memref<128x128xf32, #s>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : bf16
    %padf = arith.constant 0.0 : f32
    %acc = vector.transfer_read %cs[%c0, %c0], %padf {in_bounds = [true, true]} : memref<128x128xf32, #s>, vector<128x128xf32>
    %a = vector.transfer_read %as[%c0, %c0], %pad {in_bounds = [true, true]} : memref<128x64xbf16, #s>, vector<128x64xbf16>
    %b = vector.transfer_read %bs[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x128xbf16, #s>, vector<64x128xbf16>
    %r = vector.contract #mm %a, %b, %acc : vector<128x64xbf16>, vector<64x128xbf16> into vector<128x128xf32>
    vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, memref<128x128xf32, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
#mm = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                        affine_map<(m, n, k) -> (m, n)>],
       iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}

// One 64-row MMA whose accumulator is a value: one wgmma, at dynamic
// offsets of the blocks.
// CHECK-LABEL: func.func @value_acc
// CHECK: %[[A:.*]] = memref.subview %{{.*}}[%[[I:.*]], 0] [64, 16] [1, 1]
// CHECK: mgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} : vector<64x32xf32>, memref<64x16xf16, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
func.func @value_acc(%i: index) {
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [memref<128x16xf16, #s>, memref<16x32xf16, #s>, memref<64x32xf32, #s>] {
  ^bb0(%as: memref<128x16xf16, #s>, %bs: memref<16x32xf16, #s>, %cs: memref<64x32xf32, #s>):
    %c0 = arith.constant 0 : index
    %row = mgpu.program_id 0
    %pad = arith.constant 0.0 : f16
    %zero = arith.constant dense<0.0> : vector<64x32xf32>
    %a = vector.transfer_read %as[%row, %c0], %pad {in_bounds = [true, true]} : memref<128x16xf16, #s>, vector<64x16xf16>
    %b = vector.transfer_read %bs[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x32xf16, #s>, vector<16x32xf16>
    %r = vector.contract #mm %a, %b, %zero : vector<64x16xf16>, vector<16x32xf16> into vector<64x32xf32>
    vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]} : vector<64x32xf32>, memref<64x32xf32, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
#mm = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                        affine_map<(m, n, k) -> (m, n)>],
       iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
#mt = {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>,
                        affine_map<(m, n, k) -> (m, n)>],
       iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}

// Left alone: f32 inputs, 32 rows, a transposed a. An a that is not read
// from shared memory (a block in global memory, a constant) is wgmma's
// register a.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: mgpu.wgmma
// CHECK-COUNT-3: vector.contract
// CHECK-NOT: vector.contract
// CHECK-COUNT-2: mgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} : vector<64x32xf32>, vector<64x16xf16>,
// CHECK-NOT: vector.contract
func.func @left_alone(%g: memref<64x16xf16>) {
  mgpu.pallas_call grid [1] ins(%g : memref<64x16xf16>)
      in_specs [#mgpu.block_spec<shape = [64, 16], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>]
      out_specs [] scratch [memref<64x16xf32, #s>, memref<16x32xf32, #s>, memref<64x16xf16, #s>, memref<16x32xf16, #s>] {
  ^bb0(%gs: memref<64x16xf16>, %af: memref<64x16xf32, #s>, %bf: memref<16x32xf32, #s>,
       %ah: memref<64x16xf16, #s>, %bh: memref<16x32xf16, #s>):
    %c0 = arith.constant 0 : index
    %padf = arith.constant 0.0 : f32
    %pad = arith.constant 0.0 : f16
    %z = arith.constant dense<0.0> : vector<64x32xf32>
    %z32 = arith.constant dense<0.0> : vector<32x32xf32>
    %a32 = vector.transfer_read %af[%c0, %c0], %padf {in_bounds = [true, true]} : memref<64x16xf32, #s>, vector<64x16xf32>
    %b32 = vector.transfer_read %bf[%c0, %c0], %padf {in_bounds = [true, true]} : memref<16x32xf32, #s>, vector<16x32xf32>
    %r0 = vector.contract #mm %a32, %b32, %z : vector<64x16xf32>, vector<16x32xf32> into vector<64x32xf32>
    %a = vector.transfer_read %ah[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x16xf16, #s>, vector<32x16xf16>
    %b = vector.transfer_read %bh[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x32xf16, #s>, vector<16x32xf16>
    %r1 = vector.contract #mm %a, %b, %z32 : vector<32x16xf16>, vector<16x32xf16> into vector<32x32xf32>
    %at = vector.transfer_read %ah[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x16xf16, #s>, vector<16x64xf16>
    %r2 = vector.contract #mt %at, %b, %z : vector<16x64xf16>, vector<16x32xf16> into vector<64x32xf32>
    %ag = vector.transfer_read %gs[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x16xf16>, vector<64x16xf16>
    %r3 = vector.contract #mm %ag, %b, %z : vector<64x16xf16>, vector<16x32xf16> into vector<64x32xf32>
    %ac = arith.constant dense<1.0> : vector<64x16xf16>
    %r4 = vector.contract #mm %ac, %b, %z : vector<64x16xf16>, vector<16x32xf16> into vector<64x32xf32>
    "test.use"(%r0, %r1, %r2, %r3, %r4) : (vector<64x32xf32>, vector<32x32xf32>, vector<64x32xf32>, vector<64x32xf32>, vector<64x32xf32>) -> ()
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
#nt = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                        affine_map<(m, n, k) -> (m, n)>],
       iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}

// b transposed (`a @ b.T`, attention's q k^T): b becomes the transpose of
// a view of its N x K block.
// CHECK-LABEL: func.func @transposed_b
// CHECK: %[[B:.*]] = memref.subview %{{.*}}[0, 0] [32, 16] [1, 1] : memref<32x16xf16, #gpu.address_space<workgroup>> to memref<32x16xf16, strided<[16, 1]>, #gpu.address_space<workgroup>>
// CHECK: %[[BT:.*]] = memref.transpose %[[B]] (d0, d1) -> (d1, d0) : memref<32x16xf16, strided<[16, 1]>, #gpu.address_space<workgroup>> to memref<16x32xf16, strided<[1, 16]>, #gpu.address_space<workgroup>>
// CHECK: mgpu.wgmma %{{.*}}, %{{.*}}, %[[BT]] : vector<64x32xf32>, memref<64x16xf16, strided<[16, 1]>, #gpu.address_space<workgroup>>, memref<16x32xf16, strided<[1, 16]>, #gpu.address_space<workgroup>>
func.func @transposed_b() {
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [memref<64x16xf16, #s>, memref<32x16xf16, #s>, memref<64x32xf32, #s>] {
  ^bb0(%as: memref<64x16xf16, #s>, %bs: memref<32x16xf16, #s>, %cs: memref<64x32xf32, #s>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f16
    %zero = arith.constant dense<0.0> : vector<64x32xf32>
    %a = vector.transfer_read %as[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x16xf16, #s>, vector<64x16xf16>
    %b = vector.transfer_read %bs[%c0, %c0], %pad {in_bounds = [true, true]} : memref<32x16xf16, #s>, vector<32x16xf16>
    %r = vector.contract #nt %a, %b, %zero : vector<64x16xf16>, vector<32x16xf16> into vector<64x32xf32>
    vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]} : vector<64x32xf32>, memref<64x32xf32, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
#mm = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                        affine_map<(m, n, k) -> (m, n)>],
       iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}

// a computed in registers (attention's p = exp(s - m) in bf16) is wgmma's
// register a.
// CHECK-LABEL: func.func @register_a
// CHECK: %[[P:.*]] = arith.truncf
// CHECK: mgpu.wgmma %{{.*}}, %[[P]], %{{.*}} : vector<64x32xf32>, vector<64x16xbf16>, memref<16x32xbf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
func.func @register_a() {
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [memref<16x32xbf16, #s>, memref<64x32xf32, #s>] {
  ^bb0(%bs: memref<16x32xbf16, #s>, %cs: memref<64x32xf32, #s>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : bf16
    %zero = arith.constant dense<0.0> : vector<64x32xf32>
    %s = arith.constant dense<1.5> : vector<64x16xf32>
    %e = math.exp %s : vector<64x16xf32>
    %p = arith.truncf %e : vector<64x16xf32> to vector<64x16xbf16>
    %b = vector.transfer_read %bs[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x32xbf16, #s>, vector<16x32xbf16>
    %r = vector.contract #mm %p, %b, %zero : vector<64x16xbf16>, vector<16x32xbf16> into vector<64x32xf32>
    vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]} : vector<64x32xf32>, memref<64x32xf32, #s>
  }
  return
}
