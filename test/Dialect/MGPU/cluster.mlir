// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s

// The cluster ops (SPEC section 8) round trip: cluster_sync in a kernel
// whose mesh has a cluster.

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>

// CHECK-LABEL: func.func @sync
func.func @sync(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    // CHECK: mgpu.cluster_sync
    mgpu.cluster_sync
  }
  return
}
