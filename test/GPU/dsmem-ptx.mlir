// Distributed shared memory assembles for sm_90a: a cluster_ref is mapa to
// the peer's shared::cluster address, cast to a generic one that the lanes
// load and store through; async_store_smem arrives on the peer's barrier
// expecting the bytes and issues one bulk shared::cta -> shared::cluster
// copy that completes them there. The kernel meets its cluster after
// initializing its barriers and at its end.
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s | %extract_ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

#mesh = #mgpu.mesh<grid = [2], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#o = #mgpu.block_spec<shape = [2, 64], index_map = affine_map<(i, c) -> (i * 2 + c, 0)>>
!row = memref<64xf32, #gpu.address_space<workgroup>>
!blk = memref<2x64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>

// PTX-LABEL: .entry
// PTX: mbarrier.init.shared.b64
// PTX: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// PTX: mapa.shared::cluster.u64
// PTX: ld.shared::cluster.v4.b32
// PTX: mapa.shared::cluster.u64 [[BAR:%rd[0-9]+]]
// PTX: mapa.shared::cluster.u64 [[DST:%rd[0-9]+]]
// PTX: mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, {{\[}}[[BAR]]{{\]}}, %r{{[0-9]+}}
// PTX: cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes {{\[}}[[DST]]{{\]}}, {{.*}}, {{\[}}[[BAR]]{{\]}};
// PTX: mbarrier.try_wait.parity
// PTX: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
func.func @dsmem(%o: memref<8x64xf32>) {
  mgpu.pallas_call grid [2, 2] outs(%o : memref<8x64xf32>)
      in_specs [] out_specs [#o] scratch [!row, !row, !bar] mesh #mesh {
  ^bb0(%os: !blk, %mine: !row, %recv: !row, %bar: !bar):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pad = arith.constant 0.0 : f32
    %c = mgpu.axis_index "c"
    %other = arith.subi %c1, %c : index
    %ci = arith.index_cast %c : index to i32
    %cf = arith.sitofp %ci : i32 to f32
    %v = vector.broadcast %cf : f32 to vector<64xf32>
    vector.transfer_write %v, %mine[%c0] {in_bounds = [true]} : vector<64xf32>, !row
    mgpu.cluster_sync
    %peer = mgpu.cluster_ref %mine[%other] along ["c"] : !row -> memref<64xf32>
    %r = vector.transfer_read %peer[%c0], %pad {in_bounds = [true]} : memref<64xf32>, vector<64xf32>
    vector.transfer_write %r, %os[%c0, %c0] {in_bounds = [true]} : vector<64xf32>, !blk
    mgpu.commit_smem
    %peer_recv = mgpu.cluster_ref %recv[%other] along ["c"] : !row -> memref<64xf32>
    mgpu.async_store_smem %mine, %peer_recv, %bar[%c0] : !row, memref<64xf32>, !bar
    mgpu.barrier_wait %bar[%c0] : !bar
    %s = vector.transfer_read %recv[%c0], %pad {in_bounds = [true]} : !row, vector<64xf32>
    vector.transfer_write %s, %os[%c1, %c0] {in_bounds = [true]} : vector<64xf32>, !blk
  }
  return
}
