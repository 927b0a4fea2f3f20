// examples/cluster_ws_pipeline.mlir (the cluster matmul as a warp-specialized
// emit_pipeline with b multicast) on every backend, against a scalar
// reference; small integer inputs, so every sum is exact.
// RUN: cat %mgpu_src_root/examples/cluster_ws_pipeline.mlir %s > %t.mlir
// RUN: %run_on_backends %t.mlir --match-full-lines
// RUN: %run_on_backends %t.mlir --match-full-lines -- --tensor-cores=0
// Seeded schedules, the lanes reading a and b: each CTA's own multicast
// copy lands the whole block of b in the emulator and completes the CTA's
// barrier, so a consumer may read a fill before the peer has issued its
// share into it (on the GPU the barrier waits for the share's bytes).
// The share is checked against the readers of the previous fill; checked
// against the fill's own readers, seeds 1, 4, 5 and 6 reported a race that
// the hardware cannot have.
// RUN: mgpu-run %t.mlir -e main --backend=emulate --tensor-cores=0 --emulate-seed 1 --emulate-schedules 6 | FileCheck %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %mgpu_src_root/examples/cluster_ws_pipeline.mlir -o %t.bin.mlir
// RUN: %extract_ptx %t.bin.mlir -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// The memory thread (40 registers) multicasts its share of b's block (4
// tile rows of 2 tiles) after waiting on the slot's cluster barrier; a
// compute thread (232 registers) reads its slots in place (no staging
// copy) with one m64n128k16 wgmma group per step, waits for it, then
// releases the slot on the cluster barrier of both CTAs (mapa + remote
// arrive); the cluster meets at the start and the end.
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX: barrier.cluster.arrive
// PTX: setmaxnreg.dec.sync.aligned.u32 40
// PTX: mbarrier.try_wait.parity.acquire.cluster.shared.b64
// PTX-COUNT-8: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// PTX: setmaxnreg.inc.sync.aligned.u32 232
// PTX: wgmma.fence.sync.aligned
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTX-NOT: {{ld.shared|st.shared}}
// PTX: wgmma.commit_group.sync.aligned
// PTX-NEXT: wgmma.wait_group.sync.aligned 0
// PTX: mapa.shared::cluster
// PTX: mbarrier.arrive.release.cluster.shared::cluster.b64
// PTX: barrier.cluster.arrive
// PTX-NEXT: barrier.cluster.wait

// (x * mul + y) mod 7 - 3.
func.func @small(%x: index, %y: index, %mul: index) -> f32 {
  %c7 = arith.constant 7 : index
  %c3 = arith.constant 3 : index
  %t = arith.muli %x, %mul : index
  %s = arith.addi %t, %y : index
  %m = arith.remui %s, %c7 : index
  %d = arith.subi %m, %c3 : index
  %i = arith.index_cast %d : index to i32
  %f = arith.sitofp %i : i32 to f32
  return %f : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = arith.constant 256 : index
  %f0 = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<256x256xbf16>
  %b = memref.alloc() : memref<256x256xbf16>
  %c = memref.alloc() : memref<256x256xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %x = func.call @small(%i, %j, %c2) : (index, index, index) -> f32
      %y = func.call @small(%i, %j, %c3) : (index, index, index) -> f32
      %xb = arith.truncf %x : f32 to bf16
      %yb = arith.truncf %y : f32 to bf16
      memref.store %xb, %a[%i, %j] : memref<256x256xbf16>
      memref.store %yb, %b[%i, %j] : memref<256x256xbf16>
    }
  }
  func.call @cluster_ws_pipeline(%a, %b, %c) : (memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xf32>) -> ()
  %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> index {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%m = %count) -> index {
      %sum = scf.for %k = %c0 to %n step %c1 iter_args(%s = %f0) -> f32 {
        %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
        %y = func.call @small(%k, %j, %c3) : (index, index, index) -> f32
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      %got = memref.load %c[%i, %j] : memref<256x256xf32>
      %ne = arith.cmpf une, %got, %sum : f32
      %inc = arith.select %ne, %c1, %c0 : index
      %m2 = arith.addi %m, %inc : index
      scf.yield %m2 : index
    }
    scf.yield %row : index
  }
  vector.print str "mismatches: "
  vector.print %bad : index
  %c200 = arith.constant 200 : index
  %v = vector.load %c[%c200, %c0] : memref<256x256xf32>, vector<4xf32>
  vector.print %v : vector<4xf32>
  memref.dealloc %a : memref<256x256xbf16>
  memref.dealloc %b : memref<256x256xbf16>
  memref.dealloc %c : memref<256x256xf32>
  return
}
// CHECK: mismatches: 0
// CHECK-NEXT: ( 5, 3, -503, 251 )
