// f8 conversions (e4m3fn in program 0, e5m2 in program 1): round to
// nearest even, subnormals, saturation to the largest finite value (448,
// 57344) as the GPU's cvt.rn.satfinite does; f8 arithmetic in f32 with a
// rounding after each op. The expected values were computed independently
// (Python, exact arithmetic); every backend gives them.
// RUN: %run_on_backends %s --match-full-lines
// The GPU code assembles for sm_90a (the conversions as integer code).
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s | %extract_ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

#b = #mgpu.block_spec<shape = [16], index_map = affine_map<(i) -> (i)>>

module {
  func.func @k(%x: tensor<32xf32>, %init: tensor<32xf32>) -> tensor<32xf32> {
    %out = mgpu.pallas_call grid [2] ins(%x : tensor<32xf32>)
        outs(%init : tensor<32xf32>) in_specs [#b] out_specs [#b] {
    ^bb0(%xs: memref<16xf32, #gpu.address_space<workgroup>>,
         %os: memref<16xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %pid = mgpu.program_id 0
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
          : memref<16xf32, #gpu.address_space<workgroup>>, vector<16xf32>
      %r = scf.index_switch %pid -> vector<16xf32>
      case 0 {
        %t = arith.truncf %v : vector<16xf32> to vector<16xf8E4M3FN>
        %e = arith.extf %t : vector<16xf8E4M3FN> to vector<16xf32>
        scf.yield %e : vector<16xf32>
      }
      default {
        %t = arith.truncf %v : vector<16xf32> to vector<16xf8E5M2>
        %e = arith.extf %t : vector<16xf8E5M2> to vector<16xf32>
        scf.yield %e : vector<16xf32>
      }
      vector.transfer_write %r, %os[%c0] {in_bounds = [true]}
          : vector<16xf32>, memref<16xf32, #gpu.address_space<workgroup>>
    } -> tensor<32xf32>
    return %out : tensor<32xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %vals = arith.constant dense<[0.0, 1.0, -3.4, 0.1, 1000.0, -0.0029,
        0.0009765625, 0.0029296875, 300.0, 17.0, -60000.0, 1.0e-6, 2.75,
        0.3, 100.0, 7.5]> : vector<16xf32>
    %x = memref.alloc() : memref<32xf32>
    vector.store %vals, %x[%c0] : memref<32xf32>, vector<16xf32>
    vector.store %vals, %x[%c16] : memref<32xf32>, vector<16xf32>
    %xt = bufferization.to_tensor %x restrict : memref<32xf32> to tensor<32xf32>
    %init = tensor.empty() : tensor<32xf32>
    %ot = func.call @k(%xt, %init) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<32xf32> to memref<32xf32>
    // CHECK: ( 0, 1, -3.5, 0.101562, 448, -0.00195312, 0, 0.00390625, 288, 16, -448, 0, 2.75, 0.3125, 96, 7.5 )
    // CHECK-NEXT: ( 0, 1, -3.5, 0.09375, 1024, -0.00292969, 0.000976562, 0.00292969, 320, 16, -57344, 0, 3, 0.3125, 96, 8 )
    %a = vector.load %o[%c0] : memref<32xf32>, vector<16xf32>
    vector.print %a : vector<16xf32>
    %b = vector.load %o[%c16] : memref<32xf32>, vector<16xf32>
    vector.print %b : vector<16xf32>
    return
  }
}
