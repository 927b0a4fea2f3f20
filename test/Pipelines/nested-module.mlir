// A kernel in a nested module: interpret mode compiles it (the runtime's
// declarations and strings join the module where its references resolve);
// the GPU pipeline, which compiles the top-level module's gpu.modules,
// refuses it with a located error instead of failing later without one.
// RUN: mgpu-opt --mgpu-to-cpu %s | FileCheck %s
// RUN: not mgpu-opt --mgpu-to-binary="format=isa" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU

// CHECK: module @inner {
// CHECK: llvm.func @k(
// CHECK-NOT: mgpu.pallas_call
// GPU: nested-module.mlir:[[@LINE+6]]:7: error: 'mgpu.launch' op is in a nested module, which the GPU pipeline does not compile: move its function to the top-level module

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
module {
  module @inner {
    func.func @k(%x: memref<256xf32>, %o: memref<256xf32>) {
      mgpu.pallas_call grid [2] ins(%x : memref<256xf32>) outs(%o : memref<256xf32>)
          in_specs [#b] out_specs [#b] {
      ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>, %os: memref<128xf32, #gpu.address_space<workgroup>>):
        %c0 = arith.constant 0 : index
        %pad = arith.constant 0.0 : f32
        %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
        vector.transfer_write %v, %os[%c0] {in_bounds = [true]} : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
      }
      return
    }
  }
}
