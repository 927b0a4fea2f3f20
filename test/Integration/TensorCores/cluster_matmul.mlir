// examples/cluster_matmul.mlir (2-CTA clusters, b multicast to both CTAs,
// slots released by a cluster barrier) on every backend, against a scalar
// reference; small integer inputs, so every sum is exact.
// RUN: cat %mgpu_src_root/examples/cluster_matmul.mlir %s > %t.mlir
// RUN: %run_on_backends %t.mlir --match-full-lines
// RUN: %run_on_backends %t.mlir --match-full-lines -- --tensor-cores=0
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %mgpu_src_root/examples/cluster_matmul.mlir -o %t.bin.mlir
// RUN: %extract_ptx %t.bin.mlir -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// The multicast of b (4 tile rows of 2 tiles per CTA), the two wgmma
// groups of a step issued back to back from the slots (no staging copy)
// and waited for once, the remote arrivals on the slots' cluster barriers
// and the cluster's barrier.
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=STEP < %t.ptx
// PTX-COUNT-8: multicast::cluster
// STEP: wgmma.fence.sync.aligned
// STEP-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// STEP-NOT: {{wgmma.wait_group|ld.shared|st.shared}}
// STEP: wgmma.commit_group.sync.aligned
// STEP-NOT: {{wgmma.wait_group|ld.shared|st.shared}}
// STEP: wgmma.fence.sync.aligned
// STEP-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// STEP-NOT: wgmma.wait_group
// STEP: wgmma.commit_group.sync.aligned
// STEP-NEXT: wgmma.wait_group.sync.aligned 0
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTX-DAG: mapa.shared::cluster
// PTX-DAG: mbarrier.arrive.release.cluster.shared::cluster.b64
// PTX-DAG: barrier.cluster.arrive
// PTX-DAG: barrier.cluster.wait
// Planted bug: slot 0 refilled without waiting on its cluster barrier.
// Each CTA's own share comes after its own wgmma_wait, so only the peer's
// multicast into this CTA's slot overwrites b while this CTA's wgmma may
// still read it: the emulator orders the threads of both CTAs of a
// cluster (the peer's arrival, the multicast's share issued into this
// CTA's buffer) and reports the refill.
// RUN: sed 's/^ *mgpu.barrier_wait %empty\[%c0\] : !empty$/        \/\/ removed/' %t.mlir > %t.no-wait.mlir
// RUN: not mgpu-run %t.no-wait.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=NO-WAIT
// RUN: not mgpu-run %t.no-wait.mlir -e main --backend=emulate --emulate-schedules 2 2>&1 | grep -c "schedule with seed [12] failed" | FileCheck %s --check-prefix=TWO
// TWO: 2
// NO-WAIT: no-wait.mlir:{{[0-9]+}}:9: error: copy_gmem_to_smem overwrites shared memory that a wgmma of warpgroup 0 of the cluster's CTA {{[01]}} (at {{.*}}no-wait.mlir:{{[0-9]+}}:13) may still read: no mgpu.wgmma_wait that completes it happens before this write
// The release barrier made a CTA's own (each CTA waits for its own
// arrival only, then multicasts into the peer's slot while the peer may
// still read it): reported at the refill, on the deterministic schedule
// and two seeded ones, with the tensor cores and with the lanes reading.
// RUN: sed 's/^!empty = .*/!empty = !mgpu.barrier<count = 2, arrivals = 1>/' %t.mlir > %t.local.mlir
// RUN: not mgpu-run %t.local.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=LOCAL
// RUN: not mgpu-run %t.local.mlir -e main --backend=emulate --emulate-schedules 2 2>&1 | grep -c "schedule with seed [12] failed" | FileCheck %s --check-prefix=TWO
// RUN: not mgpu-run %t.local.mlir -e main --backend=emulate --tensor-cores=0 2>&1 | FileCheck %s --check-prefix=LOCAL-LANES
// LOCAL: local.mlir:{{[0-9]+}}:9: error: copy_gmem_to_smem overwrites shared memory that a wgmma of warpgroup 0 of the cluster's CTA {{[01]}} (at {{.*}}local.mlir:{{[0-9]+}}:13) may still read
// LOCAL-LANES: local.mlir:{{[0-9]+}}:9: error: data race: copy_gmem_to_smem overwrites shared memory that thread {{[0-9]+}} of the cluster's CTA {{[01]}} reads at {{.*}}local.mlir:{{[0-9]+}}:13 with no barrier in between

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
  func.call @cluster_matmul(%a, %b, %c) : (memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xf32>) -> ()
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
