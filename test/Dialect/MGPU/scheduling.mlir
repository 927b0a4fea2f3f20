// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines | FileCheck %s --check-prefix=EXPAND

// Persistent scheduling (SPEC section 8) round trips: an nd_loop over a
// grid of tiles spread over the programs of a grid axis, tiled or not, and
// planar_snake. --mgpu-expand-pipelines makes them an scf.for over this
// program's local steps and index arithmetic.

#mesh = #mgpu.mesh<grid = [4], grid_names = ["sm"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>

// CHECK-LABEL: func.func @loops
// CHECK: mgpu.nd_loop [%{{.*}}, %{{.*}}] collective_axes ["sm", "c"] {
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// CHECK: mgpu.nd_loop [%{{.*}}, %{{.*}}] collective_axes ["sm"] tiling [2, 1] {
// CHECK: mgpu.planar_snake %{{.*}} in [%{{.*}}, %{{.*}}] minor_dim 1 tile_width 4

// EXPAND-LABEL: func.func @loops
// EXPAND-NOT: mgpu.nd_loop
// EXPAND-NOT: mgpu.planar_snake
// EXPAND: mgpu.axis_size "sm"
// EXPAND: mgpu.axis_index "sm"
// EXPAND: mgpu.axis_size "c"
// EXPAND: mgpu.axis_index "c"
// EXPAND: scf.for
// EXPAND: memref.store
func.func @loops(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    %c8 = arith.constant 8 : index
    %one = arith.constant 1.0 : f32
    %n = mgpu.num_programs 0
    mgpu.nd_loop [%c8, %n] collective_axes ["sm", "c"] {
    ^bb0(%i: index, %j: index, %step: index):
      memref.store %one, %g[%i] : memref<8xf32>
    }
    mgpu.nd_loop [%c8, %n] collective_axes ["sm"] tiling [2, 1] {
    ^bb0(%i: index, %j: index, %step: index):
      %a, %b = mgpu.planar_snake %step in [%c8, %n] minor_dim 1 tile_width 4
      memref.store %one, %g[%a] : memref<8xf32>
    }
  }
  return
}

// A dynamic scheduling loop takes its next step from a global counter:
// an scf.while whose body ends with an atomic add on it.
#one = #mgpu.mesh<grid = [4], grid_names = ["sm"]>

// CHECK-LABEL: func.func @dynamic
// CHECK: mgpu.dynamic_scheduling_loop [%{{.*}}, %{{.*}}] collective_axes ["sm"] counter %{{.*}}[%{{.*}}] : memref<1xi32> {
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index):

// EXPAND-LABEL: func.func @dynamic
// EXPAND-NOT: mgpu.dynamic_scheduling_loop
// EXPAND: scf.while
// EXPAND: arith.cmpi ult
// EXPAND: scf.condition
// EXPAND: memref.store
// EXPAND: memref.atomic_rmw addi
// EXPAND: scf.yield
func.func @dynamic(%o: memref<8xf32>) {
  mgpu.mpmd_map meshes [#one] outs(%o : memref<8xf32>) scratch [memref<1xi32>] {
  ^bb0(%g: memref<8xf32>, %count: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c2 = arith.constant 2 : index
    %one = arith.constant 1.0 : f32
    mgpu.dynamic_scheduling_loop [%c8, %c2] collective_axes ["sm"]
        counter %count[%c0] : memref<1xi32> {
    ^bb0(%i: index, %j: index, %step: index):
      memref.store %one, %g[%i] : memref<8xf32>
    }
  }
  return
}
