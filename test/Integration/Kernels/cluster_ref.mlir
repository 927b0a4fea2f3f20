// Distributed shared memory: the two CTAs of each cluster trade halves
// through each other's shared memory. CTA c of cluster i fills its buffer
// `mine` with 1000 (2i + c) + k (k = 0..63), then
//  - reads its peer's `mine` through mgpu.cluster_ref (after a
//    cluster_sync) into rows 0 of its output block;
//  - writes its own values + 0.5 into the peer's `got` through a
//    cluster_ref (row 1 of the peer's block after a cluster_sync);
//  - copies `mine` into the peer's `recv` with mgpu.async_store_smem,
//    counted on the peer's barrier, and waits on its own barrier for the
//    peer's copy (row 2).
// So row r of block b holds the peer's values (+ 0.5 in row 1), the peer of
// b being b xor 1.
// RUN: %run_on_backends %s --match-full-lines
// Planted bug: the second cluster_sync taken out. A CTA then reads `got`
// while its peer may still be writing it through the cluster_ref: a race
// between the two CTAs' threads, reported with the init check off too (in
// the emulator's schedule the peer has written by then, so the numbers are
// right).
// RUN: awk '/^ *mgpu.cluster_sync$/ { if (++n == 2) next } 1' %s > %t.no-sync.mlir
// RUN: not mgpu-run %t.no-sync.mlir -e main --backend=emulate --check=races 2>&1 | FileCheck %s --check-prefix=NO-SYNC
// RUN: not mgpu-run %t.no-sync.mlir -e main --backend=emulate --check=races --emulate-schedules 2 2>&1 | grep -c "schedule with seed [12] failed" | FileCheck %s --check-prefix=TWO
// TWO: 2
// NO-SYNC: no-sync.mlir:{{[0-9]+}}:7: error: data race: writes shared memory that thread {{[0-9]+}} of the cluster's CTA {{[01]}} reads at {{.*}}no-sync.mlir:{{[0-9]+}}:{{[0-9]+}} with no barrier in between

#mesh = #mgpu.mesh<grid = [2], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#o = #mgpu.block_spec<shape = [3, 64], index_map = affine_map<(i, c) -> (i * 2 + c, 0)>>
!row = memref<64xf32, #gpu.address_space<workgroup>>
!blk = memref<3x64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>

