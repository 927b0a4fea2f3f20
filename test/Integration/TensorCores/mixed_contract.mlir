// Mixed-precision contractions (f16 x f16 and bf16 x bf16 summed in f32)
// in kernel bodies on every backend; interpret mode failed to translate
// them to LLVM before --mgpu-widen-contractions.
// RUN: %run_on_backends %s --match-full-lines

#a = #mgpu.block_spec<shape = [16, 16], index_map = affine_map<(i) -> (i, 0)>>
#b = #mgpu.block_spec<shape = [16, 16], index_map = affine_map<(i) -> (0, 0)>>
module {
  func.func @k(%x: memref<32x16xf16>, %y: memref<16x16xf16>, %o: memref<32x16xf32>) {
    mgpu.pallas_call grid [2] ins(%x, %y : memref<32x16xf16>, memref<16x16xf16>) outs(%o : memref<32x16xf32>)
        in_specs [#a, #b] out_specs [#a] {
    ^bb0(%xs: memref<16x16xf16, #gpu.address_space<workgroup>>, %ys: memref<16x16xf16, #gpu.address_space<workgroup>>, %os: memref<16x16xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %p = arith.constant 0.0 : f16
      %va = vector.transfer_read %xs[%c0, %c0], %p {in_bounds = [true, true]} : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
      %vb = vector.transfer_read %ys[%c0, %c0], %p {in_bounds = [true, true]} : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
      %acc = arith.constant dense<0.0> : vector<16x16xf32>
      %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc
          : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
      vector.transfer_write %r, %os[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32, #gpu.address_space<workgroup>>
    }
    return
  }
  func.func @kb(%x: memref<32x16xbf16>, %y: memref<16x16xbf16>, %o: memref<32x16xf32>) {
    mgpu.pallas_call grid [2] ins(%x, %y : memref<32x16xbf16>, memref<16x16xbf16>) outs(%o : memref<32x16xf32>)
        in_specs [#a, #b] out_specs [#a] {
    ^bb0(%xs: memref<16x16xbf16, #gpu.address_space<workgroup>>, %ys: memref<16x16xbf16, #gpu.address_space<workgroup>>, %os: memref<16x16xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %p = arith.constant 0.0 : bf16
      %va = vector.transfer_read %xs[%c0, %c0], %p {in_bounds = [true, true]} : memref<16x16xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
      %vb = vector.transfer_read %ys[%c0, %c0], %p {in_bounds = [true, true]} : memref<16x16xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
      %acc = arith.constant dense<0.0> : vector<16x16xf32>
      %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc
          : vector<16x16xbf16>, vector<16x16xbf16> into vector<16x16xf32>
      vector.transfer_write %r, %os[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32, #gpu.address_space<workgroup>>
    }
    return
  }
  func.func @main() {
    %x = memref.alloc() : memref<32x16xf16>
    %y = memref.alloc() : memref<16x16xf16>
    %o = memref.alloc() : memref<32x16xf32>
    %one = arith.constant 1.5 : f16
    %two = arith.constant 2.0 : f16
    linalg.fill ins(%one : f16) outs(%x : memref<32x16xf16>)
    linalg.fill ins(%two : f16) outs(%y : memref<16x16xf16>)
    func.call @k(%x, %y, %o) : (memref<32x16xf16>, memref<16x16xf16>, memref<32x16xf32>) -> ()
    %c0 = arith.constant 0 : index
    %c20 = arith.constant 20 : index
    %v = vector.load %o[%c20, %c0] : memref<32x16xf32>, vector<4xf32>
    vector.print str "f16: "
    vector.print %v : vector<4xf32>
    // 0.1 in bf16 is 0.10009765625; 16 of its products with 3 sum in f32.
    %xb = memref.alloc() : memref<32x16xbf16>
    %yb = memref.alloc() : memref<16x16xbf16>
    %tenth = arith.constant 0.1 : bf16
    %three = arith.constant 3.0 : bf16
    linalg.fill ins(%tenth : bf16) outs(%xb : memref<32x16xbf16>)
    linalg.fill ins(%three : bf16) outs(%yb : memref<16x16xbf16>)
    func.call @kb(%xb, %yb, %o) : (memref<32x16xbf16>, memref<16x16xbf16>, memref<32x16xf32>) -> ()
    %w = vector.load %o[%c0, %c0] : memref<32x16xf32>, vector<2xf32>
    vector.print str "bf16: "
    vector.print %w : vector<2xf32>
    return
  }
}
// CHECK: f16: ( 48, 48, 48, 48 )
// CHECK-NEXT: bf16: ( 4.80469, 4.80469 )
