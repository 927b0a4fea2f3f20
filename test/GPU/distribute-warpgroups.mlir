// RUN: mgpu-opt %s --mgpu-place-barriers --mgpu-distribute-warpgroups --canonicalize --cse | FileCheck %s

// --mgpu-distribute-warpgroups from written-out layouts: each vector value
// is spread over the 128 lanes of a warpgroup as its `mgpu.out_layouts`
// says, and the launch becomes per-lane code (`lanes`, a lane index after
// the warpgroup's).

#s = #gpu.address_space<workgroup>
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {

// A strided value: lane l holds elements 4l..4l+3, loaded and stored 16
// bytes at a time; the splat is one register value per lane.
// CHECK-LABEL: func.func @strided
// CHECK: mgpu.launch grid [2] warpgroups 1 lanes ins(%{{.+}} : memref<512xf32>) outs(%{{.+}} : memref<512xf32>) {
// CHECK: ^bb0(%{{.+}}: index, %[[WG:.+]]: index, %[[LANE:.+]]: index, %[[X:.+]]: memref<512xf32>, %[[Y:.+]]: memref<512xf32>):
// CHECK-DAG: %[[TWO:.+]] = arith.constant dense<2.000000e+00> : vector<4xf32>
// CHECK: %[[AT:.+]] = arith.muli %[[LANE]], %c4
// CHECK: %[[V:.+]] = vector.load %[[X]][%[[AT]]] {alignment = 16 : i64} : memref<512xf32>, vector<4xf32>
// CHECK: %[[W:.+]] = arith.mulf %[[V]], %[[TWO]] : vector<4xf32>
// CHECK: vector.store %[[W]], %[[Y]][%[[AT]]] {alignment = 16 : i64}
func.func @strided(%x: memref<512xf32>, %o: memref<512xf32>) {
  mgpu.launch grid [2] warpgroups 1 ins(%x : memref<512xf32>) outs(%o : memref<512xf32>) {
  ^bb0(%cta: index, %wg: index, %xs: memref<512xf32>, %ys: memref<512xf32>):
    %c0 = arith.constant 0 : index
    %two = arith.constant {mgpu.out_layouts = [#mgpu.layout<splat>]} dense<2.0> : vector<512xf32>
    %v = vector.load %xs[%c0] {mgpu.out_layouts = [#mgpu.layout<strided>]} : memref<512xf32>, vector<512xf32>
    %w = arith.mulf %v, %two {mgpu.out_layouts = [#mgpu.layout<strided>]} : vector<512xf32>
    vector.store %w, %ys[%c0] : memref<512xf32>, vector<512xf32>
  }
  return
}

// The same kind of value written out in the wgmma layout is held as
// accumulator fragments and stored from the registers, 8 bytes at a time
// at the fragment's rows and columns.
// CHECK-LABEL: func.func @fragments
// CHECK: ^bb0(%{{.+}}: index, %{{.+}}: index, %[[LANE:.+]]: index, %[[Y:.+]]: memref<64x16xf32>):
// CHECK: %[[WARP:.+]] = arith.divui %[[LANE]], %c32
// CHECK-COUNT-4: vector.store %{{.+}}, %[[Y]][%{{.+}}, %{{.+}}] {alignment = 8 : i64} : memref<64x16xf32>, vector<2xf32>
// CHECK-NOT: vector.store
func.func @fragments(%o: memref<64x16xf32>) {
  mgpu.launch grid [1] warpgroups 1 outs(%o : memref<64x16xf32>) {
  ^bb0(%cta: index, %wg: index, %ys: memref<64x16xf32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant {mgpu.out_layouts = [#mgpu.layout<wgmma>]} dense<1.0> : vector<64x16xf32>
    vector.transfer_write %one, %ys[%c0, %c0] {in_bounds = [true, true]} : vector<64x16xf32>, memref<64x16xf32>
  }
  return
}

// In the strided layout the same stores are 16 bytes wide, two slots of
// 128 lanes.
// CHECK-LABEL: func.func @lanes_strided
// CHECK-COUNT-2: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<64x16xf32>, vector<4xf32>
// CHECK-NOT: vector.store
func.func @lanes_strided(%o: memref<64x16xf32>) {
  mgpu.launch grid [1] warpgroups 1 outs(%o : memref<64x16xf32>) {
  ^bb0(%cta: index, %wg: index, %ys: memref<64x16xf32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant {mgpu.out_layouts = [#mgpu.layout<strided>]} dense<1.0> : vector<64x16xf32>
    vector.transfer_write %one, %ys[%c0, %c0] {in_bounds = [true, true]} : vector<64x16xf32>, memref<64x16xf32>
  }
  return
}

// A transpose moves elements between lanes: through a new shared scratch
// entry after the launch's own (one 8 KiB area per warpgroup, the
// warpgroup's at 8192 x its index), with the warpgroup's barrier between
// the writes and the reads.
// CHECK-LABEL: func.func @exchange
// CHECK: mgpu.launch grid [1] warpgroups 2 lanes {{.*}} shared [!mgpu.barrier<count = 1>, memref<16384xi8, #gpu.address_space<workgroup>>] at [0, 128] {
// CHECK: ^bb0(%{{.+}}: index, %[[WG:.+]]: index, %{{.+}}: index, %{{.+}}: memref<16x128xf32>, %{{.+}}: memref<128x16xf32>, %{{.+}}: !mgpu.barrier<count = 1>, %[[AREA:.+]]: memref<16384xi8, #gpu.address_space<workgroup>>):
// CHECK: %[[START:.+]] = arith.muli %[[WG]], %c8192
// CHECK: %[[MINE:.+]] = memref.view %[[AREA]][%[[START]]][] : memref<16384xi8, #gpu.address_space<workgroup>> to memref<2048xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: vector.store %{{.+}}, %[[MINE]]
// CHECK: mgpu.warpgroup_barrier
// CHECK: memref.load %[[MINE]]
func.func @exchange(%x: memref<16x128xf32>, %o: memref<128x16xf32>) {
  mgpu.launch grid [1] warpgroups 2 ins(%x : memref<16x128xf32>) outs(%o : memref<128x16xf32>) shared [!mgpu.barrier<count = 1>] at [0] {
  ^bb0(%cta: index, %wg: index, %xs: memref<16x128xf32>, %ys: memref<128x16xf32>, %bar: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    %v = vector.load %xs[%c0, %c0] {mgpu.out_layouts = [#mgpu.layout<strided>]} : memref<16x128xf32>, vector<16x128xf32>
    %t = vector.transpose %v, [1, 0] {mgpu.out_layouts = [#mgpu.layout<strided>]} : vector<16x128xf32> to vector<128x16xf32>
    vector.store %t, %ys[%c0, %c0] : memref<128x16xf32>, vector<128x16xf32>
  }
  return
}
}
