// The cluster ops assemble for sm_90a: cluster_sync is barrier.cluster.
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s | %extract_ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>

// PTX-LABEL: .entry
// PTX: st.global
// PTX: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// PTX: ld.global
func.func @cluster_sync(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    %c = mgpu.axis_index "c"
    %ci = arith.index_cast %c : index to i32
    %cf = arith.sitofp %ci : i32 to f32
    memref.store %cf, %g[%c] : memref<8xf32>
    mgpu.cluster_sync
    %c1 = arith.constant 1 : index
    %other = arith.subi %c1, %c : index
    %v = memref.load %g[%other] : memref<8xf32>
    %at = arith.addi %c, %c1 : index
    %c2 = arith.constant 2 : index
    %at2 = arith.addi %at, %c2 : index
    memref.store %v, %g[%at2] : memref<8xf32>
  }
  return
}
