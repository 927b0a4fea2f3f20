// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines | FileCheck %s --check-prefix=EXPAND

// Persistent scheduling (SPEC section 8) round trips: an nd_loop over a
// grid of tiles spread over the programs of a grid axis, tiled or not, and
// planar_snake. --mgpu-expand-pipelines makes them an scf.for over this
// program's local steps and index arithmetic.

#mesh = #mgpu.mesh<grid = [4], grid_names = ["sm"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
#one1 = #mgpu.mesh<grid = [4], grid_names = ["sm"]>
#all1 = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
#steps = #mgpu.block_spec<shape = [4], index_map = affine_map<(i) -> (0)>, memory_space = gmem>

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

// nd_loop with carries (JAX's init_carry): the body takes them after the
// local step and yields the next ones; the loop returns the last. Expanded,
// they are the scf.for's iter_args.
// CHECK-LABEL: func.func @carries
// CHECK: %{{.*}}:2 = mgpu.nd_loop [%{{.*}}] collective_axes ["sm"] init_carry(%{{.*}}, %{{.*}} : i32, vector<8xf32>) -> i32, vector<8xf32> {
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: i32, %{{.*}}: vector<8xf32>):
// CHECK: mgpu.yield %{{.*}}, %{{.*}} : i32, vector<8xf32>

// EXPAND-LABEL: func.func @carries
// EXPAND-NOT: mgpu.nd_loop
// EXPAND: %[[ZERO:.*]] = arith.constant 0 : i32
// EXPAND: %[[LOOP:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[COUNT:.*]] = %[[ZERO]], %[[SUM:.*]] = %{{.*}}) -> (i32, vector<8xf32>) {
// EXPAND: %[[NEXT:.*]] = arith.addi %[[COUNT]], %{{.*}} : i32
// EXPAND: %[[ADDED:.*]] = arith.addf %[[SUM]], %{{.*}} : vector<8xf32>
// EXPAND: scf.yield %[[NEXT]], %[[ADDED]] : i32, vector<8xf32>
// EXPAND: memref.store %[[LOOP]]#0
// EXPAND: vector.transfer_write %[[LOOP]]#1
func.func @carries(%o: memref<8xf32>, %n: memref<4xi32>) {
  mgpu.pallas_call grid [4] outs(%o, %n : memref<8xf32>, memref<4xi32>)
      in_specs [] out_specs [#all1, #steps] mesh #one1 {
  ^bb0(%g: memref<8xf32>, %s: memref<4xi32>):
    %c0 = arith.constant 0 : index
    %c9 = arith.constant 9 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %ones = arith.constant dense<1.0> : vector<8xf32>
    %empty = arith.constant dense<0.0> : vector<8xf32>
    %count, %sum = mgpu.nd_loop [%c9] collective_axes ["sm"]
        init_carry(%zero, %empty : i32, vector<8xf32>) -> i32, vector<8xf32> {
    ^bb0(%i: index, %step: index, %k: i32, %acc: vector<8xf32>):
      %next = arith.addi %k, %one : i32
      %added = arith.addf %acc, %ones : vector<8xf32>
      mgpu.yield %next, %added : i32, vector<8xf32>
    }
    %p = mgpu.axis_index "sm"
    memref.store %count, %s[%p] : memref<4xi32>
    vector.transfer_write %sum, %g[%c0] {in_bounds = [true]} : vector<8xf32>, memref<8xf32>
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

// A dynamic scheduling loop with a carry: the scf.while carries it after
// the step and the local step, and returns it.
// CHECK-LABEL: func.func @dynamic_carry
// CHECK: %{{.*}} = mgpu.dynamic_scheduling_loop [%{{.*}}] collective_axes ["sm"] counter %{{.*}}[%{{.*}}] : memref<1xi32> init_carry(%{{.*}} : f32) -> f32 {
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: f32):

// EXPAND-LABEL: func.func @dynamic_carry
// EXPAND: %[[LOOP:.*]]:3 = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (index, index, f32) -> (index, index, f32)
// EXPAND: scf.condition
// EXPAND: ^bb0(%{{.*}}: index, %{{.*}}: index, %[[SUM:.*]]: f32):
// EXPAND: %[[NEXT:.*]] = arith.addf %[[SUM]]
// EXPAND: memref.atomic_rmw addi
// EXPAND: scf.yield %{{.*}}, %{{.*}}, %[[NEXT]] : index, index, f32
// EXPAND: memref.store %[[LOOP]]#2
func.func @dynamic_carry(%o: memref<8xf32>) {
  mgpu.mpmd_map meshes [#one] outs(%o : memref<8xf32>) scratch [memref<1xi32>] {
  ^bb0(%g: memref<8xf32>, %count: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %sum = mgpu.dynamic_scheduling_loop [%c8] collective_axes ["sm"]
        counter %count[%c0] : memref<1xi32> init_carry(%zero : f32) -> f32 {
    ^bb0(%i: index, %step: index, %s: f32):
      %next = arith.addf %s, %one : f32
      mgpu.yield %next : f32
    }
    %p = mgpu.axis_index "sm"
    memref.store %sum, %g[%p] : memref<8xf32>
  }
  return
}
