// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s

// Lane layouts (SPEC section 7, plgpu.Layout) round trip: mgpu.layout_cast
// to each kind, and the layouts --mgpu-assign-layouts records in
// mgpu.out_layouts, on ordinary ops and on an scf.for.

// CHECK-LABEL: func.func @layouts
func.func @layouts() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    // CHECK: %[[ZERO:.*]] = arith.constant {mgpu.out_layouts = [#mgpu.layout<splat>]} dense<0.000000e+00> : vector<64x8xf32>
    %zero = arith.constant {mgpu.out_layouts = [#mgpu.layout<splat>]} dense<0.0> : vector<64x8xf32>
    // CHECK: %[[ACC:.*]] = mgpu.layout_cast %[[ZERO]] : vector<64x8xf32> to #mgpu.layout<wgmma>
    %acc = mgpu.layout_cast %zero : vector<64x8xf32> to #mgpu.layout<wgmma>
    // CHECK: mgpu.layout_cast %[[ZERO]] : vector<64x8xf32> to #mgpu.layout<splat>
    %s = mgpu.layout_cast %zero : vector<64x8xf32> to #mgpu.layout<splat>
    // CHECK: %[[LOOP:.*]] = scf.for {{.*}} -> (vector<64x8xf32>) {
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %acc) -> (vector<64x8xf32>) {
      // CHECK: arith.addf {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]} : vector<64x8xf32>
      %y = arith.addf %x, %s {mgpu.out_layouts = [#mgpu.layout<wgmma>]} : vector<64x8xf32>
      scf.yield %y : vector<64x8xf32>
    // CHECK: } {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
    } {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
    // CHECK: mgpu.layout_cast %[[LOOP]] : vector<64x8xf32> to #mgpu.layout<strided>
    %t = mgpu.layout_cast %r : vector<64x8xf32> to #mgpu.layout<strided>
    %row = arith.constant dense<1.0> : vector<64xf32>
    // CHECK: mgpu.layout_cast %{{.*}} : vector<64xf32> to #mgpu.layout<wgmma_row>
    %r1 = mgpu.layout_cast %row : vector<64xf32> to #mgpu.layout<wgmma_row>
    // CHECK: vector.shape_cast %{{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma_row>]} : vector<64xf32> to vector<64x1xf32>
    %r2 = vector.shape_cast %r1 {mgpu.out_layouts = [#mgpu.layout<wgmma_row>]} : vector<64xf32> to vector<64x1xf32>
    // JAX's Layout.WGMMA.reduce(0): one element per column.
    %col = arith.constant dense<1.0> : vector<64xf32>
    // CHECK: mgpu.layout_cast %{{.*}} : vector<64xf32> to #mgpu.layout<wgmma_col>
    %col1 = mgpu.layout_cast %col : vector<64xf32> to #mgpu.layout<wgmma_col>
    // JAX's other fragment layouts (plgpu.Layout.WGMMA_8BIT, ...).
    %q = arith.constant dense<1> : vector<64x32xi8>
    // CHECK: mgpu.layout_cast %{{.*}} : vector<64x32xi8> to #mgpu.layout<wgmma_8bit>
    %q1 = mgpu.layout_cast %q : vector<64x32xi8> to #mgpu.layout<wgmma_8bit>
    // CHECK: mgpu.layout_cast %{{.*}} : vector<64x32xi8> to #mgpu.layout<wgmma_upcast_2x>
    %q2 = mgpu.layout_cast %q : vector<64x32xi8> to #mgpu.layout<wgmma_upcast_2x>
    // CHECK: mgpu.layout_cast %{{.*}} : vector<64x32xi8> to #mgpu.layout<wgmma_upcast_4x>
    %q4 = mgpu.layout_cast %q : vector<64x32xi8> to #mgpu.layout<wgmma_upcast_4x>
    // CHECK: mgpu.layout_cast %{{.*}} : vector<64x8xf32> to #mgpu.layout<wgmma_transposed>
    %qt = mgpu.layout_cast %s : vector<64x8xf32> to #mgpu.layout<wgmma_transposed>
    %f = arith.constant 1.0 : f16
    // Any vector can be strided, and a broadcast scalar is a splat.
    // CHECK: vector.broadcast {{.*}} {mgpu.out_layouts = [#mgpu.layout<splat>]} : f16 to vector<3x5xf16>
    %b = vector.broadcast %f {mgpu.out_layouts = [#mgpu.layout<splat>]} : f16 to vector<3x5xf16>
    // CHECK: mgpu.layout_cast %{{.*}} : vector<3x5xf16> to #mgpu.layout<strided>
    %u = mgpu.layout_cast %b : vector<3x5xf16> to #mgpu.layout<strided>
  }
  return
}
