// The cluster ops assemble for sm_90a: cluster_sync is barrier.cluster; an
// arrival on a cluster barrier is mapa plus a remote mbarrier.arrive at
// cluster scope, its wait an acquire at cluster scope; a kernel with
// cluster barriers meets its cluster after initializing them and at its end.
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s | %extract_ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
!cbar = !mgpu.cluster_barrier<axes = ["c"], count = 1, arrivals = 2>

// PTX-LABEL: .entry
// PTX: mbarrier.init.shared.b64
// PTX: fence.mbarrier_init.release.cluster;
// PTX: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// PTX: st.global
// PTX: mapa.shared::cluster.u64
// PTX: mbarrier.arrive.release.cluster.shared::cluster.b64
// PTX: mbarrier.try_wait.parity.acquire.cluster.shared.b64
// PTX: ld.global
// PTX: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// PTX: ld.global
// PTX: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
func.func @cluster_ops(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] scratch [!cbar] mesh #mesh {
  ^bb0(%g: memref<8xf32>, %bar: !cbar):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c = mgpu.axis_index "c"
    %ci = arith.index_cast %c : index to i32
    %cf = arith.sitofp %ci : i32 to f32
    memref.store %cf, %g[%c] : memref<8xf32>
    mgpu.barrier_arrive %bar[%c0] : !cbar
    mgpu.barrier_wait %bar[%c0] : !cbar
    %other = arith.subi %c1, %c : index
    %v = memref.load %g[%other] : memref<8xf32>
    mgpu.cluster_sync
    %w = memref.load %g[%other] : memref<8xf32>
    %sum = arith.addf %v, %w : f32
    %at = arith.addi %c, %c4 : index
    memref.store %sum, %g[%at] : memref<8xf32>
  }
  return
}