module {
  func.func @trade(%init: tensor<12x64xf32>) -> tensor<12x64xf32> {
    %out = mgpu.pallas_call grid [2, 2]
        outs(%init : tensor<12x64xf32>)
        in_specs [] out_specs [#o]
        scratch [!row, !row, !row, !bar] mesh #mesh {
    ^bb0(%os: !blk, %mine: !row, %got: !row, %recv: !row, %bar: !bar):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %pad = arith.constant 0.0 : f32
      %half = arith.constant 0.5 : f32
      %thousand = arith.constant 1000.0 : f32
      %i = mgpu.axis_index "i"
      %c = mgpu.axis_index "c"
      %other = arith.subi %c1, %c : index
      %i2 = arith.muli %i, %c2 : index
      %b = arith.addi %i2, %c : index
      %bi = arith.index_cast %b : index to i32
      %bf = arith.sitofp %bi : i32 to f32
      %base = arith.mulf %bf, %thousand : f32
      %k = vector.step : vector<64xindex>
      %ki = arith.index_cast %k : vector<64xindex> to vector<64xi32>
      %kf = arith.sitofp %ki : vector<64xi32> to vector<64xf32>
      %bv = vector.broadcast %base : f32 to vector<64xf32>
      %v = arith.addf %kf, %bv : vector<64xf32>
      vector.transfer_write %v, %mine[%c0] {in_bounds = [true]} : vector<64xf32>, !row
      mgpu.cluster_sync
      // Read the peer's buffer.
      %peer_mine = mgpu.cluster_ref %mine[%other] along ["c"] : !row -> memref<64xf32>
      %r0 = vector.transfer_read %peer_mine[%c0], %pad {in_bounds = [true]}
          : memref<64xf32>, vector<64xf32>
      vector.transfer_write %r0, %os[%c0, %c0] {in_bounds = [true]} : vector<64xf32>, !blk
      // Write into the peer's buffer.
      %peer_got = mgpu.cluster_ref %got[%other] along ["c"] : !row -> memref<64xf32>
      %hv = vector.broadcast %half : f32 to vector<64xf32>
      %w = arith.addf %v, %hv : vector<64xf32>
      vector.transfer_write %w, %peer_got[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32>
      mgpu.cluster_sync
      %r1 = vector.transfer_read %got[%c0], %pad {in_bounds = [true]} : !row, vector<64xf32>
      vector.transfer_write %r1, %os[%c1, %c0] {in_bounds = [true]} : vector<64xf32>, !blk
      // A bulk copy into the peer's buffer, counted on the peer's barrier.
      mgpu.commit_smem
      %peer_recv = mgpu.cluster_ref %recv[%other] along ["c"] : !row -> memref<64xf32>
      mgpu.async_store_smem %mine, %peer_recv, %bar[%c0] : !row, memref<64xf32>, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      %r2 = vector.transfer_read %recv[%c0], %pad {in_bounds = [true]} : !row, vector<64xf32>
      vector.transfer_write %r2, %os[%c2, %c0] {in_bounds = [true]} : vector<64xf32>, !blk
      // No CTA leaves while its peer may still read its buffers.
      mgpu.cluster_sync
    } -> tensor<12x64xf32>
    return %out : tensor<12x64xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %thousand = arith.constant 1000.0 : f32
    %half = arith.constant 0.5 : f32
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<12x64xf32>
    %ot = func.call @trade(%init) : (tensor<12x64xf32>) -> tensor<12x64xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<12x64xf32> to memref<12x64xf32>
    %none = arith.constant 0 : i32
    %bad = scf.for %b = %c0 to %c4 step %c1 iter_args(%n0 = %none) -> i32 {
      %bi = arith.index_cast %b : index to i32
      %one = arith.constant 1 : i32
      %pi = arith.xori %bi, %one : i32
      %pf = arith.sitofp %pi : i32 to f32
      %pbase = arith.mulf %pf, %thousand : f32
      %n1 = scf.for %r = %c0 to %c3 step %c1 iter_args(%n2 = %n0) -> i32 {
        %is1 = arith.cmpi eq, %r, %c1 : index
        %extra = arith.select %is1, %half, %zero : f32
        %n3 = scf.for %k = %c0 to %c64 step %c1 iter_args(%n4 = %n2) -> i32 {
          %ki = arith.index_cast %k : index to i32
          %kf = arith.sitofp %ki : i32 to f32
          %w0 = arith.addf %pbase, %kf : f32
          %want = arith.addf %w0, %extra : f32
          %b3 = arith.muli %b, %c3 : index
          %row = arith.addi %b3, %r : index
          %got = memref.load %o[%row, %k] : memref<12x64xf32>
          %ne = arith.cmpf une, %got, %want : f32
          %inc = arith.extui %ne : i1 to i32
          %n5 = arith.addi %n4, %inc : i32
          scf.yield %n5 : i32
        }
        scf.yield %n3 : i32
      }
      scf.yield %n1 : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32
    // Block 0 reads block 1: 1000 + 5; block 3, row 1, reads block 2: 2007.5;
    // block 2, row 2, gets block 3's 3063.
    // CHECK-NEXT: 1005
    // CHECK-NEXT: 2007.5
    // CHECK-NEXT: 3063
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c10 = arith.constant 10 : index
    %c63 = arith.constant 63 : index
    %v0 = memref.load %o[%c0, %c5] : memref<12x64xf32>
    vector.print %v0 : f32
    %v1 = memref.load %o[%c10, %c7] : memref<12x64xf32>
    vector.print %v1 : f32
    %v2 = memref.load %o[%c8, %c63] : memref<12x64xf32>
    vector.print %v2 : f32
    return
  }
}
