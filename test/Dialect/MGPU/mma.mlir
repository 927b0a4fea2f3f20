// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s

// mgpu.mma (plgpu.mma) round-trips.

// CHECK-LABEL: func.func @mma
// CHECK: mgpu.mma %{{.*}}, %{{.*}}, %{{.*}} : vector<64x64xf32>, vector<64x32xf16>, vector<32x64xf16>
// CHECK: mgpu.mma %{{.*}}, %{{.*}}, %{{.*}} : vector<128x8xf32>, vector<128x16xbf16>, vector<16x8xbf16>
func.func @mma(%acc: vector<64x64xf32>, %a: vector<64x32xf16>, %b: vector<32x64xf16>,
               %acc2: vector<128x8xf32>, %a2: vector<128x16xbf16>, %b2: vector<16x8xbf16>)
    -> (vector<64x64xf32>, vector<128x8xf32>) {
  %d = mgpu.mma %acc, %a, %b : vector<64x64xf32>, vector<64x32xf16>, vector<32x64xf16>
  %e = mgpu.mma %acc2, %a2, %b2 : vector<128x8xf32>, vector<128x16xbf16>, vector<16x8xbf16>
  return %d, %e : vector<64x64xf32>, vector<128x8xf32>
}
