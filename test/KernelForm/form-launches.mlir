// RUN: mgpu-opt %s --mgpu-form-launches --cse -split-input-file | FileCheck %s
// RUN: mgpu-opt %s --mgpu-form-launches="mpmd-form=cta-partitioned" --cse -split-input-file | FileCheck %s --check-prefix=CTA

// A pallas_call in kernel form: its parallel axes are the launch grid (the
// dynamic one passed as a scalar for num_programs), the sequential axis's
// program id is 0, the scratch is planned (barriers at 128-byte boundaries,
// a buffer of a KiB or more on a 1024-byte one), global scratch is one
// buffer for the launch.
// CHECK-LABEL: func.func @pallas_call
// CHECK-SAME: (%[[N:.+]]: index,
// CHECK: mgpu.launch grid [%[[N]], 4] warpgroups 1 scalars(%[[N]]) ins(%{{.+}} : memref<64xf32>) outs(%{{.+}} : memref<16xindex>) global [memref<2xi32>] shared [!mgpu.barrier<count = 2>, memref<2048xi8, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 1>] at [0, 1024, 3072] {
// CHECK: ^bb0(%[[I:.+]]: index, %[[K:.+]]: index, %[[WG:.+]]: index, %[[SIZE:.+]]: index, %[[X:.+]]: memref<64xf32>, %[[Y:.+]]: memref<16xindex>, %[[SEM:.+]]: memref<2xi32>, %[[BAR:.+]]: !mgpu.barrier<count = 2>, %[[ARENA:.+]]: memref<2048xi8, #gpu.address_space<workgroup>>, %[[BAR2:.+]]: !mgpu.barrier<count = 1>):
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[SEQ:.+]] = arith.constant 8 : index
// CHECK: memref.store %[[I]], %[[Y]][%[[ZERO]]]
// CHECK: memref.store %[[ZERO]], %[[Y]][%[[ZERO]]]
// CHECK: memref.store %[[K]], %[[Y]][%[[ZERO]]]
// CHECK: memref.store %[[SIZE]], %[[Y]][%[[ZERO]]]
// CHECK: memref.store %[[SEQ]], %[[Y]][%[[ZERO]]]
// CHECK: mgpu.barrier_arrive %[[BAR]]
// CHECK: mgpu.barrier_arrive %[[BAR2]]
// CHECK: mgpu.semaphore_signal %[[SEM]]
// CHECK: memref.load %[[ARENA]]
// CHECK-NOT: mgpu.program_id
// CHECK-NOT: mgpu.num_programs
#p = #mgpu.compiler_params<dimension_semantics = [parallel, sequential, parallel]>
func.func @pallas_call(%n: index, %x: memref<64xf32>, %y: memref<16xindex>) {
  mgpu.pallas_call grid [%n, 8, 4] ins(%x : memref<64xf32>) outs(%y : memref<16xindex>)
      in_specs [#mgpu.block_spec<shape = [64], index_map = affine_map<(i, j, k) -> (0)>, memory_space = gmem>]
      out_specs [#mgpu.block_spec<shape = [16], index_map = affine_map<(i, j, k) -> (0)>, memory_space = gmem>]
      scratch [!mgpu.barrier<count = 2>, memref<2xi32>, memref<2048xi8, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 1>]
      params #p expanded {
  ^bb0(%xs: memref<64xf32>, %ys: memref<16xindex>, %bar: !mgpu.barrier<count = 2>,
       %sem: memref<2xi32>, %arena: memref<2048xi8, #gpu.address_space<workgroup>>,
       %bar2: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    %i = mgpu.program_id 0
    %j = mgpu.program_id 1
    %k = mgpu.program_id 2
    %ni = mgpu.num_programs 0
    %nj = mgpu.num_programs 1
    memref.store %i, %ys[%c0] : memref<16xindex>
    memref.store %j, %ys[%c0] : memref<16xindex>
    memref.store %k, %ys[%c0] : memref<16xindex>
    memref.store %ni, %ys[%c0] : memref<16xindex>
    memref.store %nj, %ys[%c0] : memref<16xindex>
    mgpu.barrier_arrive %bar[%c0] : !mgpu.barrier<count = 2>
    mgpu.barrier_arrive %bar2[%c0] : !mgpu.barrier<count = 1>
    %one = arith.constant 1 : i32
    %one_index = arith.constant 1 : index
    mgpu.semaphore_signal %sem[%c0], %one : memref<2xi32>
    %b = memref.load %arena[%c0] : memref<2048xi8, #gpu.address_space<workgroup>>
    memref.store %b, %arena[%one_index] : memref<2048xi8, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A mesh: its grid axes are the launch grid, its cluster axes the launch
// cluster, its thread axis the warpgroups; named axes are the arguments.
// CHECK-LABEL: func.func @mesh
// CHECK: mgpu.launch grid [2] cluster [2] warpgroups 2 outs(%{{.+}} : memref<8xindex>) {
// CHECK: ^bb0(%[[I:.+]]: index, %[[C:.+]]: index, %[[WG:.+]]: index, %[[Y:.+]]: memref<8xindex>):
// CHECK-DAG: %[[THREADS:.+]] = arith.constant 2 : index
// CHECK: memref.store %[[I]], %[[Y]][%[[C]]]
// CHECK: memref.store %[[WG]], %[[Y]][%[[I]]]
// CHECK: memref.store %[[THREADS]], %[[Y]][%[[WG]]]
#m = #mgpu.mesh<grid = [2], grid_names = ["i"], cluster = [2], cluster_names = ["c"], num_threads = 2, thread_name = "wg">
#g = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c, t) -> (0)>, memory_space = gmem>
func.func @mesh(%y: memref<8xindex>) {
  mgpu.pallas_call grid [2, 2, 2] outs(%y : memref<8xindex>) in_specs [] out_specs [#g] mesh #m expanded {
  ^bb0(%ys: memref<8xindex>):
    %i = mgpu.program_id 0
    %c = mgpu.axis_index "c"
    %t = mgpu.program_id 2
    %n = mgpu.axis_size "wg"
    memref.store %i, %ys[%c] : memref<8xindex>
    memref.store %t, %ys[%i] : memref<8xindex>
    memref.store %n, %ys[%t] : memref<8xindex>
  }
  return
}

// -----

// mpmd_map, same grid: warp-specialized by default (one range of warpgroups
// per region, the second region's thread index shifted); CTA-partitioned on
// request (a 1-D grid of 2 + 2 CTAs; each region's program ids from its
// range). Global scratch is shared by the regions, shared scratch is one
// copy per region.
// CHECK-LABEL: func.func @mpmd
// CHECK: mgpu.launch grid [2] warpgroups 3 outs(%{{.+}} : memref<8xindex>) global [memref<1xi32>] shared [!mgpu.barrier<count = 1>, !mgpu.barrier<count = 1>] at [0, 128] {
// CHECK: ^bb0(%[[I:.+]]: index, %[[WG:.+]]: index, %[[Y:.+]]: memref<8xindex>, %[[SEM:.+]]: memref<1xi32>, %[[B0:.+]]: !mgpu.barrier<count = 1>, %[[B1:.+]]: !mgpu.barrier<count = 1>):
// CHECK: %[[FIRST:.+]] = arith.cmpi ult, %[[WG]], %c1
// CHECK: scf.if %[[FIRST]] {
// CHECK: memref.store %[[I]], %[[Y]]
// CHECK: mgpu.barrier_arrive %[[B0]]
// CHECK: mgpu.semaphore_signal %[[SEM]]
// CHECK: %[[T:.+]] = arith.subi %[[WG]], %c1
// CHECK: %[[SECOND:.+]] = arith.cmpi ult, %[[T]], %c2
// CHECK: scf.if %[[SECOND]] {
// CHECK: memref.store %[[T]], %[[Y]][%[[I]]]
// CHECK: mgpu.barrier_arrive %[[B1]]
// CHECK: mgpu.semaphore_signal %[[SEM]]

// CTA-LABEL: func.func @mpmd
// CTA: mgpu.launch grid [4] warpgroups 2
// CTA: ^bb0(%[[CTA:.+]]: index, %[[WG:.+]]: index,
// CTA: %[[IN0:.+]] = arith.cmpi ult, %[[CTA]], %c2
// CTA: %[[WG0:.+]] = arith.cmpi ult, %[[WG]], %c1
// CTA: %[[MINE:.+]] = arith.andi %[[IN0]], %[[WG0]]
// CTA: scf.if %[[MINE]] {
// CTA: %[[P0:.+]] = affine.delinearize_index %[[CTA]] into (2)
// CTA: memref.store %[[P0]]
// CTA: %[[SHIFTED:.+]] = arith.subi %[[CTA]], %c2
// CTA: %[[IN1:.+]] = arith.cmpi ult, %[[SHIFTED]], %c2
// CTA: scf.if %[[IN1]] {
// CTA: %[[P1:.+]] = affine.delinearize_index %[[SHIFTED]] into (2)
// CTA: memref.store %[[WG]], %{{.+}}[%[[P1]]]
#m0 = #mgpu.mesh<grid = [2], grid_names = ["i"]>
#m1 = #mgpu.mesh<grid = [2], grid_names = ["j"], num_threads = 2, thread_name = "wg">
func.func @mpmd(%y: memref<8xindex>) {
  mgpu.mpmd_map meshes [#m0, #m1] outs(%y : memref<8xindex>) scratch [memref<1xi32>, !mgpu.barrier<count = 1>] {
  ^bb0(%y0: memref<8xindex>, %s0: memref<1xi32>, %b0: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    %i = mgpu.axis_index "i"
    memref.store %i, %y0[%c0] : memref<8xindex>
    mgpu.barrier_arrive %b0[%c0] : !mgpu.barrier<count = 1>
    %one = arith.constant 1 : i32
    mgpu.semaphore_signal %s0[%c0], %one : memref<1xi32>
  }, {
  ^bb0(%y1: memref<8xindex>, %s1: memref<1xi32>, %b1: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    %j = mgpu.axis_index "j"
    %t = mgpu.axis_index "wg"
    memref.store %t, %y1[%j] : memref<8xindex>
    mgpu.barrier_arrive %b1[%c0] : !mgpu.barrier<count = 1>
    %one = arith.constant 1 : i32
    mgpu.semaphore_signal %s1[%c0], %one : memref<1xi32>
  }
  return
}

// -----

// One pair (plgpu.kernel) covers the launch: no guard.
// CHECK-LABEL: func.func @kernel
// CHECK: mgpu.launch grid [3, 2] warpgroups 1
// CHECK-NOT: scf.if
// CHECK: return
#k = #mgpu.mesh<grid = [3, 2], grid_names = ["x", "y"]>
func.func @kernel(%y: memref<8xindex>) {
  mgpu.mpmd_map meshes [#k] outs(%y : memref<8xindex>) {
  ^bb0(%y0: memref<8xindex>):
    %x = mgpu.axis_index "x"
    %yy = mgpu.axis_index "y"
    memref.store %x, %y0[%yy] : memref<8xindex>
  }
  return
}

// -----

// An output the body only writes starts uninitialized on the device
// (write_only_outs); one that is also an input (input_output_aliases, JAX's
// test_input_output_aliases: ones written through the input's GMEM ref)
// is read through that ref, so it never is.
// CHECK-LABEL: func.func @write_only
// CHECK: mgpu.launch grid [] warpgroups 1 ins(%{{.+}} : memref<64x64xf32>) outs(%{{.+}} : memref<64x64xf32>) write_only_outs [0]
// CHECK-LABEL: func.func @aliased
// CHECK: mgpu.launch grid [] warpgroups 1 ins(%[[A:.+]] : memref<64x64xf32>) outs(%[[A]] : memref<64x64xf32>) {
#g = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<() -> (0, 0)>, memory_space = gmem>
func.func @write_only(%a: memref<64x64xf32>, %b: memref<64x64xf32>) {
  mgpu.pallas_call grid [] ins(%a : memref<64x64xf32>) outs(%b : memref<64x64xf32>)
      in_specs [#g] out_specs [#g] expanded {
  ^bb0(%a_ref: memref<64x64xf32>, %b_ref: memref<64x64xf32>):
    %c0 = arith.constant 0 : index
    %ones = arith.constant dense<1.0> : vector<64x64xf32>
    vector.transfer_write %ones, %b_ref[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  }
  return
}
func.func @aliased(%a: memref<64x64xf32>) {
  mgpu.pallas_call grid [] ins(%a : memref<64x64xf32>) outs(%a : memref<64x64xf32>)
      in_specs [#g] out_specs [#g] expanded {
  ^bb0(%a_ref: memref<64x64xf32>, %b_ref: memref<64x64xf32>):
    %c0 = arith.constant 0 : index
    %ones = arith.constant dense<1.0> : vector<64x64xf32>
    vector.transfer_write %ones, %a_ref[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  }
  return
}
