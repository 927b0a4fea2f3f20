// A multicast copy assembles for sm_90a: one
// cp.async.bulk.tensor...multicast::cluster with a 16-bit CTA mask per
// share, after an expect_tx of the whole window on the CTA's own barrier.
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s | %extract_ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

// PTX-LABEL: .entry
// PTX: fence.mbarrier_init.release.cluster;
// PTX: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// PTX: mbarrier.arrive.expect_tx.shared.b64
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{{.*}}], [{{.*}}], [{{.*}}], %rs{{[0-9]+}};
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#x = #mgpu.block_spec<shape = [32, 64], index_map = affine_map<(i, c) -> (0, 0)>, memory_space = gmem>
!buf = memref<8x64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
func.func @multicast(%x: memref<32x64xf32>) {
  mgpu.pallas_call grid [4, 2] ins(%x : memref<32x64xf32>)
      in_specs [#x] out_specs [] scratch [!buf, !bar] mesh #mesh {
  ^bb0(%xg: memref<32x64xf32>, %window: !buf, %bar: !bar):
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %i = mgpu.axis_index "i"
    %row = arith.muli %i, %c8 : index
    mgpu.copy_gmem_to_smem %xg[%row, 0], %window, %bar[%c0]
        collective_axes ["c"] : memref<32x64xf32>, !buf, !bar
    mgpu.barrier_wait %bar[%c0] : !bar
  }
  return
}
