// The whole interpret pipeline ends in the LLVM dialect, with either
// function-boundary layout.
// RUN: mgpu-opt %s --mgpu-to-cpu | FileCheck %s
// RUN: mgpu-opt %s --mgpu-to-cpu="identity-layout=false" | FileCheck %s
// RUN: mgpu-opt %s --mgpu-to-cpu | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

#b = #mgpu.block_spec<shape = [64], index_map = affine_map<(i) -> (i)>>

// CHECK-LABEL: llvm.func @double
// CHECK: llvm.call @malloc
// CHECK: llvm.fadd %{{.+}}, %{{.+}} : vector<64xf32>
// CHECK-NOT: mgpu.
// CHECK-NOT: memref.
// CHECK-NOT: scf.
// IR-LABEL: define {{.*}} @double(
// IR: fadd contract <64 x float>
func.func @double(%a: tensor<256xf32>) -> tensor<256xf32> {
  %r = mgpu.pallas_call grid [4] ins(%a : tensor<256xf32>) outs(%a : tensor<256xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%x: memref<64xf32, #gpu.address_space<workgroup>>,
       %y: memref<64xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %x[%c0], %pad {in_bounds = [true]}
        : memref<64xf32, #gpu.address_space<workgroup>>, vector<64xf32>
    %d = arith.addf %v, %v : vector<64xf32>
    vector.transfer_write %d, %y[%c0] {in_bounds = [true]}
        : vector<64xf32>, memref<64xf32, #gpu.address_space<workgroup>>
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
